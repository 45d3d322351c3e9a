"""Retention in the database, on SQLite and PostgreSQL: which games are old, and deleting
them with their actions, seats and rooms (``docs/deploy.md``, "Retention")."""

from __future__ import annotations

import time

import sqlalchemy as sa

from setgame.server.storage import SeatRow, Storage, games, rooms, seats

from .test_storage import make_game, storage, uid

__all__ = ["storage"]  # the fixture, parametrized over SQLite and PostgreSQL


async def _count(store: Storage, table: sa.Table, **where: str) -> int:
    query = sa.select(sa.func.count()).select_from(table)
    for key, value in where.items():
        query = query.where(table.c[key] == value)
    async with store.engine.connect() as conn:
        return int(await conn.scalar(query) or 0)


async def test_old_finished_games_are_found_and_deleted_with_their_rooms(storage: Storage) -> None:
    room, old = await make_game(storage, actions_=3)
    await storage.append(old, 4, 0.4, {"n": 4}, room=room, seat=SeatRow("p1", "Ann", None, None))
    await storage.finish_game(old)
    _, playing = await make_game(storage, actions_=2)  # in progress: never expired
    cutoff = time.time() + 1  # everything finished before now is "old"
    expired = await storage.expired_games(cutoff)
    assert (old, room) in expired and all(g != playing for g, _ in expired)
    assert await storage.expired_games(time.time() - 3600) == []  # nothing that old
    await storage.delete_games([old], [room])
    assert await storage.game(old) is None and await storage.actions(old) == []
    assert await _count(storage, seats, room=room) == 0
    assert await _count(storage, rooms, id=room) == 0
    assert await storage.game(playing) is not None


async def test_a_room_with_another_game_left_is_kept(storage: Storage) -> None:
    room, first = await make_game(storage, actions_=1)
    await storage.finish_game(first)
    second = uid()
    await storage.create_game(second, room, 7, {"mode": "multi"})
    await storage.delete_games([first], [room])
    assert await _count(storage, rooms, id=room) == 1
    assert await _count(storage, games, room=room) == 1


async def test_rooms_that_never_got_a_game_are_deleted_after_the_retention(
    storage: Storage,
) -> None:
    orphan = uid()
    await storage.create_room(orphan, {"mode": "multi"}, True)
    await storage.delete_orphan_rooms(time.time() - 3600)  # too young: kept
    assert await _count(storage, rooms, id=orphan) == 1
    await storage.delete_orphan_rooms(time.time() + 1)
    assert await _count(storage, rooms, id=orphan) == 0
