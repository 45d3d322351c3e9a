"""Every room a server holds: creating them (within the caps), restoring them after a
restart, loading back rooms that left memory, the index of the public list, and the sweep
that closes abandoned rooms and deletes old games (``docs/deploy.md``, "Retention").

Rooms with a game in progress are always in memory (all come back at a restart): a room
leaves memory only when nobody has had it open for ``abandon_seconds``, and then its
unfinished game is deleted. So the database holds no game in progress that no room in
memory owns, and the sweep needs only memory to find abandoned rooms. (The exception: a
room closed by a storage error leaves memory with its game as stored; it comes back when
someone opens it, or at the next restart, and is swept from then on.)
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

import msgspec

from setgame.analysis.ratings import FAMILIES
from setgame.rules import game as engine
from setgame.server import protocol as p
from setgame.server.bounds import JoinBounds
from setgame.server.limits import Limits
from setgame.server.moderation_tables import is_closed
from setgame.server.puzzle import utc_now
from setgame.server.rooms import Room, engine_settings, new_id
from setgame.server.storage import OUTAGES, RoomRecord, Storage, StorageError

log = logging.getLogger(__name__)

PUBLIC_LIST: Final = 100
"""Rooms ``GET /api/rooms`` lists at most (the newest)."""
DAY: Final = 86400.0
ONLINE_SECONDS: Final = 5.0
"""How long the count of people online (``GET /api/online``) is kept before it is redone."""
DELETE_BATCH: Final = 500
"""Games deleted in one transaction (abandoned rooms, expired games)."""
ARENA_MODE: Final = "arena"
"""How a room the server makes for an arena's pairing counts (``create(capped=False)``):
server-wide only, never against a person's caps nor their creation rate."""


class RoomLimit(Exception):
    """A room that may not be created now; ``status`` is the HTTP status to answer;
    ``rooms``: the ids of the rooms that count against the address (``too_many_rooms``)."""

    def __init__(
        self, code: str, status: int, message: str, rooms: list[str] | None = None
    ) -> None:
        super().__init__(message)
        self.code, self.status = code, status
        self.rooms = rooms or []


def too_many_rooms(rooms: list[str], cap: int) -> RoomLimit:
    """The refusal of a room over the per-address cap, naming the rooms that count."""
    return RoomLimit(
        "too_many_rooms",
        429,
        f"your address has {len(rooms)} open multiplayer rooms (at most {cap}): "
        "play in one of them, or leave one",
        sorted(rooms),
    )


@dataclass
class Rooms:
    """Every room this server holds in memory."""

    storage: Storage
    limits: Limits = field(default_factory=Limits)
    rooms: dict[str, Room] = field(default_factory=dict)
    listed: dict[str, Room] = field(default_factory=dict)  # the public list's rooms, unordered
    by_client: dict[str, set[str]] = field(default_factory=dict)  # rooms in memory per creator
    on_room: list[Callable[[Room], None]] = field(default_factory=list)
    puzzle_key: bytes = b""  # deals the daily puzzles (keys.py; set at start, before rooms)
    _loading: asyncio.Lock = field(default_factory=asyncio.Lock)
    _sweeper: asyncio.Task[None] | None = None
    _online: tuple[float, int] = (-ONLINE_SECONDS - 1.0, 0)  # (when counted, count)
    outages: ClassVar[tuple[type[BaseException], ...]] = OUTAGES
    """What loading a room may raise while the storage (or a cluster's Redis) is down."""

    async def down(self) -> list[str]:
        """The services this process needs that do not answer now (``/api/health``)."""
        return [] if await self.storage.ping() else ["database"]

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
            if room is None and len(self.rooms) >= self.limits.room_cap:
                log.warning(
                    "room %s not loaded: %d rooms in memory (the cap)", rid, len(self.rooms)
                )
                return None
            if room is None and not await is_closed(self.storage, rid):  # by a moderator
                room = await self._bring_back(rid)  # (a cluster's way too: node.open)
        return room

    async def _bring_back(self, rid: str) -> Room | None:
        """A room not in memory, from the database (a cluster owns or mirrors it: ``cluster/``)."""
        record = await self.storage.room_record(rid)
        return None if record is None else self._revive(record)

    def _make(self, rid: str, settings: p.RoomSettings) -> Room:
        """A room object (a cluster's rooms are of their own kind: ``cluster/``)."""
        return Room(rid, settings, self.storage)

    def _keyed(self, room: Room) -> Room:
        room.puzzle_key = self.puzzle_key
        return room

    async def _admit(self, rid: str, client: str, mode: str = "multi") -> None:
        """Before a new room is claimed: a cluster counts it against the caps of every
        process here (``cluster/quota.py``); one process has counted it in ``by_client``."""

    async def _claim(self, rid: str) -> None:
        """Before a new room is first written: a cluster takes its ownership here."""

    def _revive(self, record: RoomRecord) -> Room | None:
        try:
            room = self._keyed(self._make(record.id, p.RoomSettings(**record.settings)))
            room.restore(record)
        except Exception:  # one bad room must not stop the others (nor the server)
            log.exception("%s: room %s cannot be restored; skipped", self.storage.where, record.id)
            return None
        self._add(room)
        return room

    async def create(
        self, settings: p.RoomSettings, client: str = "?", *, capped: bool = True
    ) -> Room:
        """A new room, created by ``client`` (an address); :class:`RoomLimit` over a cap.
        ``capped`` false: a room the server makes itself (an arena's game: its own limits,
        ``arenas.py``), bounded only by the server's cap, as a room of one player is."""
        settings = _check_settings(settings)
        counted = settings.mode if capped else ARENA_MODE  # only "multi" counts per address
        self._check_caps(client, counted)
        await self._make_room_for(client)
        room = self._keyed(self._make(new_id(6), settings))
        room.creator = client
        self.by_client.setdefault(client, set()).add(room.id)  # counts while it is created
        try:
            await self._admit(room.id, client, counted)
            await self._claim(room.id)
            room.created = await self.storage.create_room(
                room.id, p.settings_dict(settings), settings.public
            )
            await room.new_game()
            for _ in range(settings.bots):
                await room.add_bot(settings.bot_level)
        except BaseException:
            self._forget_creator(room)
            raise
        self._add(room)  # visible (and its bots driven) once it is complete
        return room

    def _check_caps(self, client: str, mode: str = "multi") -> None:
        cap = self.limits
        if len(self.rooms) >= cap.room_cap:
            raise RoomLimit("server_full", 503, f"the server holds {cap.room_cap} rooms: try later")
        if mode != "multi":  # one player's games are never refused because of other rooms
            return
        mine = self.counting(client)
        if len(mine) >= cap.rooms_per_client:
            raise too_many_rooms(mine, cap.rooms_per_client)

    def counting(self, client: str) -> list[str]:
        """The rooms of ``client`` (an address) in memory that count against its cap
        (:meth:`Room.counts_for_creator`)."""
        now, left = time.monotonic(), self.limits.left_seconds
        counted = []
        for rid in self.by_client.get(client, ()):
            room = self.rooms.get(rid)  # None: being created now, so it counts
            if room is None or room.counts_for_creator(now, left):
                counted.append(rid)
        return counted

    async def _make_room_for(self, client: str) -> None:
        """Rooms nobody has open and that no longer count (finished, left, one player's)
        leave memory, the longest idle first, while ``client`` holds ``rooms_per_client``
        or more: an address is never refused for them, and never fills the server with
        them either. A finished game stays stored (its replay; the room comes back when
        opened); an unfinished one is deleted as an abandoned room's is."""
        now, cap = time.monotonic(), self.limits
        mine = [self.rooms[rid] for rid in self.by_client.get(client, ()) if rid in self.rooms]
        spare = [
            room
            for room in mine
            if room.idle(now, cap.away_grace) and not room.counts_for_creator(now, cap.left_seconds)
        ]
        spare.sort(key=lambda room: room.last_active)
        over = len(mine) + 1 - cap.rooms_per_client
        if over > 0 and spare:
            await self._close(spare[:over], now, cap.away_grace)

    def _forget_creator(self, room: Room) -> None:
        mine = self.by_client.get(room.creator or "")
        if mine is not None:
            mine.discard(room.id)
            if not mine:
                del self.by_client[room.creator or ""]

    def _add(self, room: Room) -> None:
        room.joins = JoinBounds(
            self.limits.seats_per_client, self.limits.joins_per_minute, self.limits.join_burst
        )
        room.away_grace = self.limits.away_grace
        room.seat_sockets = self.limits.seat_sockets
        room.chat_share = self.limits.chat_client_lines
        room.on_listing = self._relist
        room.on_change.append(self._relist)
        self.rooms[room.id] = room
        self._relist(room)
        for callback in self.on_room:
            callback(room)

    def _relist(self, room: Room) -> None:
        """Keep the public list's index current: called whenever a room's listing may
        change (a connection comes or goes, an action is stored, the room breaks)."""
        if room.listed() and self.rooms.get(room.id) is room:
            self.listed[room.id] = room
        else:
            self.listed.pop(room.id, None)

    async def start(self, *, restore: bool = True) -> int:
        """Bring back every room with a game in progress (unless ``restore`` is false) and
        start the sweep; returns how many rooms came back (none of them listed until
        someone connects to it)."""
        self._sweeper = asyncio.create_task(self._sweep(), name="room-sweeper")
        if not restore:
            return 0
        restored = [self._revive(record) for record in await self.storage.live_rooms()]
        return sum(room is not None for room in restored)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            try:
                await self.sweep()
            except StorageError as exc:  # named by storage; the next sweep tries again
                log.error("sweep: %s", exc)

    async def sweep(self, now: float | None = None) -> tuple[list[str], int]:
        """Close abandoned rooms and delete games past their retention; returns the rooms
        closed and the number of old games deleted."""
        closed = await self.close_abandoned(now)
        return closed, await self.expire_games()

    async def close_abandoned(self, now: float | None = None) -> list[str]:
        """Rooms nobody has had open for ``abandon_seconds`` leave memory; an unfinished
        game of theirs is deleted (a finished one stays, for its replay)."""
        now = time.monotonic() if now is None else now
        after = self.limits.abandon_seconds
        gone = [room for room in self.rooms.values() if room.broken or room.idle(now, after)]
        closed, unfinished = await self._close(gone, now, after)
        if closed:
            log.info(
                "%d abandoned rooms closed, %d unfinished games deleted",
                len(closed),
                len(unfinished),
            )
        return closed

    async def _close(
        self, gone: list[Room], now: float, after: float
    ) -> tuple[list[str], list[Room]]:
        """Take ``gone`` out of memory (each still idle at ``now`` for ``after`` seconds), deleting
        their unfinished games; returns the rooms closed and those whose game was deleted."""
        closed, unfinished = [], []
        for room in gone:
            if not (room.broken or room.idle(now, after)):
                continue  # something happened while an earlier room was being closed
            self._remove(room)
            if not room.broken and room.game_id and room.phase != "match_over":
                unfinished.append(room)
            await room.close()
            closed.append(room.id)
        for start in range(0, len(unfinished), DELETE_BATCH):
            batch = unfinished[start : start + DELETE_BATCH]
            await self.storage.delete_games([r.game_id for r in batch], [r.id for r in batch])
        return closed, unfinished

    def _remove(self, room: Room) -> None:
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        self.listed.pop(room.id, None)
        self._forget_creator(room)

    async def expire_games(self) -> int:
        """Delete finished games older than ``retention_days`` (with their actions, and
        their rooms once no game is left); rooms that never got a game go too."""
        before = time.time() - self.limits.retention_days * DAY
        current = {room.game_id for room in self.rooms.values()}
        old = await self.storage.expired_games(before, DELETE_BATCH)
        expired = [(g, r) for g, r in old if g not in current]
        if expired:
            await self.storage.delete_games(
                [g for g, _ in expired], sorted({r for _, r in expired})
            )
            log.info("retention: %d finished games deleted", len(expired))
        await self.storage.delete_orphan_rooms(before)
        return len(expired)

    def online(self) -> int:
        """The people with a room open now (its page's connections, seated or watching, on
        this process), counted at most every ``ONLINE_SECONDS``: the home page asks often."""
        now = time.monotonic()
        if now - self._online[0] > ONLINE_SECONDS:
            count = sum(len(room.conns) for room in self.rooms.values())
            self._online = (now, count)
        return self._online[1]

    def public(self) -> list[dict[str, Any]]:
        """The newest listed rooms: O(listed) from the index, never O(rooms)."""
        newest = heapq.nlargest(PUBLIC_LIST, self.listed.values(), key=lambda r: r.created)
        return [room.summary() for room in newest]

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for room in self.rooms.values():
            await room.close()


def _check_settings(settings: p.RoomSettings) -> p.RoomSettings:
    """The settings checked (GameError ``bad_setting`` quoting a bad one), the variant by
    its canonical name (``UltraSet`` is stored as ``ultraset``)."""
    checked = engine_settings(settings)  # the engine's checks: deck, variant, table, day
    if settings.rated and (settings.mode != "multi" or FAMILIES.get(checked.variant) is None):
        raise engine.GameError(
            "bad_setting",
            f"{settings.mode!r} games of {checked.variant!r} are not rated: "
            "rated must be false or absent",
        )
    if settings.mode != "multi" and settings.bots:
        raise engine.GameError(
            "bad_setting", f"{settings.mode!r} games have one player: bots must be 0"
        )
    if checked.day:  # the engine has no clock: the server refuses a puzzle not out yet
        today = utc_now().date()
        if checked.day > today.isoformat():  # both YYYY-MM-DD: text order is date order
            raise engine.GameError(
                "bad_setting",
                f"day {checked.day!r} is in the future (today is {today.isoformat()} UTC)",
            )
    return msgspec.structs.replace(settings, variant=checked.variant)
