"""Starting is safe (issue 22): any number of processes started at once on one empty database
all come up. One creates and migrates the schema under a lock (PostgreSQL: an advisory lock of
the migrating transaction; SQLite: ``BEGIN IMMEDIATE``), the others wait for it and then find
the schema at the head. Real processes, real PostgreSQL and Redis, a new database each round."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from conftest import LiveServer
from setgame.server import migrations
from setgame.server.storage import Storage, StorageError

ROUNDS = 10
TOGETHER = 3


def _together(servers: list[LiveServer]) -> None:
    """Start every server at the same moment; each start waits for its ``/api/health``."""
    with ThreadPoolExecutor(len(servers)) as pool:
        failures = [f for f in pool.map(_start, servers) if f]
    assert not failures, "\n\n".join(failures)


def _start(server: LiveServer) -> str:
    try:
        server.start()
    except RuntimeError as exc:
        return str(exc)
    return ""


def _stop(servers: list[LiveServer]) -> None:
    with ThreadPoolExecutor(len(servers)) as pool:
        list(pool.map(LiveServer.stop, servers))


async def _serve(servers: list[LiveServer]) -> None:
    """Every process creates a room and reads it back: the schema is whole."""
    async with httpx.AsyncClient(timeout=10) as http:
        for server in servers:
            created = await http.post(f"{server}/api/rooms", json={})
            assert created.status_code == 201, created.text
            room = created.json()["id"]
            assert (await http.get(f"{servers[0]}/api/rooms/{room}")).status_code == 200


async def _all_come_up(servers: list[LiveServer], url: str) -> None:
    """``servers`` started at once all come up and serve; then they are stopped, and the
    database ``url`` is at the head revision."""
    try:
        await asyncio.to_thread(_together, servers)
        await _serve(servers)
    finally:
        await asyncio.to_thread(_stop, servers)
    assert await _revision(url) == migrations.head()


async def _revision(url: str) -> str | None:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(migrations.current)
    finally:
        await engine.dispose()


async def test_three_processes_started_together_on_an_empty_database_all_come_up(
    new_database: Callable[[], object], redis_url: str, tmp_path: Path
) -> None:
    """The race of issue 22 (``pg_type_typname_nsp_index`` in 2 tries of 5), ten rounds."""
    for round_ in range(ROUNDS):
        url = await new_database()  # type: ignore[misc]
        servers = [
            LiveServer(url, tmp_path / f"r{round_}n{n}.log") for n in range(TOGETHER)
        ]
        for server in servers:
            server.options = ["--redis", redis_url]  # every one with --create-db
        await _all_come_up(servers, url)


async def test_processes_upgrading_one_older_database_together_all_come_up(
    new_database: Callable[[], object], redis_url: str, tmp_path: Path
) -> None:
    """The normal path: started without ``--create-db`` on a database of an older release,
    every process finds it and one upgrades it while the others wait."""
    for round_ in range(2):
        url = await new_database()  # type: ignore[misc]
        engine = create_async_engine(url)
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: migrations.upgrade(c, "0001"))
        await engine.dispose()
        servers = [LiveServer(url, tmp_path / f"u{round_}n{n}.log") for n in range(TOGETHER)]
        for server in servers:
            server.options, server.created = ["--redis", redis_url], True  # no --create-db
        await _all_come_up(servers, url)


async def test_a_process_without_create_db_waits_for_the_one_creating(
    new_database: Callable[[], object], tmp_path: Path
) -> None:
    """While one process holds the schema lock, another started without ``--create-db``
    waits for it instead of refusing an empty database, then finds the schema at the head."""
    url = str(await new_database())  # type: ignore[misc]
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(migrations.lock)  # as a creating process does first
            server = LiveServer(url, tmp_path / "waiting.log")
            server.created = True  # no --create-db: it must not see the database empty
            starting = asyncio.create_task(asyncio.to_thread(server.start))
            await asyncio.sleep(1.5)
            assert not starting.done()  # waiting for the lock, not refused
            await conn.run_sync(migrations.upgrade)
        await starting  # the lock is free once the creator's transaction commits
        assert server.running
        server.stop()
    finally:
        await engine.dispose()


async def test_the_wait_for_the_schema_lock_is_bounded(
    new_database: Callable[[], object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that holds the lock far too long (a stuck migration) stops the others at
    start with a clear cause, rather than holding them forever."""
    monkeypatch.setattr(migrations, "LOCK_SECONDS", 1)
    url = str(await new_database())  # type: ignore[misc]
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(migrations.lock)
            store = Storage(url, create=True)
            with pytest.raises(StorageError, match="lock timeout") as caught:
                await store.open()
            await store.close()
            assert url.rsplit("/", 1)[1] in str(caught.value)  # names the database
    finally:
        await engine.dispose()


# --- SQLite: processes sharing one file (a server and the admin command, say) ------------------

OPEN = """
import asyncio, sys
from setgame.server.storage import Storage
async def main():
    store = Storage(sys.argv[1], create=True)
    await store.open()
    await store.close()
asyncio.run(main())
"""


def _open_together(path: Path) -> list[subprocess.CompletedProcess[str]]:
    command = [sys.executable, "-c", OPEN, str(path)]
    procs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for _ in range(TOGETHER)
    ]
    return [
        subprocess.CompletedProcess(p.args, p.wait(60), p.communicate()[0], "") for p in procs
    ]


def test_processes_creating_one_sqlite_file_together_all_open_it(tmp_path: Path) -> None:
    for round_ in range(2):
        path = tmp_path / f"shared{round_}.db"
        for done in _open_together(path):
            assert done.returncode == 0, done.stdout
        engine = sa.create_engine(f"sqlite:///{path}")
        with engine.connect() as conn:
            assert migrations.current(conn) == migrations.head()
        engine.dispose()
