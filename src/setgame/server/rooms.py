"""Rooms: each room is the single owner of one game at a time.

Every action on a room goes through :meth:`Room.act`, which holds the room's
lock, brings the game up to the server clock (an expired pick window is a
``Tick``), applies the action, numbers it (the room's ``version``), writes it
to the database and only then broadcasts an ``update`` to every connection of
the room, each with its own player's view (the view they share is built and
encoded once per update; only each seat's own keys differ: ``fanout.py``).

The game clock is ``time.monotonic()`` plus an offset; a restored room starts
its clock at the time of its last action, so pick windows keep their meaning.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from setgame.analysis.ratings import FAMILIES
from setgame.rules import game as engine
from setgame.rules.cards import CardError
from setgame.rules.puzzle import daily_seed, parse_day
from setgame.server import protocol as p
from setgame.server.bounds import JoinBounds
from setgame.server.fanout import Fanout
from setgame.server.names import lookalike
from setgame.server.storage import (
    OUTAGES,
    ActionRow,
    Fenced,
    GameRow,
    RoomRecord,
    SeatRow,
    Storage,
)
from setgame.words.event_words import annotate

log = logging.getLogger(__name__)

RECENT: Final = 256
"""How many recent versions a room keeps in memory for reconnecting clients."""
IDLE_SECONDS: Final = 7200.0
"""A room nobody is connected to and nothing happened in for this long leaves memory (the
default of ``Limits.abandon_seconds``; see ``registry.Rooms.sweep``)."""


class Connection(Protocol):
    """What a room needs of a client connection (see ``sockets.py``)."""

    player: str | None

    def send(self, text: str) -> None: ...

    def close(self, code: int, reason: str = "") -> None: ...


@dataclass(slots=True)
class Seat:
    player: str
    name: str
    token_hash: str | None
    bot_level: int | None = None
    client: str | None = field(default=None, compare=False)  # who took it; not stored
    account: str | None = None  # a signed-in player's account id (accounts.py)


@dataclass(slots=True)
class _Hint:
    table: tuple[Any, ...]  # what the hint was for: table, previous claim, groups found
    cards: tuple[int, ...]
    shown: int = 0


PRESENCE_SECONDS: Final = 0.25
"""Presence messages of a room are sent together, at most once per this many seconds: a
client cycling its connection cannot make the room broadcast at its own rate."""
AWAY_GRACE: Final = 10.0
"""Seconds without a connection before a seated player counts as away (``Away`` action);
the default of ``Limits.away_grace`` (``SETGAME_AWAY_GRACE``)."""


def seat_kind(seat: Seat | None) -> str:
    """``bot`` (a computer player), ``player`` (signed in) or ``guest``."""
    if seat is not None and seat.bot_level is not None:
        return "bot"
    return "player" if seat is not None and seat.account is not None else "guest"


def _why_broken(exc: BaseException) -> str:
    """The reason a room's sockets are closed with when an action cannot be stored."""
    if isinstance(exc, Fenced):
        return p.OWNER_MOVED
    return p.STORAGE_UNAVAILABLE if isinstance(exc, OUTAGES) else p.SERVER_ERROR


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_id(nbytes: int = 6) -> str:
    return secrets.token_urlsafe(nbytes)


def engine_settings(settings: p.RoomSettings) -> engine.Settings:
    return engine.Settings(
        mode=settings.mode,
        penalty=settings.penalty,
        no_set=settings.no_set,
        deck=settings.deck,
        pick_seconds=settings.pick_seconds,
        rounds=settings.rounds,
        lockout_lift=settings.lockout_lift,
        variant=settings.variant,
        table=settings.table,
        day=settings.day,
        start=settings.start,
    )


class Room:
    """One room: its seats, its current game, its connections and its event stream."""

    def __init__(self, rid: str, settings: p.RoomSettings, storage: Storage) -> None:
        self.id = rid
        self.settings = settings
        self.storage = storage
        self.created = time.time()
        self.seats: dict[str, Seat] = {}
        self.conns: set[Connection] = set()  # greeted connections (after hello)
        self.sockets = 0  # open websockets, greeted or not
        self.lock = asyncio.Lock()
        self.game = engine.Game(engine_settings(settings), 0)
        self.game_id = ""
        self.version = 0  # the room's event counter, across its games
        self.table_version = 0  # the version that last changed the table
        self.call_version = 0  # the version of the last accepted call
        self.base = 0  # the room version before the current game's first action
        self.recent: deque[tuple[int, list[dict[str, Any]]]] = deque(maxlen=RECENT)
        self._changed = asyncio.Event()
        self.broken = False
        self._clock_base = 0.0
        self._clock_start = time.monotonic()
        self.last_active = time.monotonic()
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._hints: dict[str, _Hint] = {}
        self._presence_due: set[str] = set()  # players whose presence may have changed
        self._heard_online: set[str] = set()  # players the room last heard are connected
        self._presence_timer: asyncio.TimerHandle | None = None
        self._presence_at = 0.0  # time.monotonic() of the last flush
        self.puzzle_key = b""  # the server's key of the daily puzzles (keys.py, registry.py)
        self.on_change: list[Callable[[Room], None]] = []
        self.on_listing: Callable[[Room], None] | None = None  # may its listing have changed
        self.joins = JoinBounds()
        self.away_grace = AWAY_GRACE
        self.seat_sockets = 4  # a seat's connections at most (``Limits.seat_sockets``)
        self.on_seat: Callable[[Room, str], None] | None = None  # a seat got a new token
        self.chat_share = 500  # lines one address may say in a game (``chat_client_lines``)
        self.creator: str | None = None
        self._watchers_told = 0  # the spectator count the connections were last told
        self.watchers_elsewhere = 0  # a cluster's other processes' (cluster/quota.py)
        self.ratings: p.Ratings | None = None  # of the finished game, once recorded (players.py)
        self.moved_to: Room | None = None  # the room that replaced this one here (cluster/)

    # --- clock and identity ---------------------------------------------------------------

    def now(self) -> float:
        """Game time: seconds since the current game began, continued across restarts."""
        return round(self._clock_base + time.monotonic() - self._clock_start, 3)

    def _reset_clock(self, at: float) -> None:
        self._clock_base = at
        self._clock_start = time.monotonic()

    def seat_for(self, token: str | None) -> str | None:
        """The seated player whose token is ``token`` (a departed seat's token seats nobody:
        its owner watches until they join again, :meth:`returning`)."""
        player = self._token_seat(hash_token(token) if token else None)
        return player if player is not None and self.is_seated(player) else None

    def _token_seat(self, digest: str | None) -> str | None:
        if not digest:
            return None
        for seat in self.seats.values():
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.player
        return None

    def is_seated(self, player: str) -> bool:
        """Whether ``player`` sits at the game now (not departed)."""
        seat = self.game.players.get(player)
        return seat is not None and seat.present

    def returning(self, token_hash: str | None, account: str | None, name: str) -> str | None:
        """The departed seat of this match that a person joining now takes again (R10, R14):
        the one their token names, or else their account's, or else (a guest) the guest
        seat of that name. Nobody else's seat: the account must be the same."""
        departed = {
            pid: seat
            for pid, seat in self.seats.items()
            if seat.bot_level is None and not self.is_seated(pid)
        }
        by_token = self._token_seat(token_hash)
        if by_token in departed and departed[by_token].account == account:
            return by_token
        wanted = name.strip().casefold()
        for pid, seat in departed.items():
            if account is not None and seat.account == account:
                return pid
            if account is None is seat.account and seat.name.casefold() == wanted:
                return pid
        return None

    @property
    def phase(self) -> str:
        return self.game.phase

    def summary(self) -> dict[str, Any]:
        """The public description of the room (``GET /api/rooms``)."""
        return {
            "id": self.id,
            "url": f"/room/{self.id}",
            "mode": self.settings.mode,
            "players": [pl.name for pl in self.game.present()],
            "phase": self.game.phase,
            "settings": p.settings_dict(self.settings),
            "game": self.game_id,
            "spectators": self.watchers(),
            "rated": self.rated(),
        }

    def watchers(self) -> int:
        """Connections without a seat: the people watching (on every process)."""
        return self.local_watchers() + self.watchers_elsewhere

    def local_watchers(self) -> int:
        """Connections without a seat on this process."""
        return sum(1 for c in self.conns if c.player is None)

    def _tell_watchers(self) -> None:
        """Tell everyone how many watch, when that changed (players see their audience): at
        the next presence flush, so that watchers coming and going fast cost one message."""
        self._schedule_flush()

    def _flush_watchers(self) -> None:
        count = self.watchers()
        if count != self._watchers_told:
            self._watchers_told = count
            self._send_all(p.encode(p.Watchers(count=count)))

    # --- views ----------------------------------------------------------------------------

    def view(self, player: str | None) -> dict[str, Any]:
        state = self.public_view()
        state.update(self.game.own_view(player))  # the keys exist already: their order stays
        return state

    def public_view(self) -> dict[str, Any]:
        """The state every connection of the room shares (a spectator's view), with the
        room's own keys; :meth:`view` adds a viewer's own keys (``Game.own_view``)."""
        state = self.game.public_view(self.now())
        state["version"] = self.version
        state["game"] = self.game_id
        state["room"] = self.id
        state["watchers"] = self.watchers()
        state["rated"] = self.rated()
        online = self.connected()
        for entry in state["players"]:
            seat = self.seats.get(entry["id"])
            entry["bot"] = seat.bot_level if seat else None
            entry["connected"] = entry["bot"] is not None or entry["id"] in online
            entry["kind"] = seat_kind(seat)
        return state

    def rated(self) -> bool:
        """Whether the game, as seated now, is rated, so that players know before it starts:
        a multiplayer room not set unrated, a variant with a rating family, two or more
        players and no guest among them. Whether it then counts is decided at its end by
        the fair-play rules (``docs/rules.md``, "Ratings"; ``players.py``)."""
        if self.settings.mode != "multi" or self.settings.rated is False:
            return False
        if FAMILIES.get(self.settings.variant) is None:
            return False
        seated = [self.seats.get(pl.id) for pl in self.game.present()]
        return len(seated) >= 2 and all(seat_kind(seat) != "guest" for seat in seated)

    def connected(self) -> set[str | None]:
        """The players with a connection (on several processes, anywhere: ``cluster/``)."""
        return {c.player for c in self.conns}

    def tell_ratings(self, ratings: p.Ratings) -> None:
        """The finished game's rating changes, to everyone here now and to each connection
        greeted later (:meth:`after_welcome`) while that game is the room's."""
        if ratings.game == self.game_id:
            self.ratings = ratings
            self._send_all(p.encode(ratings))

    def after_welcome(self, conn: Connection) -> None:
        """What a greeted connection is sent after its ``welcome``: the rating changes of
        the room's finished game, when known."""
        if self.ratings is not None and self.ratings.game == self.game_id:
            conn.send(p.encode(self.ratings))

    def welcome(self, conn: Connection, since: int | None) -> str:
        return p.encode(
            p.Welcome(
                room=self.id,
                game=self.game_id,
                you=conn.player,
                version=self.version,
                state=self.view(conn.player),
                missed=self.missed(since),
            )
        )

    def missed(self, since: int | None) -> list[dict[str, Any]] | None:
        """The events after version ``since``, in order, when all are still in memory;
        else None (the client resyncs from the state)."""
        if since is None or since > self.version:
            return None
        if since < self.version and (not self.recent or self.recent[0][0] > since + 1):
            return None
        return [event for v, events in self.recent if v > since for event in events]

    # --- connections ----------------------------------------------------------------------

    def idle(self, now: float, after: float = IDLE_SECONDS) -> bool:
        return not self.sockets and not self.conns and now - self.last_active > after

    def counts_for_creator(self, now: float, left: float) -> bool:
        """Whether the room counts against its creator's address (``rooms_per_client``): a
        multiplayer room whose match is on, while someone has it open or had it open within
        ``left`` seconds (a reload, or the moment between creating it and opening it). Solo,
        practice and the daily puzzle never count, nor finished or left rooms: a keen player
        or a classroom behind one router is never locked out by games it has played."""
        if self.settings.mode != "multi" or self.broken or self.game.phase == "match_over":
            return False
        return not self.idle(now, left)

    def listed(self) -> bool:
        """Whether the public list shows the room: public, not over, and someone present
        (a seated person connected; in the lobby, anyone who has it open). A room restored
        after a restart is not listed until someone comes back to it."""
        if self.broken or not self.settings.public or self.game.phase == "match_over":
            return False
        if self.game.phase == "lobby" and self.conns:
            return True
        return any(conn.player is not None for conn in self.conns)

    def _relist(self) -> None:
        if self.on_listing is not None:
            self.on_listing(self)

    def attach(self, conn: Connection) -> None:
        self.last_active = time.monotonic()
        was_online = self._online(conn.player)
        self.conns.add(conn)
        if conn.player is not None and not was_online:
            self._presence(conn.player, True)
            self._spawn(self._set_away(conn.player, False))
        self._relist()
        self._tell_watchers()

    def detach(self, conn: Connection) -> None:
        self.last_active = time.monotonic()
        self.conns.discard(conn)
        if conn.player is not None and not self._online(conn.player):
            self._presence(conn.player, False)
            self._spawn(self._away_after_grace(conn.player))
        self._relist()
        self._tell_watchers()

    def take_connections(self, conns: list[Connection], before: int) -> None:
        """The connections of the room this one replaces in this process (a cluster's mirror
        whose process became the owner, ``cluster/node.py``): they stay open and get every
        version after ``before``, as if they had been here all along."""
        for conn in conns:
            if conn.player is not None and conn.player not in self.seats:
                conn.player = None  # a seat the old room had and the stored log has not
            self.attach(conn)
        self.catch_up(conns, before)

    def catch_up(self, conns: list[Connection], before: int) -> None:
        """Send ``conns`` each remembered version after ``before`` as its own update (with
        the state as it is now)."""
        for version, events in self.recent:
            if version > before:
                for conn in conns:
                    state = self.view(conn.player)
                    conn.send(p.encode(p.Update(version=version, events=events, state=state)))

    async def _away_after_grace(self, player: str) -> None:
        """A player gone for longer than a reload takes stops holding up votes (R10, R11)."""
        await asyncio.sleep(self.away_grace)
        if not self._online(player):
            await self._set_away(player, True)

    async def _set_away(self, player: str, away: bool) -> None:
        seat = self.game.players.get(player)
        if self.broken or seat is None or not seat.present or seat.away == away:
            return
        with contextlib.suppress(engine.GameError):  # lost a race: the state moved on
            await self.act(lambda now: engine.Away(at=now, player=player, away=away))

    def _online(self, player: str | None) -> bool:
        return player is not None and any(c.player == player for c in self.conns)

    def _presence(self, player: str, connected: bool) -> None:
        """Note that ``player``'s presence may have changed; everyone hears of it at the next
        flush, at most one per :data:`PRESENCE_SECONDS`, and only if it changed from what
        they last heard (off and on again in between: nothing)."""
        self._presence_due.add(player)
        self._schedule_flush()

    def _schedule_flush(self) -> None:
        if self._presence_timer is None:
            wait = max(0.0, self._presence_at + PRESENCE_SECONDS - time.monotonic())
            loop = asyncio.get_running_loop()
            self._presence_timer = loop.call_later(wait, self._flush_presence)

    def _flush_presence(self) -> None:
        self._presence_timer = None
        self._presence_at = time.monotonic()
        due, self._presence_due = self._presence_due, set()
        for player in sorted(due):
            online = self._online(player)
            if online != (player in self._heard_online):
                (self._heard_online.add if online else self._heard_online.discard)(player)
                self._send_all(p.encode(p.Presence(player=player, connected=online)))
        self._flush_watchers()

    def _send_all(self, text: str) -> None:
        for conn in list(self.conns):
            conn.send(text)

    # --- the one way in: act --------------------------------------------------------------

    async def act(self, build: Callable[[float], engine.Action]) -> list[dict[str, Any]]:
        """Apply the action ``build(now)`` in order; persist it; broadcast it.

        Raises :class:`setgame.rules.game.GameError` when the rules refuse it (nothing changes).
        """
        begun = time.perf_counter()
        async with self.lock:
            self._check_alive()
            now = self.now()
            await self._tick(now)
            action = build(now)
            events = self.game.apply(action)
            await self._commit(action, events)
        self.storage.metrics.answered(type(action).__name__, time.perf_counter() - begun)
        return events

    def _check_alive(self) -> None:
        if self.broken:
            raise engine.GameError("room_closed", f"room {self.id!r} is closed")

    async def _tick(self, now: float) -> None:
        events = self.game.advance(now)
        if events:
            await self._commit(self.game.log[-1], events)

    async def _commit(
        self,
        action: engine.Action,
        events: list[dict[str, Any]],
        seat: SeatRow | None = None,
        before: Callable[[], None] | None = None,
    ) -> None:
        version = self.version + 1
        try:
            await self.storage.append(
                self.game_id,
                version,
                action.at,
                self.game.action_dict(action),
                room=self.id,
                seat=seat,
                finished=self.game.phase == "match_over",
            )
        except Exception as exc:
            log.exception("room %s: cannot store version %d; closing the room", self.id, version)
            self._break(_why_broken(exc))
            raise
        self.version = version
        self.last_active = time.monotonic()
        self._remember(version, events)
        if before is not None:
            before()
        self._broadcast(events)
        self.storage.metrics.action(type(action).__name__)
        self._schedule_timer()
        self._changed.set()
        self._changed = asyncio.Event()
        for callback in self.on_change:
            callback(self)

    async def wait_change(self, version: int, timeout: float | None = None) -> bool:
        """Wait until the room's version moves past ``version`` (True) or ``timeout`` (False)."""
        while self.version == version and not self.broken:
            try:
                await asyncio.wait_for(self._changed.wait(), timeout)
            except TimeoutError:
                return False
        return True

    def _remember(self, version: int, events: list[dict[str, Any]]) -> None:
        # a wrong call carries its verdict in every language: clients show it, not compose it
        annotate(events, self.game.variant)
        self.recent.append((version, events))
        kinds = {event["type"] for event in events}
        if kinds & _TABLE_EVENTS:
            self.table_version = version
        if "called" in kinds:
            self.call_version = version

    def _break(self, reason: str = p.SERVER_ERROR) -> None:
        self.broken = True
        self._changed.set()
        for conn in list(self.conns):
            conn.close(p.CLOSE_SERVER_ERROR, reason)
        self._relist()

    def _broadcast(self, events: list[dict[str, Any]]) -> None:
        """Send the update to every connection: the shared view is built and encoded once,
        then each seat's own keys are spliced in (``fanout.py``), once per seat."""
        conns = list(self.conns)
        if conns:
            update = p.Update(version=self.version, events=events, state=self.public_view())
            fanout = Fanout(update, self.game.own_view(None))
            cache: dict[str | None, str] = {}
            for conn in conns:
                text = cache.get(conn.player)
                if text is None:
                    text = cache[conn.player] = fanout.text(self.game.own_view(conn.player))
                conn.send(text)
        # Every view just sent says who is connected: that is now what the room last heard.
        self._heard_online = {p for p in self.connected() if p is not None}

    # --- pick-window timer ----------------------------------------------------------------

    def _schedule_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self.game.deadline
        if deadline is None:
            return
        delay = max(0.0, deadline - self.now()) + 0.001
        self._timer = asyncio.get_running_loop().call_later(delay, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self._spawn(self._expire())

    async def _expire(self) -> None:
        async with self.lock:
            if not self.broken:
                await self._tick(self.now())
            if self.game.deadline is not None and self._timer is None:
                self._schedule_timer()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- player requests (from the socket layer) --------------------------------------

    async def join(
        self,
        conn: Connection,
        name: str,
        client: str = "?",
        account: str | None = None,
        token: str | None = None,
    ) -> str:
        """Seat the connection's person: it gets ``joined`` (a new token) before the update.

        ``client`` is the connection's address: it may hold ``joins.seats_per_client`` seats
        here and join at the rate of ``joins`` (see ``bounds.py``). ``token`` is the one the
        connection said hello with: a person who left this match takes their seat again
        (:meth:`returning`)."""
        if conn.player is not None:
            raise engine.GameError("already_seated", f"you already sit as {conn.player!r}")
        self._check_joins(client, account)
        new_token = secrets.token_urlsafe(18)

        def seated(player: str) -> None:
            conn.player = player
            conn.send(p.encode(p.Joined(player=player, token=new_token)))

        self.joins.take(client)
        known = hash_token(token) if token else None
        player = await self._seat(
            name, hash_token(new_token), None, seated, client, account, known=known, joiner=conn
        )
        self._presence(player, True)
        self._relist()
        self._tell_watchers()
        return player

    async def seat_person(
        self, name: str, account: str | None = None, client: str | None = None
    ) -> tuple[str, str]:
        """Seat a person who is not connected yet (an arena pairs them, ``arenas.py``): their
        player id and the seat token they say ``hello`` with (only its hash is kept)."""
        token = secrets.token_urlsafe(18)
        player = await self._seat(name, hash_token(token), None, client=client, account=account)
        return player, token

    def _check_joins(self, client: str, account: str | None = None) -> None:
        """The address's bounds: its seats here (not counting the joiner's account's own
        seat, which a join takes back, not adds) and its rate of joins."""
        held = sum(  # a departed seat is held by nobody: its person may come back
            1
            for seat in self.seats.values()
            if seat.client == client and self.is_seated(seat.player)
            and (account is None or seat.account != account)
        )
        if held >= self.joins.seats_per_client:
            raise engine.GameError(
                "too_many_seats",
                f"your address already holds {held} seats in this room "
                f"(at most {self.joins.seats_per_client})",
            )
        wait = self.joins.wait(client)
        if wait > 0:
            raise engine.GameError(
                "joining_too_fast", f"too many joins from your address: wait {wait:.0f} s"
            )

    async def add_bot(self, level: int) -> str:
        number = 1 + sum(1 for s in self.seats.values() if s.bot_level is not None)
        return await self._seat(f"Bot {number}", None, level)

    async def _seat(
        self,
        name: str,
        token_hash: str | None,
        bot_level: int | None,
        seated: Callable[[str], None] | None = None,
        client: str | None = None,
        account: str | None = None,
        known: str | None = None,
        joiner: Connection | None = None,
    ) -> str:
        """Seat a person (or a bot); one who left this match takes their seat again (the
        token hash ``known`` they said hello with, their account or their name). A
        signed-in person whose account sits here already takes that seat back
        (:meth:`_take_back`): one seat per account."""
        async with self.lock:
            self._check_alive()
            now = self.now()
            await self._tick(now)
            own = None if bot_level is not None else self._account_seat(account)
            if own is not None and token_hash is not None:
                await self._take_back(own, token_hash, client, seated, joiner)
                return own
            returning = None if bot_level is not None else self.returning(known, account, name)
            player = returning or "p" + secrets.token_hex(3)
            if bot_level is None:
                self._check_unlike(name, player)
            seat = Seat(player, name.strip(), token_hash, bot_level, client, account)
            row = SeatRow(player, seat.name, token_hash, bot_level, account, again=bool(returning))
            action = engine.Join(at=now, player=player, name=name)
            events = self.game.apply(action)
            old = self.seats.get(player)
            self.seats[player] = seat
            try:
                await self._commit(
                    action, events, seat=row, before=seated and (lambda: seated(player))
                )
            except Exception:
                self.seats.pop(player, None)
                if old is not None:
                    self.seats[player] = old
                raise
        return player

    def _account_seat(self, account: str | None) -> str | None:
        """The seat ``account`` sits in here now (not departed), if any."""
        if account is None:
            return None
        for pid, seat in self.seats.items():
            if seat.account == account and seat.bot_level is None and self.is_seated(pid):
                return pid
        return None

    async def _take_back(
        self,
        player: str,
        token_hash: str,
        client: str | None,
        seated: Callable[[str], None] | None,
        joiner: Connection | None,
    ) -> None:
        """The account of ``player`` joins again from elsewhere (another browser, cookies
        cleared): the same seat, score and cards, under a new token; the old token seats
        nobody from then on. Nothing happens in the game (no action, no version): only the
        seat's stored token changes, and the joiner is sent ``joined`` then a ``welcome``
        with the seat's view. The seat's oldest connections past ``seat_sockets``
        (the joiner counts) are closed with 4009, as a third tab's hello closes them."""
        seat = self.seats[player]
        try:  # nothing changed yet: a failure leaves the seat as it was
            await self.storage.retoken_seat(self.id, player, seat.name, token_hash)
        except Fenced:  # another process owns the room now: this one must stop
            self._break(p.OWNER_MOVED)
            raise
        seat.token_hash, seat.client = token_hash, client
        if seated is not None:
            seated(player)
        if joiner is not None:  # no update follows (no version): the seat's own view now
            joiner.send(self.welcome(joiner, None))
        self.make_way(player, joiner)
        if self.on_seat is not None:
            self.on_seat(self, player)

    def make_way(self, player: str, newest: Connection | None = None) -> None:
        """Close ``player``'s oldest connections here but ``newest`` (the one that takes or
        took the seat now, here or on another process: it counts either way), so that the
        seat keeps at most ``seat_sockets``: with 4009 (``seat_elsewhere``), which the page
        does not retry, so that two tabs do not take the seat from each other for ever."""
        same = [c for c in self.conns if c.player == player and c is not newest]
        same.sort(key=lambda c: getattr(c, "opened", 0.0))
        for old in same[: max(0, len(same) - self.seat_sockets + 1)]:
            old.close(p.CLOSE_SEAT_ELSEWHERE, p.SEAT_ELSEWHERE)

    def _check_unlike(self, name: str, player: str) -> None:
        """Refuse (``name_taken``) a person's name that looks like another seat's here
        (``names.name_key``: "Ann", "ann", "Ann."), as an arena refuses a name twice: seats
        no one can tell apart, or a lookalike passing for the player beside it. Their own
        departed seat, which they take back, is no other person's (a seat of their own
        account sitting here is taken back before: :meth:`_take_back`)."""
        others = (
            seat.name
            for pid, seat in self.seats.items()
            if pid != player and seat.bot_level is None
        )
        other = lookalike(name, others)
        if other is not None:
            like = "is" if other == name.strip() else f"looks like {other!r}, which is"
            raise engine.GameError(
                "name_taken", f"{name.strip()!r} {like} a name in this room: choose another"
            )

    async def start(self, player: str) -> None:
        await self.act(lambda now: engine.Start(at=now, player=player))

    async def call(self, player: str, version: int) -> None:
        await self.act(lambda now: self._current(version, engine.Call(at=now, player=player)))

    async def pick(self, player: str, codes: list[str], version: int) -> None:
        cards = self._parse_cards(codes)
        await self.act(
            lambda now: self._current(version, engine.Pick(at=now, player=player, cards=cards))
        )

    async def turn(self, player: str, position: int) -> None:
        """Memory: turn up a face-down card (the engine checks the position and the board)."""
        await self.act(lambda now: engine.Turn(at=now, player=player, position=position))

    def _parse_cards(self, codes: list[str]) -> tuple[int, ...]:
        """Card codes in the notation of the room's variant deck (MegaSet: five characters)."""
        deck = self.game.variant.deck
        try:
            return tuple(deck.parse(code) for code in codes)
        except CardError as exc:
            raise engine.GameError("bad_card", str(exc)) from None

    async def no_set(self, player: str) -> None:
        await self.act(lambda now: engine.NoSet(at=now, player=player))

    async def leave(self, conn: Connection) -> None:
        player = _seated(conn)
        conn.player = None  # so the update of this leave shows the leaver a spectator's view
        try:
            await self.act(lambda now: engine.Leave(at=now, player=player))
        except BaseException:
            conn.player = player
            raise
        await self.forget_seat(player)
        self._relist()
        self._tell_watchers()

    async def forget_seat(self, player: str) -> None:
        """After ``player`` left: their seat stays (departed) while the match still counts
        them (points, a lockout, a wait: ``Game.players``; a deal: ``Game.dealt``), so the
        same person takes it again (R10, R14); else it goes."""
        if self.game.phase != "lobby" and (
            player in self.game.players or player in self.game.dealt
        ):
            return
        self.seats.pop(player, None)
        await self.storage.remove_seat(self.id, player)

    def _current(self, version: int, action: engine.Action) -> engine.Action:
        """The action, if the client saw what it acts on (checked after the tick): a call
        needs the current table; a pick after a call needs that call's acceptance. Events
        that leave the table as it was (a join, a declaration) do not make it stale."""
        seen = self.table_version
        if isinstance(action, engine.Pick) and self.game.holder is not None:
            seen = max(seen, self.call_version)
        if not seen <= version <= self.version:
            raise engine.GameError(
                "stale_version",
                f"version {version!r} is not current: the table is at {seen}, "
                f"the room at {self.version}",
            )
        return action

    def hint(self, player: str) -> list[str]:
        """Practice: one more card of one set on the table, for this player only."""
        if self.settings.mode != "practice":
            raise engine.GameError("no_hints", "hints are for practice games")
        if self.game.phase != "playing":
            raise engine.GameError("not_playing", f"no hints while {self.game.phase!r}")
        if self.game.variant.flow.face_down:
            raise engine.GameError("no_hints", "no hints in Memory: the cards lie face down")
        table = (tuple(self.game.table), tuple(self.game.previous or ()), len(self.game.found))
        hint = self._hints.get(player)
        if hint is None or hint.table != table:
            groups = self.game.groups_on_table()
            if not groups:
                raise engine.GameError("no_set_on_table", "there is no set on the table")
            hint = self._hints[player] = _Hint(table, tuple(groups[0]))
        hint.shown = min(len(hint.cards), hint.shown + 1)
        return self.game.names(hint.cards[: hint.shown])

    # --- games ----------------------------------------------------------------------------

    async def new_game(self, requested_by: str | None = None) -> None:
        """Begin a game: the first of the room, or ``again`` after a match with the same seats."""
        async with self.lock:
            self._check_alive()
            if self.game_id and self.game.phase != "match_over":
                raise engine.GameError("not_over", "the match is still being played")
            order = [pl.id for pl in self.game.present()] if self.game_id else []
            for player in [pid for pid in self.seats if order and pid not in order]:
                self.seats.pop(player)  # departed from the match over: a new match forgets them
                await self.storage.remove_seat(self.id, player)
            seed = self._seed()
            game_id = new_id(9)
            game = engine.Game(engine_settings(self.settings), seed)  # today's rules
            settings = p.settings_dict(self.settings)
            await self.storage.create_game(game_id, self.id, seed, settings, game.rules)
            self._install(game, game_id, 0.0)
            for player in order:
                seat = self.seats[player]
                await self._apply_now(engine.Join(at=self.now(), player=player, name=seat.name))
            if requested_by is not None and order:
                await self._apply_now(engine.Start(at=self.now(), player=requested_by))

    def _seed(self) -> int:
        """A new game's seed: random, but a daily puzzle's is the day's under the server's
        key (everyone gets the same cards; nobody can compute them without the key)."""
        if self.settings.day:
            return daily_seed(parse_day(self.settings.day), self.puzzle_key)
        return secrets.randbits(62)

    async def _apply_now(self, action: engine.Action) -> None:
        events = self.game.apply(action)
        await self._commit(action, events)

    def _install(self, game: engine.Game, game_id: str, at: float) -> None:
        self.game = game
        self.game_id = game_id
        self.base = self.version
        self._hints.clear()
        self._reset_clock(at)

    def restore(self, record: RoomRecord) -> None:
        """Rebuild from the database: replay the current game's actions in order, under the
        rules it is played with, keeping their events for reconnecting clients (the same as
        ``Game.replay``)."""
        game = stored_game(record.game)
        self.version = record.version - len(record.actions)
        self._install(game, record.game.id, _last_at(record.actions))
        for row in record.actions:
            events = game.apply(game.parse_action(row.action))
            self._remember(row.version, events)
        self.version = record.version
        self.created = record.created
        self.seats = {
            s.player: Seat(s.player, s.name, s.token_hash, s.bot_level, account=s.account)
            for s in record.seats
        }
        self._schedule_timer()
        for seat in self.seats.values():  # people who do not come back count as away
            if seat.bot_level is None:
                self._spawn(self._away_after_grace(seat.player))

    async def close(self) -> None:
        """Stop the room's timers and tasks (and so its bots): it leaves memory."""
        self.broken = True
        self._changed.set()
        if self._timer is not None:
            self._timer.cancel()
        if self._presence_timer is not None:
            self._presence_timer.cancel()
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        # Break the reference cycles, so that the room's memory returns as soon as the last
        # reference goes (rooms restored at start are frozen out of the cyclic collector).
        self._timer = None
        self._tasks.clear()
        self.on_change.clear()
        self.on_listing = None


_TABLE_EVENTS: Final = frozenset(("round_started", "set_taken", "cards_added"))
ENGINE_FIELDS: Final = frozenset(
    (
        "mode", "penalty", "no_set", "deck", "pick_seconds", "rounds", "lockout_lift",
        "variant", "table", "day", "start",
    )
)
"""The room settings that are the engine's (rows stored before the variants lack the last
three: they load with the engine's defaults, a classic game)."""


def stored_game(row: GameRow) -> engine.Game:
    """A stored game before its first action: its engine settings, seed and rules version
    (a game stored by an earlier release replays under the rules it was played with)."""
    settings = engine.Settings.from_dict(
        {k: v for k, v in row.settings.items() if k in ENGINE_FIELDS}
    )
    return engine.Game(settings, row.seed, row.rules)


async def replayed(storage: Storage, gid: str) -> tuple[GameRow, engine.Game] | None:
    """Game ``gid``'s row and the game its stored actions make (None: not stored, or
    deleted): how a game played elsewhere or before a restart is scored."""
    row = await storage.game(gid)
    if row is None:
        return None
    game = stored_game(row)
    for action in await storage.actions(gid):
        game.apply(game.parse_action(action.action))
    return row, game


def _last_at(rows: Iterable[ActionRow]) -> float:
    return max((row.at for row in rows), default=0.0)


def _seated(conn: Connection) -> str:
    if conn.player is None:
        raise engine.GameError("not_seated", "join the game first")
    return conn.player

