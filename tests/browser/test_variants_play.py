"""Variants in the web room (issue 10), played by really clicking in Chromium: two players
in two browser contexts play Set-Chain, UltraSet and Memory; one plays Memory, MegaSet and
Puzzle alone; the home form offers every variant of the registry; a chain game replays.

The right cards are computed from what the page shows (``#table [data-card]``, the previous
set ``#previous [data-card]``, face-down cards ``[data-down]``) with ``setgame.rules.variants``.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.browserkit import (
    create_room,
    join,
    more_options,
    phase,
    score,
    seat,
    start,
    take,
    wait_score,
)
from setgame.rules.variants import VARIANTS, Variant, find_variant
from setgame.server.app import words_of
from setgame.words.i18n import flaw_text

pytestmark = pytest.mark.browser


def codes(page: Page, selector: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.card)")
    return found


def live(page: Page) -> list[str]:
    """The face-up cards of the table, in table order."""
    return codes(page, "#table [data-card]")


def previous(page: Page) -> list[str]:
    """The previous set of a chain variant, shown apart from the table."""
    return codes(page, "#previous [data-card]")


def claims(variant: Variant, table: list[str], before: list[str]) -> list[list[str]]:
    """Every claim the variant accepts now, as codes (chain: linked to ``before``)."""
    deck = variant.deck
    cards = [deck.parse(c) for c in table + before]
    linked = [deck.parse(c) for c in before] or None
    return [deck.names(group) for group in variant.find(cards, linked)]


def tops(page: Page) -> list[float]:
    """Where the table stands in the page, and the height of the previous set's box: the
    box keeps its height from the deal on, so the buttons under it move only when the
    table itself changes shape (three more cards)."""
    found: list[float] = page.eval_on_selector_all(
        "#table, #previous",
        "([t, p]) => [t.getBoundingClientRect().top + window.scrollY,"
        " p.getBoundingClientRect().height]",
    )
    return found


def players(new_page: Any, url: str) -> tuple[Page, Page]:
    ann, bob = new_page(), new_page()
    seat([ann, bob], url, ["Ann", "Bob"])
    return ann, bob


def test_set_chain_between_two_players_linked_claim_taken_unlinked_refused(
    live_server: str, new_page: Any
) -> None:
    chain = find_variant("set-chain")
    url = create_room(live_server, public=False, variant="set-chain", no_set="auto")
    ann, bob = players(new_page, url)
    start(ann)
    expect(ann.locator("#previous")).to_be_visible()  # its place is kept from the deal on
    assert previous(ann) == []
    still = tops(bob)
    first = claims(chain, live(ann), [])[0]  # auto deal: a claim always lies on the table
    take(ann, "Ann", first)
    for page in (ann, bob):
        wait_score(page, "Ann", 1)
        expect(page.locator("#previous [data-card][data-previous]")).to_have_count(3)
    assert tops(bob) == still
    assert sorted(previous(bob)) == sorted(first)
    assert not set(first) & set(live(bob))  # the claim left the table
    expect(bob.locator("#previous .rule")).to_contain_text("Use exactly 1 card of the previous set")
    # A claim with exactly one card of the previous set, by keys: Space calls, each card's
    # key picks it (the previous set's cards have the fourth key row's).
    linked = claims(chain, live(bob), previous(bob))[0]
    assert len(set(linked) & set(first)) == 1
    keys = [bob.text_content(f'[data-card="{c}"] .key') for c in linked]
    assert all(k and len(k) == 1 for k in keys), keys
    bob.keyboard.press("Space")
    expect(ann.locator("main")).to_have_attribute("data-holder", "Bob")
    for key in keys:
        bob.keyboard.press(str(key))
    for page in (ann, bob):
        wait_score(page, "Bob", 1)
    expect(ann.locator("#previous [data-card]")).to_have_count(3)
    assert sorted(previous(ann)) == sorted(linked)
    # A set of the table alone is not linked: refused, worded, and it costs Ann her point.
    table, before = live(ann), previous(ann)
    loose = [g for g in claims(find_variant("classic"), table, []) if not set(g) & set(before)]
    pick = loose[0] if loose else table[:3]
    take(ann, "Ann", pick)
    for page in (ann, bob):
        wait_score(page, "Ann", 0)
    link = flaw_text({"type": "link", "used": 0, "needed": 1}, "en")
    expect(bob.locator("#log")).to_contain_text(link)
    # A set of the table that is only unlinked gets the chain's verdict; else (no set lay
    # on the table apart from the linked ones) the set's flaws come first.
    verdict = "Not linked to the previous set" if loose else "Not a set"
    expect(bob.locator("#banner")).to_contain_text(verdict)
    assert tops(bob) == still
    assert sorted(live(ann)) == sorted(table) and sorted(previous(ann)) == sorted(before)


def test_ultraset_between_two_players_a_four_card_claim_is_taken(
    live_server: str, new_page: Any
) -> None:
    ultra = find_variant("ultraset")
    url = create_room(live_server, public=False, variant="ultraset", no_set="auto")
    ann, bob = players(new_page, url)
    start(bob)
    expect(ann.locator("#table [data-card]")).to_have_count(12)  # Ann's page has the deal too
    table = live(ann)
    expect(ann.locator("main")).to_have_attribute("data-variant", "ultraset")
    expect(ann.locator("#settings")).to_contain_text("UltraSet")
    group = claims(ultra, table, [])[0]
    assert len(group) == 4
    # Three cards selected are no pick yet: the board stays Bob's until the fourth.
    bob.click("[data-action=call-set]")
    expect(ann.locator("main")).to_have_attribute("data-holder", "Bob")
    for code in group[:3]:
        bob.click(f'[data-card="{code}"]')
    expect(bob.locator("#table .card.selected")).to_have_count(3)
    bob.click(f'[data-card="{group[3]}"]')
    for page in (ann, bob):
        wait_score(page, "Bob", 1)
    expect(ann.locator("#table [data-card]")).to_have_count(12)
    assert not set(group) & set(live(ann))
    # the last set found, small beside the table: the four cards, Bob's
    last = ann.locator("#last-set .mini [data-code]")
    expect(last).to_have_count(4)
    assert sorted(last.evaluate_all("els => els.map(e => e.dataset.code)")) == sorted(group)
    expect(ann.locator("#last-set")).to_have_attribute("data-by", "Bob")
    # Four cards that are no UltraSet: the pairings are worded on both pages.
    after = live(ann)
    deck = ultra.deck
    wrong = next(
        list(four)
        for four in itertools.combinations(after, 4)
        if not ultra.is_claim([deck.parse(c) for c in four])
    )
    take(ann, "Ann", wrong)
    why = flaw_text(ultra.explain([deck.parse(c) for c in wrong])[0], "en", deck)
    for page in (ann, bob):
        expect(page.locator("#log")).to_contain_text(why)


def turned(page: Page, position: int) -> str:
    """The code of the card at ``position`` once it shows face up."""
    card = page.locator(f'#table [data-pos="{position}"][data-card]')
    expect(card).to_have_count(1)
    return card.get_attribute("data-card") or ""


def test_memory_alone_turning_cards_a_miss_turns_back_a_set_is_taken(
    live_server: str, new_page: Any
) -> None:
    memory = find_variant("memory")
    page = new_page()
    join(page, create_room(live_server, mode="solo", public=False, variant="memory"), "Sol")
    start(page)
    expect(page.locator("#table [data-down]")).to_have_count(12)
    expect(page.locator("#table [data-card]")).to_have_count(0)
    expect(page.locator("[data-action=no-set]")).to_be_hidden()  # Memory deals by itself
    seen: dict[int, str] = {}
    missed = False
    for _ in range(12):  # a few misses to learn the table, then the set it holds
        size = page.locator("#table .card").count()
        group = next(iter(claims(memory, list(seen.values()), [])), None)
        if group:
            for code in group:
                page.click(f'#table [data-pos="{next(p for p, c in seen.items() if c == code)}"]')
            wait_score(page, "Sol", 1)
            break
        unknown = [p for p in range(size) if p not in seen][:3]
        assert len(unknown) == 3, seen
        for p in unknown[:2]:
            page.click(f'#table [data-pos="{p}"]')
            seen[p] = turned(page, p)
        page.click(f'#table [data-pos="{unknown[2]}"]')
        page.wait_for_function(
            "p => document.querySelector(`#table [data-pos='${p}'][data-card]`)"
            " || document.querySelector('[data-player=Sol]').dataset.score !== '0'",
            arg=unknown[2],
        )
        if page.get_attribute("[data-player=Sol]", "data-score") != "0":
            break  # three unknown cards made a set by chance
        seen[unknown[2]] = turned(page, unknown[2])
        # The miss shows a moment, then the three turn face down again.
        for p in unknown:
            expect(page.locator(f'#table [data-pos="{p}"][data-down]')).to_have_count(1)
        missed = True
    wait_score(page, "Sol", 1)
    expect(page.locator("#log")).to_contain_text("Sol turns up")
    assert missed or len(seen) <= 2  # no miss only when the first three made a set


def test_home_form_offers_every_variant_with_its_description(
    live_server: str, new_page: Any
) -> None:
    page = new_page()
    page.goto(f"{live_server}/")
    more_options(page)
    # home.js fills the list once the page's words are loaded
    expect(page.locator("select[name=variant] option")).to_have_count(len(VARIANTS))
    options = page.eval_on_selector_all(
        "select[name=variant] option", "els => els.map(e => [e.value, e.textContent])"
    )
    assert options == [[v.name, v.title] for v in VARIANTS.values()]
    table = page.locator("select[name=table]")
    expect(table).to_be_hidden()
    page.select_option("select[name=variant]", "junior")
    expect(table).to_be_visible()  # Junior offers 12 cards or 9
    values = page.eval_on_selector_all("select[name=table] option", "els => els.map(e => e.value)")
    junior = find_variant("junior")
    assert values == [str(n) for n in (junior.table_size, *junior.table_sizes)]
    expect(page.locator("select[name=deck]")).to_be_hidden()  # Junior has its own deck
    assert page.text_content("#variant-desc")
    page.select_option("select[name=table]", "9")
    page.click("[data-action=create]")
    page.wait_for_url("**/room/*")
    expect(page.locator("#settings")).to_contain_text("Junior")
    page.fill("input[name=player-name]", "Jo")
    page.click("[data-action=join]")
    start(page)
    expect(page.locator("#table [data-card]")).to_have_count(9)


def test_a_variant_game_replays_with_its_previous_sets(live_server: str, new_page: Any) -> None:
    chain = find_variant("set-chain")
    page = new_page()
    url = create_room(live_server, mode="solo", public=False, variant="set-chain", deck="color=R")
    join(page, url, "Sol")
    start(page)
    while page.get_attribute("main", "data-phase") == "playing":
        version = page.get_attribute("main", "data-version")
        found = claims(chain, live(page), previous(page))
        if found:
            for code in found[0]:
                page.click(f'[data-card="{code}"]')
        else:
            page.click("[data-action=no-set]")
        page.wait_for_function(
            "v => document.querySelector('main').dataset.version !== v", arg=version
        )
    phase(page, "match_over")
    page.click("#replay-link")
    page.wait_for_url("**/replay/*")
    expect(page.locator("#rtable [data-code]").first).to_be_visible()
    page.keyboard.press("End")
    shown = page.locator("#rprevious [data-code]")
    for _ in range(200):  # back from the end to a step with a previous set
        if shown.count() == 3:
            break
        page.keyboard.press("ArrowLeft")
    expect(shown).to_have_count(3)
    expect(page.locator("#rprevious")).to_be_visible()
    expect(page.locator("[data-card]")).to_have_count(0)  # no live cards on a replay


def test_memory_between_two_players_a_click_calls_then_turns(
    live_server: str, new_page: Any
) -> None:
    url = create_room(live_server, public=False, variant="memory")
    ann, bob = players(new_page, url)
    start(ann)
    expect(ann.locator("[data-action=call-set]")).to_be_visible()
    ann.click('#table [data-pos="0"]')  # nobody holds the board: the click calls, then turns
    expect(bob.locator("main")).to_have_attribute("data-holder", "Ann")
    expect(bob.locator('#table [data-pos="0"][data-card]')).to_have_count(1)
    bob.click('#table [data-pos="1"]')  # the board is Ann's: Bob turns nothing
    ann.keyboard.press(ann.text_content('#table [data-pos="1"] .key') or "?")
    expect(bob.locator('#table [data-pos="1"][data-card]')).to_have_count(1)
    first, second = live(bob)
    ann.click('#table [data-pos="2"]')
    expect(bob.locator("main")).not_to_have_attribute("data-holder", "Ann")
    # A set is taken (its places dealt anew, face down) or the three turn back: either way
    # the two cards seen are face down again.
    expect(bob.locator("#table [data-card]")).to_have_count(0)
    assert first and second


def test_megaset_lies_in_four_rows_and_its_keys_pick_by_position(
    live_server: str, new_page: Any
) -> None:
    mega = find_variant("megaset")
    page = new_page()
    join(page, create_room(live_server, mode="solo", public=False, variant="megaset"), "Meg")
    start(page)
    expect(page.locator("#table")).to_have_attribute("data-rows", "4")
    table = live(page)
    assert len(table) == 16 and all(len(c) == 5 for c in table)
    # Column by column, 4 to a column: the fourth card is the first of the fourth key row.
    assert page.text_content(f'[data-card="{table[3]}"] .key') == "z"
    assert page.text_content(f'[data-card="{table[4]}"] .key') == "2"
    while not (found := claims(mega, live(page), [])):
        count = len(live(page))
        page.click("[data-action=no-set]")
        expect(page.locator("#table [data-card]")).to_have_count(count + 3)
    before = score(page, "Meg")  # three more cards may have cost a point (R15)
    for code in found[0]:
        page.keyboard.press(page.text_content(f'[data-card="{code}"] .key') or "?")
    wait_score(page, "Meg", before + 1)


def test_puzzle_alone_found_groups_stay_a_repeat_is_refused_a_miss_costs_time(
    live_server: str, new_page: Any
) -> None:
    puzzle = find_variant("puzzle")
    page = new_page()
    join(page, create_room(live_server, mode="solo", public=False, variant="puzzle"), "Pz")
    start(page)
    expect(page.locator("[data-action=no-set]")).to_be_hidden()  # the table deals by itself
    taken = 0
    while len(groups := claims(puzzle, table := live(page), [])) < 2:
        for code in groups[0]:  # its only group: found, and a new table comes
            page.click(f'[data-card="{code}"]')
        taken += 1
        page.wait_for_function(
            "t => JSON.stringify([...document.querySelectorAll('#table [data-card]')]"
            ".map(e => e.dataset.card)) !== JSON.stringify(t)",
            arg=table,
        )
    for code in groups[0]:
        page.click(f'[data-card="{code}"]')
    expect(page.locator("#found .count")).to_have_text(f"Found 1 of {len(groups)}")
    expect(page.locator("#found li [data-code]")).to_have_count(3)
    assert live(page) == table  # found groups stay where they lie
    for code in groups[0]:  # the same group again: refused, and it costs nothing
        page.click(f'[data-card="{code}"]')
    expect(page.locator("#banner")).to_have_text("That group has been found already.")
    expect(page.locator("#clock")).not_to_contain_text("wrong picks")
    wrong = next(list(t) for t in itertools.combinations(table, 3) if list(t) not in groups)
    for code in wrong:
        page.click(f'[data-card="{code}"]')
    expect(page.locator("#clock")).to_contain_text("+10 s for wrong picks")
    expect(page.locator("#log")).to_contain_text("10.0 s added to the time.")
    wait_score(page, "Pz", taken + 1)


@pytest.mark.parametrize(
    ("lang", "first", "then"),
    [
        ("en", "uses exactly 2 cards of the previous one", "Use exactly 2 cards of the previous"),
        ("ru", "использует ровно 2 карты предыдущего", "Используйте ровно 2 карты предыдущего"),
        ("pl", "używa dokładnie 2 kart poprzedniego", "Użyj dokładnie 2 kart poprzedniego"),
    ],
)
def test_ultraset_chain_says_how_many_cards_of_the_previous_set_in_each_language(
    live_server: str, new_page: Any, lang: str, first: str, then: str
) -> None:
    chain = find_variant("ultraset-chain")
    page = new_page()
    url = create_room(live_server, mode="solo", public=False, variant="ultraset-chain")
    join(page, f"{url}?lang={lang}", "Ul")
    start(page)
    expect(page.locator("#previous .rule")).to_contain_text(first)
    for code in claims(chain, live(page), [])[0]:
        page.click(f'[data-card="{code}"]')
    expect(page.locator("#previous [data-card]")).to_have_count(4)
    expect(page.locator("#previous .rule")).to_contain_text(then)


def memory_replay() -> dict[str, Any]:
    """The replay (as GET /api/games/<id>/replay answers it) of a Memory game alone: the
    deal, two cards turned up, then a third that misses; the views are a spectator's."""
    from setgame.rules.actions import Action, Join, Start, Turn
    from setgame.rules.game import Game, Settings
    from setgame.words.event_words import annotate

    game = Game(Settings(variant="memory", mode="solo"), 7)
    actions: list[Action] = [Join(at=0, player="p1", name="Mo"), Start(at=1, player="p1")]
    actions += [Turn(at=2 + i, player="p1", position=i) for i in range(3)]
    steps = []
    for version, action in enumerate(actions, 1):
        events = annotate(game.apply(action), game.variant)  # as the replay route does
        steps.append(
            {"version": version, "at": action.at, "events": events, "state": game.view(None)}
        )
    players = [{"id": "p1", "name": "Mo"}]
    return {"game": "memo", "room": "r", "settings": {}, "players": players, "events": steps}


def test_a_memory_replay_shows_face_down_cards_and_the_ones_turned_up(
    live_server: str, new_page: Any
) -> None:
    replay = memory_replay()
    steps = replay["events"]
    assert steps[-1]["events"][-1]["type"] == "wrong_call"  # seed 7: the three miss
    page = new_page()
    page.route("**/api/games/memo/replay", lambda route: route.fulfill(json=replay))
    page.goto(f"{live_server}/replay/memo")
    table = page.locator("#rtable")
    expect(table.locator("[data-down]")).to_have_count(12)  # the deal, face down
    expect(table.locator("[data-code]")).to_have_count(0)
    page.keyboard.press("ArrowRight")
    turned = steps[2]["events"][0]["card"]
    expect(table.locator(f'[data-code="{turned}"]')).to_have_count(1)  # one turned up
    expect(page.locator(f'#revents [data-code="{turned}"]')).to_have_count(1)
    page.keyboard.press("End")  # the miss: the three turn face down again
    expect(table.locator("[data-down]")).to_have_count(12)
    expect(page.locator("#revents li")).to_have_count(2)
    # the miss on a line (who, the cards, the verdict), then the cards turn face down
    miss = steps[-1]["events"][-1]
    names = ", ".join(words_of("en")["cards"][code] for code in miss["cards"])
    said = page.locator("#revents li").last
    expect(said).to_contain_text(f"Mo: {names}: Not a set: ")
    lines = f"{miss['verdict']['en']}\nThe cards turn face down again."
    assert lines in (said.text_content() or "")  # lines one under the other
    expect(page.locator("[data-card]")).to_have_count(0)
