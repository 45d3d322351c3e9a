"""Schema migrations (Alembic): a database made by the release before migrations upgrades with
nothing lost, a new one is built by the migrations alone and matches ``storage.py``'s tables,
and a downgrade/upgrade round trip keeps the games; on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from setgame.server import account_tables, arena_tables, chat_tables, migrations, moderation_tables
from setgame.server.storage import Storage, StorageError, database_url, metadata

# The schema exactly as the release before migrations made it (storage.py at main before
# Alembic), copied here so that a later change to storage.py cannot change the starting point.
OLD = sa.MetaData()
sa.Table(
    "rooms",
    OLD,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)
sa.Table(
    "games",
    OLD,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("room", sa.String(32), sa.ForeignKey("rooms.id"), nullable=False, index=True),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
)
sa.Table(
    "seats",
    OLD,
    sa.Column("room", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("player", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("bot_level", sa.Integer, nullable=True),
)
sa.Table(
    "actions",
    OLD,
    sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("action", sa.Text, nullable=False),
)
OLD_TABLES = ("rooms", "games", "seats", "actions")


def _rows() -> dict[str, list[dict[str, Any]]]:
    """Two rooms, a finished game and one in play, seats (a bot), a log with JSON actions."""
    settings = json.dumps({"mode": "multi", "penalty": "point", "bots": 1})
    join = {"type": "join", "at": 0.0, "player": "pa", "name": "Ann"}
    return {
        "rooms": [
            {"id": "r1", "settings": settings, "public": True, "created": 1.5},
            {"id": "r2", "settings": settings, "public": False, "created": 2.5},
        ],
        "games": [
            {"id": "g1", "room": "r1", "seed": 2**61 + 7, "settings": settings,
             "status": "finished", "created": 1.6, "finished": 9.0},
            {"id": "g2", "room": "r1", "seed": 3, "settings": settings,
             "status": "playing", "created": 9.5, "finished": None},
            {"id": "g3", "room": "r2", "seed": 4, "settings": settings,
             "status": "playing", "created": 2.6, "finished": None},
        ],
        "seats": [
            {"room": "r1", "player": "pa", "name": "Ann", "token_hash": "a" * 64,
             "bot_level": None},
            {"room": "r1", "player": "pb", "name": "Bot 1", "token_hash": None, "bot_level": 3},
        ],
        "actions": [
            {"game": g, "version": v, "at": v / 4, "action": json.dumps(join | {"at": v / 4})}
            for g, versions in (("g1", range(1, 6)), ("g2", range(6, 9)), ("g3", range(1, 3)))
            for v in versions
        ],
    }


def _fill_old(conn: sa.Connection) -> None:
    OLD.create_all(conn)
    for name, rows in _rows().items():
        conn.execute(OLD.tables[name].insert(), rows)


def _dump(conn: sa.Connection) -> dict[str, list[tuple[Any, ...]]]:
    """The old tables' rows, in their old columns (later revisions may add columns)."""
    found = {}
    for name in OLD_TABLES:
        table = sa.Table(name, sa.MetaData(), autoload_with=conn)
        columns = [table.c[c.name] for c in OLD.tables[name].columns]
        order = [c for c in table.primary_key.columns]
        query = sa.select(*columns).order_by(*order)
        found[name] = [tuple(r) for r in conn.execute(query)]
    return found


def _rules(conn: sa.Connection) -> list[tuple[str, int]]:
    return [tuple(r) for r in conn.exec_driver_sql("SELECT id, rules FROM games ORDER BY id")]


def _revision(conn: sa.Connection) -> str | None:
    return migrations.current(conn)


def _differences(conn: sa.Connection) -> list[Any]:
    """What would autogenerate change to reach storage's tables: nothing, when the
    migrations build exactly what the code uses."""
    every = [
        metadata, account_tables.metadata, chat_tables.metadata, moderation_tables.metadata,
        arena_tables.metadata,
    ]
    return list(compare_metadata(MigrationContext.configure(conn), every))  # type: ignore[arg-type]


@pytest.fixture(params=["sqlite", "postgresql"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """An empty database (SQLite: a path that does not exist yet; PostgreSQL: a new one
    in the throwaway cluster)."""
    if request.param == "sqlite":
        yield str(tmp_path / "old.db")
        return
    cluster = request.getfixturevalue("postgres_url")
    name = "mig_" + uuid.uuid4().hex[:12]
    admin = create_async_engine(cluster, isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.exec_driver_sql(f"CREATE DATABASE {name}")
    yield cluster.rsplit("/", 1)[0] + "/" + name
    async with admin.connect() as conn:
        await conn.exec_driver_sql(f"DROP DATABASE {name} WITH (FORCE)")
    await admin.dispose()


async def _run(url: str, fn: Any) -> Any:
    engine: AsyncEngine = create_async_engine(database_url(url))
    try:
        async with engine.begin() as conn:
            return await conn.run_sync(fn)
    finally:
        await engine.dispose()


async def test_a_database_of_the_release_before_migrations_upgrades_with_nothing_lost(
    database: str,
) -> None:
    await _run(database, _fill_old)
    before = await _run(database, _dump)
    assert await _run(database, _revision) is None
    store = Storage(database, create=False)  # a restart of the new release: no --create-db
    await store.open()
    assert store.upgraded is not None and "(revision 0001) upgraded to revision" in store.upgraded
    assert store.upgraded.endswith(migrations.head())  # said to the host once, as it starts
    try:
        record = await store.room_record("r1")
        assert record is not None and record.game.id == "g2" and record.version == 8
        assert [a.version for a in record.actions] == [6, 7, 8]
        assert [s.name for s in record.seats] == ["Ann", "Bot 1"]
        assert [a.action["name"] for a in await store.actions("g1")] == ["Ann"] * 5
    finally:
        await store.close()
    assert await _run(database, _dump) == before
    assert await _run(database, _revision) == migrations.head()
    assert await _run(database, _differences) == []
    # 0007: every game stored before was played under rules 1, and replays under them
    assert await _run(database, _rules) == [("g1", 1), ("g2", 1), ("g3", 1)]


async def test_a_new_database_is_built_by_the_migrations_as_the_code_expects(
    database: str,
) -> None:
    store = Storage(database, create=True)
    await store.open()
    await store.close()
    assert await _run(database, _revision) == migrations.head()
    assert await _run(database, _differences) == []
    again = Storage(database, create=False)  # a second start changes nothing
    await again.open()
    assert again.upgraded is None
    await again.close()
    assert await _run(database, _revision) == migrations.head()


async def test_a_downgrade_to_the_first_revision_and_back_keeps_every_game(database: str) -> None:
    await _run(database, _fill_old)
    before = await _run(database, _dump)
    await _run(database, migrations.upgrade)
    await _run(database, lambda c: migrations.downgrade(c, "0001"))
    assert await _run(database, _revision) == "0001"
    assert await _run(database, _dump) == before
    names = await _run(database, lambda c: set(sa.inspect(c).get_table_names()))
    assert names - {"alembic_version"} == set(OLD_TABLES)  # later revisions' tables are gone
    await _run(database, migrations.upgrade)
    assert await _run(database, _dump) == before
    assert await _run(database, _differences) == []


async def test_a_database_of_a_newer_release_is_refused_quoting_its_revision(
    database: str,
) -> None:
    await _run(database, _fill_old)
    await _run(database, migrations.upgrade)
    await _run(database, lambda c: c.exec_driver_sql(
        "UPDATE alembic_version SET version_num = 'f00d9999'"))
    before = await _run(database, _dump)
    store = Storage(database, create=False)
    with pytest.raises(StorageError, match=r"'f00d9999'.*newer release"):
        await store.open()
    await store.engine.dispose()
    if store._writer_db is not None:
        store._writer_db.close()
    assert await _run(database, _dump) == before


async def test_a_downgrade_to_an_unknown_revision_is_a_clear_error(database: str) -> None:
    await _run(database, migrations.upgrade)
    with pytest.raises(migrations.MigrationError, match="'nonesuch'"):
        await _run(database, lambda c: migrations.downgrade(c, "nonesuch"))


async def test_a_failing_upgrade_changes_nothing(database: str) -> None:
    """One transaction for the whole upgrade, on SQLite too: a revision that fails (here
    0003, whose table a host had already made under that name) undoes the ones before it."""
    await _run(database, _fill_old)
    await _run(database, lambda c: c.exec_driver_sql("CREATE TABLE ratings (x INTEGER)"))
    before = await _run(database, _dump)
    store = Storage(database, create=False)
    with pytest.raises(StorageError, match="ratings"):
        await store.open()
    await store.engine.dispose()
    if store._writer_db is not None:
        store._writer_db.close()
    assert await _run(database, _revision) is None  # not even 0001 was recorded
    names = await _run(database, lambda c: set(sa.inspect(c).get_table_names()))
    assert names == {*OLD_TABLES, "ratings"}  # no accounts: 0002 was undone
    assert await _run(database, _dump) == before


async def test_0010_deals_daily_puzzles_stored_before_from_the_public_table(
    database: str,
) -> None:
    """Issue 20: a daily puzzle stored before the server key was dealt the day's public table;
    0010 gives it the public seed (0), so that it replays as it was played. Other games keep
    their seeds."""
    puzzle = json.dumps({"mode": "solo", "variant": "puzzle", "day": "2026-11-20"})
    practice = json.dumps({"mode": "practice", "variant": "puzzle", "day": ""})

    def fill(conn: sa.Connection) -> None:
        _fill_old(conn)
        games = OLD.tables["games"]
        conn.execute(games.insert(), [
            {"id": "d1", "room": "r2", "seed": 99, "settings": puzzle, "status": "finished",
             "created": 3.0, "finished": 4.0},
            {"id": "d2", "room": "r2", "seed": 98, "settings": practice, "status": "finished",
             "created": 3.0, "finished": 4.0},
        ])

    await _run(database, fill)
    await _run(database, migrations.upgrade)
    seeds = await _run(database, lambda c: dict(
        c.execute(sa.text("SELECT id, seed FROM games")).all()
    ))
    assert seeds == {"g1": 2**61 + 7, "g2": 3, "g3": 4, "d1": 0, "d2": 98}
