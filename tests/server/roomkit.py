"""Helpers for in-process tests of rooms: a fake connection, a registry over a real
SQLite file, and playing a practice game to its end."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from setgame.rules.cards import card_names
from setgame.rules.sets import find_sets
from setgame.server.limits import Limits
from setgame.server.protocol import RoomSettings
from setgame.server.registry import Rooms
from setgame.server.rooms import Room
from setgame.server.storage import Storage


class FakeConnection:
    """What a room needs of a connection; keeps what it was sent."""

    def __init__(self) -> None:
        self.player: str | None = None
        self.sent: list[str] = []
        self.closed: int | None = None

    def send(self, text: str) -> None:
        self.sent.append(text)

    def close(self, code: int, reason: str = "") -> None:
        self.closed = code
        self.reason = reason


@contextlib.asynccontextmanager
async def registry(
    path: Path, limits: Limits | None = None, *, restore: bool = False, create: bool = True
) -> AsyncIterator[Rooms]:
    """A started :class:`Rooms` over the SQLite file ``path``; closed afterwards."""
    storage = Storage(str(path), create=create)
    await storage.open()
    rooms = Rooms(storage, limits or Limits())
    await rooms.start(restore=restore)
    try:
        yield rooms
    finally:
        await rooms.close()
        await storage.close()


async def practice_to_the_end(rooms: Rooms, client: str = "10.0.0.1") -> Room:
    """A practice room on the beginner deck, played to its end by one person who then
    closes the page (so nobody is connected)."""
    room = await rooms.create(RoomSettings(mode="practice", deck="beginner"), client)
    conn = FakeConnection()
    room.attach(conn)
    player = await room.join(conn, "Ann", client)
    await room.start(player)
    while room.phase == "playing":
        sets = find_sets(list(room.game.table))
        if sets:
            cards = card_names(sets[0])
            await room.pick(player, cards, room.version)
        else:
            await room.no_set(player)
    assert room.phase == "match_over", room.phase
    room.detach(conn)
    return room
