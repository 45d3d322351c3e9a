"""Every multiplayer rule (R06-R16) played through the socket against a real server.

Each test opens rooms on the ``live_server`` fixture (uvicorn on loopback, a
temporary SQLite file) and plays with two or three :class:`Client` s. Games are
random, so a test plays on (taking sets, voting) until the situation it needs
arises; the beginner deck (27 cards) reaches a round's end in a few sets.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from itertools import combinations
from typing import Any, Protocol

import pytest

from setgame import explain, is_set, parse_card
from setgame.server.client import Client, Message, ServerError, create_room, table_sets
from setgame.words.catalog import LANGUAGES
from setgame.words.i18n import explain_text

NAMES = ("Ann", "Bob", "Cid")


class Seat(Protocol):
    def __call__(
        self, n: int = 2, *, start: bool = True, **settings: Any
    ) -> Awaitable[list[Client]]: ...


@pytest.fixture
async def room(live_server: str) -> AsyncIterator[Seat]:
    """``await room(n, **settings)``: a new room with ``n`` seated clients, started."""
    opened: list[Client] = []

    async def make(n: int = 2, *, start: bool = True, **settings: Any) -> list[Client]:
        rid = await create_room(live_server, **settings)
        clients = []
        for name in NAMES[:n]:
            client = await Client.connect(live_server, rid)
            opened.append(client)
            await client.join(name)
            clients.append(client)
        if start:
            await clients[0].start()
            for client in clients:
                await client.wait_update(lambda s: s["phase"] == "playing")
        return clients

    yield make
    await asyncio.gather(*(c.close() for c in opened))


async def until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll ``check`` (it reads clients' latest views) until it holds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.005)


async def synced(clients: list[Client], version: int) -> None:
    """Every client has seen version ``version``."""
    await until(lambda: all(c.version >= version for c in clients))


def not_a_set(table: list[str]) -> tuple[str, str, str]:
    for triple in combinations(table, 3):
        if not is_set(*(parse_card(code) for code in triple)):
            return (triple[0], triple[1], triple[2])
    raise AssertionError(f"every triple of {table!r} is a set")


async def hold(caller: Client) -> None:
    """``caller`` calls SET and waits until it holds the board."""
    await caller.call()
    await caller.wait_update(lambda s: s["holder"] == caller.player)


async def take_update(caller: Client, clients: list[Client]) -> Message:
    """``caller`` calls and picks the first set on the table; everyone sees it. The update.

    A table with no set is first grown by everyone's "no set" (R11).
    """
    while not table_sets(caller.state):
        await vote(clients)
    before = caller.version
    cards = table_sets(caller.state)[0]
    if caller.state is not None and caller.state["mode"] == "multi":
        await hold(caller)
    await caller.pick(cards)
    update = await caller.wait_update(
        lambda s: s["version"] > before and not set(cards) & set(s["table"])
    )
    await synced(clients, caller.version)
    assert all(c.table == caller.table for c in clients)  # R07: one table for everyone
    return update


async def take(caller: Client, clients: list[Client]) -> Message:
    """As :func:`take_update`; the ``set_taken`` event."""
    update = await take_update(caller, clients)
    return next(e for e in update["events"] if e["type"] == "set_taken")


async def wrong(caller: Client, clients: list[Client]) -> Message:
    """``caller`` calls and picks three cards that are not a set. The ``wrong_call`` event."""
    before = caller.version
    await hold(caller)
    await caller.pick(not_a_set(caller.table))
    event = await caller.wait_event("wrong_call", after=before)
    await synced(clients, caller.version)
    return event


async def vote(clients: list[Client]) -> None:
    """Every player not locked out declares "no set"."""
    for client in clients:
        if client.me is not None and not client.me["locked"]:
            before = client.version
            await client.no_set()
            await until(lambda c=client, v=before: c.version > v)
    await synced(clients, max(c.version for c in clients))


async def play_until(
    clients: list[Client], done: Callable[[Message], bool], limit: int = 200
) -> None:
    """The clients take sets in turn (all vote when there is none) until ``done``.

    Taking turns keeps each connection well under the server's rate limit.
    """
    lead = clients[0]
    for turn in range(limit):
        state = lead.state
        assert state is not None
        if done(state):
            return
        assert state["phase"] == "playing", state["phase"]
        if table_sets(state):
            await take(clients[turn % len(clients)], clients)
        else:
            before = lead.version
            for client in clients:
                await client.no_set()
            await lead.wait_event("cards_added", after=before)
            await synced(clients, lead.version)
    raise AssertionError("the situation did not arise")


async def fresh_game_until(
    room: Seat, done: Callable[[Message], bool], tries: int = 20, **settings: Any
) -> list[Client]:
    """Open rooms and play until one reaches ``done``; return its clients."""
    for _ in range(tries):
        clients = await room(2, **settings)
        await play_until(clients, lambda s: done(s) or s["phase"] != "playing")
        if done(clients[0].state or {}):
            return clients
    raise AssertionError("the situation never arose")


# --- R06, R07 -----------------------------------------------------------------------------


async def test_r06_everyone_sees_the_same_twelve_cards(room: Seat) -> None:
    clients = await room(3)
    tables = [c.table for c in clients]
    assert tables[0] == tables[1] == tables[2]
    assert len(tables[0]) == 12 and len(set(tables[0])) == 12
    assert all(c.state is not None and c.state["deck"] == 81 - 12 for c in clients)
    assert all(c.state is not None and "stock" not in c.state for c in clients)


async def test_r07_no_turns_anyone_may_call_first(room: Seat) -> None:
    ann, bob, cid = clients = await room(3)
    await take(cid, clients)  # the last to sit down goes first
    await take(bob, clients)
    scores = {p["name"]: p["score"] for p in ann.state["players"]}
    assert scores == {"Ann": 0, "Bob": 1, "Cid": 1}


# --- R08 ----------------------------------------------------------------------------------


async def test_r08_caller_holds_the_board_others_cannot_call_or_pick(room: Seat) -> None:
    ann, bob, cid = clients = await room(3)
    await hold(ann)
    await synced(clients, ann.version)
    assert all(c.state["holder"] == ann.player for c in clients)
    assert all(c.state["deadline"] is not None for c in clients)
    await bob.call()
    assert (await bob.wait_error()).code == "board_held"
    await cid.pick(cid.table[:3])
    assert (await cid.wait_error()).code == "board_held"
    await cid.no_set()
    assert (await cid.wait_error()).code == "board_held"
    assert ann.state["holder"] == ann.player


async def test_r08_cards_cannot_be_taken_without_a_call(room: Seat) -> None:
    ann, _ = await room(2)
    await ann.pick((table_sets(ann.state) or [ann.table[:3]])[0])
    error = await ann.wait_error()
    assert error.code == "not_holder"
    assert ann.me is not None and ann.me["score"] == 0


async def test_r08_pick_window_expires_as_a_wrong_call(room: Seat) -> None:
    ann, bob = clients = await room(2, pick_seconds=1, penalty="lockout")
    begun = time.monotonic()
    await hold(ann)
    event = await bob.wait_event("wrong_call", timeout=6)
    assert 0.9 <= time.monotonic() - begun < 5  # 1 s, and the server's timer fires by itself
    assert event["player"] == ann.player and event["reason"] == "timeout"
    assert event["cards"] is None and event["locked"] is True
    await synced(clients, bob.version)
    assert all(c.state["holder"] is None for c in clients)


# --- R09 ----------------------------------------------------------------------------------


async def test_r09_valid_set_scores_and_is_replaced_in_place(room: Seat) -> None:
    ann, bob = clients = await room(2)
    while not table_sets(ann.state):  # one deal in about 30 has no set: deal again
        ann, bob = clients = await room(2)
    before, deck = bob.table, bob.state["deck"]
    event = await take(ann, clients)
    after = bob.table
    positions = [before.index(code) for code in event["cards"]]
    assert sorted(event["positions"]) == sorted(positions)
    assert len(after) == 12 and bob.state["deck"] == deck - 3
    for i in range(12):
        if i in positions:
            assert after[i] not in before
        else:
            assert after[i] == before[i]
    assert [after[i] for i in event["positions"]] == event["replaced"]
    assert bob.seat(ann.player or "")["score"] == 1


async def test_r09_above_twelve_cards_a_set_is_not_replaced(room: Seat) -> None:
    ann, bob = clients = await room(2)
    before = ann.version
    await vote(clients)  # both agree (rightly or not): three more cards
    await ann.wait_event("cards_added", after=before)
    await synced(clients, ann.version)
    assert len(bob.table) == 15
    deck = bob.state["deck"]
    taken = await take(ann, clients)
    assert len(bob.table) == 12 and bob.state["deck"] == deck
    assert taken["replaced"] == [] and not set(taken["cards"]) & set(bob.table)


# --- R10 and R04 --------------------------------------------------------------------------

PENALTIES = {
    "point": (True, False),
    "lockout": (False, True),
    "both": (True, True),
    "none": (False, False),
}


@pytest.mark.parametrize("penalty", sorted(PENALTIES))
async def test_r10_wrong_call_penalty_per_room_setting(room: Seat, penalty: str) -> None:
    ann, bob = clients = await room(2, penalty=penalty)
    await take(ann, clients)
    event = await wrong(ann, clients)
    loses, locks = PENALTIES[penalty]
    assert event["penalty"] == penalty and event["reason"] == "not_a_set"
    assert event["point_lost"] is loses and event["locked"] is locks
    mine = bob.seat(ann.player or "")
    assert mine is not None and mine["score"] == (0 if loses else 1)
    assert mine["locked"] is locks


async def test_r04_wrong_call_event_explains_why_it_is_not_a_set(room: Seat) -> None:
    ann, _ = clients = await room(2)
    event = await wrong(ann, clients)
    cards = [parse_card(code) for code in event["cards"]]
    expected = [
        {"type": "set", "attribute": f.attribute, "common": f.common, "odd": f.odd}
        for f in explain(*cards)
    ]
    assert event["flaws"] == expected and expected
    # the verdict comes worded in every language (setgame.event_words): no client composes it
    assert event["verdict"] == {lang: explain_text(explain(*cards), lang) for lang in LANGUAGES}
    assert event["verdict"]["de"].startswith("Kein SET: ")


async def test_r10_point_penalty_spares_a_player_with_no_sets(room: Seat) -> None:
    ann, _ = clients = await room(2, penalty="point")
    event = await wrong(ann, clients)
    assert event["point_lost"] is False
    assert ann.me is not None and ann.me["score"] == 0


async def test_r10_locked_player_cannot_call_until_another_finds_a_set(room: Seat) -> None:
    ann, bob, _ = clients = await room(3, penalty="lockout", pick_seconds=2)
    await wrong(ann, clients)
    await ann.call()
    assert (await ann.wait_error()).code == "locked_out"
    await take(bob, clients)
    assert ann.me is not None and ann.me["locked"] is False
    await asyncio.sleep(ann.me["cooldown_in"] or 0.0)  # fair call: Ann's cooldown (2 s)
    await take(ann, clients)  # may call again


async def test_r10_everyone_locked_out_lifts_all_lockouts(room: Seat) -> None:
    ann, bob = clients = await room(2, penalty="lockout")
    await wrong(ann, clients)
    before = bob.version
    await hold(bob)
    await bob.pick(not_a_set(bob.table))
    lifted = await ann.wait_event("lockouts_lifted", after=before)
    assert lifted["reason"] == "all_locked"
    await synced(clients, ann.version)
    assert not any(p["locked"] for p in ann.state["players"])


async def test_r10_lockouts_lift_when_three_cards_are_added(room: Seat) -> None:
    ann, bob, _ = clients = await room(3, penalty="lockout", lockout_lift="set_or_cards")
    await wrong(ann, clients)
    before = bob.version
    await vote(clients)  # Bob and Cid: Ann is locked out and has no vote
    lifted = await ann.wait_event("lockouts_lifted", after=before)
    assert lifted["reason"] == "cards_added"
    assert len(ann.table) == 15 and ann.me is not None and not ann.me["locked"]


# --- R11 ----------------------------------------------------------------------------------


async def test_r11_vote_deals_three_more_when_everyone_declares(room: Seat) -> None:
    ann, bob, cid = clients = await room(3, no_set="vote")
    await ann.no_set()
    await bob.no_set()
    await until(lambda: len(cid.state["no_set_votes"]) == 2)
    assert set(cid.state["no_set_votes"]) == {ann.player, bob.player}
    assert len(cid.table) == 12
    await ann.no_set()
    assert (await ann.wait_error()).code == "already_declared"
    before = cid.version
    await cid.no_set()
    added = await ann.wait_event("cards_added", after=before)
    assert added["why"] == "vote" and len(added["cards"]) == 3
    await synced(clients, ann.version)
    assert all(len(c.table) == 15 and c.state["no_set_votes"] == [] for c in clients)


async def test_r11_vote_counts_only_players_still_seated(room: Seat) -> None:
    ann, bob, cid = await room(3)
    before, gone = ann.version, cid.player
    await cid.leave()
    left = await ann.wait_event("left", after=before)
    assert left["player"] == gone
    assert ann.seat(gone or "") is None  # no points to keep: the seat leaves no trace
    before = ann.version
    await ann.no_set()
    await bob.no_set()
    added = await ann.wait_event("cards_added", after=before)
    assert added["why"] == "vote" and len(ann.table) == 15
    await synced([cid], ann.version)
    assert cid.player is None and cid.table == ann.table  # Cid now only watches


async def test_a_player_who_leaves_with_points_then_sees_the_room_as_a_spectator(
    room: Seat,
) -> None:
    ann, bob = clients = await room(2)
    await take(bob, clients)
    before, gone = ann.version, bob.player
    await bob.leave()
    await ann.wait_event("left", after=before)
    assert ann.seat(gone or "") is not None  # a seat with a point stays in the standings
    await until(lambda: bob.version >= ann.version)
    assert bob.player is None and bob.state["you"] is None  # not shown as still seated


async def test_r11_table_with_no_set_grows_to_fifteen(room: Seat) -> None:
    clients = await fresh_game_until(
        room, lambda s: s["phase"] == "playing" and not table_sets(s) and s["deck"] > 0
    )
    ann = clients[0]
    assert len(ann.table) == 12
    before = ann.version
    await vote(clients)
    await ann.wait_event("cards_added", after=before)
    await synced(clients, ann.version)
    assert len(ann.table) == 15


async def test_r11_auto_deals_by_itself_when_no_set_remains(room: Seat) -> None:
    ann, _ = await room(2, no_set="auto")
    await ann.no_set()
    assert (await ann.wait_error()).code == "auto_deal"
    for _ in range(20):
        clients = await room(2, no_set="auto")
        lead = clients[0]
        auto = len(lead.table) > 12  # the first deal already needed more cards
        turn = 0
        while lead.state is not None and lead.state["phase"] == "playing":
            assert table_sets(lead.state) or lead.state["deck"] == 0, lead.table
            turn += 1
            update = await take_update(clients[turn % 2], clients)
            added = [e for e in update["events"] if e["type"] == "cards_added"]
            assert all(e["why"] == "auto" for e in added)
            auto = auto or bool(added)
        if auto:
            return
    pytest.fail("no game of 20 needed an automatic deal")


# --- R12, R13, R14 ------------------------------------------------------------------------


async def test_r12_r13_round_ends_when_deck_is_empty_and_no_set_remains(room: Seat) -> None:
    ann, bob = clients = await room(2, deck="beginner", rounds="single")
    taken = {ann.player: 0, bob.player: 0}
    while ann.state["phase"] == "playing":
        event = await take(bob if sum(taken.values()) % 3 else ann, clients)
        taken[event["player"]] += 1
    assert ann.state["phase"] == "match_over"
    assert ann.state["deck"] == 0 and not table_sets(ann.state)
    assert len(ann.table) in (0, 3, 6, 9)  # 12 three-attribute cards always hold a set
    scores = {p["id"]: p["score"] for p in bob.state["players"]}
    assert scores == taken  # R13: one point per set won
    assert sum(taken.values()) * 3 + len(ann.table) == 27


async def test_r14_match_rotates_the_dealer_clockwise_and_adds_up_totals(room: Seat) -> None:
    clients = await room(3, deck="beginner", rounds="match")
    ann = clients[0]
    assert ann.state["rounds"] == 3  # as many rounds as players
    totals = dict.fromkeys((c.player for c in clients), 0)
    for number, dealer in enumerate(clients, start=1):
        assert ann.state["round"] == number and ann.state["dealer"] == dealer.player
        turns = clients[number - 1 :] + clients[: number - 1]
        await play_until(turns, lambda s: s["phase"] != "playing")
        for player in ann.state["players"]:  # the scores of the round just over
            totals[player["id"]] += player["score"]
        if number < 3:
            assert ann.state["phase"] == "round_over"
            before = ann.version
            await clients[number].start()  # anyone may deal the next round
            await ann.wait_event("round_started", after=before)
            await synced(clients, ann.version)
    assert ann.state["phase"] == "match_over"
    result = ann.state["result"]
    assert result["totals"] == totals
    assert result["winners"] == [pid for pid, t in totals.items() if t == max(totals.values())]
    await ann.start()
    assert (await ann.wait_error()).code in ("bad_phase", "not_playing")
    await clients[1].again()  # a new match, same seats
    await ann.wait_update(lambda s: s["phase"] == "playing" and s["round"] == 1)


# --- R15, R16 -----------------------------------------------------------------------------


async def test_r15_solo_picks_without_calling_and_more_cards_cost_a_point(
    room: Seat, live_server: str
) -> None:
    (solo,) = await room(1, mode="solo", deck="beginner")
    assert solo.state["clock"] is not None
    await solo.call()
    assert (await solo.wait_error()).code == "no_call"
    other = await Client.connect(live_server, solo.room)
    try:
        with pytest.raises(ServerError) as refused:
            await other.join("Eve")
        assert refused.value.code == "room_full"
    finally:
        await other.close()
    before = solo.version
    await solo.pick(table_sets(solo.state)[0])
    await solo.wait_event("set_taken", after=before)
    before = solo.version
    await solo.no_set()
    asked = await solo.wait_event("more_cards_asked", after=before)
    assert asked["penalty"] == 1 and len(solo.table) == 15
    assert solo.me is not None and solo.me["score"] == 0 and solo.me["penalties"] == 1
    while solo.state["phase"] == "playing":
        await take(solo, [solo])
    result = solo.state["result"]["solo"]
    assert result["penalties"] == 1 and result["seconds"] > 0
    assert result["won"] is (result["cancelled"] >= 1)


async def test_r16_beginner_deck_has_only_solid_cards(room: Seat) -> None:
    ann, bob = clients = await room(2, deck="beginner")
    assert ann.state["deck"] == 27 - 12
    seen: set[str] = set()
    while ann.state["phase"] == "playing":
        seen.update(ann.table)
        await take(ann if len(seen) % 2 else bob, clients)
    assert seen and all(code[2] == "S" for code in seen)


async def test_practice_hint_reveals_a_set_card_by_card(room: Seat) -> None:
    (pupil,) = await room(1, mode="practice")
    while not table_sets(pupil.state):  # about 3 % of deals hold no set: more cards, free here
        await pupil.no_set()
        await pupil.wait_update()
    first = await pupil.hint()
    second = await pupil.hint()
    third = await pupil.hint()
    assert len(first) == 1 and second[:1] == first and third[:2] == second
    assert frozenset(third) in {frozenset(s) for s in table_sets(pupil.state)}
