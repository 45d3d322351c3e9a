"""Players who come back: each finished game of a signed-in player is recorded, rated games
move the ratings (``setgame.analysis.ratings``), and ``GET /api/players/<name>`` answers the
figures.

A multiplayer game is **rated** when its room allows it (the room setting ``rated``: true,
false, or absent: rated when every person in it is signed in), its variant has a rating
family, and it ends with at least two players and no guest among the people. Computer players
count with their fixed ratings. The rating is computed when the game is over, from the room's
own log (points and places from the engine's result, sets and wrong calls from its events),
and stored in one transaction; a game is recorded once (its rows' keys). A game that ended
as the server stopped, before its record was written, is recorded at the next start from its
stored log (:meth:`RatingKeeper.catch_up`). This project's own rules, not the rulebooks'.

A player who leaves a match before its end is placed below everyone still there (the engine
forgets a leaver without points, ``docs/events.md``; the rating must not, or leaving would
dodge every loss); a guest who played and left keeps the game unrated.

A finished solo game of a signed-in player is recorded too when a board takes it (classic on
any deck, or the daily puzzle): its time (penalty seconds included), sets and wrong calls, for
the boards ``solo-full``, ``solo-beginner``, ``daily`` and the profile's solo figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import itertools
import logging
import math
import sqlite3
import time
from collections import Counter
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, Final

import sqlalchemy as sa
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from setgame.analysis import ratings as rating
from setgame.rules import game as engine
from setgame.server import keys
from setgame.server import protocol as p
from setgame.server.account_tables import (
    account_seats,
    accounts,
    player_games,
    ratings,
    solo_games,
)
from setgame.server.accounts import Accounts
from setgame.server.arena_tables import arena_figures
from setgame.server.limits import Limits
from setgame.server.names import MAX_NAME
from setgame.server.puzzle import (
    clock_keys,
    clock_started,
    forget_clocks,
    start_clock,
    utc_now,
)
from setgame.server.registry import Rooms
from setgame.server.rooms import Room, replayed
from setgame.server.storage import Storage, StorageError, Write, games

log = logging.getLogger(__name__)

HISTORY_GAMES: Final = 200
"""Rated games per family in a profile's ``history``."""
RECENT_GAMES: Final = 20
"""Games ``GET /api/players/<name>`` lists in ``recent``, newest first."""
MAIN_FAMILY: Final = "set"
CATCH_UP_SECONDS: Final = 86400.0
"""At a start, games that ended this recently without a record are recorded."""
CATCH_UP_BATCH: Final = 500
"""The family whose rating ``GET /api/players/<name>`` gives as ``rating``."""


@dataclass(frozen=True, slots=True)
class SeatResult:
    player: str
    bot_level: int | None
    points: int
    sets: int
    wrong: int
    left: bool = False  # played, then left before the end: placed below everyone present
    # when it left: seconds of play and groups taken by everyone until then (fair play)
    left_at: float = math.inf
    left_sets: int = 0
    address: str | None = None  # the seat's client address group (not stored as such)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game as the room held it, taken when it ended."""

    game: str
    room: str
    family: str | None
    rated: bool | None  # the room setting
    seats: list[SeatResult]
    seconds: float = math.inf  # of play, from the first deal to the end
    sets: int = 1_000_000  # groups taken in it, by everyone


def outcome_of(room: Room) -> Outcome | None:
    """The finished multiplayer game of ``room``, or None (solo, practice, no players)."""
    bots = {pid: seat.bot_level for pid, seat in room.seats.items()}
    where = {pid: seat.client for pid, seat in room.seats.items()}
    return _outcome(room.game, room.game_id, room.id, bots, room.settings.rated, where)


def _outcome(
    game: engine.Game,
    game_id: str,
    room_id: str,
    bots: dict[str, int | None],
    rated: Any,
    where: dict[str, str | None] | None = None,
) -> Outcome | None:
    if game.settings.mode != "multi" or not game.order:
        return None
    play = _replayed(game)
    where = where or {}
    seats = []
    for pid in game.order:
        seats.append(
            SeatResult(
                pid,
                bots.get(pid),
                game.players[pid].total,
                play.counts["set_taken", pid],
                play.counts["wrong_call", pid],
                address=where.get(pid),
            )
        )
    for pid in sorted(play.played - set(game.order)):  # the engine forgot them: rating must not
        at, sets = play.left.get(pid, (math.inf, 0))
        seats.append(
            SeatResult(
                pid, None, 0, play.counts["set_taken", pid], play.counts["wrong_call", pid],
                True, at, sets, where.get(pid),
            )
        )
    try:
        family = rating.family_of(game.settings.variant)
    except rating.RatingError:
        family = None  # a variant without a decided family is not rated
    setting = rated if isinstance(rated, bool) else None
    return Outcome(game_id, room_id, family, setting, seats, play.seconds, play.sets)


@dataclass(frozen=True, slots=True)
class SoloResult:
    """A finished solo game for the solo boards: classic (per deck) or the daily puzzle."""

    game: str
    room: str
    player: str
    variant: str
    deck: str
    day: str | None
    seconds: float
    sets: int
    wrong: int
    penalty: float = 0.0  # the puzzle's penalty seconds, included in ``seconds``
    address: str | None = None  # the seat's client address group (not stored as such)


def solo_of(room: Room) -> SoloResult | None:
    """The finished solo game of ``room`` when a board takes it: classic on any deck, or the
    daily puzzle (its ``day``); None otherwise (practice, other variants, no time)."""
    found = _solo(room.game, room.game_id, room.id)
    seat = room.seats.get(found.player) if found else None
    return dataclasses.replace(found, address=seat.client) if found and seat else found


def _solo(game: engine.Game, game_id: str, room_id: str) -> SoloResult | None:
    settings = game.settings
    daily = settings.variant == "puzzle" and bool(settings.day)
    if settings.mode != "solo" or not game.order or (settings.variant != "classic" and not daily):
        return None
    figures = game.result().get("solo") or {}
    if game.phase != "match_over" or figures.get("seconds") is None:
        return None
    player = game.players[game.order[0]]
    return SoloResult(
        game_id, room_id, player.id, settings.variant, settings.deck,
        settings.day if daily else None, float(figures["seconds"]), player.sets, player.wrong,
        float(player.penalty_seconds),
    )


@dataclass(slots=True)
class _Play:
    """What a game's log says of how it was played (:func:`_replayed`)."""

    counts: Counter[tuple[str, str]]  # (event type, player): sets taken, wrong calls
    played: set[str]  # who sat at the table while it was played (not only in the lobby)
    left: dict[str, tuple[float, int]]  # who left during play: seconds into it, sets by then
    seconds: float  # of play: from the first deal to the last action
    sets: int  # groups taken, by everyone


def _replayed(game: engine.Game) -> _Play:
    """Sets taken and wrong calls per player, who played, who left when, and how long the
    game was played, from the game's own log (a replay: the server's clock stamped it)."""
    replay = engine.Game(game.settings, game.seed, game.rules)
    play = _Play(Counter(), set(), {}, 0.0, 0)
    start: float | None = None
    for action in game.log:
        for event in replay.apply(action):
            kind = event["type"]
            if kind in ("set_taken", "wrong_call") and "player" in event:
                play.counts[kind, event["player"]] += 1
                play.sets += kind == "set_taken"
            elif kind == "round_started" and start is None:
                start = float(event["at"])
            elif kind == "left" and start is not None:
                play.left[event["player"]] = (float(event["at"]) - start, play.sets)
        if replay.phase != "lobby":
            play.played.update(p.id for p in replay.present())
    if start is not None and game.log:
        play.seconds = float(game.log[-1].at) - start
    return play


def fair_play(limits: Limits) -> rating.FairPlay:
    """The fair-play rules with the host's numbers (``SETGAME_RATED_*``, ``docs/deploy.md``)."""
    return rating.FairPlay(
        min_seconds=limits.rated_min_seconds,
        min_sets=limits.rated_min_sets,
        begun_seconds=limits.rated_begun_seconds,
        begun_sets=limits.rated_begun_sets,
        pair_daily=limits.rated_pair_daily,
        address_daily=limits.rated_address_daily,
        bot_daily=limits.rated_bot_daily,
    )


class RatingKeeper:
    """Records every finished game of the rooms of ``rooms`` (see the module)."""

    def __init__(
        self,
        rooms: Rooms,
        storage: Storage,
        fair: rating.FairPlay | None = None,
        address_key: bytes = b"",
    ) -> None:
        self.storage, self.rooms = storage, rooms
        self.fair = fair or rating.FairPlay()
        self.address_key = address_key  # keys.derive(secret, "address"): hashes addresses
        self.lock = asyncio.Lock()  # one game at a time: each reads the ratings it changes
        self.tasks: set[asyncio.Task[None]] = set()
        self.seen: dict[str, str] = {}  # room -> the game last taken
        self.clocked: set[str] = set()  # daily-puzzle games whose clocks were started
        self.clock_day = ""  # the day of the last clock started (old days' are deleted then)
        rooms.on_room.append(self.watch)
        for room in rooms.rooms.values():
            self.watch(room)

    def watch(self, room: Room) -> None:
        if room.game.phase == "match_over":  # restored: recorded before the restart
            self.seen[room.id] = room.game_id
        room.on_change.append(self._changed)

    def _changed(self, room: Room) -> None:
        if room.settings.day and room.game.phase != "lobby":
            self._clock(room)
        if room.game.phase != "match_over" or self.seen.get(room.id) == room.game_id:
            return
        if len(self.seen) > 10_000:
            self.seen.clear()  # a game seen twice is refused by its rows' keys
        self.seen[room.id] = room.game_id
        outcome = outcome_of(room)
        if outcome is not None:
            self._spawn(self.record(outcome), f"rate {room.game_id}")
        solo = solo_of(room)
        if solo is not None:
            self._spawn(self.record_solo(solo), f"solo {room.game_id}")

    def _clock(self, room: Room) -> None:
        """A daily puzzle's cards were dealt: start its players' clocks (``puzzle.py``), at
        once (the time is taken now, as the cards go out), unless started for this game."""
        day = room.settings.day
        if room.game_id in self.clocked or day != utc_now().date().isoformat():
            return  # started already; or a past day, which no board ranks
        if len(self.clocked) > 10_000:
            self.clocked.clear()  # a clock started twice keeps its first time
        self.clocked.add(room.game_id)
        who = [
            key
            for seat in room.seats.values()
            if seat.bot_level is None
            for key in clock_keys(seat.account, keys.address_hash(self.address_key, seat.client))
        ]
        self._spawn(self._start_clock(who, day, time.time()), f"clock {room.game_id}")

    async def _start_clock(self, who: list[str], day: str, at: float) -> None:
        async with self.lock:  # before the game's record, which reads it (the lock is FIFO)
            try:
                if day != self.clock_day:  # the first of a new day: the old days' go
                    await forget_clocks(self.storage, utc_now().date())
                    self.clock_day = day
                await start_clock(self.storage, who, day, at)
            except StorageError as exc:  # the solve is then not ranked: no time of the server
                log.error("the daily puzzle's clock cannot be started: %s", exc)

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def record_solo(self, solo: SoloResult) -> None:
        """The solo game's row, when its seat was a signed-in player's (else nothing)."""
        async with self.lock:
            try:
                async with self.storage.reading() as conn:
                    account = await conn.scalar(
                        sa.select(account_seats.c.account).where(
                            account_seats.c.room == solo.room,
                            account_seats.c.player == solo.player,
                        )
                    )
                    ended = await conn.scalar(
                        sa.select(games.c.finished).where(games.c.id == solo.game)
                    )
                    if account is None:
                        return
                    finished = ended if ended is not None else time.time()  # as the game says
                    seconds, timed = await self._timed(conn, solo, str(account), finished)
                row = {
                    "game": solo.game, "account": account, "variant": solo.variant,
                    "deck": solo.deck, "day": solo.day, "seconds": seconds,
                    "sets": solo.sets, "wrong": solo.wrong, "finished": finished,
                    "timed": timed,
                }
                await self.storage.write((solo_games.insert().values(row), {}))
            except (sa.exc.IntegrityError, sqlite3.IntegrityError):
                log.info("solo game %s was recorded already", solo.game)
            except StorageError as exc:
                log.error("solo game %s cannot be recorded: %s", solo.game, exc)

    async def _timed(
        self, conn: Any, solo: SoloResult, account: str, finished: float
    ) -> tuple[float, bool | None]:
        """A daily puzzle's time as the board counts it: the server's, from the day's cards
        first sent to this player (account or address) to the last pick, penalty seconds
        added; ``timed`` false when no sending was recorded (not ranked). Other games: their
        own time (``timed`` None)."""
        if solo.day is None:
            return solo.seconds, None
        who = clock_keys(account, keys.address_hash(self.address_key, solo.address))
        sent = await clock_started(conn, who, solo.day)
        if sent is None:
            return solo.seconds, False
        return max(solo.seconds, finished - sent + solo.penalty), True

    async def catch_up(self, within: float = CATCH_UP_SECONDS) -> int:
        """Record the games (multiplayer, and the solo ones a board takes) that ended within
        ``within`` seconds with a signed-in player and no record (the server stopped between a
        game's end and its record): rebuilt from the stored log. Returns how many were
        recorded; an unreadable game is skipped."""
        recent = sa.and_(
            games.c.status == "finished",
            games.c.finished >= time.time() - within,
            sa.exists().where(account_seats.c.room == games.c.room),
        )
        multi = sa.and_(  # settings are stored compact, keys sorted
            games.c.settings.like('%"mode":"multi"%'),
            ~sa.exists().where(player_games.c.game == games.c.id),
        )
        solo = sa.and_(  # the games _solo takes: classic, or a daily puzzle (a day set)
            games.c.settings.like('%"mode":"solo"%'),
            sa.or_(
                games.c.settings.like('%"variant":"classic"%'),
                games.c.settings.like('%"day":"2%'),
            ),
            ~sa.exists().where(solo_games.c.game == games.c.id),
        )
        unrecorded = (
            sa.select(games.c.id, games.c.room)
            .where(recent, sa.or_(multi, solo))
            .limit(CATCH_UP_BATCH)
        )
        try:
            async with self.storage.reading() as conn:
                found = (await conn.execute(unrecorded)).all()
        except StorageError as exc:  # the server starts anyway: the games wait for the next
            log.error("cannot look for unrecorded games: %s", exc)
            return 0
        done = 0
        for game_id, room_id in found:
            try:
                outcome = await self._stored_outcome(game_id, room_id)
            except (StorageError, engine.GameError, ValueError, KeyError) as exc:
                log.error("game %s cannot be recorded after a restart: %s", game_id, exc)
                continue
            if isinstance(outcome, SoloResult):
                await self.record_solo(outcome)
            elif outcome is not None:
                await self.record(outcome)
            done += outcome is not None
        return done

    async def _stored_outcome(self, game_id: str, room_id: str) -> Outcome | SoloResult | None:
        found = await replayed(self.storage, game_id)  # under the rules it was played with
        if found is None:
            return None
        row, game = found
        if game.settings.mode == "solo":
            return _solo(game, game_id, room_id)
        bots = {seat.player: seat.bot_level for seat in await self.storage.seats(room_id)}
        return _outcome(game, game_id, room_id, bots, row.settings.get("rated"))

    async def record(self, outcome: Outcome) -> None:
        async with self.lock:
            try:
                writes = await self._writes(outcome)
                if writes:
                    await self.storage.write(*writes)
            except (sa.exc.IntegrityError, sqlite3.IntegrityError):  # PostgreSQL, SQLite
                log.info("game %s was recorded already", outcome.game)
            except StorageError as exc:
                log.error("game %s cannot be recorded: %s", outcome.game, exc)
                return
        await self._tell(outcome)

    async def _tell(self, outcome: Outcome) -> None:
        """Send the room its game's rating changes as recorded (by this process, or by
        another of a cluster first: read back from the rows either way)."""
        room = self.rooms.get(outcome.room)
        if room is None or room.game_id != outcome.game:
            return
        seat_of = {seat.account: pid for pid, seat in room.seats.items() if seat.account}
        c = player_games.c
        query = sa.select(c.account, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after,
                          c.unrated).where(c.game == outcome.game)  # fmt: skip
        try:
            async with self.storage.reading() as conn:
                rows = (await conn.execute(query)).all()
        except StorageError as exc:  # the profile shows it still
            log.error("game %s: rating changes not told: %s", outcome.game, exc)
            return
        changes = [
            p.RatingChange(seat_of[account], _display(mu0, s0), _display(mu1, s1), unrated)
            for account, mu0, s0, mu1, s1, unrated in rows
            if account in seat_of
        ]
        if changes:
            room.tell_ratings(p.Ratings(game=outcome.game, changes=changes))

    async def _writes(self, outcome: Outcome) -> list[Write]:
        pids = [s.player for s in outcome.seats]
        async with self.storage.reading() as conn:
            linked = await conn.execute(
                sa.select(account_seats.c.player, account_seats.c.account).where(
                    account_seats.c.room == outcome.room, account_seats.c.player.in_(pids)
                )
            )
            accounts = dict(linked.all())
            if not accounts:
                return []
            before = await _ratings(conn, list(accounts.values()), outcome.family)
            ended = await conn.scalar(sa.select(games.c.finished).where(games.c.id == outcome.game))
            finished = ended if ended is not None else time.time()  # as the game's row says
            fair = _Fairness(self, conn, outcome, accounts, before, finished)
            unrated = await fair.judge()
        places = rating.places([-math.inf if s.left else s.points for s in outcome.seats])
        after = _rate(fair.counted, accounts, before, unrated)
        writes: list[Write] = []
        for seat, place in zip(outcome.seats, places, strict=True):
            account = accounts.get(seat.player)
            if account is None:
                continue
            old, new = before.get(account, rating.NEW), after.get(account)
            row = {
                "game": outcome.game, "account": account, "room": outcome.room,
                "family": outcome.family if new else None, "place": place,
                "players": len(outcome.seats), "points": seat.points, "sets": seat.sets,
                "wrong": seat.wrong, "finished": finished,
                "mu_before": old.mu if new else None, "sigma_before": old.sigma if new else None,
                "mu_after": new.mu if new else None, "sigma_after": new.sigma if new else None,
                "address": fair.hashed.get(seat.player), "bots": fair.bots,
                "unrated": None if new else unrated.get(account, "room"),
            }
            writes.append((player_games.insert().values(row), {}))
            if new is not None:
                writes.append(_save(account, str(outcome.family), new, account in before))
        return writes


def _display(mu: float | None, sigma: float | None) -> int | None:
    """A rating as people see it (``Rating.display``), None when not stored."""
    return None if mu is None or sigma is None else rating.Rating(mu, sigma).display


class _Fairness:
    """Which players a finished game may rate, by the fair-play rules (``rating.FairPlay``;
    ``docs/rules.md``, "Ratings"), counting the earlier games in the database."""

    def __init__(
        self,
        keeper: RatingKeeper,
        conn: Any,
        outcome: Outcome,
        accounts: dict[str, str],
        before: dict[str, rating.Rating],
        finished: float,
    ) -> None:
        self.rules, self.conn, self.outcome = keeper.fair, conn, outcome
        self.accounts, self.before = accounts, before
        self.since = finished - keeper.fair.window
        # a player who left before the game had really begun is left out: neither rated nor
        # rating (leaving later still counts as last place)
        self.counted = [
            s for s in outcome.seats if not s.left or self.rules.begun(s.left_at, s.left_sets)
        ]
        self.bots = sum(s.bot_level is not None for s in self.counted)
        self.hashed = {
            s.player: keys.address_hash(keeper.address_key, s.address)
            for s in outcome.seats
            if s.player in accounts and s.address
        }

    def _game_reason(self) -> str | None:
        """Why the game rates nobody, or None."""
        out = self.outcome
        if out.rated is False or out.family is None:
            return "room"
        if len(self.counted) < rating.MIN_PLAYERS:
            return "players"
        if any(s.bot_level is None and s.player not in self.accounts for s in self.counted):
            return "guest"
        if not self.rules.long_enough(out.seconds, out.sets):
            return "short"
        return None

    async def judge(self) -> dict[str, str]:
        """Why each account in the game is not rated by it (absent: it is)."""
        people = [self.accounts[s.player] for s in self.outcome.seats if s.player in self.accounts]
        reason = self._game_reason()
        if reason is not None:
            return dict.fromkeys(people, reason)
        counted = {self.accounts[s.player] for s in self.counted if s.player in self.accounts}
        unrated = {a: "early" for a in people if a not in counted}
        for a, b in itertools.combinations(sorted(counted), 2):
            if await self._together(a, b) >= self.rules.pair_daily:
                unrated.setdefault(a, "pair")
                unrated.setdefault(b, "pair")
        await self._same_address(unrated)
        await self._against_bots(counted, unrated)
        return unrated

    async def _together(self, a: str, b: str) -> int:
        """Rated games of both ``a`` and ``b`` within the window."""
        one, two = player_games.alias("one"), player_games.alias("two")
        query = (
            sa.select(sa.func.count())
            .select_from(one.join(two, one.c.game == two.c.game))
            .where(
                one.c.account == a, two.c.account == b, one.c.finished >= self.since,
                one.c.family.is_not(None), two.c.family.is_not(None),
            )
        )
        return int(await self.conn.scalar(query) or 0)

    async def _same_address(self, unrated: dict[str, str]) -> None:
        """Accounts seated from one address: at most ``address_daily`` rated games a day
        with two or more of them in it (whichever accounts)."""
        counted = {s.player for s in self.counted}
        groups: dict[str, list[str]] = {}
        for player, hashed in self.hashed.items():
            if player in counted and hashed is not None:
                groups.setdefault(hashed, []).append(self.accounts[player])
        for hashed, members in groups.items():
            if len(members) < 2:
                continue
            shared = (
                sa.select(player_games.c.game)
                .where(
                    player_games.c.address == hashed, player_games.c.family.is_not(None),
                    player_games.c.finished >= self.since,
                )
                .group_by(player_games.c.game)
                .having(sa.func.count() >= 2)
                .subquery()
            )
            games_shared = await self.conn.scalar(sa.select(sa.func.count()).select_from(shared))
            if int(games_shared or 0) >= self.rules.address_daily:
                for account in members:
                    unrated.setdefault(account, "address")

    async def _against_bots(self, counted: set[str], unrated: dict[str, str]) -> None:
        """Computer players: within reach of the person's skill, and at most ``bot_daily``
        rated games against them a day."""
        levels = [s.bot_level for s in self.counted if s.bot_level is not None]
        if not levels:
            return
        for account in sorted(counted):
            mine = self.before.get(account, rating.NEW)
            if not all(self.rules.bot_in_reach(mine, level) for level in levels):
                unrated.setdefault(account, "bot_reach")
                continue
            query = sa.select(sa.func.count()).where(
                player_games.c.account == account, player_games.c.family.is_not(None),
                player_games.c.bots > 0, player_games.c.finished >= self.since,
            )
            if int(await self.conn.scalar(query) or 0) >= self.rules.bot_daily:
                unrated.setdefault(account, "bot_daily")


def _rate(
    counted: list[SeatResult],
    accounts: dict[str, str],
    before: dict[str, rating.Rating],
    unrated: dict[str, str],
) -> dict[str, rating.Rating]:
    """The new ratings of the accounts the game rates; the players it does not rate count
    at their ratings as they are, as computer players do (nobody's rating moves for them)."""
    movers = {accounts[s.player] for s in counted if s.player in accounts} - set(unrated)
    if not movers:
        return {}
    places = rating.places([-math.inf if s.left else s.points for s in counted])
    seats = [
        rating.Placing(rating.bot_rating(s.bot_level), place, bot=True)
        if s.bot_level is not None
        else rating.Placing(
            before.get(accounts[s.player], rating.NEW), place, bot=accounts[s.player] not in movers
        )
        for s, place in zip(counted, places, strict=True)
    ]
    new = rating.rate(seats)
    return {
        accounts[s.player]: r
        for s, r in zip(counted, new, strict=True)
        if s.bot_level is None and accounts[s.player] in movers
    }


async def _ratings(conn: Any, owners: list[str], family: str | None) -> dict[str, rating.Rating]:
    if family is None:
        return {}
    query = sa.select(ratings).where(ratings.c.account.in_(owners), ratings.c.family == family)
    return {
        r.account: rating.Rating(r.mu, r.sigma, r.games) for r in (await conn.execute(query)).all()
    }


def _save(account: str, family: str, new: rating.Rating, known: bool) -> Write:
    values = {"mu": new.mu, "sigma": new.sigma, "games": new.games}
    if known:
        key = sa.and_(ratings.c.account == account, ratings.c.family == family)
        return (ratings.update().where(key).values(values), {})
    return (ratings.insert().values(values | {"account": account, "family": family}), {})


# --- GET /api/players/<name> -----------------------------------------------------------------


async def profile(request: Request) -> Response:
    name = request.path_params["name"]
    store: Accounts = request.app.state.accounts
    account = None if len(name) > MAX_NAME * 4 else await store.by_name(name)
    if account is None:
        return JSONResponse(
            {"code": "no_player", "message": f"no player is called {name[:100]!r}"},
            status_code=404,
        )
    try:
        async with store.storage.reading() as conn:
            body = await _figures(conn, account.id)
    except StorageError as exc:
        log.error("profile of %r: %s", account.name, exc)
        return JSONResponse(
            {"code": "storage_error", "message": "the server cannot read players now"},
            status_code=503,
        )
    return JSONResponse({"name": account.name} | body)


async def _figures(conn: Any, account: str) -> dict[str, Any]:
    mine = player_games.c.account == account
    query = sa.select(
        sa.func.count(),
        sa.func.coalesce(sa.func.sum(sa.case((player_games.c.place == 1, 1), else_=0)), 0),
        sa.func.coalesce(sa.func.sum(player_games.c.sets), 0),
        sa.func.coalesce(sa.func.sum(player_games.c.wrong), 0),
    ).where(mine)
    games, wins, sets, wrong = (await conn.execute(query)).one()
    rows = (await conn.execute(sa.select(ratings).where(ratings.c.account == account))).all()
    families = {
        r.family: _shown(rating.Rating(r.mu, r.sigma, r.games)) for r in rows
    }
    main = families.get(MAIN_FAMILY, _shown(rating.NEW))
    recent = (
        await conn.execute(
            sa.select(player_games)
            .where(mine)
            .order_by(player_games.c.finished.desc())
            .limit(RECENT_GAMES)
        )
    ).all()
    return {
        "history": await _history(conn, account),
        "rating": main["rating"],
        "provisional": main["provisional"],
        "provisional_games": rating.PROVISIONAL_GAMES,  # rated games until it is settled
        "games": int(games),
        "wins": int(wins),
        "sets": int(sets),
        "ratings": families,
        "recent": [_recent(r) for r in recent],
        "arenas": await arena_figures(conn, account),  # issue 23: arenas played, best places
    } | await _solo_figures(conn, account, int(wrong))


async def _solo_figures(conn: Any, account: str, wrong: int) -> dict[str, Any]:
    """Best solo times per deck (classic), the daily-puzzle streak, the average seconds per
    set alone (classic and daily), and the wrong calls of every recorded game."""
    mine = solo_games.c.account == account
    per_deck = (
        sa.select(solo_games.c.deck, sa.func.min(solo_games.c.seconds), sa.func.count())
        .where(mine, solo_games.c.variant == "classic")
        .group_by(solo_games.c.deck)
    )
    solo = {
        deck: {"seconds": round(best, 3), "games": n}
        for deck, best, n in (await conn.execute(per_deck)).all()
    }
    totals = sa.select(
        sa.func.coalesce(sa.func.sum(solo_games.c.seconds), 0),
        sa.func.coalesce(sa.func.sum(solo_games.c.sets), 0),
        sa.func.coalesce(sa.func.sum(solo_games.c.wrong), 0),
    ).where(mine)
    seconds, sets, solo_wrong = (await conn.execute(totals)).one()
    days = (
        sa.select(solo_games.c.day).where(mine, solo_games.c.day.is_not(None)).distinct()
        .order_by(solo_games.c.day.desc()).limit(STREAK_DAYS)
    )
    return {
        "solo": solo,
        "daily_streak": streak([d for (d,) in (await conn.execute(days)).all()]),
        "seconds_per_set": round(seconds / sets, 1) if sets else None,
        "wrong": wrong + int(solo_wrong),
    }


STREAK_DAYS: Final = 1000
"""The longest daily-puzzle streak a profile counts (its days are read newest first)."""


def streak(days: list[str], today: datetime.date | None = None) -> int:
    """Days in a row with the daily puzzle solved, ending today or yesterday (UTC): today's
    puzzle not yet played does not break yesterday's streak. ``days``: ISO dates, newest first."""
    today = today or utc_now().date()
    played = set(days)
    day = today if today.isoformat() in played else today - datetime.timedelta(days=1)
    n = 0
    while day.isoformat() in played:
        n += 1
        day -= datetime.timedelta(days=1)
    return n


async def _history(conn: Any, account: str) -> dict[str, list[list[float]]]:
    """Per family, ``[finished, displayed rating after]`` of the last :data:`HISTORY_GAMES`
    rated games, oldest first (the profile draws it)."""
    rated = sa.and_(player_games.c.account == account, player_games.c.family.is_not(None))
    newest = (
        sa.select(
            player_games.c.family, player_games.c.finished,
            player_games.c.mu_after, player_games.c.sigma_after,
            sa.func.row_number().over(
                partition_by=player_games.c.family, order_by=player_games.c.finished.desc()
            ).label("n"),
        )
        .where(rated)
        .subquery()
    )
    query = sa.select(newest).where(newest.c.n <= HISTORY_GAMES).order_by(newest.c.finished)
    history: dict[str, list[list[float]]] = {}
    for r in (await conn.execute(query)).all():
        shown = rating.Rating(r.mu_after, r.sigma_after).display
        history.setdefault(r.family, []).append([r.finished, shown])
    return history


def _recent(r: Any) -> dict[str, Any]:
    after = None
    if r.mu_after is not None and r.sigma_after is not None:
        after = rating.Rating(r.mu_after, r.sigma_after).display
    return {
        "game": r.game, "finished": r.finished, "place": r.place, "players": r.players,
        "points": r.points, "sets": r.sets, "wrong": r.wrong, "family": r.family,
        "rating": after, "unrated": r.unrated,
    }


# --- GET /api/leaderboard?board=<family> ----------------------------------------------------

BOARD_SIZE: Final = 100
BOARDS: Final = tuple(sorted({f for f in rating.FAMILIES.values() if f is not None}))
"""The rating boards: one per family of variants."""
SOLO_BOARDS: Final = {"solo-full": "full", "solo-beginner": "beginner"}
"""The solo boards: the best classic time alone, per deck."""
DAILY_BOARD: Final = "daily"
"""Today's daily puzzle (UTC, the server's clock): each player's best time, timed by the
server from the day's cards first sent to them (``puzzle.py``)."""
HUMAN_FLOOR: Final = 10.0
"""Seconds under which a daily-puzzle time is not ranked: no person finds six sets among
twelve cards and clicks their 18 cards that fast (a script does: the finding's took 0.008 s).
Such a time is kept on the profile but never on the board."""
ALL_BOARDS: Final = (*BOARDS, *SOLO_BOARDS, DAILY_BOARD)


async def leaderboard(request: Request) -> Response:
    """One board, at most :data:`BOARD_SIZE` rows: a rating family's established players (at
    least ``BOARD_GAMES`` rated games), best displayed rating first; or a solo board,
    each signed-in player's best time first: ``{name, seconds, games}``."""
    board = request.query_params.get("board")
    if board not in ALL_BOARDS:
        shown = "nothing" if board is None else repr(board[:40])
        return JSONResponse(
            {"code": "unknown_board",
             "message": f"board is one of {', '.join(ALL_BOARDS)}, not {shown}"},
            status_code=400,
        )
    store: Accounts = request.app.state.accounts
    try:
        async with store.storage.reading() as conn:
            board_rows = _rating_board if board in BOARDS else _time_board
            rows = await board_rows(conn, board)
    except StorageError as exc:
        log.error("leaderboard %s: %s", board, exc)
        return JSONResponse(
            {"code": "storage_error", "message": "the server cannot read players now"},
            status_code=503,
        )
    return JSONResponse(rows)


async def _rating_board(conn: Any, family: str) -> list[dict[str, Any]]:
    ordinal = ratings.c.mu - rating.Z * ratings.c.sigma
    query = (
        sa.select(accounts.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.games)
        .select_from(ratings.join(accounts, accounts.c.id == ratings.c.account))
        .where(ratings.c.family == family, ratings.c.games >= rating.BOARD_GAMES)
        .order_by(ordinal.desc(), accounts.c.name)
        .limit(BOARD_SIZE)
    )
    return [
        {"name": r.name, "rating": rating.Rating(r.mu, r.sigma, r.games).display,
         "games": r.games}
        for r in (await conn.execute(query)).all()
    ]


async def _time_board(conn: Any, board: str) -> list[dict[str, Any]]:
    if board == DAILY_BOARD:  # server-timed solves only, none faster than a person can be
        which = sa.and_(
            solo_games.c.day == utc_now().date().isoformat(),
            solo_games.c.timed.is_(True),
            solo_games.c.seconds >= HUMAN_FLOOR,
        )
    else:
        which = sa.and_(
            solo_games.c.variant == "classic", solo_games.c.deck == SOLO_BOARDS[board]
        )
    best = sa.func.min(solo_games.c.seconds)
    query = (
        sa.select(accounts.c.name, best.label("seconds"), sa.func.count().label("games"))
        .select_from(solo_games.join(accounts, accounts.c.id == solo_games.c.account))
        .where(which)
        .group_by(accounts.c.id, accounts.c.name)
        .order_by(best, accounts.c.name)
        .limit(BOARD_SIZE)
    )
    return [
        {"name": r.name, "seconds": round(r.seconds, 3), "games": r.games}
        for r in (await conn.execute(query)).all()
    ]


def _shown(r: rating.Rating) -> dict[str, Any]:
    return {"rating": r.display, "provisional": r.provisional, "games": r.games}


async def close(keeper: RatingKeeper) -> None:
    """Let the games being recorded finish (before the storage closes)."""
    for task in list(keeper.tasks):
        with contextlib.suppress(Exception):
            await task
