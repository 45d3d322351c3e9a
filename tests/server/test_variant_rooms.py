"""Rooms of every variant (issue 10) over real HTTP and websockets: settings, claims of 3, 4
or 6 cards in the variant deck's notation, Memory's face-down table and ``turn`` message,
the daily puzzle as a room, replays; and rooms stored before the variants."""

from __future__ import annotations

import asyncio
import datetime
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from setgame.rules import game as engine
from setgame.rules.decks import Deck
from setgame.rules.variants import find_variant
from setgame.server.client import Client, Message, ServerError, create_room, table_groups
from setgame.server.protocol import RoomSettings
from setgame.server.storage import games, rooms

from .httpkit import assert_refused
from .roomkit import FakeConnection, registry


@pytest.fixture
async def http(live_server: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=str(live_server), trust_env=False) as client:
        yield client


async def seated(live_server: Any, **settings: Any) -> Client:
    """A new room with these settings, one person seated in it and the game started."""
    room = await create_room(str(live_server), **settings)
    client = await Client.connect(str(live_server), room)
    await client.join("Ann")
    await client.start()
    await client.wait_update(lambda state: state["phase"] == "playing")
    return client


def strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON value (keys too)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def codes_in(message: Any, deck: Deck) -> set[str]:
    """The card codes of ``deck`` a message carries anywhere."""
    found = set()
    for text in strings(message):
        if len(text) == deck.width:
            try:
                deck.parse(text)
            except ValueError:
                continue
            found.add(text)
    return found


# --- POST /api/rooms ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "code", "quoted"),
    [
        ({"variant": "hyperset"}, "bad_setting", "hyperset"),
        ({"variant": "x" * 40}, "bad_settings", "xxxxxxxx"),
        ({"variant": 7}, "bad_settings", "variant"),
        ({"variant": "ultra9", "table": 12}, "bad_setting", "12"),
        ({"table": 13}, "bad_setting", "13"),
        ({"table": -1}, "bad_settings", "table"),
        ({"table": "12"}, "bad_settings", "table"),
        ({"day": "2026-01-01"}, "bad_setting", "2026-01-01"),
        ({"variant": "puzzle", "day": "2026-02-30"}, "bad_setting", "2026-02-30"),
        ({"variant": "puzzle", "day": "9999-12-31"}, "bad_setting", "9999-12-31"),
        ({"variant": "puzzle", "day": "d" * 40}, "bad_settings", "ddddd"),
        ({"variant": "megaset", "deck": "beginner"}, "bad_setting", "beginner"),
    ],
)
async def test_bad_variant_settings_are_refused_quoting_them(
    http: httpx.AsyncClient, settings: dict[str, Any], code: str, quoted: str
) -> None:
    assert_refused(await http.post("/api/rooms", json=settings), code, quoted)


async def test_a_puzzle_day_after_today_is_refused(http: httpx.AsyncClient) -> None:
    day = (datetime.datetime.now(datetime.UTC).date() + datetime.timedelta(days=2)).isoformat()
    assert_refused(await http.post("/api/rooms", json={"variant": "puzzle", "day": day}),
                   "bad_setting", day)


async def test_the_variant_is_stored_by_its_canonical_name_and_listed(
    http: httpx.AsyncClient, live_server: Any
) -> None:
    room = await create_room(str(live_server), http=http, variant="UltraSet-Chain")
    info = (await http.get(f"/api/rooms/{room}")).json()
    assert info["settings"]["variant"] == "ultraset-chain"
    assert info["state"]["variant"] == {
        "name": "ultraset-chain", "title": "UltraSet-Chain", "claim": 4, "links": 2,
        "flow": "ultra-chain", "kind": "ultraset",
    }
    async with await Client.connect(str(live_server), room):  # someone present: listed
        listed = {r["id"]: r for r in (await http.get("/api/rooms")).json()}
    assert listed[room]["settings"]["variant"] == "ultraset-chain"


async def test_junior_offers_a_table_of_nine(live_server: Any) -> None:
    async with await seated(live_server, mode="solo", variant="junior", table=9) as ann:
        assert ann.state is not None and len(ann.table) == 9
        assert all(code[2] == "S" for code in ann.table)  # Junior cards are all solid


# --- claims of every size in the variant deck's notation ------------------------------------


async def test_an_ultraset_room_takes_four_cards_and_refuses_three(live_server: Any) -> None:
    async with await seated(live_server, mode="solo", variant="ultraset") as ann:
        assert ann.state is not None and ann.state["variant"]["claim"] == 4
        group = table_groups(ann.state)[0]  # any 10 cards hold an UltraSet
        assert len(group) == 4
        await ann.pick(group[:3])
        assert (await ann.wait_error()).code == "bad_pick"
        await ann.pick(group)
        taken = await ann.wait_event("set_taken")
        assert sorted(taken["cards"]) == sorted(group)


async def test_a_megaset_room_speaks_five_character_codes_and_shows_no_undealt_card(
    live_server: Any,
) -> None:
    deck = find_variant("megaset").deck
    async with await seated(live_server, mode="solo", variant="megaset") as ann:
        assert ann.state is not None
        table = ann.table
        assert len(table) >= 16 and all(len(code) == 5 for code in table)
        assert codes_in(ann.state, deck) == set(table)
        while not table_groups(ann.state):  # 16 MegaSet cards hold no set 8% of the time
            await ann.no_set()
            await ann.wait_event("cards_added")
            table = ann.table
        assert codes_in(ann.state, deck) == set(table)
        group = table_groups(ann.state)[0]
        await ann.pick(group)
        update = await ann.wait_update(lambda state: state["table"] != table)
        assert all(len(code) == 5 for code in update["state"]["table"])
        assert codes_in(update, deck) <= set(table) | set(update["state"]["table"])
        await ann.pick(["1RSD", "2GTO", "3POS"])  # standard codes are not MegaSet cards
        error = await ann.wait_error()
        assert error.code == "bad_card" and "1RSD" in str(error)


async def test_a_4set_room_reads_its_own_letters(live_server: Any) -> None:
    async with await seated(live_server, mode="solo", variant="4set") as ann:
        assert ann.state is not None and len(ann.table) == 15
        while not table_groups(ann.state):  # 0.02% of 15-card tables hold no 4Set
            await ann.no_set()
            await ann.wait_event("cards_added")
        group = table_groups(ann.state)[0]
        await ann.pick(group)
        taken = await ann.wait_event("set_taken")
        assert sorted(taken["cards"]) == sorted(group)


# --- Memory ---------------------------------------------------------------------------------


async def test_memory_views_never_carry_a_card_before_it_is_turned(live_server: Any) -> None:
    deck = find_variant("memory").deck
    seen: list[Message] = []

    def listen(_client: Client, message: Message, _at: float) -> None:
        seen.append(message)

    room = await create_room(str(live_server), mode="solo", variant="memory")
    async with await Client.connect(str(live_server), room, listener=listen) as ann:
        await ann.join("Ann")
        await ann.start()
        await ann.wait_update(lambda state: state["phase"] == "playing")
        assert ann.state is not None and ann.table == [None] * 12
        assert ann.state["turned"] == []
        for position in (0, 1, 2, 5, 6, 7):
            await ann.turn(position)
            turned = await ann.wait_event("card_turned")
            assert turned["position"] == position
            if position in ann.state["turned"]:  # not yet judged (the third is, at once)
                assert ann.table[position] == turned["card"]
        await ann.ping()  # every update of those turns has arrived
    revealed: set[str] = set()
    for message in seen:
        for event in message.get("events", []):
            if event["type"] == "card_turned":
                revealed.add(event["card"])
        assert codes_in(message, deck) <= revealed, message


async def test_memory_turns_are_checked(live_server: Any) -> None:
    async with await seated(live_server, mode="solo", variant="memory") as ann:
        for bad in ('{"type": "turn", "position": -1}', '{"type": "turn", "position": 256}',
                    '{"type": "turn", "position": "1"}', '{"type": "turn", "position": 1.5}',
                    '{"type": "turn"}', '{"type": "turn", "position": 1, "card": "1RSD"}'):
            await ann.send_raw(bad)
            error = await ann.wait_error()
            assert error.code == "bad_message", bad
        await ann.turn(40)
        assert (await ann.wait_error()).code == "bad_position"
        await ann.turn(3)
        await ann.wait_event("card_turned")
        await ann.turn(3)
        assert (await ann.wait_error()).code == "already_turned"
        await ann.pick(["1RSD", "2GTO", "3POS"])
        assert (await ann.wait_error()).code == "face_down"


async def test_a_turn_in_a_face_up_room_is_refused(live_server: Any) -> None:
    async with await seated(live_server, mode="solo") as ann:
        await ann.turn(0)
        assert (await ann.wait_error()).code == "face_up"


async def test_a_flood_of_turns_closes_the_socket(live_server: Any) -> None:
    async with await seated(live_server, mode="solo", variant="memory") as ann:
        for _ in range(80):
            await ann.send_raw('{"type": "turn", "position": 0}')
        assert (await ann.wait_closed()).code == 1008


async def test_a_spectator_cannot_turn(live_server: Any) -> None:
    ann = await seated(live_server, variant="memory")
    async with ann, await Client.connect(str(live_server), ann.room) as watcher:
        await watcher.turn(0)
        assert (await watcher.wait_error()).code == "not_seated"


# --- the daily puzzle as a room, and replays ------------------------------------------------


async def test_a_daily_puzzle_room_deals_the_days_cards(
    http: httpx.AsyncClient, live_server: Any
) -> None:
    cards = (await http.get("/api/puzzle/daily", params={"date": "2026-03-14"})).json()["cards"]
    async with await seated(live_server, mode="solo", variant="puzzle", day="2026-03-14") as ann:
        assert ann.table == cards
        assert ann.state is not None and ann.state["groups"] == 6 and ann.state["found"] == []
        group = table_groups(ann.state)[0]
        await ann.pick(group)
        await ann.wait_event("set_taken")
        assert ann.table == cards and len(ann.state["found"]) == 1  # found groups stay
        await ann.pick(group)
        assert (await ann.wait_error()).code == "already_found"


async def play_solo_to_the_end(ann: Client) -> None:
    """Claim the first group the view offers, or ask for more cards, until the match ends."""
    while ann.state is not None and ann.state["phase"] == "playing":
        before = ann.version
        groups = table_groups(ann.state)
        if groups:
            await ann.pick(groups[0])
        else:
            await ann.no_set()
        await ann.wait_update(lambda state, v=before: state["version"] > v, timeout=10)
        await asyncio.sleep(0.06)  # within the socket's rate limit (20 messages a second)


async def test_a_megaset_game_replays_with_its_variant(
    http: httpx.AsyncClient, live_server: Any
) -> None:
    async with await seated(live_server, mode="solo", variant="megaset") as ann:
        await play_solo_to_the_end(ann)
        assert ann.state is not None and ann.state["phase"] == "match_over"
        final, game = ann.state, ann.state["game"]
    replay = (await http.get(f"/api/games/{game}/replay")).json()
    assert replay["settings"]["variant"] == "megaset"
    last = replay["events"][-1]["state"]
    assert last["phase"] == "match_over" and last["result"]["totals"] == final["result"]["totals"]
    taken = [e for step in replay["events"] for e in step["events"] if e["type"] == "set_taken"]
    assert taken and all(len(code) == 5 for e in taken for code in e["cards"])


# --- rooms stored before the variants -------------------------------------------------------


async def test_rooms_stored_without_the_variant_fields_load_as_classic(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    async with registry(path) as reg:
        room = await reg.create(RoomSettings(mode="solo"), "10.0.0.1")
        game_id = room.game_id
    new = ("variant", "table", "day")
    old = {k: v for k, v in room.summary()["settings"].items() if k not in new}
    engine_old = {k: old[k] for k in ("mode", "penalty", "no_set", "deck", "pick_seconds",
                                      "rounds", "lockout_lift")}
    db = sa.create_engine(f"sqlite:///{path}")
    with db.begin() as conn:
        conn.execute(rooms.update().values(settings=json.dumps(old)))
        conn.execute(games.update().values(settings=json.dumps(engine_old)))
    db.dispose()
    async with registry(path, restore=True) as reg:
        again = await reg.load(room.id)
        assert again is not None and again.game_id == game_id
        assert again.game.variant.name == "classic"
        assert again.settings.variant == "classic" and again.view(None)["variant"]["claim"] == 3
        assert isinstance(again.game.settings, engine.Settings)


async def test_a_server_error_in_a_variant_room_quotes_the_request(live_server: Any) -> None:
    async with await seated(live_server, mode="solo", variant="ghostset") as ann:
        assert ann.state is not None and ann.state["variant"]["claim"] == 6
        await ann.pick(ann.table[:5])
        error = await ann.wait_error()
        assert isinstance(error, ServerError) and error.code == "bad_pick"
        assert error.request == "pick"


async def test_in_multi_memory_the_turner_must_hold_the_board(live_server: Any) -> None:
    room = await create_room(str(live_server), variant="memory")
    ann = await Client.connect(str(live_server), room)
    bob = await Client.connect(str(live_server), room)
    async with ann, bob:
        await ann.join("Ann")
        await bob.join("Bob")
        await ann.start()
        await bob.wait_update(lambda state: state["phase"] == "playing")
        await ann.turn(0)
        assert (await ann.wait_error()).code == "not_holder"
        await ann.call()
        await ann.wait_update(lambda state: state["holder"] == ann.player)
        await bob.turn(1)
        assert (await bob.wait_error()).code == "board_held"
        await ann.turn(4)
        turned = await bob.wait_event("card_turned")
        assert turned["player"] == ann.player and bob.table[4] == turned["card"]
        assert [code for code in bob.table if code is not None] == [turned["card"]]


async def test_practice_hints_reveal_a_claim_of_the_variant(live_server: Any) -> None:
    async with await seated(live_server, mode="practice", variant="ultraset") as ann:
        shown = [await ann.hint() for _ in range(5)]
        assert [len(cards) for cards in shown] == [1, 2, 3, 4, 4]
        assert tuple(shown[-1]) in table_groups(ann.state)
    async with await seated(live_server, mode="practice", variant="memory") as ann:
        with pytest.raises(ServerError) as refused:
            await ann.hint()
        assert refused.value.code == "no_hints"


@pytest.mark.parametrize("variant", ["memory", "set-chain", "megaset", "4set-junior"])
async def test_a_variant_room_comes_back_as_it_was_after_a_restart(
    tmp_path: Path, variant: str
) -> None:
    path = tmp_path / "restart.db"
    async with registry(path) as reg:
        room = await reg.create(RoomSettings(mode="solo", variant=variant), "10.0.0.1")
        conn = FakeConnection()
        room.attach(conn)
        ann = await room.join(conn, "Ann", "10.0.0.1")
        await room.start(ann)
        for _ in range(2):  # two claims (Memory: two cards turned up)
            if variant == "memory":
                await room.turn(ann, len(room.game.turned))
            else:
                while not room.game.groups_on_table():  # MegaSet: 8% of tables hold none
                    await room.no_set(ann)
                group = room.game.groups_on_table()[0]
                await room.pick(ann, room.game.names(group), room.version)
        before = room.view(ann)
        room.detach(conn)
    async with registry(path, restore=True) as reg:
        again = await reg.load(room.id)
        assert again is not None
        after = again.view(ann)
    for state in (before, after):
        for key in ("clock", "deadline_in", "watchers"):
            state.pop(key, None)
        for entry in state["players"]:
            entry.pop("connected", None)
    assert after == before and after["variant"]["name"] == variant
