"""PostgreSQL: the actions of many rooms committed in one statement, one round trip (issue 22).

The hot write of a game server is "append this action to that room's log" (with, for the
last one, the game's end). Through SQLAlchemy's transaction a group of k rooms' actions
cost ``BEGIN``, k fencing guards, the inserts and ``COMMIT``: k + 3 round trips, each a
wake-up of the event loop and of a PostgreSQL backend, and each statement a trip through
SQLAlchemy's compiler cache and its greenlet bridge (the profile in ``docs/benchmarks.md``).
Here the whole group is ONE prepared statement sent on a connection of its own: a single
statement is a transaction of its own in PostgreSQL (committed, with the WAL flushed, when
its answer comes back), so nothing of it is acknowledged before it is committed, and a group
of any size costs one round trip.

The fencing guard (``docs/cluster.md``) is kept, per room: the first part of the statement
updates the ``room_owners`` row of every guarded room whose token is still the one this
process holds (taking the row's lock until the commit, as the one-room guard does); only
the actions of the rooms it matched (or written without a token: one process without
``--redis``) are inserted, and the statement returns those rooms. A room it did not match
fails alone (:class:`~setgame.server.storage.Fenced`), as a stale write in a group always
has; its action was not written.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any, Final

import sqlalchemy as sa

APPEND_GROUP: Final = """
WITH fenced AS (
    UPDATE room_owners AS o SET token = o.token
    FROM unnest($1::varchar[], $2::bigint[]) AS f(room, token)
    WHERE o.room = f.room AND o.token = f.token
    RETURNING o.room
), written AS (
    SELECT room FROM fenced UNION ALL SELECT unnest($3::varchar[])
), added AS (
    INSERT INTO actions (game, version, at, action)
    SELECT a.game, a.version, a.at, a.action
    FROM unnest($4::varchar[], $5::varchar[], $6::int[], $7::float8[], $8::text[])
        AS a(room, game, version, at, action)
    WHERE a.room IN (SELECT room FROM written)
), ended AS (
    UPDATE games AS g SET status = 'finished', finished = e.at
    FROM unnest($9::varchar[], $10::varchar[], $11::float8[]) AS e(room, game, at)
    WHERE g.id = e.game AND e.room IN (SELECT room FROM written)
)
SELECT room FROM written
"""
"""The data-modifying parts of one ``WITH`` run in one snapshot and see each other only
through ``RETURNING``: the inserts depend on ``fenced``'s rows, so a guard that waited for a
takeover's commit and then matched nothing (READ COMMITTED re-checks its ``WHERE``) keeps
its room's action out."""


@dataclass(frozen=True, slots=True)
class Append:
    """One room's action, as the group statement takes it."""

    room: str
    token: int | None  # the fencing token this process writes the room with, if any
    game: str
    version: int
    at: float
    action: str  # the stored JSON
    finished: float | None  # the game's end (wall clock) when this action ends it


def arguments(appends: list[Append]) -> tuple[list[Any], ...]:
    """The eleven array arguments of :data:`APPEND_GROUP`."""
    guarded = [a for a in appends if a.token is not None]
    ended = [a for a in appends if a.finished is not None]
    return (
        [a.room for a in guarded],
        [a.token for a in guarded],
        [a.room for a in appends if a.token is None],
        [a.room for a in appends],
        [a.game for a in appends],
        [a.version for a in appends],
        [a.at for a in appends],
        [a.action for a in appends],
        [a.room for a in ended],
        [a.game for a in ended],
        [a.finished for a in ended],
    )


CONNECT_SECONDS: Final = 10.0
"""How long opening the connection may take before the group fails (a database down)."""


class PgAppender:
    """A connection of its own (asyncpg, its prepared statement cached) that runs
    :data:`APPEND_GROUP`; opened at the first group, opened again after a failure."""

    def __init__(self, url: str) -> None:
        self.dsn = sa.make_url(url).set(drivername="postgresql").render_as_string(
            hide_password=False
        )
        self._conn: Any = None

    async def write(self, appends: list[Append]) -> set[str]:
        """Commit ``appends`` in one statement; the rooms whose actions were written.

        Any error (the database down, a duplicate version) leaves nothing written and is
        raised as the driver's; the connection is dropped, the next group opens another."""
        import asyncpg  # type: ignore[import-untyped]  # the postgres extra: PostgreSQL only

        try:
            if self._conn is None or self._conn.is_closed():
                self._conn = await asyncpg.connect(self.dsn, timeout=CONNECT_SECONDS)
            rows = await self._conn.fetch(APPEND_GROUP, *arguments(appends))
        except asyncpg.PostgresError:
            raise  # the statement failed (rolled back); the connection is fine
        except BaseException:
            await self.close()  # cut off, or cancelled mid-statement: never reuse it
            raise
        return {str(row["room"]) for row in rows}

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.terminate()
