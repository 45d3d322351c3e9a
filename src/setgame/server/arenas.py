"""Arenas on the server (issue 23): each arena's owner runs its life (waiting -> running ->
finished), its pairing loop, its games and its standings; :class:`Arenas` holds them all.

The rules are the pure ``setgame.arena`` (pairing, points, standings); this module carries
them out with the server's clock (Unix seconds, so that a restart keeps the arena's times).
An arena's games are ordinary rooms made through the registry (``registry.Rooms.create``),
each person seated by the arena (``Room.seat_person``) and handed the seat token in a
``paired`` message; the arena watches each room and scores its game when it is over (or as
it stands at its cap, or at the arena's end), following the room wherever it goes (on a
cluster a room may move to another process: the arena then mirrors it, and the result is the
room's own). Every result is stored with the standings it changed in one transaction
(``arena_tables.py``): a restarted process goes on from them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec
import sqlalchemy as sa

from setgame.arena import Entry, GameResult, Waiting, bot_level, finishes, pair, ranked
from setgame.arena import podium as podium_of
from setgame.arena.pairing import bot_display
from setgame.arena.standings import places
from setgame.rules import game as engine
from setgame.rules.game import GameError
from setgame.server import arena_settings as cfg
from setgame.server.arena_relay import Relay
from setgame.server.arena_tables import arena_games, arena_players, arenas
from setgame.server.names import lookalike
from setgame.server.registry import RoomLimit, Rooms
from setgame.server.rooms import Connection, Room, replayed
from setgame.server.storage import OUTAGES, Storage, Write

log = logging.getLogger(__name__)

CLOSE_MOVED: Final = 1012
"""The arena is run by another process (a cluster): reconnect."""
SHOWN: Final = 100
"""Rows of the standings a ``standings`` message carries (the API has them all)."""
LISTED: Final = 100
FINISHED_LISTED: Final = 20
OPENING: Final = 48
"""Rooms a round of pairing opens at a time. A round of a 1,000-player arena opens 500;
all at once (each a lease, a fencing token and a few commits) they held the event loop and
the cluster's Redis pool (100 connections) so long, on a loaded machine, that leases ran out
before their renewal and the rooms were dropped as they were made. Fewer at a time cost one
process (SQLite) its group commits: a round of 500 rooms took 313 ms all at once, 400-520 ms
48 at a time, 770-860 ms 16 at a time (``benchmarks/arena.py``, load average 3)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class Person:
    """A participant as the pairing sees them (the standings are their :class:`Entry`)."""

    key: str
    account: str | None
    token_hash: str
    paused: bool = False
    room: str | None = None  # the room of their game in progress
    since: float = 0.0  # waiting since (Unix seconds)
    last: frozenset[str] = frozenset()  # the opponents of their last game
    out: bool = False  # the arena is over for them


@dataclass(slots=True)
class ArenaGame:
    room: Room
    game: str
    seats: dict[str, str]  # the room's player id -> participant key
    bots: dict[str, int]  # the room's player id -> computer player level
    started: float
    cap_at: float | None


@dataclass(slots=True)
class Record:
    """An arena's stored row."""

    id: str
    settings: cfg.ArenaSettings
    status: str
    starts_at: float
    ends_at: float
    private: bool
    schedule: str | None = None
    creator: str | None = None
    creator_name: str | None = None
    address: str | None = None
    created: float = field(default_factory=time.time)
    finished: float | None = None


class Arena:
    """The owner of one arena: its queue, games, standings and sockets."""

    def __init__(self, record: Record, rooms: Rooms, limits: cfg.ArenaLimits) -> None:
        self.record = record
        self.id = record.id
        self.rooms = rooms
        self.storage: Storage = rooms.storage
        self.limits = limits
        self.entries: dict[str, Entry] = {}
        self.people: dict[str, Person] = {}
        self.games: dict[str, ArenaGame] = {}  # by room id, while in progress
        self.conns: set[Connection] = set()
        self.task: asyncio.Task[None] | None = None
        self._order: list[Entry] | None = None  # the standings, until something changes
        self._places: dict[str, int] = {}  # each key's place in ``_order``
        self._flush: asyncio.TimerHandle | None = None
        self._flushed = 0.0
        self._tasks: set[asyncio.Task[Any]] = set()
        self.on_finish: list[Callable[[Arena], None]] = []
        self._entering = asyncio.Lock()
        self.relay: Relay | None = None  # a cluster: the sockets on other processes
        self.fence = f"arena:{record.id}"  # its writes' fencing token in a cluster (arena_cluster)

    # --- what everyone sees ----------------------------------------------------------------

    @property
    def status(self) -> str:
        return self.record.status

    def summary(self) -> dict[str, Any]:
        r, s = self.record, self.record.settings
        return {
            "id": self.id, "url": f"/arena/{self.id}", "status": r.status,
            "variant": s.variant, "deck": s.deck, "room_size": s.room_size,
            "minutes": s.minutes, "game_minutes": s.game_minutes, "rated": s.rated,
            "private": r.private, "starts_at": r.starts_at, "ends_at": r.ends_at,
            "players": len(self.entries), "schedule": r.schedule, "creator": r.creator_name,
        }

    def standings(self) -> list[Entry]:
        if self._order is None:
            self._order = ranked(self.entries.values())
            self._places = {entry.key: i + 1 for i, entry in enumerate(self._order)}
        return self._order

    def place(self, key: str) -> int:
        self.standings()
        return self._places[key]

    def row(self, entry: Entry, place: int) -> dict[str, Any]:
        person = self.people.get(entry.key)
        return {
            "place": place, "name": entry.name, "points": entry.points, "games": entry.games,
            "wins": entry.wins, "streak": entry.streak, "fire": entry.fire,
            "rating": entry.rating, "performance": entry.performance,
            "state": self.state_of(person), "room": person.room if person else None,
            "bot": False,
        }

    def state_of(self, person: Person | None) -> str:
        if person is None or person.out or self.status == "finished":
            return "out"
        if person.room is not None:
            return "playing"
        return "paused" if person.paused else "waiting"

    def rows(self, limit: int | None = None) -> list[dict[str, Any]]:
        order = self.standings()
        return [self.row(e, i + 1) for i, e in enumerate(order[:limit] if limit else order)]

    def you(self, key: str | None) -> dict[str, Any] | None:
        entry = self.entries.get(key) if key else None
        return None if entry is None else self.row(entry, self.place(entry.key))

    def podium(self) -> list[dict[str, Any]] | None:
        if self.status != "finished":
            return None
        top = podium_of(self.standings())
        return [self.row(e, i + 1) for i, e in enumerate(top)]

    def detail(self) -> dict[str, Any]:
        """``GET /api/arenas/{id}``."""
        games = [
            {"room": g.room.id, "url": f"/room/{g.room.id}",
             "players": [self.entries[k].name for k in g.seats.values() if k in self.entries]}
            for g in self.games.values()
        ]
        return self.summary() | {"standings": self.rows(), "podium": self.podium(), "games": games}

    # --- the standings message ---------------------------------------------------------------

    def changed(self, *, now: bool = False) -> None:
        """The standings changed: everyone hears of it at most once per
        ``standings_seconds`` (``now``: at once, as at the start and the end)."""
        self._order = None
        if now:
            self._send_standings()
            return
        if self._flush is None:
            wait = self._flushed + self.limits.standings_seconds - time.monotonic()
            self._flush = asyncio.get_running_loop().call_later(
                max(0.0, wait), self._send_standings
            )

    def _send_standings(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        self._flushed = time.monotonic()
        remote = self.relay.remote_keys(self.id) if self.relay is not None else set()
        if not self.conns and not remote:
            return
        shared = json.dumps(self._standings_body(), separators=(",", ":"))[:-1]
        if self.relay is not None:  # once for the other processes' sockets, their rows beside
            rows = {k: json.dumps(self.you(k), separators=(",", ":")) for k in remote}
            self.relay.standings(self.id, shared, rows)
        own: dict[str | None, str] = {}  # a participant's row, once for all their sockets
        for conn in list(self.conns):
            text = own.get(conn.player)
            if text is None:
                text = own[conn.player] = json.dumps(self.you(conn.player), separators=(",", ":"))
            conn.send(shared + ',"you":' + text + "}")

    def _standings_body(self) -> dict[str, Any]:
        r = self.record
        return {
            "type": "standings", "arena": self.id, "status": r.status,
            "starts_at": r.starts_at, "ends_at": r.ends_at, "players": len(self.entries),
            "standings": self.rows(SHOWN), "podium": self.podium(),
        }

    def standings_text(self, key: str | None) -> str:
        return json.dumps(self._standings_body() | {"you": self.you(key)}, separators=(",", ":"))

    def tell(self, key: str, message: dict[str, Any]) -> None:
        text = json.dumps(message, separators=(",", ":"))
        for conn in list(self.conns):
            if conn.player == key:
                conn.send(text)
        if self.relay is not None:  # the participant's sockets on other processes
            self.relay.tell(self.id, key, text)

    def queue_message(self, key: str) -> dict[str, Any]:
        person = self.people[key]
        state = self.state_of(person)
        return {"type": "queue", "state": state, "room": person.room}

    # --- entering and the queue --------------------------------------------------------------

    def connected(self, key: str) -> bool:
        """Whether ``key`` has the arena open: here, or on another process (a cluster)."""
        if any(conn.player == key for conn in self.conns):
            return True
        return self.relay is not None and key in self.relay.remote_keys(self.id)

    def attach(self, conn: Connection) -> None:
        person = self.people.get(conn.player or "")
        if person is not None and not self.connected(person.key):
            person.since = time.time()  # back after being away: waits from now
        self.conns.add(conn)

    def detach(self, conn: Connection) -> None:
        self.conns.discard(conn)

    def take_part(self, key: str, token: str) -> bool:
        """Whether ``token`` is ``key``'s (the ``entered`` token)."""
        person = self.people.get(key)
        return person is not None and secrets.compare_digest(person.token_hash, token_hash(token))

    def by_token(self, token: str) -> str | None:
        digest = token_hash(token)
        for person in self.people.values():
            if secrets.compare_digest(person.token_hash, digest):
                return person.key
        return None

    async def enter(self, key: str, name: str, account: str | None, rating: int) -> str:
        """A new participant; their token (``entered``). :class:`GameError` when the arena
        is over, full, or the name is another's (one at a time: the bounds hold under a
        burst of joins)."""
        async with self._entering:
            return await self._enter(key, name, account, rating)

    async def _enter(self, key: str, name: str, account: str | None, rating: int) -> str:
        self._check_open()
        if len(self.entries) >= self.limits.players:
            raise GameError("arena_full", f"this arena has {len(self.entries)} players (the most)")
        named = (entry.name for entry in self.entries.values())
        if key in self.entries or lookalike(name, named) is not None:
            raise GameError("name_taken", f"{name!r} plays in this arena already: choose another")
        token = secrets.token_urlsafe(18)
        now = time.time()
        entry = Entry(key, name, rating, now)
        person = Person(key, account, token_hash(token), since=now)
        row = _player_row(self.id, entry, person)
        await self.storage.write((arena_players.insert().values(row), {}), room=self.fence)
        self.entries[key], self.people[key] = entry, person
        self.changed()
        return token

    def _check_open(self) -> None:
        if self.status == "finished":
            raise GameError("arena_over", f"arena {self.id!r} is over")
        if time.time() > self.last_start():
            raise GameError("arena_closing", "too little time is left for another game")

    def resume(self, key: str) -> None:
        """``join`` again (after ``pause``, or entering anew with one's token)."""
        self._check_open()
        person = self.people[key]
        if person.paused:
            person.since = time.time()  # the wait counts from coming back
        person.paused = False

    def pause(self, key: str) -> None:
        self.people[key].paused = True

    def last_start(self) -> float:
        """The last moment a game may begin: one that could not finish does not."""
        s = self.record.settings
        expected = s.game_minutes * 60 if s.game_minutes else self.limits.game_seconds
        return self.record.ends_at - self.limits.scaled(expected)

    # --- the life of the arena ---------------------------------------------------------------

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"arena {self.id}")

    async def _run(self) -> None:
        try:
            await asyncio.sleep(max(0.0, self.record.starts_at - time.time()))
            if self.status == "waiting":
                await self._set_status("running")
            while self.status == "running" and time.time() < self.record.ends_at:
                try:
                    await self.pair_round(time.time())
                    await self._cap_games(time.time())
                except OUTAGES as exc:  # the next round tries again
                    log.error("arena %s: a round of pairing failed: %s", self.id, exc)
                except Exception:  # a fault of one round must not end the arena
                    log.exception("arena %s: a round of pairing failed", self.id)
                wait = min(self.limits.pair_seconds, self.record.ends_at - time.time())
                await asyncio.sleep(max(0.0, wait))
            if self.status == "running":
                await self._finish()
        except asyncio.CancelledError:
            raise
        except Exception:  # logged; the arena stays as stored, and a restart goes on
            log.exception("arena %s stopped", self.id)

    async def _set_status(self, status: str, finished: float | None = None) -> None:
        values: dict[str, Any] = {"status": status}
        if finished is not None:
            values["finished"] = finished
        await self.storage.write(
            (arenas.update().where(arenas.c.id == self.id).values(values), {}), room=self.fence
        )
        self.record.status = status
        self.record.finished = finished
        self.changed(now=True)

    async def pair_round(self, now: float) -> int:
        """One round of pairing; the number of games opened."""
        waiting = [
            Waiting(k, self.entries[k].points, self.entries[k].rating, p.since, p.last)
            for k, p in self.people.items()
            if not p.paused and not p.out and p.room is None and self.connected(k)
        ]
        if not waiting:
            return 0
        result = pair(
            waiting, self.record.settings.room_size, now,
            bot_after=self.limits.bot_seconds, repeat_after=self.limits.repeat_seconds,
            last_start=self.last_start(),
        )
        groups: list[tuple[tuple[str, ...], int | None]] = [(ks, None) for ks in result.rooms]
        groups += [((k,), bot_level(self.entries[k].rating)) for k in result.bots]
        for keys, _ in groups:
            for key in keys:
                self.people[key].room = "?"  # taken: the next round must not pair them again
        gate = asyncio.Semaphore(OPENING)

        async def opening(keys: tuple[str, ...], bot: int | None) -> bool:
            async with gate:
                return await self._open(keys, bot)

        opened = await asyncio.gather(*(opening(keys, bot) for keys, bot in groups))
        return sum(opened)

    async def _open(self, keys: tuple[str, ...], bot: int | None) -> bool:
        """A room for ``keys`` (and a computer player of level ``bot``); each is told."""
        try:
            room = await self.rooms.create(
                cfg.room_settings(self.record.settings, bot), f"arena:{self.id}", capped=False
            )
            tokens: dict[str, tuple[str, str]] = {}  # key -> (player id, seat token)
            for key in keys:
                entry, person = self.entries[key], self.people[key]
                tokens[key] = await room.seat_person(entry.name, person.account)
        except (RoomLimit, GameError, *OUTAGES) as exc:
            log.error("arena %s: a game for %s cannot be opened: %s", self.id, keys, exc)
            for key in keys:
                self.people[key].room = None
            return False
        except Exception:  # they wait again; the others' rooms open all the same
            log.exception("arena %s: a game for %s cannot be opened", self.id, keys)
            for key in keys:
                self.people[key].room = None
            return False
        seats = {player: key for key, (player, _) in tokens.items()}
        bots = {pid: s.bot_level for pid, s in room.seats.items() if s.bot_level is not None}
        now = time.time()
        cap = self.record.settings.game_minutes
        game = ArenaGame(room, room.game_id, seats, bots, now,
                         now + self.limits.scaled(cap * 60) if cap else None)
        self.games[room.id] = game
        row = {"game": game.game, "arena": self.id, "room": room.id,
               "seats": json.dumps(seats), "started": now}
        try:
            await self.storage.write((arena_games.insert().values(row), {}), room=self.fence)
        except OUTAGES as exc:  # it counts all the same; only its recomputation lacks it
            log.error("arena %s: game %s not listed in the database: %s", self.id, game.game, exc)
        room.on_change.append(self._room_changed)
        for key, (_player, token) in tokens.items():
            self.people[key].room = room.id
            opponents = [self.entries[k].name for k in keys if k != key]
            self.tell(key, {
                "type": "paired", "room": room.id, "url": f"/room/{room.id}", "token": token,
                "opponents": opponents + [f"Bot {i + 1}" for i in range(len(bots))],
                "bot": bool(bots), "game_minutes": cap,
            })
            self.tell(key, self.queue_message(key))
        self._spawn(self._begin(game))
        self.changed()
        return True

    async def _begin(self, game: ArenaGame) -> None:
        """Start the game once every person of it has connected to the room, or after
        ``start_seconds`` (one who never comes plays no part: the others play on)."""
        room = game.room
        deadline = time.monotonic() + self.limits.start_seconds
        while time.monotonic() < deadline and not set(game.seats) <= room.connected():
            await asyncio.sleep(0.05)
        present = [pl.id for pl in room.game.present() if pl.id in game.seats]
        try:
            if not present:
                raise GameError("bad_phase", "nobody is left to start the game")
            await room.start(present[0])
        except (GameError, *OUTAGES) as exc:  # nobody left, or the room closed: as it stands
            log.info("arena %s: room %s not started: %s", self.id, room.id, exc)
            await self.score(game, time.time())

    def _room_changed(self, room: Room) -> None:
        game = self.games.get(room.id)
        if game is not None and room.phase == "match_over" and room.game_id == game.game:
            self._spawn(self.score(game, time.time()))

    def watch(self, game: ArenaGame, room: Room) -> None:
        """Follow ``game`` in ``room`` (the room object this process has of it now: its
        own, or a cluster's mirror of another process's); a game over already counts now."""
        game.room = room
        if self._room_changed not in room.on_change:
            room.on_change.append(self._room_changed)
        self._room_changed(room)

    def _left(self, room: Room) -> bool:
        """Whether this process no longer has ``room`` live: it moved to another process
        of a cluster (its lease lost, or a mirror promoted), or a fault closed it."""
        return room.broken or self.rooms.rooms.get(room.id) is not room

    async def _follow(self, game: ArenaGame, now: float) -> None:
        """``game``'s room left this process: follow the room where it is now (opened
        again: taken over, or mirrored from the process that owns it), so that its result
        is the room's real one, whichever process finishes it. A game no longer its
        room's current one counts from its stored log (``stored_play``): the database
        has every action, whichever process wrote it."""
        try:
            room = await self.rooms.load(game.room.id)
            if room is not None and room.game_id == game.game:
                self.watch(game, room)
                return
            played = await stored_play(self.storage, game.game)
        except self.rooms.outages as exc:  # the next round tries again
            log.error("arena %s: room %s not followed: %s", self.id, game.room.id, exc)
            return
        await self.score(game, now, played)

    async def _cap_games(self, now: float) -> None:
        for game in list(self.games.values()):
            if self._left(game.room):
                await self._follow(game, now)
            if game.cap_at is not None and now >= game.cap_at:
                await self.score(game, now)

    async def score(self, game: ArenaGame, at: float, played: engine.Game | None = None) -> None:
        """Count a game: over, or as it stands (its cap, the arena's end); stored with the
        standings it changed, in one transaction. ``played``: the game as stored (its
        room no longer has it), else as its room has it."""
        if self.games.get(game.room.id) is not game:
            return  # counted already
        del self.games[game.room.id]
        totals, left = _standing(game, played)
        finish, place = finishes(totals, left), places(totals, left)
        result: dict[str, dict[str, Any]] = {}
        ratings = {pid: self.entries[k].rating for pid, k in game.seats.items()}
        ratings |= {pid: bot_display(level) for pid, level in game.bots.items()}
        for pid, key in game.seats.items():
            opponents = tuple(r for other, r in ratings.items() if other != pid)
            outcome = GameResult(finish[pid], place[pid], len(totals), opponents, at)
            points = self.entries[key].record(outcome)
            result[key] = {"finish": finish[pid], "points": points}
            person = self.people[key]
            person.room, person.since = None, at
            person.last = frozenset(k for k in game.seats.values() if k != key)
        writes: list[Write] = [
            (arena_games.update().where(arena_games.c.game == game.game)
             .values(scored=at, result=json.dumps(result)), {})
        ]
        writes += [self._entry_write(key) for key in game.seats.values()]
        try:
            await self.storage.write(*writes, room=self.fence)
        except OUTAGES as exc:
            log.error("arena %s: the result of game %s is not stored: %s", self.id, game.game, exc)
        for key in game.seats.values():
            self.tell(key, self.queue_message(key))
        self.changed()

    def _entry_write(self, key: str, place: int | None = None) -> Write:
        entry = self.entries[key]
        values = _entry_values(entry) | ({"place": place} if place is not None else {})
        where = sa.and_(arena_players.c.arena == self.id, arena_players.c.key == key)
        return (arena_players.update().where(where).values(values), {})

    async def _finish(self) -> None:
        """The end: games still in progress count as they stand; the final places stored."""
        now = time.time()
        for game in list(self.games.values()):
            if self._left(game.room):  # as it stands where it is played now
                await self._follow(game, now)
            await self.score(game, now)
        order = self.standings()
        writes = [self._entry_write(e.key, i + 1) for i, e in enumerate(order)]
        writes.append((arenas.update().where(arenas.c.id == self.id)
                       .values(status="finished", finished=now), {}))
        await self.storage.write(*writes, room=self.fence)
        self.record.status, self.record.finished = "finished", now
        for person in self.people.values():
            person.out = True
        self.changed(now=True)
        for callback in self.on_finish:
            callback(self)

    def let_go(self) -> None:
        """Another process runs the arena now (its lease was lost): the sockets here close
        with 1012 and reconnect (to the process that runs it)."""
        for conn in list(self.conns):
            conn.close(CLOSE_MOVED)

    @property
    def running_here(self) -> bool:
        """Whether this object runs the arena (else it is the stored state, read only)."""
        return self.task is not None

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        tasks = [t for t in (self.task, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._flush is not None:
            self._flush.cancel()


def _standing(game: ArenaGame, played: engine.Game | None) -> tuple[dict[str, int], set[str]]:
    """Each seat's points now (the round's too while it is played) and who left it, in
    ``played`` or else in the room's game."""
    room = game.room
    current = played if played is not None else (room.game if room.game_id == game.game else None)
    totals: dict[str, int] = {}
    left: set[str] = set()
    for pid in [*game.seats, *game.bots]:
        player = current.players.get(pid) if current is not None else None
        if player is None or not player.present:
            left.add(pid)
        over = current is not None and current.phase in ("match_over", "round_over")
        totals[pid] = 0 if player is None else player.total + (0 if over else player.score)
    return totals, left


async def stored_play(storage: Storage, gid: str) -> engine.Game | None:
    """Game ``gid`` as its stored actions make it (None: not stored, or deleted)."""
    found = await replayed(storage, gid)
    return None if found is None else found[1]


def _entry_values(entry: Entry) -> dict[str, Any]:
    return {
        "points": entry.points, "games": entry.games, "wins": entry.wins,
        "streak": entry.streak, "reached": entry.reached,
        "performance_sum": entry.performance_sum, "rated_games": entry.rated_games,
    }


def _player_row(arena: str, entry: Entry, person: Person) -> dict[str, Any]:
    return {
        "arena": arena, "key": entry.key, "name": entry.name, "account": person.account,
        "token_hash": person.token_hash, "rating": entry.rating, "entered": entry.entered,
        **_entry_values(entry),
    }


def restored(record: Record, rows: Iterable[Any], rooms: Rooms, limits: cfg.ArenaLimits) -> Arena:
    """An arena as stored: its standings go on from the rows of ``arena_players``."""
    arena = Arena(record, rooms, limits)
    for r in rows:
        entry = Entry(r.key, r.name, r.rating, r.entered)
        for name in _entry_values(entry):
            setattr(entry, name, getattr(r, name))
        arena.entries[r.key] = entry
        arena.people[r.key] = Person(r.key, r.account, r.token_hash, since=time.time(),
                                     out=record.status == "finished")
    return arena


def decode_record(row: Any) -> Record:
    settings = msgspec.convert(json.loads(row.settings), cfg.ArenaSettings)
    return Record(
        row.id, settings, row.status, row.starts_at, row.ends_at, row.private, row.schedule,
        row.creator, row.creator_name, row.address, row.created, row.finished,
    )
