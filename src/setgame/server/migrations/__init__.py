"""The database schema's history, as Alembic migrations that ship with the package.

Nothing here needs an ``alembic.ini``: :func:`upgrade` runs the migrations on a connection
the server already holds (Alembic's "sharing a connection" recipe, through ``env.py``).
Revision ``0001`` is the schema every release before migrations made with
``metadata.create_all``; it creates only the tables that are missing, so a database made by
such a release becomes revision ``0001`` without a change, and later revisions build on it.

A new schema change is a new file in ``versions/`` (``revision``, ``down_revision``,
``upgrade``, ``downgrade``), written by hand: the tables of a revision are spelled out in it,
never imported from ``storage.py``, whose tables follow the newest revision.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError

HERE: Final = Path(__file__).resolve().parent
T = TypeVar("T")

# Alembic says at INFO which implementation it uses, at every start; the server says itself
# when a migration ran (``Storage``), so only Alembic's warnings are worth the log.
logging.getLogger("alembic").setLevel(logging.WARNING)


class MigrationError(Exception):
    """The database cannot be brought to this release's schema (the message says why)."""


LOCK_KEY: Final = 0x5E7_6A3E_0022
"""PostgreSQL: the advisory lock every setgame process takes before it looks at the schema
(a fixed key: the same in every release, so that two releases never migrate at once)."""

LOCK_SECONDS: Final = 300
"""PostgreSQL: how long a process waits for another's migration before it gives up (the
server then stops at start, naming the cause, and its supervisor starts it again)."""

SQLITE_WAIT_SECONDS: Final = 300.0
"""SQLite: the same wait, for the file's write lock (``BEGIN IMMEDIATE``)."""


def lock(connection: sa.Connection) -> None:
    """Take the schema lock for the rest of the caller's transaction, waiting for a process
    that holds it (it is creating or migrating the schema); commit or rollback frees it.

    Without it, processes started together on an empty database all create the same tables
    and all but one fail (``pg_type_typname_nsp_index``). PostgreSQL: a transaction-level
    advisory lock (taken again by the same transaction, it is simply held once more). SQLite
    needs nothing here: :func:`upgrade_sqlite`'s ``BEGIN IMMEDIATE`` is the file's lock."""
    if connection.dialect.name != "postgresql":
        return
    connection.exec_driver_sql(f"SET LOCAL lock_timeout = '{LOCK_SECONDS}s'")
    connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})


def _config(connection: sa.Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(HERE))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision this release knows."""
    found = ScriptDirectory.from_config(_config()).get_current_head()
    if found is None:  # pragma: no cover - the package always has revisions
        raise MigrationError("no migrations installed")
    return found


def current(connection: sa.Connection) -> str | None:
    """The database's revision (None: never migrated: new, or made before migrations)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: sa.Connection, revision: str = "head") -> tuple[str | None, str | None]:
    """Bring the database up to ``revision`` inside the caller's transaction, under the
    schema lock (:func:`lock`); the revisions before and after (equal when there was nothing
    to do)."""
    lock(connection)
    _check_known(connection)
    before = current(connection)
    command.upgrade(_config(connection), revision)
    return before, current(connection)


def upgrade_sqlite(path: Path, revision: str = "head") -> tuple[str | None, str | None]:
    """:func:`upgrade` an SQLite file in one transaction (see :func:`on_sqlite`)."""
    return on_sqlite(path, lambda connection: upgrade(connection, revision))


def on_sqlite(path: Path, work: Callable[[sa.Connection], T]) -> T:
    """Run ``work`` in one transaction of an SQLite file that holds its write lock from the
    start. Python's ``sqlite3`` runs DDL outside any transaction unless told otherwise, so a
    failing revision would leave the ones before it applied; here the connection begins its
    own (``BEGIN IMMEDIATE``: no other writer meanwhile, another process doing the same waits
    up to :data:`SQLITE_WAIT_SECONDS`) and commits only once ``work`` is done."""
    engine = sa.create_engine(
        f"sqlite:///{path}",
        poolclass=sa.NullPool,
        connect_args={"timeout": SQLITE_WAIT_SECONDS},
    )

    @sa.event.listens_for(engine, "connect")
    def _manual(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # no implicit BEGIN/COMMIT: ours only

    @sa.event.listens_for(engine, "begin")
    def _begin(connection: sa.Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    try:
        with engine.begin() as connection:
            return work(connection)
    finally:
        engine.dispose()


def downgrade(connection: sa.Connection, revision: str) -> None:
    """Take the database back to ``revision`` (``base``: no setgame tables at all)."""
    _check_known(connection)
    try:
        command.downgrade(_config(connection), revision)
    except CommandError as exc:
        raise MigrationError(f"cannot downgrade to {revision!r}: {exc}") from None


def _check_known(connection: sa.Connection) -> None:
    """A database written by a newer release is refused before anything runs on it."""
    found = current(connection)
    if found is None:
        return
    script = ScriptDirectory.from_config(_config())
    try:
        script.get_revision(found)
    except CommandError:
        raise MigrationError(
            f"the database is at schema revision {found!r}, which this release of setgame "
            f"does not know (it knows up to {head()!r}): it was written by a newer release; "
            "run that release, or restore a backup made before it (docs/deploy.md)"
        ) from None
