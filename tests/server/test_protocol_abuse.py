"""Bad input through the socket: every case gets an error reply or a named close code,
and afterwards the room and the server still serve everyone else (another client
still plays a set that all the others see)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from itertools import combinations

import httpx
import pytest
from websockets.asyncio.client import connect as ws_connect

from setgame import is_set, parse_card
from setgame.server.client import (
    Client,
    Disconnected,
    ServerError,
    create_room,
    table_sets,
    ws_url,
)

Trio = tuple[Client, Client, Client]


@pytest.fixture
async def trio(live_server: str) -> AsyncIterator[Trio]:
    """Three seated clients (Ann, Bob, Cid) in a started room; Ann is the one who misbehaves."""
    rid = await create_room(live_server, penalty="point")
    clients = []
    for name in ("Ann", "Bob", "Cid"):
        client = await Client.connect(live_server, rid)
        await client.join(name)
        clients.append(client)
    await clients[0].start()
    for client in clients:
        await client.wait_update(lambda s: s["phase"] == "playing")
    yield clients[0], clients[1], clients[2]
    await asyncio.gather(*(c.close() for c in clients))


async def still_serving(live_server: str, player: Client, *watchers: Client) -> None:
    """``player`` plays a call and every watcher sees its outcome; the server answers new
    requests. The call takes a set when the table holds one; else it is a wrong call (a
    disconnected player keeps the seat, so a "no set" vote could not complete)."""
    await caught_up(player, *watchers)
    before = player.version
    sets = table_sets(player.state)
    cards = list(sets[0]) if sets else not_a_set(player.table)
    await player.call()
    await player.wait_update(lambda s: s["holder"] == player.player)
    await player.pick(cards)
    outcome = "set_taken" if sets else "wrong_call"
    event = await player.wait_event(outcome, after=before)
    assert sorted(event["cards"]) == sorted(cards)
    for watcher in watchers:
        if watcher.closed is None:
            seen = await watcher.wait_event(outcome, after=before)
            assert seen["player"] == player.player
    async with httpx.AsyncClient(trust_env=False) as http:
        assert (await http.get(f"{live_server}/api/health")).status_code == 200
    fresh = await Client.connect(live_server, player.room)
    try:
        assert await fresh.ping() < 5
        assert fresh.state is not None and fresh.state["version"] == player.version
    finally:
        await fresh.close()


async def caught_up(*clients: Client) -> None:
    """Wait until every open client has seen the newest version any of them has seen."""
    for _ in range(500):
        versions = {c.version for c in clients if c.closed is None}
        if len(versions) <= 1:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"clients stuck at versions {versions!r}")


def not_a_set(table: list[str]) -> list[str]:
    for triple in combinations(table, 3):
        if not is_set(*(parse_card(code) for code in triple)):
            return list(triple)
    raise AssertionError(f"every triple of {table!r} is a set")


def absent(table: list[str]) -> str:
    """A card code that is not on the table."""
    codes = (f"{n}{c}{s}{h}" for n in "123" for c in "RGP" for s in "STO" for h in "DOS")
    return next(code for code in codes if code not in table)


# --- frames that are not messages ---------------------------------------------------------


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "bad_json"),
        ("", "bad_json"),
        ("[1, 2, 3]", "bad_message"),
        ('"call"', "bad_message"),
        ('{"no_type": 1}', "bad_message"),
        ('{"type": 7}', "bad_message"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "pick", "version": 3}', "bad_message"),
        ('{"type": "call"}', "bad_message"),
        ('{"type": "call", "version": "latest"}', "bad_message"),
        ('{"type": "call", "version": -1}', "bad_message"),
        ('{"type": "pick", "cards": ["1RSD", "2GTO"], "version": 1}', "bad_message"),
        ('{"type": "join", "name": ""}', "bad_message"),
        ('{"type": "join", "name": "' + "x" * 25 + '"}', "bad_message"),
    ],
)
async def test_malformed_message_gets_an_error_that_quotes_it(
    live_server: str, trio: Trio, frame: str, code: str
) -> None:
    ann, bob, cid = trio
    await ann.send_raw(frame)
    error = await ann.wait_error()
    assert error.code == code, error
    if frame and code != "bad_message":
        assert frame[:20] in str(error.reply["message"])
    assert await ann.ping() < 5  # the connection stays usable
    await still_serving(live_server, bob, ann, cid)


async def test_unknown_type_is_named_in_the_error(trio: Trio) -> None:
    ann, _, _ = trio
    await ann.send_raw('{"type": "steal_deck"}')
    error = await ann.wait_error()
    assert error.code == "unknown_type" and "'steal_deck'" in str(error)


async def test_binary_frame_gets_an_error(live_server: str, trio: Trio) -> None:
    ann, bob, cid = trio
    await ann.send_raw(json.dumps({"type": "ping"}).encode())
    assert (await ann.wait_error()).code == "not_text"
    await still_serving(live_server, bob, ann, cid)


async def test_garbage_stream_is_closed_with_1003(live_server: str, trio: Trio) -> None:
    ann, bob, cid = trio
    for _ in range(12):
        await ann.send_raw("garbage")
    assert (await ann.wait_closed()).code == 1003
    await still_serving(live_server, bob, cid)


@pytest.mark.parametrize("size", [4097, 70_000])
async def test_oversized_frame_is_closed_with_1009(live_server: str, trio: Trio, size: int) -> None:
    ann, bob, cid = trio
    padding = "x" * size
    await ann.send_raw(json.dumps({"type": "join", "name": padding}))
    assert (await ann.wait_closed()).code == 1009
    await still_serving(live_server, bob, cid)


async def test_oversized_binary_frame_is_closed_with_1009(live_server: str, trio: Trio) -> None:
    ann, bob, cid = trio
    await ann.send_raw(b"\x00" * 5000)
    assert (await ann.wait_closed()).code == 1009
    await still_serving(live_server, bob, cid)


async def test_message_before_hello_is_refused(live_server: str, trio: Trio) -> None:
    _, bob, cid = trio
    async with ws_connect(ws_url(live_server, bob.room), proxy=None) as raw:
        await raw.send(json.dumps({"type": "call", "version": bob.version}))
        reply = json.loads(await asyncio.wait_for(raw.recv(), 5))
        assert reply["type"] == "error" and reply["code"] == "hello_first"
    await still_serving(live_server, bob, cid)


async def test_unknown_room_is_closed_with_4004(live_server: str) -> None:
    with pytest.raises(Disconnected) as closed:
        await Client.connect(live_server, "no-such-room")
    assert closed.value.code == 4004


# --- claims the rules refuse ---------------------------------------------------------------


async def test_pick_with_a_card_not_on_the_table(live_server: str, trio: Trio) -> None:
    ann, bob, cid = trio
    await ann.call()
    await ann.wait_update(lambda s: s["holder"] == ann.player)
    stranger = absent(ann.table)
    await ann.pick([*ann.table[:2], stranger])
    error = await ann.wait_error()
    assert error.code == "not_on_table" and stranger in str(error)
    assert ann.state is not None and ann.state["holder"] == ann.player  # nothing changed
    assert ann.me is not None and ann.me["score"] == 0
    await ann.pick(not_a_set(ann.table))  # resolve the call, then others play on
    await ann.wait_event("wrong_call")
    await still_serving(live_server, bob, ann, cid)


@pytest.mark.parametrize(
    "cards",
    [["9XYZ", "1RSD", "2GTO"], ["1rsd", "1RSD", "1RSD"], ["1RSD", "1RSD", "2GTO"], ["", "", ""]],
)
async def test_pick_with_bad_or_duplicate_cards(
    live_server: str, trio: Trio, cards: list[str]
) -> None:
    ann, bob, cid = trio
    await ann.call()
    await ann.wait_update(lambda s: s["holder"] == ann.player)
    await ann.send("pick", cards=cards, version=ann.version)
    error = await ann.wait_error()
    assert error.code in ("bad_card", "bad_pick", "bad_message", "not_on_table"), error
    assert ann.me is not None and ann.me["score"] == 0
    await ann.pick(not_a_set(ann.table))
    await ann.wait_event("wrong_call")
    await still_serving(live_server, bob, ann, cid)


async def test_forged_token_gets_no_seat(live_server: str, trio: Trio) -> None:
    ann, bob, cid = trio
    forger = await Client.connect(live_server, ann.room, token="forged-" + (ann.token or "")[:8])
    try:
        assert forger.player is None and forger.welcome["you"] is None  # a spectator
        await forger.call()
        assert (await forger.wait_error()).code == "not_seated"
        await forger.pick(forger.table[:3])
        assert (await forger.wait_error()).code == "not_seated"
        assert bob.state is not None and bob.state["holder"] is None
    finally:
        await forger.close()
    await still_serving(live_server, ann, bob, cid)


async def test_real_token_resumes_only_its_own_seat(live_server: str, trio: Trio) -> None:
    ann, bob, cid = trio
    again = await Client.connect(live_server, ann.room, token=bob.token)
    try:
        assert again.player == bob.player != ann.player
    finally:
        await again.close()
    await still_serving(live_server, cid, ann, bob)


async def test_reconnect_with_token_and_since_resumes_the_seat(
    live_server: str, trio: Trio
) -> None:
    ann, bob, cid = trio
    await ann.close()
    await still_serving(live_server, bob, cid)  # play goes on while Ann is away
    back = await ann.reconnect()  # the same token, since = the last version Ann saw
    try:
        if bob.version < back.version:  # Bob's last update may still be on its way
            await bob.wait_update(lambda state: state["version"] >= back.version)
        assert back.player == ann.player and back.version == bob.version
        missed = [event["type"] for event in back.welcome["missed"]]  # flat, in order
        assert "called" in missed and ("set_taken" in missed or "wrong_call" in missed)
        await still_serving(live_server, back, bob, cid)
    finally:
        await back.close()


async def test_action_for_another_seat_is_refused(live_server: str, trio: Trio) -> None:
    ann, bob, cid = trio
    await ann.send("call", version=ann.version, player=bob.player)
    assert (await ann.wait_error()).code == "bad_message"
    await ann.send("join", name="Mallory", token=bob.token)
    assert (await ann.wait_error()).code == "bad_message"
    assert bob.state is not None and bob.state["holder"] is None
    await still_serving(live_server, bob, ann, cid)


async def test_spectator_cannot_act(live_server: str, trio: Trio) -> None:
    _, bob, cid = trio
    watcher = await Client.connect(live_server, bob.room)
    try:
        for send in (watcher.start, watcher.call, watcher.no_set, watcher.again, watcher.leave):
            await send()
            assert (await watcher.wait_error()).code == "not_seated"
    finally:
        await watcher.close()
    await still_serving(live_server, bob, cid)


async def test_second_join_on_one_connection_is_refused(trio: Trio) -> None:
    ann, _, _ = trio
    with pytest.raises(ServerError) as refused:
        await ann.join("Ann again")
    assert refused.value.code == "already_seated"


async def test_actions_while_another_holds_the_board(live_server: str, trio: Trio) -> None:
    ann, bob, cid = trio
    await bob.call()
    await bob.wait_update(lambda s: s["holder"] == bob.player)
    await ann.wait_update(lambda s: s["holder"] == bob.player)
    sets = table_sets(ann.state)
    for act in (ann.call(), ann.pick(sets[0] if sets else ann.table[:3]), ann.no_set()):
        await act
        assert (await ann.wait_error()).code == "board_held"
    assert bob.state is not None and bob.state["holder"] == bob.player
    await bob.pick(not_a_set(bob.table))
    await bob.wait_event("wrong_call")
    await still_serving(live_server, cid, ann, bob)


async def test_stale_version_is_refused(live_server: str, trio: Trio) -> None:
    ann, bob, cid = trio
    await ann.call(version=ann.version - 1)
    error = await ann.wait_error()
    assert error.code == "stale_version" and str(ann.version - 1) in str(error)
    await ann.call(version=ann.version + 5)
    assert (await ann.wait_error()).code == "stale_version"
    await ann.call()
    await ann.wait_update(lambda s: s["holder"] == ann.player)
    await ann.pick(not_a_set(ann.table), version=ann.version - 1)
    assert (await ann.wait_error()).code == "stale_version"
    await ann.pick(not_a_set(ann.table))
    await ann.wait_event("wrong_call")
    await still_serving(live_server, bob, ann, cid)


# --- floods -------------------------------------------------------------------------------


async def flood(client: Client, kind: str, count: int = 500) -> None:
    """Send ``count`` messages as fast as possible (the server may close meanwhile)."""
    try:
        for _ in range(count):
            await client.send(kind)
    except Disconnected:
        pass


async def test_flood_is_closed_with_1008(live_server: str, trio: Trio) -> None:
    ann, bob, cid = trio
    await flood(ann, "ping")
    assert (await ann.wait_closed()).code == 1008
    await still_serving(live_server, bob, cid)


async def test_call_flood_is_closed_with_1008_and_the_board_is_free(
    live_server: str, trio: Trio
) -> None:
    ann, bob, cid = trio
    await flood(ann, "no_set")
    assert (await ann.wait_closed()).code == 1008
    await still_serving(live_server, bob, cid)
