"""Persistence: rooms, games, seats and the append-only action log (SQLAlchemy 2).

The same code runs on SQLite (WAL) and PostgreSQL (asyncpg). Writes go through
one writer task that group-commits everything queued since its last commit and
then resolves each caller's future, so a room awaits its action's commit before
it broadcasts, and 250 busy rooms share a handful of commits.

On SQLite each group commit runs right on the event loop through one raw
``sqlite3`` connection, each statement compiled to SQL once (:class:`SqliteWriter`).
In WAL mode with ``synchronous=NORMAL`` a commit is a write into the WAL, no
fsync (the checkpoint task syncs), so it takes tens of microseconds: less than
handing it to a thread, whose round trip through the executor and the loop's
wake-up cost 11% of a loaded server's busy time and hundreds of microseconds of
latency per commit (and an async driver hops between threads for every
statement). Reads (restoring rooms, replays) use the async engine (aiosqlite or
asyncpg).

Faults (docs/deploy.md): after each SQLite commit, before anything is acknowledged,
the database files are checked to be the ones opened (deleted or replaced files latch
a fault: nothing more is stored); a missing database is created only when asked
(``create``); an existing one is brought to this release's schema by the migrations of
``setgame.server.migrations`` (Alembic) before anything else; a read-only one fails at
open; every error names the database and the cause (:class:`StorageError`), and an
unreadable row skips its room.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import stat
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from setgame.rules.settings import RULES_VERSION
from setgame.server import migrations
from setgame.server.account_tables import account_seats
from setgame.server.chat_tables import chat_lines
from setgame.server.metrics import QUIET, Probe
from setgame.server.pgappend import Append, PgAppender

log = logging.getLogger(__name__)

SLOW_COMMIT = 0.1
"""Seconds: a commit slower than this is logged."""

metadata = sa.MetaData()

rooms = sa.Table(
    "rooms",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)
games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("room", sa.String(32), sa.ForeignKey("rooms.id"), nullable=False, index=True),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    # the rules version the game is played under (setgame.rules.settings.RULES_VERSION; migration
    # 0007): games stored before it were played under rules 1
    sa.Column("rules", sa.Integer, nullable=False, server_default=sa.text("1")),
)
seats = sa.Table(
    "seats",
    metadata,
    sa.Column("room", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("player", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("bot_level", sa.Integer, nullable=True),
)
actions = sa.Table(
    "actions",
    metadata,
    sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("action", sa.Text, nullable=False),
)
room_owners = sa.Table(  # docs/cluster.md: the fencing token of each room (migration 0004)
    "room_owners",
    metadata,
    sa.Column("room", sa.String(32), primary_key=True),
    sa.Column("token", sa.BigInteger, nullable=False),
    sa.Column("owner", sa.String(128), nullable=False),
    sa.Column("since", sa.Float, nullable=False),
)


class StorageError(ValueError):
    """A database that cannot be used; the message names the database and the cause."""


OUTAGES: Final = (StorageError, sa.exc.SQLAlchemyError, OSError, TimeoutError)
"""What a database that is down (or cut off) may raise on the way to the caller: the storage
names most as :class:`StorageError`; a driver's connection error may come unwrapped."""
PING_SECONDS: Final = 2.0
"""How long :meth:`Storage.ping` waits for the database."""


class Fenced(StorageError):
    """A write of a room whose fencing token is no longer the stored one: another process
    took the room over (``docs/cluster.md``); nothing of the transaction was written."""


NEW_DB_HINT: Final = "start the server with --create-db to create a new, empty one"
RESTORE_HINT: Final = "restore it from a backup (docs/deploy.md) and restart"


def database_url(db: str | Path | None) -> str:
    """An SQLite path or an SQLAlchemy URL -> an async SQLAlchemy URL.

    >>> database_url("games.db").endswith("/games.db")
    True
    >>> database_url("postgresql://u@h/db")
    'postgresql+asyncpg://u@h/db'
    """
    if db is None:
        db = "setgame.db"
    text = str(db)
    if "://" not in text:
        return f"sqlite+aiosqlite:///{Path(text).resolve()}"
    scheme, rest = text.split("://", 1)
    scheme = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg"}.get(scheme, scheme)
    if scheme not in ("sqlite+aiosqlite", "postgresql+asyncpg"):
        raise StorageError(f"unsupported database URL: {text!r} (use SQLite or PostgreSQL)")
    return f"{scheme}://{rest}"


@dataclass(frozen=True, slots=True)
class ActionRow:
    version: int
    at: float
    action: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SeatRow:
    player: str
    name: str
    token_hash: str | None
    bot_level: int | None
    account: str | None = None  # a signed-in player's account (account_tables.account_seats)
    again: bool = False  # a departed seat taken again: its row exists (new token, name)


@dataclass(frozen=True, slots=True)
class GameRow:
    id: str
    room: str
    seed: int
    settings: dict[str, Any]
    status: str
    created: float
    finished: float | None
    rules: int = 1  # the rules version it is played under (migration 0007)


@dataclass(frozen=True, slots=True)
class RoomRecord:
    """What a restart needs to rebuild a room: its settings, seats and current game."""

    id: str
    settings: dict[str, Any]
    public: bool
    created: float
    seats: list[SeatRow]
    game: GameRow
    actions: list[ActionRow]
    version: int


Write = tuple[sa.Executable, dict[str, Any]]
"""One statement and its parameters; consecutive writes of one statement share an
``executemany`` inside a group commit."""


@dataclass(slots=True)
class Job:
    """One caller's writes, committed together; ``future`` is resolved after their commit.
    ``append`` (PostgreSQL, no ``writes``): one room's action, which is committed with the
    other rooms' actions of the group in one statement (``pgappend.py``), and written the
    general way (:meth:`Storage._general`) only if that statement fails."""

    writes: list[Write]
    future: asyncio.Future[None]
    append: Append | None = None


_INSERT_ROOM: Final = rooms.insert()
_INSERT_GAME: Final = games.insert()
_INSERT_SEAT: Final = seats.insert()
_INSERT_ACTION: Final = actions.insert()
_FINISH_GAME: Final = (
    games.update()
    .where(games.c.id == sa.bindparam("game_id"))
    .values(status=sa.bindparam("status"), finished=sa.bindparam("finished_at"))
)
_REMOVE_SEAT: Final = seats.delete().where(
    seats.c.room == sa.bindparam("room_id"), seats.c.player == sa.bindparam("player_id")
)
_RESEAT: Final = (
    seats.update()
    .where(seats.c.room == sa.bindparam("room_id"), seats.c.player == sa.bindparam("player_id"))
    .values(name=sa.bindparam("new_name"), token_hash=sa.bindparam("new_token_hash"))
)
_PREPARED: Final = frozenset(
    map(
        id,
        (
            _INSERT_ROOM, _INSERT_GAME, _INSERT_SEAT, _INSERT_ACTION, _FINISH_GAME, _REMOVE_SEAT,
            _RESEAT,
        ),
    )
)
"""The statements :class:`SqliteWriter` compiles once (by identity: they live as long as
the module)."""
CHECKPOINT_SECONDS: Final = 2.0
"""SQLite: how often a background connection moves the WAL into the database file, so
that the writer never pays for a checkpoint inside a commit."""


class Storage:
    """The database of one server; open with :meth:`open`, close with :meth:`close`.

    ``create``: whether :meth:`open` may create a missing database (an SQLite file that does
    not exist, or a database without setgame's tables). A server is started with it only when
    its host asks for a new database (``--create-db``): a restart must never silently begin
    again from nothing where a database was expected.
    """

    def __init__(self, url: str, *, create: bool = True) -> None:
        self.url = database_url(url)
        self.sqlite = self.url.startswith("sqlite")
        self.create = create
        self.path = _sqlite_path(self.url) if self.sqlite else None
        self.where = str(self.path) if self.path else sa.make_url(self.url).render_as_string()
        self.fault: str | None = None
        self.upgraded: str | None = None  # what the migrations did at open, if anything
        self._files: dict[str, tuple[int, int]] = {}
        self.engine: AsyncEngine = create_async_engine(self.url, **_engine_options(self.url))
        self._writer_db: SqliteWriter | None = None
        if self.path is not None:
            self._writer_db = SqliteWriter(str(self.path))
        self._queue: asyncio.Queue[Job] = asyncio.Queue()
        # PostgreSQL: the rooms' actions go in one statement per group (pgappend.py)
        self._appender = None if self.sqlite else PgAppender(self.url)
        self._writer: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self.commits = 0
        self.fences: dict[str, int] = {}  # room -> the fencing token it is written with
        self.metrics: Probe = QUIET  # the app's metrics (metrics.py), when they are on

    async def open(self) -> None:
        """Connect, check the database can be written, create tables (see ``create``).

        Raises :class:`StorageError` naming the database and the cause."""
        if self.path is not None and not self.path.exists() and not self.create:
            raise StorageError(f"no database at {self.where}: {NEW_DB_HINT}")
        try:
            await self._prepare()
        except StorageError:
            raise
        except (sa.exc.SQLAlchemyError, sqlite3.Error, OSError) as exc:
            raise StorageError(
                f"cannot open the database {self.where}: {_cause(exc)}{self._diagnosis()}"
            ) from exc
        self._writer = asyncio.create_task(self._write_loop(), name="storage-writer")
        if self.sqlite:
            self._checkpointer = asyncio.create_task(self._checkpoint_loop(), name="checkpoint")

    async def _prepare(self) -> None:
        if self._writer_db is not None and self.path is not None:
            _sqlite_pragmas(self.engine.sync_engine)
            self._writer_db.open()  # probes a write: a read-only database fails now
            # the file's write lock (BEGIN IMMEDIATE) is the schema lock, on a connection
            # of its own (migrations.on_sqlite)
            existed, before, after = await asyncio.to_thread(
                migrations.on_sqlite, self.path, self._migrate
            )
        else:
            async with self.engine.begin() as conn:
                existed, before, after = await conn.run_sync(self._migrate)
        if before != after:
            self.upgraded = f"{self.where}: {_migrated(before, after, existed)}"
            # an upgrade is worth the host's eye (a warning shows before logging is set up)
            (log.warning if existed else log.info)("%s", self.upgraded)
        if self.path is not None:
            self._files = _identities(self.path)

    def _migrate(self, conn: sa.Connection) -> tuple[bool, str | None, str | None]:
        """Under the schema lock (processes started together wait here for the one that
        creates or migrates the schema; ``docs/deploy.md``), in one transaction: refuse a
        database without tables unless ``create``, else bring it to this release's schema
        (an older one opens as it is first). Whether it had tables; the revisions before and
        after."""
        migrations.lock(conn)
        names = set(sa.inspect(conn).get_table_names())
        if not names & set(metadata.tables) and not self.create:
            raise StorageError(f"{self.where} has no setgame tables: {NEW_DB_HINT}")
        try:
            before, after = migrations.upgrade(conn)
        except migrations.MigrationError as exc:
            raise StorageError(f"{self.where}: {exc}") from None
        return bool(names), before, after

    def _diagnosis(self) -> str:
        """Why an SQLite file cannot be used, as far as the file system tells."""
        if self.path is None:
            return ""
        return "".join(f" ({why})" for why in _file_problems(self.path))

    def check_files(self) -> None:
        """SQLite: fail if the database files were deleted or replaced since they were
        opened. SQLite keeps writing into an unlinked file, so a commit would "succeed"
        into a file nobody can ever open again; this is called after every commit, before
        anything is acknowledged."""
        if self.fault is not None:
            raise StorageError(self.fault)
        if self.path is None:
            return
        now = _identities(self.path)
        for name, ident in self._files.items():
            if now.get(name) != ident:
                gone = "deleted" if name not in now else "replaced"
                self.fault = (
                    f"the database file {name} was {gone} while the server ran: "
                    f"nothing more can be stored; {RESTORE_HINT}"
                )
                log.critical("%s", self.fault)
                raise StorageError(self.fault)
        for name, ident in now.items():  # the WAL appears at the first write
            self._files.setdefault(name, ident)

    @contextlib.asynccontextmanager
    async def _reading(self) -> AsyncIterator[AsyncConnection]:
        """A connection for reads; a database error names the database and the cause."""
        try:
            async with self.engine.connect() as conn:
                yield conn
        except (sa.exc.OperationalError, sa.exc.DatabaseError, OSError) as exc:
            raise StorageError(
                f"cannot read the database {self.where}: {_cause(exc)}{self._diagnosis()}"
            ) from exc

    async def close(self) -> None:
        if self._writer is not None:
            await self._queue.join()
            for task in (self._writer, self._checkpointer):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            self._writer = self._checkpointer = None
        await self.engine.dispose()
        if self._appender is not None:
            await self._appender.close()
        if self._writer_db is not None:
            self._writer_db.close()

    # --- writes: queued, group-committed -------------------------------------

    async def _submit(self, *writes: Write, append: Append | None = None) -> None:
        if self._writer is None or self._writer.done():
            raise RuntimeError(f"storage is not open: {self.where}")
        if self.fault is not None:
            raise StorageError(self.fault)
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(Job(list(writes), future, append))
        await future

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                await self._commit(batch)
            finally:
                for _ in batch:
                    self._queue.task_done()

    async def _commit(self, batch: list[Job]) -> None:
        """The commit point: everything queued since the last commit, committed together
        (each job acknowledged, its future resolved, only after its own commit returned).
        On PostgreSQL the rooms' actions go in one statement, the other writes in one
        transaction beside it."""
        begun = time.perf_counter()
        appends = [j for j in batch if j.append is not None] if self._appender else []
        others = [j for j in batch if j.append is None] if appends else batch
        if appends:
            await self._commit_appends(appends)
        if others:
            await self._commit_group(others)
        took = time.perf_counter() - begun
        self.metrics.commit(took, len(batch))
        if took > SLOW_COMMIT:
            log.warning("slow commit: %.1f ms for %d writes", took * 1000, len(batch))

    async def _commit_group(self, batch: list[Job]) -> None:
        try:
            await self._transaction([w for job in batch for w in job.writes])
        except Exception:
            await self._commit_one_by_one(batch)
            return
        self.commits += 1
        for job in batch:
            _resolve(job.future)

    async def _commit_appends(self, batch: list[Job]) -> None:
        """PostgreSQL: the actions of ``batch`` in one statement (``pgappend.py``); a room
        whose fencing guard matched nothing fails alone (:class:`Fenced`), and any failure
        of the statement (nothing of it written) sends each job through its own
        transaction, as a failed group commit does."""
        assert self._appender is not None
        try:
            written = await self._appender.write([j.append for j in batch if j.append])
        except Exception as exc:
            log.warning("group of %d actions not written (%s): one by one", len(batch), exc)
            await self._commit_one_by_one(batch)
            return
        self.commits += 1
        for job in batch:
            append = job.append
            if append is None or append.room in written:
                _resolve(job.future)
            elif not job.future.done():
                job.future.set_exception(_stale(append.room, append.token))

    async def _commit_one_by_one(self, batch: list[Job]) -> None:
        """After a failed group commit: isolate the failing write, keep the others."""
        for job in batch:
            try:
                await self._transaction(job.writes or self._general(job.append))
            except Exception as exc:
                if not job.future.done():
                    job.future.set_exception(exc)
            else:
                _resolve(job.future)

    async def _transaction(self, writes: list[Write]) -> None:
        """Run ``writes`` in one transaction, one ``executemany`` per run of a statement;
        on SQLite, check the files are still the ones opened before returning."""
        if self.fault is not None:
            raise StorageError(self.fault)
        try:
            if self._writer_db is not None:
                self._writer_db.transaction(writes)
                self.check_files()
                return
            async with self.engine.begin() as conn:
                for stmt, params in _runs(writes):
                    result = await conn.execute(stmt, params)
                    _check_fence(stmt, result.rowcount)
        except (sa.exc.IntegrityError, sqlite3.IntegrityError):
            raise  # a refused write (a duplicate version), not a storage fault
        # DBAPIError: also a connection the driver found closed (InterfaceError), which
        # went up unnamed before (tests/server/test_group_commit.py)
        except (sa.exc.DBAPIError, sqlite3.Error, OSError) as exc:
            raise StorageError(
                f"cannot write to the database {self.where}: {_cause(exc)}{self._diagnosis()}"
            ) from exc

    async def _checkpoint_loop(self) -> None:
        while True:
            await asyncio.sleep(CHECKPOINT_SECONDS)
            begun = time.perf_counter()
            try:
                async with self.engine.connect() as conn:
                    await conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:
                log.exception("WAL checkpoint failed")
            took = time.perf_counter() - begun
            if took > SLOW_COMMIT:
                log.warning("slow WAL checkpoint: %.1f ms", took * 1000)

    async def create_room(self, room: str, settings: dict[str, Any], public: bool) -> float:
        created = time.time()
        values = {"id": room, "settings": _dump(settings), "public": public, "created": created}
        await self._submit((_INSERT_ROOM, values))
        return created

    async def create_game(
        self, game: str, room: str, seed: int, settings: dict[str, Any], rules: int = RULES_VERSION
    ) -> None:
        """A new game of ``room``, played under the rules version ``rules``."""
        values = {"id": game, "room": room, "seed": seed, "settings": _dump(settings)}
        values |= {"status": "playing", "created": time.time(), "rules": rules}
        await self._submit(*self._fence(room), (_INSERT_GAME, values))

    async def finish_game(self, game: str, status: str = "finished") -> None:
        params = {"game_id": game, "status": status, "finished_at": time.time()}
        await self._submit((_FINISH_GAME, params))

    async def remove_seat(self, room: str, player: str) -> None:
        values = {"room_id": room, "player_id": player}
        await self._submit(*self._fence(room), (_REMOVE_SEAT, values))

    async def retoken_seat(self, room: str, player: str, name: str, token_hash: str) -> None:
        """A seat's new token (its account took it back from another browser: the old
        token seats nobody from now on), under the room's fencing token."""
        values = {"room_id": room, "player_id": player, "new_name": name}
        await self._submit(*self._fence(room), (_RESEAT, values | {"new_token_hash": token_hash}))

    async def append(
        self,
        game: str,
        version: int,
        at: float,
        action: dict[str, Any],
        *,
        room: str | None = None,
        seat: SeatRow | None = None,
        finished: bool = False,
    ) -> None:
        """Append one accepted action to the log, in one transaction with the seat it
        creates and the game's end it causes, if any; returns once it is committed."""
        stored = _dump(action)
        ended = time.time() if finished else None
        if room is not None and seat is None and self._appender is not None:
            # PostgreSQL's grouped statement (pgappend.py); the general path's statements
            # are built only should the group fail (_commit_one_by_one)
            one = Append(room, self.fences.get(room), game, version, at, stored, ended)
            await self._submit(append=one)
            return
        writes: list[Write] = self._fence(room)
        if seat is not None and seat.again:  # its row (and account link) are there already
            values = {"room_id": room, "player_id": seat.player, "new_name": seat.name}
            writes.append((_RESEAT, values | {"new_token_hash": seat.token_hash}))
        elif seat is not None:
            writes.append((_INSERT_SEAT, _seat_values(room, seat)))
            if seat.account is not None:
                values = {"room": room, "player": seat.player, "account": seat.account}
                writes.append((account_seats.insert().values(values), {}))
        writes += _action_writes(game, version, at, stored, ended)
        await self._submit(*writes)

    def _general(self, append: Append | None) -> list[Write]:
        """One room's action of a failed group as the general path writes it: its fencing
        guard (with the token it was sent with), the insert, the game's end."""
        if append is None:
            return []
        guard = [] if append.token is None else [_guard(append.room, append.token)]
        stored = (append.game, append.version, append.at, append.action, append.finished)
        return guard + _action_writes(*stored)

    # --- fencing (docs/cluster.md) ----------------------------------------------

    def _fence(self, room: str | None) -> list[Write]:
        """The guard that goes first in a write of ``room`` while this process holds a
        fencing token for it: it locks the room's row and matches only that token, and a
        guard matching no row fails its transaction (:class:`Fenced`)."""
        token = self.fences.get(room or "")
        if room is None or token is None:
            return []
        return [_guard(room, token)]

    async def take_room(self, room: str, owner: str) -> int:
        """Make ``owner`` the owner of ``room``: a new fencing token (one more than any
        before), committed before it is returned; from then on every earlier token's write
        is refused. Writes of ``room`` from this storage carry the new token."""
        bump = (
            room_owners.update()
            .where(room_owners.c.room == room)
            .values(token=room_owners.c.token + 1, owner=owner, since=time.time())
        )
        for _ in range(3):  # two first takeovers of one room: one insert wins, one retries
            try:
                async with self.engine.begin() as conn:
                    if (await conn.execute(bump)).rowcount == 0:
                        row = {"room": room, "token": 1, "owner": owner, "since": time.time()}
                        await conn.execute(room_owners.insert().values(row))
                    query = sa.select(room_owners.c.token).where(room_owners.c.room == room)
                    token = int((await conn.execute(query)).scalar_one())
            except sa.exc.IntegrityError:
                continue
            except (sa.exc.OperationalError, sa.exc.DatabaseError, OSError) as exc:
                raise StorageError(
                    f"cannot take room {room!r} in the database {self.where}: {_cause(exc)}"
                ) from exc
            self.fences[room] = token
            return token
        raise StorageError(f"room {room!r}: its fencing token could not be taken")

    def release_room(self, room: str) -> None:
        """Write ``room`` without a token again (it left this process)."""
        self.fences.pop(room, None)

    async def write(self, *writes: Write, room: str | None = None) -> None:
        """Other modules' writes (accounts, chat), in one transaction of the group commit;
        each statement carries its own values (params ``{}``). With ``room``, they are
        fenced as the room's own writes are (:class:`Fenced` from a stale owner)."""
        await self._submit(*self._fence(room), *writes)

    async def ping(self) -> bool:
        """Whether the database answers a trivial query within :data:`PING_SECONDS` (and
        no write has failed: ``fault``); the cause of a failure goes to the log."""
        if self.fault is not None:
            return False
        try:
            async with asyncio.timeout(PING_SECONDS), self._reading() as conn:
                await conn.execute(sa.text("SELECT 1"))
        except OUTAGES as exc:
            log.error("%s does not answer: %s", self.where, _cause(exc) or type(exc).__name__)
            return False
        return True

    def reading(self) -> contextlib.AbstractAsyncContextManager[AsyncConnection]:
        """A connection for other modules' reads; errors name the database."""
        return self._reading()

    # --- reads --------------------------------------------------------------

    async def game(self, game: str) -> GameRow | None:
        async with self._reading() as conn:
            row = (await conn.execute(games.select().where(games.c.id == game))).first()
        return None if row is None else self._game(row)

    async def actions(self, game: str) -> list[ActionRow]:
        query = actions.select().where(actions.c.game == game).order_by(actions.c.version)
        async with self._reading() as conn:
            rows = (await conn.execute(query)).all()
        try:
            return [ActionRow(r.version, r.at, json.loads(r.action)) for r in rows]
        except ValueError as exc:
            raise BadRow(f"{self.where}: an action of game {game!r} is not JSON ({exc})") from None

    async def seats(self, room: str) -> list[SeatRow]:
        async with self._reading() as conn:
            rows = (await conn.execute(_seats_of(room))).all()
        return _sorted_seats(rows)

    async def live_rooms(self, keep_finished: float = 3600.0) -> list[RoomRecord]:
        """Every room whose newest game is in progress, or finished less than
        ``keep_finished`` seconds ago (its results and "again" stay reachable)."""
        async with self._reading() as conn:
            newest = (
                sa.select(games.c.room, sa.func.max(games.c.created).label("created"))
                .group_by(games.c.room)
                .subquery()
            )
            query = games.select().join(
                newest, sa.and_(games.c.room == newest.c.room, games.c.created == newest.c.created)
            )
            game_rows = [g for r in (await conn.execute(query)).all() if (g := self._game(r))]
            since = time.time() - keep_finished
            live = [g for g in game_rows if g.status == "playing" or (g.finished or 0) > since]
            records = []
            for game in live:
                try:
                    records.append(await self._record(conn, game))
                except BadRow as exc:  # one bad room must not keep the others from coming back
                    log.error("%s; the room is skipped", exc)
            return records

    def _game(self, row: Any) -> GameRow | None:
        """A games row, or None (logged) when its settings are not JSON."""
        try:
            return _game_row(row)
        except ValueError as exc:
            log.error(
                "%s: game %r of room %r: settings %s; skipped", self.where, row.id, row.room, exc
            )
            return None

    async def room_record(self, room: str) -> RoomRecord | None:
        """One room as a restart would rebuild it (its newest game, whatever its status)."""
        query = (
            games.select()
            .where(games.c.room == room)
            .order_by(games.c.created.desc(), games.c.id)
            .limit(1)
        )
        async with self._reading() as conn:
            row = (await conn.execute(query)).first()
            game = None if row is None else self._game(row)
            try:
                return None if game is None else await self._record(conn, game)
            except BadRow as exc:
                log.error("%s; the room cannot be opened", exc)
                return None

    async def _record(self, conn: AsyncConnection, game: GameRow) -> RoomRecord:
        """The room of ``game``; :class:`BadRow` when one of its rows cannot be read."""
        room = (await conn.execute(rooms.select().where(rooms.c.id == game.room))).first()
        if room is None:
            raise BadRow(f"{self.where}: room {game.room!r} of game {game.id!r} is missing")
        seat_rows = (await conn.execute(_seats_of(game.room))).all()
        query = actions.select().where(actions.c.game == game.id).order_by(actions.c.version)
        action_rows = [
            ActionRow(r.version, r.at, self._json(r.action, game, f"action {r.version}"))
            for r in (await conn.execute(query)).all()
        ]
        room_settings = self._json(room.settings, game, "room settings")
        version = await conn.scalar(
            sa.select(sa.func.max(actions.c.version))
            .select_from(actions.join(games, actions.c.game == games.c.id))
            .where(games.c.room == game.room)
        )
        return RoomRecord(
            id=room.id,
            settings=room_settings,
            public=bool(room.public),
            created=room.created,
            seats=_sorted_seats(seat_rows),
            game=game,
            actions=action_rows,
            version=version or 0,
        )

    def _json(self, text: str, game: GameRow, what: str) -> Any:
        try:
            return json.loads(text)
        except ValueError as exc:
            raise BadRow(
                f"{self.where}: room {game.room!r}, game {game.id!r}: {what} is not JSON "
                f"({exc}): {text[:80]!r}"
            ) from None

    # --- retention ------------------------------------------------------------

    async def expired_games(self, before: float, limit: int = 500) -> list[tuple[str, str]]:
        """(game, room) of finished games that ended before ``before`` (wall clock)."""
        query = (
            sa.select(games.c.id, games.c.room)
            .where(games.c.status == "finished", games.c.finished < before)
            .limit(limit)
        )
        async with self._reading() as conn:
            return [(r.id, r.room) for r in (await conn.execute(query)).all()]

    async def delete_games(self, game_ids: list[str], room_ids: list[str]) -> None:
        """Delete the games, their actions, and those of ``room_ids`` left without a game
        (with their seats), in one transaction."""
        if game_ids:
            await self._submit(*_deletions(game_ids, room_ids))

    async def delete_orphan_rooms(self, before: float) -> None:
        """Rooms that never got a game (a crash between the two writes), created before."""
        empty = sa.and_(~_has_game(), rooms.c.created < before)
        orphans = sa.select(rooms.c.id).where(empty).scalar_subquery()
        await self._submit(
            (seats.delete().where(seats.c.room.in_(orphans)), {}),
            (rooms.delete().where(empty), {}),
        )


class BadRow(StorageError):
    """A row that cannot be read (not JSON, or a missing room): its room is skipped."""


def _has_game() -> sa.Exists:
    return sa.exists().where(games.c.room == rooms.c.id)


def _deletions(game_ids: list[str], room_ids: list[str]) -> list[Write]:
    """Fresh statements (never grouped into one ``executemany`` with another call's)."""
    empty_rooms = sa.and_(rooms.c.id.in_(room_ids), ~_has_game())
    no_game = ~sa.exists().where(games.c.room == seats.c.room)
    no_game_left = ~sa.exists().where(games.c.room == account_seats.c.room)
    return [
        (chat_lines.delete().where(chat_lines.c.game.in_(game_ids)), {}),
        (actions.delete().where(actions.c.game.in_(game_ids)), {}),
        (games.delete().where(games.c.id.in_(game_ids)), {}),
        (seats.delete().where(seats.c.room.in_(room_ids), no_game), {}),
        (account_seats.delete().where(account_seats.c.room.in_(room_ids), no_game_left), {}),
        (rooms.delete().where(empty_rooms), {}),
    ]


def _runs(writes: list[Write]) -> list[tuple[sa.Executable, Any]]:
    """Consecutive writes of one statement become one ``executemany``."""
    runs: list[tuple[sa.Executable, Any]] = []
    i = 0
    while i < len(writes):
        stmt, j = writes[i][0], i
        while j < len(writes) and writes[j][0] is stmt:
            j += 1
        params = [w[1] for w in writes[i:j]]
        runs.append((stmt, params if len(params) > 1 else params[0]))
        i = j
    return runs


class SqliteWriter:
    """The SQLite write path: one raw ``sqlite3`` connection, used from the event loop's
    thread only, and each of the module's statements compiled to SQL once (named
    parameters). Errors are the driver's own (``sqlite3.Error``); :class:`Storage` names
    the database in them."""

    #: Seconds a commit may wait for another writer's lock before it fails; it blocks
    #: the loop meanwhile, and this server is the database's only writer.
    BUSY_TIMEOUT: Final = 1.0

    def __init__(self, path: str) -> None:
        self.path = path
        self._dialect = sqlite_dialect.dialect(paramstyle="named")
        self._sql: dict[tuple[sa.Executable, tuple[str, ...]], str] = {}
        self._conn: sqlite3.Connection | None = None

    def open(self) -> None:
        """Connect, and probe a write that changes nothing: a read-only database (file,
        folder or file system) fails here, at start, rather than at the first move. At start
        it waits as long as a migration may (another process may be migrating the file:
        ``migrations.on_sqlite``), then no longer than :attr:`BUSY_TIMEOUT`."""
        wait = migrations.SQLITE_WAIT_SECONDS
        conn = sqlite3.connect(self.path, timeout=wait, isolation_level=None)
        try:
            _apply_pragmas(conn)
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            conn.execute(f"PRAGMA user_version = {version}")
            conn.execute(f"PRAGMA busy_timeout = {int(self.BUSY_TIMEOUT * 1000)}")
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def transaction(self, writes: list[Write]) -> None:
        """Run ``writes`` in one transaction, one ``executemany`` per run of a statement."""
        conn = self._conn
        if conn is None:
            raise RuntimeError(f"storage is not open: {self.path}")
        conn.execute("BEGIN IMMEDIATE")
        try:
            for stmt, params in _runs(writes):
                if isinstance(params, list):
                    sql, own = self._compiled(stmt, params[0])
                    conn.executemany(sql, [own | p for p in params] if own else params)
                else:
                    sql, own = self._compiled(stmt, params)
                    cursor = conn.execute(sql, own | params if own else params)
                    _check_fence(stmt, cursor.rowcount)
            conn.execute("COMMIT")
        except BaseException:
            # SQLite rolls some failures back itself (a full disk, an I/O error); a
            # second ROLLBACK would fail and hide the first error
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _compiled(self, stmt: sa.Executable, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The SQL of ``stmt`` and the values bound inside it. The module's statements take
        every value from ``params`` and are compiled once; any other (a retention delete,
        built for its own ids) is compiled each time, its lists spelled out."""
        if id(stmt) not in _PREPARED:
            compiled = stmt.compile(  # type: ignore[attr-defined]
                dialect=self._dialect, compile_kwargs={"render_postcompile": True}
            )
            return str(compiled), dict(compiled.params)
        key = (stmt, tuple(params))
        sql = self._sql.get(key)
        if sql is None:
            compiled = stmt.compile(dialect=self._dialect, column_keys=list(params))  # type: ignore[attr-defined]
            sql = self._sql[key] = str(compiled)
        return sql, {}


def _migrated(before: str | None, after: str | None, existed: bool) -> str:
    """What the migrations did to a database, for the host (``Storage.upgraded``).

    >>> _migrated(None, "0003", False)
    'a new database, created at schema revision 0003'
    >>> _migrated(None, "0003", True)
    'the schema of the releases before migrations (revision 0001) upgraded to revision 0003'
    """
    if before is None and not existed:
        return f"a new database, created at schema revision {after}"
    if before is None:
        before = "the schema of the releases before migrations (revision 0001)"
        return f"{before} upgraded to revision {after}"
    return f"the schema upgraded from revision {before} to revision {after}"


def _guard(room: str, token: int) -> Write:
    """The fencing guard of ``room`` written with ``token`` (:meth:`Storage._fence`)."""
    guard = (
        room_owners.update()
        .where(room_owners.c.room == room, room_owners.c.token == token)
        .values(token=token)
        .execution_options(setgame_fence=f"{room}:{token}")
    )
    return (guard, {})


def _action_writes(
    game: str, version: int, at: float, stored: str, ended: float | None
) -> list[Write]:
    """The insert of one action into the log and, when it ends the game, the game's end."""
    values = {"game": game, "version": version, "at": at, "action": stored}
    writes: list[Write] = [(_INSERT_ACTION, values)]
    if ended is not None:
        end: dict[str, Any] = {"game_id": game, "status": "finished", "finished_at": ended}
        writes.append((_FINISH_GAME, end))
    return writes


def _check_fence(stmt: sa.Executable, rowcount: int) -> None:
    """A fencing guard (``Storage._fence``) that matched no row: the token is stale."""
    fence = stmt.get_execution_options().get("setgame_fence")
    if fence is not None and rowcount != 1:
        room, _, token = str(fence).rpartition(":")
        raise _stale(room, token)


def _stale(room: str, token: object) -> Fenced:
    return Fenced(
        f"room {room!r}: fencing token {token} is stale (another process owns the room "
        "now): nothing of this write was stored"
    )


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _sqlite_path(url: str) -> Path | None:
    database = sa.make_url(url).database
    return None if not database or database == ":memory:" else Path(database)


def _identities(path: Path) -> dict[str, tuple[int, int]]:
    """(device, inode) of the database file, its WAL and its shared-memory index, for those
    that exist (a connection opened later would open new ones beside the old: a split)."""
    found: dict[str, tuple[int, int]] = {}
    for name in (str(path), f"{path}-wal", f"{path}-shm"):
        with contextlib.suppress(FileNotFoundError):
            info = os.stat(name)
            found[name] = (info.st_dev, info.st_ino)
    return found


def _file_problems(path: Path) -> Iterator[str]:
    folder = path.parent
    if not folder.is_dir():
        yield f"the folder {folder} does not exist"
        return
    if path.exists():
        info = path.stat()
        mode = stat.filemode(info.st_mode)
        if not os.access(path, os.R_OK | os.W_OK):
            yield f"{path} is not readable and writable by this user ({mode}, uid {info.st_uid})"
    if not os.access(folder, os.W_OK | os.X_OK):
        yield f"the folder {folder} is not writable by this user (SQLite needs its -wal file there)"
    with contextlib.suppress(OSError):
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            yield f"the file system of {folder} is mounted read-only"


def _cause(exc: BaseException) -> str:
    """The driver's own words, without SQLAlchemy's statement dump and help link."""
    orig = getattr(exc, "orig", None)
    return str(orig if orig is not None else exc).strip() or type(exc).__name__


def _seat_values(room: str | None, seat: SeatRow) -> dict[str, Any]:
    if room is None:
        raise ValueError(f"a seat needs its room: {seat!r}")
    return {
        "room": room,
        "player": seat.player,
        "name": seat.name,
        "token_hash": seat.token_hash,
        "bot_level": seat.bot_level,
    }


def _seats_of(room: str) -> sa.Select[Any]:
    """The seats of ``room``, each with the account of a signed-in player (or None)."""
    linked = sa.and_(account_seats.c.room == seats.c.room, account_seats.c.player == seats.c.player)
    return (
        sa.select(seats, account_seats.c.account)
        .select_from(seats.outerjoin(account_seats, linked))
        .where(seats.c.room == room)
    )


def _sorted_seats(rows: Any) -> list[SeatRow]:
    seats_ = [SeatRow(r.player, r.name, r.token_hash, r.bot_level, r.account) for r in rows]
    return sorted(seats_, key=lambda s: (len(s.player), s.player))


def _game_row(r: Any) -> GameRow:
    return GameRow(
        r.id, r.room, r.seed, json.loads(r.settings), r.status, r.created, r.finished, r.rules
    )


_JSON: Final = json.JSONEncoder(separators=(",", ":"), sort_keys=True)
"""The stored JSON form (``json.dumps`` with these options builds such an encoder per call)."""


def _dump(value: Any) -> str:
    return _JSON.encode(value)


def _engine_options(url: str) -> dict[str, Any]:
    if url.startswith("sqlite"):
        return {"connect_args": {"timeout": 30}}
    return {"pool_size": 5, "max_overflow": 5}


def _sqlite_pragmas(engine: sa.Engine) -> None:
    """WAL lets readers run beside the writer; NORMAL sync survives a killed process."""

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        _apply_pragmas(dbapi_conn)


def _apply_pragmas(dbapi_conn: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA wal_autocheckpoint=0")  # see CHECKPOINT_SECONDS
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
