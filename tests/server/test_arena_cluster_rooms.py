"""An arena's rooms on a cluster (PostgreSQL + Redis, ``docs/cluster.md``, "Arenas"), in
process on the cluster's own objects (``open_cluster``): the rooms an arena opens for its
pairings are the server's, not a person's, so the per-address creation rate
(``SETGAME_ROOMS_PER_MINUTE``, ``SETGAME_ROOMS_BURST``, kept in Redis for every process) does
not bound them (a 1,000-player arena pairs everyone, round after round, under the default
room limits); and a game whose room moves to another process counts with the result that
process gives it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections.abc import AsyncIterator, Callable

import pytest
import sqlalchemy as sa

from setgame.rules.cards import card_names
from setgame.rules.sets import find_sets
from setgame.server.arena_settings import ArenaLimits, ArenaSettings
from setgame.server.arena_tables import arena_games
from setgame.server.arenas import Arena, Record
from setgame.server.cluster import ClusterRooms, open_cluster
from setgame.server.cluster.lease import owner_key
from setgame.server.cluster.mirror import MirrorRoom
from setgame.server.cluster.node import OwnedRoom
from setgame.server.cluster.quota import rate_key
from setgame.server.limits import Limits
from setgame.server.rooms import Room
from setgame.server.storage import Storage

from .roomkit import FakeConnection
from .test_cluster import cluster_db  # noqa: F401  (a fixture: a database for this test)


@contextlib.asynccontextmanager
async def cluster_rooms(url: str, redis_url: str, limits: Limits) -> AsyncIterator[ClusterRooms]:
    """One process of a cluster, in this test's event loop: its storage, rooms and node."""
    storage = Storage(url, create=True)
    await storage.open()
    rooms = await open_cluster(storage, limits, redis_url)
    await rooms.start(restore=False)
    try:
        yield rooms
    finally:
        await rooms.node.close()
        await rooms.close()
        await storage.close()


async def _arena(rooms: ClusterRooms, players: int) -> Arena:
    now = time.time()
    settings = ArenaSettings(deck="beginner", minutes=180, starts_in_seconds=0)
    record = Record(uuid.uuid4().hex[:12], settings, "running", now, now + 3 * 3600, True)
    arena = Arena(record, rooms, ArenaLimits(players=players, start_seconds=600))
    await asyncio.gather(
        *(arena.enter(f"g:p{i}", f"P{i}", None, 1000 + (i * 7) % 600) for i in range(players))
    )
    for i in range(players):
        conn = FakeConnection()
        conn.player = f"g:p{i}"
        arena.attach(conn)
    return arena


@pytest.mark.slow
async def test_a_1000_player_arena_pairs_everyone_twice_under_the_default_room_limits(
    cluster_db: str, redis_url: str  # noqa: F811
) -> None:
    """Two rounds of 500 rooms: more than the default burst (500) and rate (120 a minute)
    of one address allow; before the fix the second round's rooms were refused
    (``rate_limited``) and its players left waiting."""
    limits = Limits()
    assert limits.rooms_burst <= 500 and limits.rooms_per_minute <= 120  # the defaults
    async with cluster_rooms(cluster_db, redis_url, limits) as rooms:
        arena = await _arena(rooms, 1000)
        try:
            assert await arena.pair_round(time.time()) == 500
            games = list(arena.games.values())
            await asyncio.gather(*(arena.score(game, time.time()) for game in games))
            assert not arena.games and all(p.room is None for p in arena.people.values())
            # everyone has waited the repeat time (a repeat may complete the last pair),
            # not yet the time for a computer player
            later = time.time() + arena.limits.repeat_seconds
            assert later < time.time() + arena.limits.bot_seconds
            assert await arena.pair_round(later) == 500
            assert all(p.room not in (None, "?") for p in arena.people.values())
            # the arena spent no token of a creation rate (people's own are untouched)
            bucket = rate_key(f"arena:{arena.id}")
            assert not await rooms.node.client.exists(bucket)
        finally:
            await arena.close()


async def _take(room: Room, player: str) -> None:
    """``player`` takes a set if the table has one (else the room deals three more)."""
    sets = find_sets(list(room.game.table))
    if not sets:
        await asyncio.sleep(0.05)
        return
    await room.call(player, room.version)
    await room.pick(player, card_names(sets[0]), room.version)


async def _until(check: Callable[[], bool], seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.05)


@pytest.mark.slow
async def test_a_game_whose_room_moves_counts_with_the_rooms_real_result(
    cluster_db: str, redis_url: str  # noqa: F811
) -> None:
    """Two processes (in this event loop): the arena runs on ``a``, its game's room moves to
    ``b`` while Ann leads (``a``'s lease of it lost, ``b`` takes it over), and Bob wins it
    there. Before the fix ``a`` counted it as it stood when it moved (Ann's win)."""
    async with (
        cluster_rooms(cluster_db, redis_url, Limits()) as a,
        cluster_rooms(cluster_db, redis_url, Limits()) as b,
    ):
        arena = await _arena(a, 2)
        try:
            assert await arena.pair_round(time.time()) == 1
            (game,) = arena.games.values()
            room, seat = game.room, {key: pid for pid, key in game.seats.items()}
            ann, bob = seat["g:p0"], seat["g:p1"]
            await room.start(ann)
            await _take(room, ann)
            assert room.game.players[ann].score == 1
            await a.node.client.delete(owner_key(room.id))  # a's lease of it runs out
            moved = await b.load(room.id)  # b takes the room over, from the stored log
            assert isinstance(moved, OwnedRoom) and moved.version == room.version
            await _until(lambda: room.broken)  # a's lease check drops its room
            await arena._cap_games(time.time())  # the arena's round notices and follows it
            assert arena.games == {room.id: game} and isinstance(game.room, MirrorRoom)
            while moved.phase == "playing":  # Bob takes every set left, on b
                await _take(moved, bob)
            await _until(lambda: not arena.games)  # a's mirror heard the end: counted
            totals = {pid: moved.game.players[pid].total for pid in (ann, bob)}
            assert totals[bob] > totals[ann]
            points = {row["name"]: (row["points"], row["games"]) for row in arena.rows()}
            assert points == {"P1": (2, 1), "P0": (0, 1)}
            async with a.storage.reading() as conn:
                query = sa.select(arena_games.c.result).where(arena_games.c.game == game.game)
                stored = json.loads((await conn.execute(query)).scalar_one())
            assert stored == {"g:p1": {"finish": "won", "points": 2},
                              "g:p0": {"finish": "lost", "points": 0}}
        finally:
            await arena.close()
