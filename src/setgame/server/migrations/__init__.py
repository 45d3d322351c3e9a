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
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError

HERE: Final = Path(__file__).resolve().parent

# Alembic says at INFO which implementation it uses, at every start; the server says itself
# when a migration ran (``Storage``), so only Alembic's warnings are worth the log.
logging.getLogger("alembic").setLevel(logging.WARNING)


class MigrationError(Exception):
    """The database cannot be brought to this release's schema (the message says why)."""


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
    """Bring the database up to ``revision`` inside the caller's transaction; the revisions
    before and after (equal when there was nothing to do)."""
    _check_known(connection)
    before = current(connection)
    command.upgrade(_config(connection), revision)
    return before, current(connection)


def upgrade_sqlite(path: Path, revision: str = "head") -> tuple[str | None, str | None]:
    """:func:`upgrade` an SQLite file in one transaction. Python's ``sqlite3`` runs DDL
    outside any transaction unless told otherwise, so a failing revision would leave the
    ones before it applied; here the connection begins its own (``BEGIN IMMEDIATE``: no
    other writer meanwhile) and commits only once every revision has run."""
    engine = sa.create_engine(f"sqlite:///{path}", poolclass=sa.NullPool)

    @sa.event.listens_for(engine, "connect")
    def _manual(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # no implicit BEGIN/COMMIT: ours only

    @sa.event.listens_for(engine, "begin")
    def _begin(connection: sa.Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    try:
        with engine.begin() as connection:
            return upgrade(connection, revision)
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
