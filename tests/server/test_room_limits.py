"""Issue 7, rooms and players: bounded joins per client and room (item 4), the public list
from an index (item 6), caps on rooms, retention and the list of rooms where someone is
present (item 7). In process, over a real SQLite file; a few over a real server."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from setgame.rules.game import GameError
from setgame.server.bounds import ADDRESSES
from setgame.server.client import Client, ServerError
from setgame.server.limits import Limits
from setgame.server.protocol import RoomSettings
from setgame.server.registry import RoomLimit, Rooms
from setgame.server.rooms import Room

from .roomkit import FakeConnection, practice_to_the_end, registry

DAY = 86400.0


# --- item 4: joins per client and room -------------------------------------------------


async def test_one_address_cannot_take_every_seat(tmp_path: Path) -> None:
    async with registry(tmp_path / "r.db", Limits(seats_per_client=3)) as rooms:
        room = await rooms.create(RoomSettings(), "10.0.0.1")
        for name in ("A", "B", "C"):
            await room.join(FakeConnection(), name, "10.0.0.9")
        with pytest.raises(GameError) as refused:
            await room.join(FakeConnection(), "D", "10.0.0.9")
        assert refused.value.code == "too_many_seats" and "at most 3" in str(refused.value)
        await room.join(FakeConnection(), "Eve", "10.0.0.10")  # others still get in
        assert len(room.game.present()) == 4


async def test_a_seat_left_is_free_again_for_its_address(tmp_path: Path) -> None:
    async with registry(tmp_path / "r.db", Limits(seats_per_client=1)) as rooms:
        room = await rooms.create(RoomSettings(), "10.0.0.1")
        conn = FakeConnection()
        room.attach(conn)
        await room.join(conn, "A", "10.0.0.9")
        await room.leave(conn)
        await room.join(conn, "A again", "10.0.0.9")
        assert [p.name for p in room.game.present()] == ["A again"]


async def test_join_leave_cycles_are_rate_bounded_and_state_stays_small(tmp_path: Path) -> None:
    limits = Limits(join_burst=5, joins_per_minute=60)
    async with registry(tmp_path / "r.db", limits) as rooms:
        room = await rooms.create(RoomSettings(), "10.0.0.1")
        await room.join(FakeConnection(), "Host", "10.0.0.1")
        await room.start(next(iter(room.seats)))  # cycles during play: the attack
        conn = FakeConnection()
        room.attach(conn)
        refused = []
        begun = time.monotonic()
        for n in range(40):
            try:
                await room.join(conn, f"G{n}", "10.6.6.6")
            except GameError as exc:
                refused.append(exc.code)
                continue
            await room.leave(conn)
        refilled = (time.monotonic() - begun) * 60 / 60  # joins_per_minute=60: one a second
        assert 40 - len(refused) <= 5 + int(refilled) + 1  # the burst, and what refilled
        assert set(refused) == {"joining_too_fast"}
        assert "wait" in str(await _refusal(room, conn, "10.6.6.6"))
        # what the server keeps per player stays small: one seat, the host's
        assert list(room.seats) == [room.game.order[0]]
        assert len(json.dumps(room.view(None))) < 4000
        await room.join(FakeConnection(), "Neighbour", "10.0.0.2")  # another address: fine


async def _refusal(room: Room, conn: FakeConnection, client: str) -> GameError:
    with pytest.raises(GameError) as info:
        await room.join(conn, "X", client)
    return info.value


async def test_join_buckets_per_room_are_bounded() -> None:
    from setgame.server.bounds import JoinBounds

    bounds = JoinBounds(6, 6.0, 12)
    for n in range(ADDRESSES * 4):
        bounds.take(f"10.{n // 256}.{n % 256}.1", now=float(n))
    assert len(bounds._buckets) == ADDRESSES


async def test_seats_per_client_through_a_real_socket(server_factory: Any) -> None:
    server = server_factory(env={"SETGAME_SEATS_PER_CLIENT": "2"})
    async with httpx.AsyncClient(base_url=str(server), trust_env=False) as http:
        room = (await http.post("/api/rooms", json={})).json()["id"]
    clients = [await Client.connect(str(server), room) for _ in range(3)]
    try:
        await clients[0].join("A")
        await clients[1].join("B")
        with pytest.raises(ServerError) as refused:
            await clients[2].join("C")
        assert refused.value.code == "too_many_seats"
    finally:
        await asyncio.gather(*(c.close() for c in clients))


# --- item 6: the public list from an index ---------------------------------------------


def _fill(rooms: Rooms, count: int) -> None:
    """``count`` rooms in memory that nobody has open (not listed), without the database."""
    for n in range(count):
        rooms._add(Room(f"idle{n}", RoomSettings(), rooms.storage))


def _best_time(rooms: Rooms, runs: int = 7) -> float:
    best = float("inf")
    for _ in range(runs):
        begun = time.perf_counter()
        rooms.public()
        best = min(best, time.perf_counter() - begun)
    return best


async def test_public_list_costs_the_listed_rooms_not_all_rooms(tmp_path: Path) -> None:
    async with registry(tmp_path / "r.db") as rooms:
        listed = []
        for _ in range(5):
            room = await rooms.create(RoomSettings(), "10.0.0.1")
            room.attach(FakeConnection())  # someone has the lobby open
            listed.append(room.id)
        few = _best_time(rooms)
        _fill(rooms, 20_000)  # as in the issue: 20,500 rooms
        many = _best_time(rooms)
        assert [r["id"] for r in rooms.public()] == listed[::-1]  # newest first
        assert many < 3 * few + 0.002, (few, many)


async def test_the_index_follows_the_rooms(tmp_path: Path) -> None:
    async with registry(tmp_path / "r.db") as rooms:
        room = await rooms.create(RoomSettings(), "10.0.0.1")
        secret = await rooms.create(RoomSettings(public=False), "10.0.0.1")
        assert rooms.public() == []  # nobody there yet
        conn, other = FakeConnection(), FakeConnection()
        room.attach(conn)
        secret.attach(other)
        assert [r["id"] for r in rooms.public()] == [room.id]
        player = await room.join(conn, "Ann", "10.0.0.2")
        await room.start(player)
        assert [r["id"] for r in rooms.public()] == [room.id]
        assert rooms.public()[0]["players"] == ["Ann"]
        room.detach(conn)  # the only player closes the page: abandoned, not listed
        assert rooms.public() == []
        watcher = FakeConnection()
        room.attach(watcher)  # a spectator alone does not list a room in play
        assert rooms.public() == []
        room.attach(conn)
        assert [r["id"] for r in rooms.public()] == [room.id]
        room._break()
        assert rooms.public() == []


async def test_restored_rooms_are_listed_only_once_someone_is_back(tmp_path: Path) -> None:
    async with registry(tmp_path / "r.db") as rooms:
        room = await rooms.create(RoomSettings(), "10.0.0.1")
        conn = FakeConnection()
        room.attach(conn)
        await room.start(await room.join(conn, "Ann", "10.0.0.1"))
        rid, token_conn = room.id, conn
    async with registry(tmp_path / "r.db", restore=True) as rooms:
        back = rooms.get(rid)
        assert back is not None and back.phase == "playing"
        assert rooms.public() == []
        token_conn.player = next(iter(back.seats))
        back.attach(token_conn)
        assert [r["id"] for r in rooms.public()] == [rid]


# --- item 7: caps on rooms ---------------------------------------------------------------


async def test_global_and_per_client_room_caps(tmp_path: Path) -> None:
    async with registry(tmp_path / "r.db", Limits(room_cap=4, rooms_per_client=2)) as rooms:
        await rooms.create(RoomSettings(), "10.0.0.1")
        await rooms.create(RoomSettings(), "10.0.0.1")
        with pytest.raises(RoomLimit) as mine:
            await rooms.create(RoomSettings(), "10.0.0.1")
        assert (mine.value.code, mine.value.status) == ("too_many_rooms", 429)
        await rooms.create(RoomSettings(), "10.0.0.2")
        await rooms.create(RoomSettings(), "10.0.0.3")
        with pytest.raises(RoomLimit) as full:
            await rooms.create(RoomSettings(), "10.0.0.4")
        assert (full.value.code, full.value.status) == ("server_full", 503)
        assert len(rooms.rooms) == 4


async def test_room_caps_over_http(server_factory: Any) -> None:
    server = server_factory(env={"SETGAME_ROOMS_PER_CLIENT": "3"})
    async with httpx.AsyncClient(base_url=str(server), trust_env=False) as http:
        answers = [await http.post("/api/rooms", json={}) for _ in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    assert answers[-1].json()["code"] == "too_many_rooms"
    assert "at most 3" in answers[-1].json()["message"]


# --- item 7: retention -------------------------------------------------------------------


async def test_abandoned_rooms_close_and_old_games_are_deleted(tmp_path: Path) -> None:
    """With an abandon time of 0.5 s, a retention of 3 s and a sweep every 0.1 s: an
    abandoned room in play is closed and deleted; a finished game keeps its replay for the
    retention, then goes too; the memory of both is given back."""
    limits = Limits(abandon_seconds=0.5, retention_days=3 / DAY, sweep_seconds=0.1)
    async with registry(tmp_path / "r.db", limits) as rooms:
        storage = rooms.storage
        left = await rooms.create(RoomSettings(), "10.0.0.1")  # nobody ever comes
        done = await practice_to_the_end(rooms, "10.0.0.1")
        assert await storage.game(done.game_id) is not None
        await _until(lambda: not rooms.rooms, 5.0)
        assert rooms.listed == {} and rooms.by_client == {}
        assert left.broken and done.broken
        assert await storage.room_record(left.id) is None  # the abandoned game is deleted
        finished = await storage.game(done.game_id)
        assert finished is not None and finished.status == "finished"  # its replay stays
        assert len(await storage.actions(done.game_id)) > 5
        for _ in range(100):
            if await storage.game(done.game_id) is None:
                break
            await asyncio.sleep(0.1)
        assert await storage.game(done.game_id) is None  # retention over: deleted
        assert await storage.actions(done.game_id) == []
        assert await storage.room_record(done.id) is None
        assert await rooms.load(done.id) is None


async def test_a_room_someone_has_open_is_never_abandoned(tmp_path: Path) -> None:
    limits = Limits(abandon_seconds=0.2, sweep_seconds=0.05)
    async with registry(tmp_path / "r.db", limits) as rooms:
        room = await rooms.create(RoomSettings(), "10.0.0.1")
        room.attach(FakeConnection())
        await asyncio.sleep(0.6)
        assert rooms.get(room.id) is room and not room.broken


async def _until(check: Any, timeout: float) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.05)
