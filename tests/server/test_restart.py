"""A server killed (SIGKILL) mid-game and started again restores every room by replaying
its stored actions; nothing a player saw acknowledged is lost."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from typing import Any

import httpx
import pytest

from setgame.server.client import Client, Disconnected, create_room, table_sets

pytestmark = pytest.mark.slow


async def seated(server: Any, n: int = 2, **settings: Any) -> tuple[str, list[Client]]:
    """A started room of ``n`` players; ``no_set="auto"`` unless told, so a set is always
    on the table."""
    room = await create_room(str(server), **({"no_set": "auto"} | settings))
    clients = []
    for name in ("Ann", "Bob", "Cid")[:n]:
        client = await Client.connect(str(server), room)
        await client.join(name)
        clients.append(client)
    await clients[0].start()
    for client in clients:
        await client.wait_update(lambda s: s["phase"] == "playing")
    return room, clients


async def take_a_set(client: Client) -> None:
    cards = table_sets(client.state)[0]
    await client.call()
    await client.wait_update(lambda s: s["holder"] == client.player)
    await client.pick(cards)
    await client.wait_event("set_taken")


async def synced(clients: list[Client]) -> None:
    """Wait until every client has seen the same (latest) version."""
    for _ in range(500):
        if len({c.version for c in clients}) == 1:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"clients disagree: {[c.version for c in clients]}")


def not_a_set(table: list[str]) -> tuple[str, ...]:
    return next(t for t in itertools.combinations(table, 3) if not table_sets({"table": t}))


async def close_all(clients: list[Client]) -> None:
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)


async def test_every_room_comes_back_after_kill_9(fresh_server: Any) -> None:
    rooms: dict[str, tuple[list[Client], dict[str, Any]]] = {}
    for n, penalty in ((2, "point"), (3, "lockout"), (2, "both")):
        room, clients = await seated(fresh_server, n, penalty=penalty, no_set="auto")
        await take_a_set(clients[0])
        if n == 3:  # a wrong call: a lockout to restore too
            await synced(clients)
            bob = clients[1]
            await bob.call()
            await bob.wait_update(lambda s, me=bob.player: s["holder"] == me)
            await bob.pick(not_a_set(bob.table))
            await bob.wait_event("wrong_call")
        await synced(clients)
        rooms[room] = (clients, clients[0].state or {})

    fresh_server.restart()  # kill -9, then start on the same port and database
    assert await listed_rooms(fresh_server) == set()  # restored, but nobody is there yet

    for room, (clients, before) in rooms.items():
        for old in clients:
            assert (await old.wait_closed()).code in (1006, 1011, 1012, None)
        back = [
            await Client.connect(str(fresh_server), room, token=c.token, since=c.version)
            for c in clients
        ]
        try:
            state = back[0].state
            assert state is not None
            assert back[0].player == clients[0].player
            assert back[0].welcome["missed"] == []
            for key in ("version", "table", "deck", "holder", "phase", "round"):
                assert state[key] == before[key], key
            assert [(p["id"], p["score"], p["locked"]) for p in state["players"]] == [
                (p["id"], p["score"], p["locked"]) for p in before["players"]
            ]
            await take_a_set(back[-1])  # play goes on, with the same seats
            assert room in await listed_rooms(fresh_server)  # listed again: they are back
        finally:
            await close_all(back)


async def listed_rooms(server: Any) -> set[str]:
    async with httpx.AsyncClient(base_url=str(server), trust_env=False) as http:
        return {r["id"] for r in (await http.get("/api/rooms")).json()}


async def test_a_pick_window_open_at_the_kill_still_expires(fresh_server: Any) -> None:
    # the window must outlast the restart (a few seconds on a busy machine)
    room, (ann, bob) = await seated(fresh_server, pick_seconds=6)
    await ann.call()
    await bob.wait_update(lambda s: s["holder"] == ann.player)
    fresh_server.restart()
    await close_all([ann, bob])
    watcher = await Client.connect(str(fresh_server), room, since=0)
    try:
        assert watcher.state is not None and watcher.state["holder"] == ann.player
        missed = [e["type"] for e in watcher.welcome["missed"]]
        assert missed[-2:] == ["round_started", "called"]
        event = await watcher.wait_event("wrong_call", timeout=12)
        assert event["reason"] == "timeout" and event["player"] == ann.player
    finally:
        await watcher.close()


async def test_nothing_acknowledged_is_lost_when_killed_mid_stream(fresh_server: Any) -> None:
    """A player picks sets as fast as the server answers; the server is killed at a random
    moment. Every version the player saw must be there after the restart."""
    room = await create_room(str(fresh_server), mode="practice", deck="full")
    ann = await Client.connect(str(fresh_server), room)
    await ann.join("Ann")
    await ann.start()
    await ann.wait_update(lambda s: s["phase"] == "playing")

    async def play() -> None:
        while True:
            sets = table_sets(ann.state)
            if ann.state and ann.state["phase"] == "match_over":
                await ann.again()
                await ann.wait_update(lambda s: s["phase"] == "playing", timeout=5)
                continue
            else:
                await (ann.pick(sets[0]) if sets else ann.no_set())
            await ann.wait_update(timeout=5)

    player = asyncio.create_task(play())
    while ann.version < 10 and not player.done():
        await asyncio.sleep(0.01)
    await asyncio.sleep(random.uniform(0.0, 0.5))
    seen = ann.version
    await asyncio.to_thread(fresh_server.kill)
    with pytest.raises((Disconnected, TimeoutError)):
        await player
    seen = max(seen, ann.version)
    assert seen > 3  # it really was playing
    fresh_server.start()
    back = await Client.connect(str(fresh_server), room, token=ann.token)
    try:
        assert back.player == ann.player
        assert back.version >= seen
        assert back.state is not None and back.state["phase"] in ("playing", "match_over")
    finally:
        await close_all([ann, back])


async def test_bots_resume_after_a_restart(fresh_server: Any) -> None:
    room, (ann,) = await seated(fresh_server, 1, bots=1, bot_level=5, no_set="auto")
    fresh_server.restart()
    await ann.close()
    back = await Client.connect(str(fresh_server), room, token=ann.token)
    try:
        event = await back.wait_event("set_taken", timeout=25)
        assert back.seat(event["player"]) is not None
        assert (back.seat(event["player"]) or {})["bot"] == 5
    finally:
        await back.close()


async def test_a_graceful_stop_restores_too(fresh_server: Any) -> None:
    room, clients = await seated(fresh_server)
    await take_a_set(clients[0])
    version = clients[0].version
    fresh_server.restart(graceful=True)
    await close_all(clients)
    back = await Client.connect(str(fresh_server), room, token=clients[1].token)
    try:
        assert back.version == version and back.player == clients[1].player
    finally:
        await back.close()


async def test_postgresql_restores_with_the_same_code(
    server_factory: Any, postgres_url: str
) -> None:
    server = server_factory(postgres_url)
    room, clients = await seated(server, 3, penalty="lockout")
    await take_a_set(clients[2])
    await synced(clients)
    before = clients[0].state or {}
    server.restart()
    await close_all(clients)
    back = await Client.connect(str(server), room, token=clients[2].token, since=before["version"])
    try:
        assert back.player == clients[2].player and back.welcome["missed"] == []
        assert back.state is not None and back.state["table"] == before["table"]
        assert (back.me or {})["score"] == 1
        await take_a_set(back)
    finally:
        await back.close()


async def test_an_idle_finished_room_leaves_memory_and_comes_back_on_demand(
    tmp_path: Any,
) -> None:
    from setgame.server.rooms import IDLE_SECONDS

    from .roomkit import practice_to_the_end, registry

    async with registry(tmp_path / "idle.db") as rooms:
        room = await practice_to_the_end(rooms)
        version, game, seats = room.version, room.game_id, dict(room.seats)
        assert await rooms.close_abandoned() == []  # just active: not idle
        assert await rooms.close_abandoned(time.monotonic() + IDLE_SECONDS + 1) == [room.id]
        assert rooms.get(room.id) is None and room.broken
        back = await rooms.load(room.id)  # finished: it stays for its replay and "again"
        assert back is not None and back is not room
        assert (back.version, back.game_id, back.seats) == (version, game, seats)
        assert [p.name for p in back.game.present()] == ["Ann"]
        assert back.phase == "match_over"
        assert await rooms.load("unknown") is None


async def test_a_failed_write_closes_the_room_and_it_comes_back_from_the_log(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from setgame.server.protocol import RoomSettings

    from .roomkit import FakeConnection, registry

    async with registry(tmp_path / "fail.db") as rooms:
        storage = rooms.storage
        room = await rooms.create(RoomSettings())
        conn = FakeConnection()
        room.attach(conn)
        player = await room.join(conn, "Ann")
        version = room.version

        async def broken_disk(*args: Any, **kwargs: Any) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(storage, "append", broken_disk)
        with pytest.raises(OSError, match="disk full"):
            await room.start(player)
        assert conn.closed == 1011 and room.broken
        assert not any('"round_started"' in text for text in conn.sent)  # never broadcast
        monkeypatch.undo()

        back = await rooms.load(room.id)
        assert back is not None and back is not room
        assert back.version == version and back.phase == "lobby"
        await back.start(player)  # the seat and its token survived
        assert back.phase == "playing"
