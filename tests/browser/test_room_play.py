"""Two and three players in separate browser contexts play in one room (R06-R11)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from browser.browserkit import (
    a_set,
    at_rest,
    call,
    create_room,
    deck,
    ensure_set,
    not_a_set,
    phase,
    pick,
    play_round,
    seat,
    start,
    table,
    take,
    wait_gone,
    wait_score,
    wait_table,
)
from setgame import explain, parse_cards
from setgame.words.i18n import flaw_text

pytestmark = pytest.mark.browser


def players(new_page: Any, n: int) -> list[Any]:
    return [new_page() for _ in range(n)]


def test_r06_r09_same_table_everywhere_and_a_set_shows_on_every_page(
    live_server: str, new_page: Any
) -> None:
    url = create_room(live_server, public=False)
    ann, bob, cy = pages = players(new_page, 3)
    seat(pages, url, ["Ann", "Bob", "Cy"])
    start(bob)
    codes = table(ann)
    assert len(codes) == 12  # R06
    assert len(set(codes)) == 12
    for page in pages:
        wait_table(page, codes)
        assert deck(page) == 81 - 12
    found = a_set(codes)
    if found is None:  # R11: no set among these 12; the vote deals three more
        for page in pages:
            page.click("[data-action=no-set]")
        for page in pages:
            expect(page.locator("[data-card]")).to_have_count(15)
        codes = table(ann)
        found = a_set(codes)
    assert found is not None
    size = len(codes)
    take(bob, "Bob", found)
    for page in pages:
        wait_score(page, "Bob", 1)
        wait_gone(page, found[0])
    after = table(ann)
    for page in (bob, cy):
        wait_table(page, after)
    if size == 12:  # R09: replaced in place, the other cards stay where they were
        assert len(after) == 12
        kept = [i for i, c in enumerate(codes) if c not in found]
        assert [after[i] for i in kept] == [codes[i] for i in kept]
        assert not set(found) & set(after)
        assert deck(cy) == 81 - 15
    else:
        assert len(after) == 12


def test_keyboard_calls_and_picks_by_position(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, public=False)
    ann, bob = pages = players(new_page, 2)
    seat(pages, url, ["Ann", "Bob"])
    start(ann)
    found = ensure_set(pages)
    keys = [ann.text_content(f'[data-card="{c}"] .key') for c in found]
    assert all(k and len(k) == 1 for k in keys), keys
    ann.keyboard.press("Space")
    expect(bob.locator("main")).to_have_attribute("data-holder", "Ann")
    expect(bob.locator("#banner")).to_contain_text("Ann")
    for key in keys:
        ann.keyboard.press(str(key))
    wait_score(bob, "Ann", 1)


def test_r10_wrong_call_shows_why_and_costs_a_point(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, public=False, penalty="point")
    ann, bob = pages = players(new_page, 2)
    seat(pages, url, ["Ann", "Bob"])
    start(ann)
    found = ensure_set(pages)
    take(ann, "Ann", found)
    wait_score(bob, "Ann", 1)
    wrong = not_a_set(table(ann))
    call(ann, "Ann")
    # the board is held: Bob cannot call, and sees who holds it with a countdown
    expect(bob.locator("[data-action=call-set]")).to_be_disabled()
    expect(bob.locator("#banner")).to_contain_text("Ann")
    expect(bob.locator("#banner")).to_contain_text(" s")
    pick(ann, wrong)
    for page in pages:
        wait_score(page, "Ann", 0)
    why = flaw_text(explain(*parse_cards(wrong))[0], "en")
    expect(ann.locator("#log")).to_contain_text(why)
    expect(bob.locator("#log")).to_contain_text(re.compile("Ann loses a point"))
    assert sorted(table(bob)) == sorted(table(ann))
    assert set(wrong) <= set(table(ann))  # the cards stay on the table


def test_r10_lockout_until_another_player_finds_a_set(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, public=False, penalty="lockout")
    ann, bob, cy = pages = players(new_page, 3)
    seat(pages, url, ["Ann", "Bob", "Cy"])
    start(cy)
    found = ensure_set(pages)
    codes = table(ann)
    call(ann, "Ann")
    pick(ann, not_a_set(codes))
    for page in pages:
        expect(page.locator('[data-player="Ann"] .badge.locked')).to_be_visible()
    expect(ann.locator("[data-action=call-set]")).to_be_disabled()
    expect(ann.locator("[data-action=no-set]")).to_be_disabled()
    ann.click(f'[data-card="{found[0]}"]')  # a locked-out click is no call
    expect(bob.locator("main")).to_have_attribute("data-holder", "")
    assert bob.get_attribute("main", "data-holder") == ""
    wait_score(bob, "Ann", 0)
    take(bob, "Bob", found)
    for page in pages:
        wait_score(page, "Bob", 1)
        expect(page.locator('[data-player="Ann"] .badge.locked')).to_have_count(0)
    expect(ann.locator("[data-action=call-set]")).to_be_enabled()


def test_r11_no_set_vote_deals_three_more(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, public=False, no_set="vote")
    ann, bob = pages = players(new_page, 2)
    seat(pages, url, ["Ann", "Bob"])
    start(ann)
    before = table(bob)
    ann.keyboard.press("n")
    for page in pages:
        expect(page.locator('[data-player="Ann"] .badge.declared')).to_be_visible()
        expect(page.locator("#votes")).to_contain_text("Ann")
    expect(ann.locator("[data-action=no-set]")).to_be_disabled()
    expect(bob.locator("[data-card]")).to_have_count(12)
    bob.click("[data-action=no-set]")
    for page in pages:
        expect(page.locator("[data-card]")).to_have_count(15)
        expect(page.locator("[data-deck]")).to_have_attribute("data-deck", str(81 - 15))
        expect(page.locator(".badge.declared")).to_have_count(0)
    after = table(ann)
    assert after[:12] == before  # the new cards come as a new column
    wait_table(bob, after)
    at_rest(ann)
    box = ann.locator("#table").bounding_box()
    first, last = (ann.locator("[data-card]").nth(i).bounding_box() for i in (0, 14))
    assert box and first and last and last["x"] > first["x"]  # 3 rows, more columns
    assert abs(last["y"] - ann.locator("[data-card]").nth(2).bounding_box()["y"]) < 2
    for size in (18, 21):  # R11: up to 21 cards, still 3 rows
        for page in pages:
            page.click("[data-action=no-set]")
        for page in pages:
            expect(page.locator("[data-card]")).to_have_count(size)
    at_rest(ann)
    rows = {round(ann.locator("[data-card]").nth(i).bounding_box()["y"]) for i in range(21)}
    assert len(rows) == 3
    expect(ann.locator("[data-card] .key").nth(20)).to_have_text("k")
    expect(ann.locator("[data-action=no-set]")).to_be_disabled()  # 21 cards hold a set


def test_r12_r14_full_match_to_the_end_and_again(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, public=False, deck="beginner", rounds="match")
    ann, bob = pages = players(new_page, 2)
    seat(pages, url, ["Ann", "Bob"])
    start(ann)
    taken = {"Ann": 0, "Bob": 0}
    for round_no in (1, 2):
        expect(ann.locator("#round")).to_contain_text(f"{round_no}")
        play_round(pages, ["Ann", "Bob"], taken)
        if round_no == 1:
            phase(bob, "round_over")
            expect(bob.locator("#results")).to_be_visible()
            start(bob)  # the next dealer (R14)
    for page in pages:
        phase(page, "match_over")
        expect(page.locator("#results")).to_be_visible()
        expect(page.locator("[data-action=again]")).to_be_visible()
    totals = {n: int(ann.get_attribute(f'[data-player="{n}"]', "data-total") or 0) for n in taken}
    assert totals == taken
    winner = max(taken, key=lambda n: taken[n])
    expect(ann.locator("#standings .winner").first).to_contain_text(winner)
    expect(ann.locator("#replay-link")).to_be_visible()
    bob.click("[data-action=again]")
    for page in pages:
        phase(page, "playing")
        expect(page.locator("[data-card]")).to_have_count(12)
        wait_score(page, "Ann", 0)


def test_fair_call_wait_and_missed_set_in_the_page_language(
    live_server: str, new_page: Any
) -> None:
    """A refused call during the fair-call cooldown gives the seconds left (Russian
    decimals), and cards dealt after a "no set" vote name the set that was missed."""
    from setgame.rules.game import Settings

    if "lockout_lift" not in Settings.__dataclass_fields__:
        pytest.skip("the engine's fair call and missed set are not merged yet")
    url = create_room(live_server, public=False, penalty="point", no_set="vote")
    ann, _bob = pages = players(new_page, 2)
    for page in pages:
        page.context.add_cookies([{"name": "lang", "value": "ru", "url": live_server}])
    seat(pages, url, ["Ann", "Bob"])
    start(ann)
    found = ensure_set(pages)
    for page in pages:
        page.click("[data-action=no-set]")
    for page in pages:  # a set was on the table: the log names it once the cards come
        expect(page.locator("#log")).to_contain_text("На столе был сет")
    assert found  # the set that was missed is on the table still, with three cards more
    call(ann, "Ann")
    pick(ann, not_a_set(table(ann)))
    expect(ann.locator("main")).to_have_attribute("data-holder", "")
    expect(ann.locator("#log")).to_contain_text(
        re.compile(r"Снова объявить сет можно через \d+,\d с\.")
    )
    ann.click("[data-action=call-set]")
    expect(ann.locator("#banner")).to_contain_text(re.compile(r"Снова можно через \d+,\d с"))
