"""Storage: the append-only action log, group commits, restoring rooms; SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from setgame.server.storage import SeatRow, Storage, StorageError, actions, database_url


@pytest.fixture(params=["sqlite", "postgresql"])
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    url = str(tmp_path / "s.db")
    if request.param == "postgresql":
        url = request.getfixturevalue("postgres_url")
    store = Storage(url)
    await store.open()
    yield store
    await store.close()


def uid() -> str:
    return uuid.uuid4().hex[:12]


def test_database_url_forms(tmp_path: Path) -> None:
    assert database_url(tmp_path / "x.db") == f"sqlite+aiosqlite:///{tmp_path / 'x.db'}"
    assert database_url(None).endswith("/setgame.db")
    assert database_url("sqlite:///a.db") == "sqlite+aiosqlite:///a.db"
    assert database_url("postgresql://u:p@h:5/d") == "postgresql+asyncpg://u:p@h:5/d"
    assert database_url("postgresql+asyncpg://h/d") == "postgresql+asyncpg://h/d"


def test_unsupported_database_url_is_quoted() -> None:
    with pytest.raises(StorageError, match=r"'mysql://h/d'"):
        database_url("mysql://h/d")


async def make_game(store: Storage, *, actions_: int = 0) -> tuple[str, str]:
    room, game = uid(), uid()
    await store.create_room(room, {"mode": "multi"}, True)
    await store.create_game(game, room, 42, {"mode": "multi"})
    for v in range(1, actions_ + 1):
        await store.append(game, v, v / 10, {"type": "tick", "at": v / 10})
    return room, game


async def test_actions_come_back_in_version_order(storage: Storage) -> None:
    _, game = await make_game(storage)
    await asyncio.gather(
        *(storage.append(game, v, v * 0.5, {"type": "tick", "at": v * 0.5}) for v in (3, 1, 2))
    )
    rows = await storage.actions(game)
    assert [r.version for r in rows] == [1, 2, 3]
    assert rows[1].at == 1.0 and rows[1].action == {"type": "tick", "at": 1.0}


async def test_concurrent_appends_share_commits(storage: Storage) -> None:
    _, game = await make_game(storage)
    before = storage.commits
    await asyncio.gather(*(storage.append(game, v, 0.0, {"n": v}) for v in range(1, 201)))
    assert len(await storage.actions(game)) == 200
    assert storage.commits - before < 100  # grouped: far fewer commits than writes


async def test_a_failing_write_fails_alone(storage: Storage) -> None:
    _, game = await make_game(storage, actions_=1)
    results = await asyncio.gather(
        storage.append(game, 1, 0.0, {"dup": True}),  # version 1 exists: refused
        storage.append(game, 2, 0.0, {"ok": True}),
        return_exceptions=True,
    )
    assert isinstance(results[0], Exception) and results[1] is None
    assert [r.version for r in await storage.actions(game)] == [1, 2]


async def test_append_with_seat_is_one_write(storage: Storage) -> None:
    room, game = await make_game(storage)
    seat = SeatRow("p1", "Ann", "h" * 64, None)
    await storage.append(game, 1, 0.0, {"type": "join"}, room=room, seat=seat)
    assert await storage.seats(room) == [seat]
    await storage.remove_seat(room, "p1")
    assert await storage.seats(room) == []


async def test_live_rooms_restores_the_newest_game_in_progress(storage: Storage) -> None:
    room, old = await make_game(storage, actions_=2)
    await storage.finish_game(old)
    await asyncio.sleep(0.01)  # the newer game is created later
    new = uid()
    await storage.create_game(new, room, 7, {"mode": "multi"})
    await storage.append(new, 3, 0.1, {"type": "tick", "at": 0.1})
    await storage.append(
        new, 4, 0.2, {"type": "tick", "at": 0.2}, room=room, seat=SeatRow("b1", "Bot 1", None, 3)
    )
    finished_room, finished = await make_game(storage, actions_=1)
    await storage.finish_game(finished)

    records = {r.id: r for r in await storage.live_rooms(keep_finished=0)}
    assert room in records and finished_room not in records
    record = records[room]
    assert record.game.id == new and record.game.seed == 7
    assert [a.version for a in record.actions] == [3, 4]
    assert record.version == 4
    assert record.seats == [SeatRow("b1", "Bot 1", None, 3)]
    finished_row = await storage.game(finished)
    assert finished_row is not None and finished_row.status == "finished"
    assert finished_row.finished is not None
    recent = {r.id: r for r in await storage.live_rooms()}  # finished within the hour
    assert recent[finished_room].game.status == "finished"


async def test_a_new_game_without_actions_keeps_the_room_version(storage: Storage) -> None:
    room, old = await make_game(storage, actions_=5)
    await storage.finish_game(old)
    await asyncio.sleep(0.01)
    await storage.create_game(uid(), room, 1, {})
    (record,) = [r for r in await storage.live_rooms() if r.id == room]
    assert record.actions == [] and record.version == 5


async def test_the_log_is_append_only_rows(storage: Storage) -> None:
    _, game = await make_game(storage, actions_=3)
    async with storage.engine.connect() as conn:
        count = await conn.scalar(
            sa.select(sa.func.count()).select_from(actions).where(actions.c.game == game)
        )
    assert count == 3


async def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    store = Storage(str(tmp_path / "w.db"))
    await store.open()
    try:
        async with store.engine.connect() as conn:
            mode = await conn.scalar(sa.text("PRAGMA journal_mode"))
        assert mode == "wal"
    finally:
        await store.close()


async def test_writes_after_close_are_refused(tmp_path: Path) -> None:
    store = Storage(str(tmp_path / "c.db"))
    await store.open()
    await store.close()
    with pytest.raises(RuntimeError, match="not open"):
        await store.create_room("r", {}, True)
