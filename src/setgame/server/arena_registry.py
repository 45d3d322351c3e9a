"""Every arena of a server: creating them (within the limits), bringing back those not
finished at a start (their standings and games in progress), the host's schedule, the list.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Sequence
from typing import Any, Final

import sqlalchemy as sa

from setgame.analysis.ratings import FAMILIES, NEW, Rating
from setgame.server import arena_settings as cfg
from setgame.server.account_tables import ratings
from setgame.server.arena_tables import arena_games, arena_players, arenas
from setgame.server.arenas import LISTED, Arena, ArenaGame, Record, decode_record, restored
from setgame.server.registry import RoomLimit, Rooms
from setgame.server.storage import OUTAGES

log = logging.getLogger(__name__)

SCHEDULE_SECONDS: Final = 30.0
"""How often the host's schedule is looked at (an arena due is made then)."""
FORGET_SECONDS: Final = 600.0
"""A finished arena leaves memory this long after its end."""


class Arenas:
    """The arenas of this process (one owner each)."""

    def __init__(self, rooms: Rooms, limits: cfg.ArenaLimits) -> None:
        self.rooms = rooms
        self.storage = rooms.storage
        self.limits = limits
        self.schedule = cfg.schedule(limits.file)
        self.arenas: dict[str, Arena] = {}
        self.finished: list[dict[str, Any]] = []  # the last public ones, newest first
        self._scheduler: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    async def start(self) -> None:
        """Bring back the arenas not finished (running ones go on; their games in progress
        are watched again), then keep the schedule."""
        async with self.storage.reading() as conn:
            rows = (await conn.execute(arenas.select().where(arenas.c.status != "finished"))).all()
            for row in rows:
                people = (await conn.execute(
                    arena_players.select().where(arena_players.c.arena == row.id))).all()
                games = (await conn.execute(arena_games.select().where(
                    arena_games.c.arena == row.id, arena_games.c.scored.is_(None)))).all()
                arena = restored(decode_record(row), people, self.rooms, self.limits)
                await self._watch_again(arena, games)
                self._add(arena)
            await self._recent_finished(conn)
        self._scheduler = asyncio.create_task(self._keep_schedule(), name="arena-schedule")

    async def _watch_again(self, arena: Arena, games: Sequence[Any]) -> None:
        for row in games:
            room = await self.rooms.load(row.room)
            seats: dict[str, str] = json.loads(row.seats)
            if room is None or room.game_id != row.game:
                continue  # gone: it never counts (its players wait again)
            bots = {pid: s.bot_level for pid, s in room.seats.items() if s.bot_level is not None}
            game = ArenaGame(room, row.game, seats, bots, row.started, None)
            arena.games[room.id] = game
            for key in seats.values():
                if key in arena.people:
                    arena.people[key].room = room.id
            room.on_change.append(arena._room_changed)
            arena._room_changed(room)  # over while the process was down: counted now

    def _add(self, arena: Arena) -> None:
        self.arenas[arena.id] = arena
        arena.on_finish.append(self._finished)
        arena.start()

    def _finished(self, arena: Arena) -> None:
        if not arena.record.private:
            self.finished.insert(0, arena.summary())
            del self.finished[20:]
        # out of memory a while after its end (its sockets keep their object; the API and
        # new sockets read it back from the database): finished arenas do not pile up
        asyncio.get_running_loop().call_later(FORGET_SECONDS, self.arenas.pop, arena.id, None)

    async def _recent_finished(self, conn: Any) -> None:
        query = (arenas.select().where(arenas.c.status == "finished", arenas.c.private.is_(False))
                 .order_by(arenas.c.finished.desc()).limit(20))
        for row in (await conn.execute(query)).all():
            self.finished.append(Arena(decode_record(row), self.rooms, self.limits).summary())

    # --- making arenas -------------------------------------------------------------------------

    async def create(
        self, settings: cfg.ArenaSettings, *, account: str | None, name: str | None,
        address: str | None, schedule: str | None = None, starts_at: float | None = None,
    ) -> Arena:
        """A new arena; :class:`RoomLimit` over a limit (the caps are checked under a lock,
        so that a burst of requests cannot pass them together)."""
        async with self._lock:
            self._check_caps(account, address)
            now = time.time()
            start = now + self.limits.scaled(settings.starts_in_seconds)
            start = start if starts_at is None else starts_at
            record = Record(
                secrets.token_urlsafe(6), settings, "waiting", start,
                start + self.limits.scaled(settings.minutes * 60), settings.private,
                schedule, account, name, address, now,
            )
            await self.storage.write((arenas.insert().values(_record_row(record)), {}))
            arena = Arena(record, self.rooms, self.limits)
            self._add(arena)
        return arena

    def _check_caps(self, account: str | None, address: str | None) -> None:
        live = [a for a in self.arenas.values() if a.status != "finished"]
        if len(live) >= self.limits.cap:
            raise RoomLimit("server_full", 503, f"the server holds {len(live)} arenas: try later")
        mine = [a for a in live if account is not None and a.record.creator == account]
        if account is not None and len(mine) >= self.limits.per_account:
            raise RoomLimit("too_many_arenas", 429, f"your account has {len(mine)} arenas not "
                            f"finished (at most {self.limits.per_account})")
        here = [a for a in live if address is not None and a.record.address == address]
        if address is not None and len(here) >= self.limits.per_client:
            raise RoomLimit("too_many_arenas", 429, f"your address has {len(here)} arenas not "
                            f"finished (at most {self.limits.per_client})")

    async def _keep_schedule(self) -> None:
        while True:
            try:
                await self.keep_schedule(time.time())
            except OUTAGES as exc:
                log.error("arena schedule: %s", exc)
            await asyncio.sleep(SCHEDULE_SECONDS)

    async def keep_schedule(self, now: float) -> list[Arena]:
        """Make each schedule entry's next arena once it is within its announcement time
        (and not made yet: a restart makes none twice); the arenas made."""
        made = []
        for entry in self.schedule:
            start = entry.next_start(now)
            if start - now > entry.announce_minutes * 60:
                continue
            if any(a.record.schedule == entry.name and a.record.starts_at == start
                   for a in self.arenas.values()):
                continue
            made.append(await self.create(
                entry.settings(), account=None, name=None, address=None,
                schedule=entry.name, starts_at=start,
            ))
        return made

    # --- finding them ------------------------------------------------------------------------

    async def load(self, aid: str) -> Arena | None:
        """An arena of this process, or a finished one read from the database."""
        if len(aid) > 64:
            return None
        arena = self.arenas.get(aid)
        if arena is not None:
            return arena
        async with self.storage.reading() as conn:
            row = (await conn.execute(arenas.select().where(arenas.c.id == aid))).first()
            if row is None or row.status != "finished":
                return None
            people = (await conn.execute(
                arena_players.select().where(arena_players.c.arena == aid))).all()
        return restored(decode_record(row), people, self.rooms, self.limits)

    def listed(self) -> dict[str, Any]:
        """``GET /api/arenas``: the public ones running, then coming, and the last finished."""
        live = [a for a in self.arenas.values()
                if not a.record.private and a.status != "finished"]
        live.sort(key=lambda a: (a.status != "running", a.record.starts_at))
        return {"arenas": [a.summary() for a in live[:LISTED]], "finished": self.finished}

    async def rating(self, account: str | None, variant: str) -> int:
        """The shown rating of ``account`` in the variant's family (1000 for a guest)."""
        family = FAMILIES.get(variant)
        if account is None or family is None:
            return NEW.display
        query = sa.select(ratings).where(ratings.c.account == account, ratings.c.family == family)
        async with self.storage.reading() as conn:
            row = (await conn.execute(query)).first()
        return NEW.display if row is None else Rating(row.mu, row.sigma, row.games).display

    async def close(self) -> None:
        if self._scheduler is not None:
            self._scheduler.cancel()
        for arena in self.arenas.values():
            await arena.close()


def _record_row(r: Record) -> dict[str, Any]:
    return {
        "id": r.id, "settings": json.dumps(cfg.as_dict(r.settings)), "status": r.status,
        "starts_at": r.starts_at, "ends_at": r.ends_at, "private": r.private,
        "schedule": r.schedule, "creator": r.creator, "creator_name": r.creator_name,
        "address": r.address, "created": r.created, "finished": r.finished,
    }
