"""Seats that survive reloads and server restarts; solo, practice and computer opponents."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from browser.browserkit import (
    a_set,
    create_room,
    deck,
    ensure_set,
    finish_solo_game,
    join,
    phase,
    pick,
    seat,
    start,
    table,
    take,
    wait_gone,
    wait_score,
    wait_table,
)
from setgame import find_sets, parse_cards

pytestmark = pytest.mark.browser


def test_reload_keeps_the_seat(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, public=False)
    ann, bob = pages = [new_page(), new_page()]
    seat(pages, url, ["Ann", "Bob"])
    start(ann)
    found = ensure_set(pages)
    ann.reload()
    wait_table(ann, table(bob))
    expect(ann.locator("[data-action=join]")).to_be_hidden()
    expect(ann.locator('[data-player="Ann"].me')).to_have_count(1)
    expect(ann.locator("[data-player]")).to_have_count(2)  # the same seat, not a new one
    take(ann, "Ann", found)
    wait_score(bob, "Ann", 1)


def test_a_watcher_sees_the_game_without_a_seat(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, public=True)
    ann, eve = new_page(), new_page()
    join(ann, url, "Ann")
    start(ann)
    eve.goto(url)
    wait_table(eve, table(ann))
    expect(eve.locator("[data-action=join]")).to_be_visible()
    expect(eve.locator("[data-action=call-set]")).to_be_hidden()
    expect(eve.locator("[data-player]")).to_have_count(1)


def test_server_restart_in_the_middle_of_a_game(fresh_server: Any, new_page: Any) -> None:
    url = create_room(fresh_server, public=False)
    ann, bob = pages = [new_page(), new_page()]
    seat(pages, url, ["Ann", "Bob"])
    start(bob)
    found = ensure_set(pages)
    take(ann, "Ann", found)
    wait_score(bob, "Ann", 1)
    before = table(ann)
    left = deck(ann)
    welcomes = [int(page.get_attribute("main", "data-welcomes") or 0) for page in pages]
    fresh_server.restart()  # kill -9, then start on the same port and database
    for page, seen in zip(pages, welcomes, strict=True):
        page.wait_for_function(  # a new connection, welcomed by the new server process
            "n => Number(document.querySelector('main').dataset.welcomes) > n", arg=seen
        )
        expect(page.locator("#conn")).to_have_text("")
        wait_table(page, before)
        wait_score(page, "Ann", 1)
        assert deck(page) == left
    found = ensure_set(pages)
    take(bob, "Bob", found)
    for page in pages:
        wait_score(page, "Bob", 1)
        wait_gone(page, found[0])


def test_r15_solo_picks_without_calling_against_the_clock(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, mode="solo", public=False)
    page = new_page()
    join(page, url, "Sol")
    start(page)
    expect(page.locator("[data-action=call-set]")).to_be_hidden()
    expect(page.locator("#clock")).to_contain_text(":")
    expect(page.locator("[data-action=no-set]")).to_contain_text("(−1)")
    found = a_set(table(page))
    penalties = 0 if found else 1
    if found is None:
        page.click("[data-action=no-set]")  # three more cards, at the cost of a point
        expect(page.locator("[data-card]")).to_have_count(15)
        found = a_set(table(page))
    assert found is not None
    pick(page, found)
    wait_score(page, "Sol", 1 - penalties)
    wait_gone(page, found[0])


def test_solo_has_no_share_link_nor_chat_and_ends_with_you_won_and_the_time(
    live_server: str, new_page: Any
) -> None:
    """Issue 21: a game of one shows none of a multiplayer room's furniture, and its end
    says won (or not) and the time, not "Winner: Sol"."""
    page = new_page()
    join(page, create_room(live_server, mode="solo", deck="color=R", public=False), "Sol")
    expect(page.locator(".share")).to_be_hidden()
    expect(page.locator("#chat")).to_be_hidden()
    start(page)
    finish_solo_game(page)
    verdict = page.locator("#standings [data-solo-verdict]")
    expect(verdict).to_have_text(re.compile(r"^(You won in|Game over in) \d+:\d\d\.\d[!.]$"))
    expect(page.locator("#standings .badge.winner")).to_have_count(0)
    expect(page.locator("#log")).not_to_contain_text("Winner")
    expect(page.locator("#log")).to_contain_text(verdict.text_content() or "?")
    multi = new_page()  # a multiplayer room keeps both
    join(multi, create_room(live_server, public=False), "Ann")
    expect(multi.locator(".share")).to_be_visible()
    expect(multi.locator("#chat")).to_be_visible()


def test_practice_hints_reveal_a_set_card_by_card(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, mode="practice", deck="beginner", public=False)
    page = new_page()
    join(page, url, "Pat")
    start(page)
    while a_set(table(page)) is None:
        count = len(table(page))
        page.click("[data-action=no-set]")
        expect(page.locator("[data-card]")).to_have_count(count + 3)
    sets = [set(s) for s in find_sets(parse_cards(table(page)))]
    page.keyboard.press("h")
    expect(page.locator("[data-card].hinted")).to_have_count(1)
    page.click("[data-action=hint]")
    expect(page.locator("[data-card].hinted")).to_have_count(2)
    shown = page.eval_on_selector_all("[data-card].hinted", "els => els.map(e => e.dataset.card)")
    assert any(set(parse_cards(shown)) <= s for s in sets)


def test_computer_opponents_are_players(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, bots=2, bot_level=5, deck="beginner", public=False)
    page = new_page()
    join(page, url, "Hu")
    expect(page.locator("[data-player]")).to_have_count(3)
    expect(page.locator("[data-player] .badge.bot")).to_have_count(2)
    start(page)
    # the computer plays by the same rules: sooner or later it takes a set
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-player]')]"
        ".some(e => e.querySelector('.badge.bot') && Number(e.dataset.score) > 0)",
        timeout=30_000,
    )
    phase(page, "playing")


def test_a_double_click_on_take_a_seat_seats_once_and_says_nothing_wrong(
    live_server: str, new_page: Any
) -> None:
    """A double click on "Take a seat" sent two joins; the second was refused ("you already
    sit as ...") in the banner, as if something had gone wrong."""
    url = create_room(live_server, public=False)
    page = new_page()
    page.goto(url)
    expect(page.locator("#conn")).to_have_class(re.compile(r"\bopen\b"))
    page.fill("input[name=player-name]", "Ann")
    page.evaluate(
        """() => { window.errorsShown = [];
        const banner = document.querySelector("#banner");
        new MutationObserver(() => { if (banner.dataset.kind === "error")
          window.errorsShown.push(banner.textContent); })
          .observe(banner, { attributes: true, childList: true, subtree: true });
        }"""
    )
    page.dblclick("[data-action=join]")
    expect(page.locator('[data-player="Ann"]')).to_have_count(1)
    page.wait_for_timeout(500)
    assert page.evaluate("window.errorsShown") == []


def test_a_name_like_a_seated_players_is_refused_in_the_pages_language(
    live_server: str, new_page: Any
) -> None:
    """A second "Ann" in a room is asked for another name (``name_taken``) in the page's own
    words, and may then sit under another."""
    url = create_room(live_server, public=False)
    join(new_page(), url, "Ann")
    page = new_page()
    page.goto(url + "?lang=de")
    expect(page.locator("#conn")).to_have_class(re.compile(r"\bopen\b"))
    page.fill("input[name=player-name]", "ann")
    page.click("[data-action=join]")
    expect(page.locator("#banner")).to_contain_text("heißt so oder ähnlich")
    expect(page.locator("[data-action=join]")).to_be_visible()
    page.fill("input[name=player-name]", "Anja")
    page.click("[data-action=join]")
    expect(page.locator('[data-player="Anja"]')).to_have_count(1)
