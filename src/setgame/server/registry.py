"""Every room a server holds: creating them, restoring them after a restart, loading
back rooms that left memory, and letting idle ones go."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from setgame import game as engine
from setgame.server import protocol as p
from setgame.server.rooms import Room, engine_settings, new_id
from setgame.server.storage import RoomRecord, Storage

log = logging.getLogger(__name__)

SWEEP_SECONDS: Final = 60.0
"""How often idle rooms are looked for (see ``rooms.IDLE_SECONDS``)."""


@dataclass
class Rooms:
    """Every room this server holds in memory."""

    storage: Storage
    rooms: dict[str, Room] = field(default_factory=dict)
    on_room: list[Callable[[Room], None]] = field(default_factory=list)
    _loading: asyncio.Lock = field(default_factory=asyncio.Lock)
    _sweeper: asyncio.Task[None] | None = None

    def get(self, rid: str) -> Room | None:
        """The room if it is in memory (see :meth:`load`)."""
        room = self.rooms.get(rid)
        return None if room is None or room.broken else room

    async def load(self, rid: str) -> Room | None:
        """The room, brought back from the database when it left memory; None if unknown."""
        room = self.get(rid)
        if room is not None or len(rid) > 64:
            return room
        async with self._loading:
            room = self.get(rid)
            if room is None:
                record = await self.storage.room_record(rid)
                room = None if record is None else self._revive(record)
        return room

    def _revive(self, record: RoomRecord) -> Room | None:
        try:
            room = Room(record.id, p.RoomSettings(**record.settings), self.storage)
            room.restore(record)
        except (ValueError, TypeError):
            log.exception("room %s cannot be restored", record.id)
            return None
        self._add(room)
        return room

    async def create(self, settings: p.RoomSettings) -> Room:
        _check_settings(settings)
        room = Room(new_id(6), settings, self.storage)
        room.created = await self.storage.create_room(
            room.id, p.settings_dict(settings), settings.public
        )
        await room.new_game()
        for _ in range(settings.bots):
            await room.add_bot(settings.bot_level)
        self._add(room)  # visible (and its bots driven) once it is complete
        return room

    def _add(self, room: Room) -> None:
        self.rooms[room.id] = room
        for callback in self.on_room:
            callback(room)

    async def start(self, *, restore: bool = True) -> int:
        """Bring back every room with a game in progress (unless ``restore`` is false) and
        start evicting idle rooms; returns how many rooms came back."""
        self._sweeper = asyncio.create_task(self._sweep(), name="room-sweeper")
        if not restore:
            return 0
        restored = [self._revive(record) for record in await self.storage.live_rooms()]
        return sum(room is not None for room in restored)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            await self.evict_idle()

    async def evict_idle(self, now: float | None = None) -> list[str]:
        """Let idle rooms leave memory (they stay in the database)."""
        now = time.monotonic() if now is None else now
        idle = [room for room in self.rooms.values() if room.idle(now)]
        for room in idle:
            del self.rooms[room.id]
            await room.close()
        return [room.id for room in idle]

    def public(self) -> list[dict[str, Any]]:
        live = [r for r in self.rooms.values() if r.settings.public and not r.broken]
        live.sort(key=lambda r: -r.created)
        return [r.summary() for r in live if r.phase != "match_over"][:100]

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for room in self.rooms.values():
            await room.close()


def _check_settings(settings: p.RoomSettings) -> None:
    engine_settings(settings)  # GameError for a bad deck
    if settings.mode != "multi" and settings.bots:
        raise engine.GameError(
            "bad_setting", f"{settings.mode!r} games have one player: bots must be 0"
        )
