"""Every arena of a server: creating them (within the limits), bringing back those not
finished at a start (their standings and games in progress), the host's schedule, the list.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import logging
import secrets
import time
from typing import Any, Final

import sqlalchemy as sa

from setgame.analysis.ratings import FAMILIES, NEW, Rating
from setgame.server import arena_settings as cfg
from setgame.server.account_tables import ratings
from setgame.server.arena_caps import Caps, insert_within
from setgame.server.arena_cluster import CHECK_SECONDS, Ownership
from setgame.server.arena_relay import Relay
from setgame.server.arena_tables import arena_games, arena_players, arenas
from setgame.server.arenas import (
    LISTED,
    Arena,
    ArenaGame,
    Record,
    decode_record,
    restored,
    stored_play,
)
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
        self.arenas: dict[str, Arena] = {}  # the arenas this process owns (and runs)
        self.finished: list[dict[str, Any]] = []  # the last public ones, newest first
        self._tasks: list[asyncio.Task[None]] = []
        self._lock = asyncio.Lock()
        node = getattr(rooms, "node", None)  # several processes: one owner per arena
        self.cluster = None if node is None else Ownership(node)
        self.relay = None if node is None else Relay(self, node)

    async def start(self) -> None:
        """Bring back the arenas not finished (running ones go on; their games in progress
        are watched again), then keep the schedule. In a cluster, each process takes the
        arenas whose lease is free, now and whenever an owner goes away."""
        async with self.storage.reading() as conn:
            await self._recent_finished(conn)
        if self.relay is not None:
            await self.relay.start()
        await self.adopt()
        self._tasks.append(asyncio.create_task(self._keep_schedule(), name="arena-schedule"))
        if self.cluster is not None:
            self._tasks.append(asyncio.create_task(self._keep_owned(), name="arena-owners"))

    async def adopt(self) -> list[str]:
        """Take and run every arena not finished that no process runs (one process: all of
        them, at its start); the ids taken."""
        query = arenas.select().where(arenas.c.status != "finished")
        async with self.storage.reading() as conn:
            rows = [r for r in (await conn.execute(query)).all() if r.id not in self.arenas]
        taken = []
        for row in rows:
            if self.cluster is not None and not await self.cluster.take(row.id):
                continue
            async with self.storage.reading() as conn:  # read after the token: all of it
                arena = await self._restore(conn, row.id)
            if arena is not None and arena.status != "finished":
                await self._watch_again(arena)
                self._add(arena)
                taken.append(arena.id)
        return taken

    async def _restore(self, conn: Any, aid: str) -> Arena | None:
        row = (await conn.execute(arenas.select().where(arenas.c.id == aid))).first()
        if row is None:
            return None
        people = (await conn.execute(
            arena_players.select().where(arena_players.c.arena == aid))).all()
        return restored(decode_record(row), people, self.rooms, self.limits)

    async def _keep_owned(self) -> None:
        """A cluster: renew this process's arenas' leases (an arena whose lease is lost
        stops here: another process runs it), and take the arenas left free."""
        assert self.cluster is not None
        while True:
            await asyncio.sleep(CHECK_SECONDS)
            try:
                owned = [a for a in self.arenas.values() if a.status != "finished"]
                kept = await self.cluster.renew([a.id for a in owned])
                for arena, ok in zip(owned, kept, strict=True):
                    if not ok:
                        log.warning("arena %s: lease lost; another process runs it", arena.id)
                        self.arenas.pop(arena.id, None)
                        await arena.close()
                        arena.let_go()
                await self.adopt()
            except OUTAGES as exc:
                log.error("arenas: owners not checked: %s", exc)
            except Exception:
                log.exception("arenas: owners not checked")

    async def _watch_again(self, arena: Arena) -> None:
        """The arena's games not yet counted: watched again while their game goes on,
        wherever its room is now (here, or mirrored from another process); a game over
        meanwhile counts now, with its stored result if its room has begun another game.
        A game whose room is gone never counts."""
        query = arena_games.select().where(
            arena_games.c.arena == arena.id, arena_games.c.scored.is_(None)
        )
        async with self.storage.reading() as conn:
            games = (await conn.execute(query)).all()
        for row in games:
            room = await self.rooms.load(row.room)
            played = None
            if room is not None and room.game_id != row.game:
                played = await stored_play(self.storage, row.game)
            if room is None or (room.game_id != row.game and played is None):
                continue  # gone: it never counts (its players wait again)
            seats: dict[str, str] = json.loads(row.seats)
            bots = {pid: s.bot_level for pid, s in room.seats.items() if s.bot_level is not None}
            game = ArenaGame(room, row.game, seats, bots, row.started, None)
            arena.games[room.id] = game
            for key in seats.values():
                if key in arena.people:
                    arena.people[key].room = room.id
            if played is None:
                arena.watch(game, room)  # over while the process was down: counted now
            else:
                await arena.score(game, time.time(), played)

    def _add(self, arena: Arena) -> None:
        arena.relay = self.relay
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
        """A new arena; :class:`RoomLimit` over a limit. The limits per account and per
        address count the arenas not finished in the database, as they are inserted
        (``arena_caps.py``: every process of a cluster sees the same figure, and a burst of
        creates on several processes cannot pass them together); this process's own cap
        is checked under a lock."""
        async with self._lock:
            self._check_cap()
            now = time.time()
            start = now + self.limits.scaled(settings.starts_in_seconds)
            start = start if starts_at is None else starts_at
            aid = secrets.token_urlsafe(6) if schedule is None else _scheduled_id(schedule, start)
            if self.cluster is not None and not await self.cluster.take(aid):
                raise RoomLimit("server_busy", 503, "the arena cannot be made now: try later")
            record = Record(
                aid, settings, "waiting", start,
                start + self.limits.scaled(settings.minutes * 60), settings.private,
                schedule, account, name, address, now,
            )
            caps = Caps(account, address, self.limits.per_account, self.limits.per_client)
            try:
                await insert_within(self.storage, _record_row(record), caps)
            except BaseException:
                if self.cluster is not None:  # its lease goes at once (else it runs out)
                    with contextlib.suppress(Exception):
                        await self.cluster.release(aid)
                raise
            arena = Arena(record, self.rooms, self.limits)
            self._add(arena)
        return arena

    def _check_cap(self) -> None:
        """The arenas this process runs (its memory and its pairing loops): at most ``cap``."""
        live = [a for a in self.arenas.values() if a.status != "finished"]
        if len(live) >= self.limits.cap:
            raise RoomLimit("server_full", 503, f"the server holds {len(live)} arenas: try later")

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
            if await self._exists(_scheduled_id(entry.name, start)):
                continue  # made already: here, before a restart, or by another process
            try:
                made.append(await self.create(
                    entry.settings(), account=None, name=None, address=None,
                    schedule=entry.name, starts_at=start,
                ))
            except sa.exc.IntegrityError:
                continue  # another process made it at the same moment
            except RoomLimit as exc:  # another process is making it (its lease), or full here
                log.info("arena schedule %s: not made here now: %s", entry.name, exc)
        return made

    async def _exists(self, aid: str) -> bool:
        if aid in self.arenas:
            return True
        async with self.storage.reading() as conn:
            query = sa.select(arenas.c.id).where(arenas.c.id == aid)
            return (await conn.execute(query)).first() is not None

    # --- finding them ------------------------------------------------------------------------

    async def load(self, aid: str) -> Arena | None:
        """An arena this process runs, or else as stored (a finished one; in a cluster, one
        another process runs: its standings as of its last result, not run here)."""
        if len(aid) > 64:
            return None
        arena = self.arenas.get(aid)
        if arena is not None:
            return arena
        async with self.storage.reading() as conn:
            return await self._restore(conn, aid)

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
        """Stop every arena here; in a cluster, let their leases go at once, so that another
        process takes them over without waiting for the leases to run out."""
        for task in self._tasks:
            task.cancel()
        if self.relay is not None:
            await self.relay.close()
        for arena in list(self.arenas.values()):
            await arena.close()
            if self.cluster is not None and arena.status != "finished":
                try:
                    await self.cluster.release(arena.id)
                except Exception as exc:  # Redis is down: the lease runs out by itself
                    log.warning("arena %s: lease not let go: %s", arena.id, exc)


def _scheduled_id(name: str, start: float) -> str:
    """A scheduled arena's id: the same in every process (a second insert fails)."""
    digest = hashlib.sha256(f"{name}@{start:.0f}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:6]).decode()


def _record_row(r: Record) -> dict[str, Any]:
    return {
        "id": r.id, "settings": json.dumps(cfg.as_dict(r.settings)), "status": r.status,
        "starts_at": r.starts_at, "ends_at": r.ends_at, "private": r.private,
        "schedule": r.schedule, "creator": r.creator, "creator_name": r.creator_name,
        "address": r.address, "created": r.created, "finished": r.finished,
    }
