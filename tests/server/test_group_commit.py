"""The grouped commit on PostgreSQL (issue 22, ``pgappend.py``): the actions of many rooms
that arrive together are committed in one statement, each acknowledged only after it."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from roundtrips import Proxy
from setgame.server.storage import Storage, StorageError


def tick(version: int) -> dict[str, Any]:
    return {"type": "tick", "at": version / 10}


@pytest.fixture
async def database(new_database: Callable[[], Awaitable[str]]) -> str:
    """A new, empty database of the test PostgreSQL cluster."""
    return await new_database()


async def rooms_of(storage: Storage, count: int) -> list[tuple[str, str]]:
    """``count`` rooms with a game each, owned (a fencing token) by ``storage``."""
    made = []
    for _ in range(count):
        room, game = uuid.uuid4().hex[:12], uuid.uuid4().hex[:12]
        await storage.take_room(room, "me")
        await storage.create_room(room, {"mode": "multi"}, True)
        await storage.create_game(game, room, 7, {"mode": "multi"})
        made.append((room, game))
    return made


async def versions(url: str, game: str) -> list[int]:
    """The versions of ``game`` committed, as another connection sees them."""
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        rows = await conn.fetch("SELECT version FROM actions WHERE game = $1", game)
    finally:
        await conn.close()
    return sorted(int(r["version"]) for r in rows)


async def test_no_action_is_acknowledged_before_its_grouped_commit(database: str) -> None:
    """A group of three rooms' actions waits on a row lock another transaction holds: none
    of the three callers hears back, and nothing is visible, until the statement commits;
    then all three are acknowledged together, each stored."""
    import asyncpg

    storage = Storage(database)
    await storage.open()
    blocker = await asyncpg.connect(database.replace("postgresql+asyncpg", "postgresql"))
    try:
        made = await rooms_of(storage, 3)
        lock = blocker.transaction()
        await lock.start()
        await blocker.execute("SELECT * FROM room_owners WHERE room = $1 FOR UPDATE", made[1][0])
        writes = [
            asyncio.create_task(storage.append(game, 1, 0.1, tick(1), room=room))
            for room, game in made
        ]
        await asyncio.sleep(0.5)
        assert not any(w.done() for w in writes)  # not acknowledged: not committed yet
        assert [await versions(database, g) for _, g in made] == [[], [], []]
        await lock.commit()
        await asyncio.wait_for(asyncio.gather(*writes), 10)
        assert [await versions(database, g) for _, g in made] == [[1], [1], [1]]
        assert storage.commits >= 1
    finally:
        await blocker.close()
        await storage.close()


async def test_a_failed_grouped_commit_fails_each_action_and_keeps_the_acknowledged(
    database: str,
) -> None:
    """The database goes away while a group is in flight: each action of the group fails
    with a named error (none is acknowledged), and every action acknowledged before is
    still stored."""
    host, port = database.split("@", 1)[1].split("/", 1)[0].split(":")
    proxy = Proxy(host, int(port))
    await proxy.start()
    through = database.replace(f"{host}:{port}", f"127.0.0.1:{proxy.port}")
    storage = Storage(through)
    await storage.open()
    try:
        made = await rooms_of(storage, 3)
        for room, game in made:
            for version in (1, 2):  # acknowledged: committed
                await storage.append(game, version, version / 10, tick(version), room=room)
        await proxy.close()  # the database is cut off: connections closed, none accepted
        results = await asyncio.gather(
            *(storage.append(game, 3, 0.3, tick(3), room=room) for room, game in made),
            return_exceptions=True,
        )
        for result in results:
            assert isinstance(result, StorageError), result
            assert "cannot write to the database" in str(result)
            assert f"127.0.0.1:{proxy.port}" in str(result)  # names the database
        for _, game in made:
            assert (await versions(database, game))[:2] == [1, 2]
    finally:
        await storage.close()


async def test_a_duplicate_in_a_group_fails_alone(database: str) -> None:
    """One room's action that cannot be stored (its version taken) fails the group's
    statement; the group is then written one by one: that action fails alone, the other
    rooms' actions are stored and acknowledged."""
    storage = Storage(database)
    await storage.open()
    try:
        made = await rooms_of(storage, 3)
        room, game = made[1]
        await storage.append(game, 1, 0.1, tick(1), room=room)
        results = await asyncio.gather(
            *(storage.append(g, 1, 0.1, tick(1), room=r) for r, g in made),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert results[1] is not None and "duplicate key" in str(results[1])
        assert [await versions(database, g) for _, g in made] == [[1], [1], [1]]
    finally:
        await storage.close()
