"""Several server processes over one PostgreSQL database and one Redis (issue 12,
``docs/cluster.md``): the throwaway services, room ownership with fencing tokens, and three
``setgame serve --redis`` processes playing one room."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from setgame.server.storage import Fenced, Storage


async def test_the_redis_fixture_is_a_private_server_without_persistence(redis_url: str) -> None:
    client = aioredis.from_url(redis_url)
    try:
        assert await client.ping()
        config = await client.config_get("save")
        assert config["save"] == ""  # nothing written to disk: a test's data dies with it
        await client.set("setgame:probe", "1", px=1000)
        assert await client.get("setgame:probe") == b"1"
    finally:
        await client.aclose()


# --- fencing tokens (storage) -------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "fence.db")


@contextlib.asynccontextmanager
async def two_processes(url: str) -> AsyncIterator[tuple[Storage, Storage]]:
    """Two storages on one database, as two server processes hold them."""
    first, second = Storage(url, create=True), Storage(url, create=False)
    await first.open()
    await second.open()
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


def tick(version: int) -> dict[str, Any]:
    return {"type": "tick", "at": version / 10}


async def test_a_takeover_refuses_every_write_of_the_stale_owner(database: str) -> None:
    room, game = uuid.uuid4().hex[:12], uuid.uuid4().hex[:12]
    async with two_processes(database) as (old, new):
        assert await old.take_room(room, "old") >= 1
        await old.create_room(room, {"mode": "multi"}, True)
        await old.create_game(game, room, 7, {"mode": "multi"})
        await old.append(game, 1, 0.1, tick(1), room=room)
        token = await new.take_room(room, "new")
        assert token == old.fences[room] + 1  # monotonic: every takeover a greater token
        with pytest.raises(Fenced, match=rf"room '{room}': fencing token {token - 1} is stale"):
            await old.append(game, 2, 0.2, tick(2), room=room)
        with pytest.raises(Fenced):
            await old.create_game(uuid.uuid4().hex[:12], room, 8, {"mode": "multi"})
        with pytest.raises(Fenced):
            await old.remove_seat(room, "p1")
        assert [a.version for a in await new.actions(game)] == [1]  # nothing of the stale one
        await new.append(game, 2, 0.2, tick(2), room=room)
        assert [a.action for a in await new.actions(game)] == [tick(1), tick(2)]
        assert (await new.room_record(room)).version == 2  # type: ignore[union-attr]


async def test_a_stale_write_fails_alone_in_its_group_commit(database: str) -> None:
    """The writer commits many rooms' actions in one transaction: a fenced one fails by
    itself, the others of its group are stored."""
    async with two_processes(database) as (old, new):
        rooms = [uuid.uuid4().hex[:12] for _ in range(3)]
        games = [uuid.uuid4().hex[:12] for _ in range(3)]
        for room, game in zip(rooms, games, strict=True):
            await old.take_room(room, "old")
            await old.create_room(room, {"mode": "multi"}, True)
            await old.create_game(game, room, 7, {"mode": "multi"})
        await new.take_room(rooms[1], "new")
        results = await asyncio.gather(
            *(old.append(g, 1, 0.1, tick(1), room=r) for r, g in zip(rooms, games, strict=True)),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], Fenced)
        assert [len(await new.actions(g)) for g in games] == [1, 0, 1]


async def test_without_a_token_nothing_is_guarded(database: str) -> None:
    """One process without ``--redis`` takes no room: its writes carry no guard, as before."""
    async with two_processes(database) as (one, _):
        room, game = uuid.uuid4().hex[:12], uuid.uuid4().hex[:12]
        await one.create_room(room, {"mode": "multi"}, True)
        await one.create_game(game, room, 7, {"mode": "multi"})
        await one.append(game, 1, 0.1, tick(1), room=room)
        assert one.fences == {} and len(await one.actions(game)) == 1
