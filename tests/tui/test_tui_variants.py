"""The terminal game in every variant (issue 10): a Set-Chain match against a bot, the
daily puzzle to its end, Memory's face-down cards, and the faces of the variants' decks.

The player's claims are computed from what the screen's view shows, with
:mod:`setgame.rules.variants` (as a player reads the table), never from the engine's state.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from setgame.rules.decks import DECKS
from setgame.rules.puzzle import daily_puzzle, parse_day
from setgame.rules.variants import find_variant
from setgame.server.client import Client, create_room
from setgame.tui.app import SetApp
from setgame.tui.face import BORDER_MARKS, _symbol_block, card_text
from setgame.tui.remote import RemoteSession
from setgame.tui.strings import PREVIOUS_KEYS, event_message
from setgame.tui.widgets import KEYS, CardView
from setgame.words.i18n import explain_text
from tui.tuikit import FakeClock, make_app, me, message, until

DAY = "2026-11-22"


async def _tick(app: SetApp, clock: FakeClock, seconds: float) -> None:
    clock.now += seconds
    app.refresh_game()


def claimable(app: SetApp) -> list[tuple[str, ...]]:
    """Every group the screen's view shows that may be claimed now (codes)."""
    view = app.view
    variant = find_variant(view["variant"]["name"])
    deck = variant.deck
    table = [deck.parse(code) for code in view["table"]]
    previous = None if view["previous"] is None else deck.parse_many(view["previous"])
    found = {frozenset(group) for group in view.get("found") or ()}
    groups = [deck.names(g) for g in variant.find(table + list(previous or ()), previous)]
    return [tuple(g) for g in groups if frozenset(g) not in found]


def keys_of(app: SetApp, codes: tuple[str, ...]) -> list[str]:
    """The keys that pick ``codes``: the table's, or the previous group's (m o p r)."""
    table, previous = app.view["table"], app.view["previous"] or []
    return [
        KEYS[table.index(code)] if code in table else PREVIOUS_KEYS[previous.index(code)]
        for code in codes
    ]


async def test_a_set_chain_match_against_a_bot_to_the_end(clock: FakeClock) -> None:
    app = make_app(clock, "bots", bots=1, level=5, deck="beginner", seed=4, variant="set-chain")
    async with app.run_test(size=(100, 32)) as pilot:
        assert app.view["variant"]["links"] == 1 and app.view["previous"] is None
        assert not app.previous_row.display  # nothing before the round's first claim
        assert "Set-Chain" in str(app.status_bar.content)
        mine = theirs = linked = 0
        for step in range(3000):
            await _tick(app, clock, 0.5)
            view = app.view
            if view["phase"] == "match_over":
                break
            if view["phase"] == "round_over":
                await pilot.press("enter")
                continue
            if view["holder"] == "bot1" or step % 6:
                continue
            if view["holder"] is None:
                claims = claimable(app)
                if not claims:
                    if not me(app)["declared"] and view["deck"]:
                        await pilot.press("n")
                    continue
                claim, before = claims[0], view["previous"]
                await pilot.press("space")
                assert app.view["holder"] == "you"
                await pilot.press(*keys_of(app, claim))
                assert set(app.view["previous"]) == set(claim)  # the claim is the new previous
                if before is not None:
                    assert len(set(claim) & set(before)) == 1
                    linked += 1
                    # shown apart, its cards keyed m o p
                    assert app.previous_row.display
                    shown = [v.code for v in app.previous_row.query(CardView) if v.display]
                    assert shown == app.view["previous"]
                mine += 1
            theirs = next(p for p in app.view["players"] if p["id"] == "bot1")["sets"]
        assert app.view["phase"] == "match_over"
        assert mine > 5 and linked > 3 and theirs > 0
        assert "Game over." in message(app)


async def test_a_wrong_link_is_worded(clock: FakeClock) -> None:
    """A set that reuses no card of the previous group: a link flaw, said in words."""
    app = make_app(clock, "practice", deck="full", seed=6, variant="set-chain")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press(*keys_of(app, claimable(app)[0]))
        assert app.view["previous"] is not None
        variant = find_variant("set-chain")
        deck = variant.deck
        table = [deck.parse(c) for c in app.view["table"]]
        unlinked = next((s for s in variant.kind.find(table, deck)), None)
        if unlinked is None:
            pytest.skip("no set among the table's own cards on this seed")
        await pilot.press(*keys_of(app, tuple(deck.names(unlinked))))
        said = message(app)
        assert said.startswith(" ".join(deck.names(unlinked)) + ": Not linked to the previous set")
        assert "holds 0 cards of the previous set; it must hold exactly 1" in said


async def test_the_daily_puzzle_to_the_end(clock: FakeClock) -> None:
    app = make_app(clock, "solo", deck="full", variant="puzzle", day=DAY)
    async with app.run_test(size=(100, 32)) as pilot:
        day = DECKS["standard"].names(daily_puzzle(parse_day(DAY)))
        assert app.view["table"] == day and app.view["groups"] == 6
        assert "Found 0 of 6 groups" in str(app.found_bar.content)
        wrong = next(
            t for t in itertools.combinations(day, 3) if t not in claimable(app)
        )  # a wrong pick costs time, shown
        await pilot.press(*keys_of(app, wrong))
        assert "10.0 s added to the time." in message(app)
        assert "Penalty: +10.0 s" in str(app.status_bar.content)
        first = claimable(app)[0]
        for n in range(1, 7):
            await _tick(app, clock, 5.0)
            claim = claimable(app)[0]
            await pilot.press(*keys_of(app, claim))
            if n < 6:
                assert f"Found {n} of 6 groups" in str(app.found_bar.content)
                assert " ".join(claim) in str(app.found_bar.content)
            if n == 1:  # the same group again: refused, no penalty
                await pilot.press(*keys_of(app, first))
                assert "You found that one already" in message(app)
                assert me(app)["penalty_seconds"] == 10.0
        assert app.view["phase"] == "match_over"
        result = app.view["result"]["solo"]
        assert result["penalty_seconds"] == 10.0 and result["seconds"] >= 40.0
        assert "Penalties included: 10.0 s." in message(app)
        share = message(app).splitlines()[-1]  # to paste in a chat: no card named
        assert share.startswith(f"SET daily puzzle {DAY}: 6 sets in 0:")
        assert not any(code in share for code in day)


async def test_memory_cards_lie_face_down_and_turn_back(clock: FakeClock) -> None:
    app = make_app(clock, "solo", deck="full", seed=2, variant="memory")
    async with app.run_test(size=(100, 32)) as pilot:
        assert app.view["table"] == [None] * 12
        first = app.query_one("#card-0", CardView)
        assert first.face_down and "░" in first.render().plain
        assert "2RTD" not in first.render().plain
        await pilot.press(KEYS[0])
        code = app.view["table"][0]
        assert code is not None and not app.query_one("#card-0", CardView).face_down
        await pilot.press(KEYS[0])  # a face-up card stays up: nothing happens
        assert app.view["turned"] == [0]
        await pilot.press(KEYS[1], KEYS[2])
        if me(app)["sets"]:
            assert message(app).startswith("A set! ")
        else:  # no set: they turn face down again, without a penalty
            assert app.view["table"][:3] == [None, None, None]
            assert "The cards turn face down again." in message(app)
            assert me(app)["score"] == 0


@pytest.mark.parametrize("deck_name", ["megaset", "4set", "4set-junior", "standard"])
@pytest.mark.parametrize("scale", [1, 2, 3])
def test_every_card_has_its_own_face_without_color(deck_name: str, scale: int) -> None:
    """Colorblind-safe faces: the symbols alone, without color, tell apart every two
    cards that differ in anything but color (number, shading, shape, border); the
    color is in the notation's letter (R, G, P, B) above them."""
    deck = DECKS[deck_name]
    looks: dict[str, set[tuple[int, ...]]] = {}
    for card in deck.cards:
        lines, _ = _symbol_block(deck.name_of(card), scale, 1, deck)
        values = deck.values(card)
        looks.setdefault("\n".join(lines), set()).add(values[:1] + values[2:])
    assert all(len(kinds) == 1 for kinds in looks.values())
    assert len(looks) == len(deck) // deck.radix


def test_megaset_and_4set_faces() -> None:
    mega, four = DECKS["megaset"], DECKS["4set"]
    for border, mark in zip("SDT", BORDER_MARKS, strict=True):
        face = card_text(f"2RTD{border}", "7", 20, 7, deck=mega).plain
        assert f"{mark} ◈  ◈ {mark}" in face and f"2RTD{border}" in face
    face = card_text("4BCH", "a", 24, 3, deck=four).plain
    assert "❣  ❣  ❣  ❣" in face and "4BCH" in face


async def test_megaset_and_4set_tables_on_screen(clock: FakeClock) -> None:
    for name, size in (("megaset", 16), ("4set", 15)):
        app = make_app(clock, "practice", deck="full", seed=1, variant=name)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert len(app.view["table"]) >= size
            view: Any = app.query_one("#card-0", CardView)
            text = view.render().plain
            assert app.view["table"][0] in text
            if name == "megaset":
                assert any(mark in text for mark in BORDER_MARKS)
            assert find_variant(name).title in str(app.status_bar.content)
            claim = claimable(app)[0]
            await pilot.press(*keys_of(app, claim))
            assert "Found! " + " ".join(claim) in message(app) or "A set! " in message(app)


async def test_memory_practice_has_no_hints(clock: FakeClock) -> None:
    app = make_app(clock, "practice", deck="full", seed=2, variant="memory")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("h")
        assert message(app) == "No hints in Memory: the cards lie face down"
        assert app.view["table"] == [None] * 12  # nothing shown


@pytest.mark.slow
async def test_memory_in_an_online_room(live_server: str, clock: FakeClock) -> None:
    """Online Memory: the player calls, turns three cards by their keys (the protocol's
    turn message); the other player sees them turned, and a miss turns them back."""
    room = await create_room(live_server, variant="memory", rounds="single", pick_seconds=20)
    alice = await Client.connect(live_server, room)
    try:
        await alice.join("Alice")
        app = SetApp(RemoteSession(f"{live_server}/room/{room}", name="Tess"), clock=clock)
        async with app.run_test(size=(100, 32)) as pilot:
            await until(app, clock, lambda: len(app.view.get("players") or ()) == 2)
            await pilot.press("enter")
            await until(app, clock, lambda: app.view["phase"] == "playing")
            assert app.view["table"] == [None] * 12
            await pilot.press(KEYS[0])  # not the holder: call first
            assert message(app) == "Press Space to call SET first"
            await pilot.press("space")
            await until(app, clock, lambda: app.view["holder"] == app.view["you"])
            assert "turn up 3 cards" in str(app.holder_bar.content)
            await pilot.press(KEYS[0], KEYS[1])
            await until(app, clock, lambda: app.view["turned"] == [0, 1])
            await alice.wait_update(lambda s: s.get("turned") == [0, 1])
            await pilot.press(KEYS[2])
            await until(app, clock, lambda: app.view["holder"] is None)
            if not me(app)["sets"]:
                assert app.view["table"][:3] == [None, None, None]
    finally:
        await alice.close()


async def test_the_arrows_focus_a_card_and_enter_turns_it_up(clock: FakeClock) -> None:
    app = make_app(clock, "solo", deck="full", seed=2, variant="memory")
    async with app.run_test(size=(100, 32)) as pilot:
        assert not app.query(".focused")  # no focus until an arrow is pressed
        await pilot.press("right", "right", "right", "right", "left")  # the first: card 0
        card = app.query_one("#card-2", CardView)
        assert app.focus_at == 2 and card.has_class("focused") and "◂" in card.render().plain
        await pilot.press("enter")
        assert app.view["turned"] == [2] and app.view["table"][2] is not None
        await pilot.press("left", "left", "left")  # wraps around the table
        assert app.focus_at == 11


async def test_puzzle_hints_point_at_a_group_not_found_yet(clock: FakeClock) -> None:
    app = make_app(clock, "practice", deck="full", variant="puzzle", day=DAY)
    async with app.run_test(size=(100, 32)) as pilot:
        first = claimable(app)[0]
        await pilot.press(*keys_of(app, first))
        await pilot.press("h", "h", "h")
        hinted = tuple(message(app).removeprefix("Hint: ").split())
        assert len(hinted) == 3 and set(hinted) != set(first)
        assert hinted in claimable(app)  # a group still to find


async def test_a_chain_table_keeps_its_three_rows_at_80x24(clock: FakeClock) -> None:
    """The previous group above the table leaves every card of the table room to show
    its key, its code and its symbols."""
    app = make_app(clock, "practice", deck="full", seed=4, variant="ultraset-chain")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*keys_of(app, claimable(app)[0]))
        await pilot.pause()
        assert app.previous_row.display
        screen = app.screen.region
        for position in range(len(app.view["table"])):
            card = app.query_one(f"#card-{position}", CardView)
            assert screen.contains_region(card.region) and card.region.height >= 4
            assert app.view["table"][position] in card.render().plain
        for card in app.previous_row.query(CardView):
            assert screen.contains_region(card.region) and card.region.height >= 4


def test_the_messages_of_a_variant_name_its_groups() -> None:
    """Words for a kind other than the set: found, missed and the flaws' verdict."""
    ultra = {"variant": {"name": "ultraset"}, "you": "you", "players": [{"id": "b", "name": "B"}]}
    codes = ["1RSD", "2RSD", "1GSD", "2GSD"]
    taken = {"type": "set_taken", "player": "you", "cards": codes}
    assert event_message(taken, ultra, "en") == "Found! 1RSD 2RSD 1GSD 2GSD"
    assert event_message({**taken, "player": "b"}, ultra, "de").startswith("B hat gefunden: ")
    added = {"type": "cards_added", "why": "vote", "missed": codes, "table": codes * 3}
    said = event_message(added, ultra, "en")
    missed = "There was a group on the table: 1RSD 2RSD 1GSD 2GSD"
    assert said == f"Three more cards: 12 cards on the table\n{missed}"
    flaw = {"type": "count", "attribute": 1, "counts": [3, 1, 0, 0]}
    wrong = {"type": "wrong_call", "player": "you", "cards": codes, "flaws": [flaw]}
    four = {**ultra, "variant": {"name": "4set"}}
    verdict = explain_text([flaw], "ru", kind="4set", deck=DECKS["4set"])
    assert event_message(wrong, four, "ru") == f"{' '.join(codes)}: {verdict}"
    memory = {**ultra, "variant": {"name": "memory"}}
    red_green = {"type": "set", "attribute": 1, "common": 0, "odd": 1}
    miss = {**wrong, "cards": codes[:3], "flaws": [red_green]}
    assert event_message(miss, memory, "en").endswith("\nThe cards turn face down again.")


async def test_a_ghostset_claim_takes_six_keys(clock: FakeClock) -> None:
    app = make_app(clock, "practice", deck="full", seed=3, variant="ghostset")
    async with app.run_test(size=(100, 32)) as pilot:
        assert "keys: pick 6 cards" in str(app.holder_bar.content)
        claim = claimable(app)[0]
        keys = keys_of(app, claim)
        await pilot.press(*keys[:5])
        assert me(app)["sets"] == 0 and len(app.selected) == 5  # not judged yet
        await pilot.press(keys[5])
        assert me(app)["sets"] == 1 and message(app) == "Found! " + " ".join(claim)


def test_memory_says_that_misses_deal_when_no_set_is_refused() -> None:
    """Issue 20: Memory deals after misses in a row; Puzzle's refusal keeps its own words."""
    from setgame.tui.strings import error_message

    memory = error_message("auto_deal", "", "de", {"variant": {"name": "memory"}})
    assert memory == "Fehlgriffe in Folge bringen drei Karten mehr: deck weiter auf"
    puzzle = error_message("auto_deal", "", "en", {"variant": {"name": "puzzle"}})
    assert puzzle == "There is always a group to find here: keep looking"
