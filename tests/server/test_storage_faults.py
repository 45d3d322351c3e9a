"""Issue 7 item 8, storage faults: database files deleted mid-game, a restart that would
begin again from nothing, unreadable rows, a read-only database, bad limits. Every storage
error names the database's path and the cause."""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from setgame.rules.game import GameError
from setgame.server.client import Client, ClientError
from setgame.server.protocol import RoomSettings
from setgame.server.storage import Storage, StorageError

from .roomkit import FakeConnection, registry

SRC = Path(__file__).resolve().parents[2] / "src"


def _delete_files(db: Path) -> None:
    for name in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        name.unlink(missing_ok=True)


@pytest.mark.parametrize("replace", [False, True])
async def test_deleted_database_files_are_noticed_and_nothing_more_is_acknowledged(
    tmp_path: Path, replace: bool
) -> None:
    db = tmp_path / "g.db"
    async with registry(db) as rooms:
        room = await rooms.create(RoomSettings(), "10.0.0.1")
        conn = FakeConnection()
        room.attach(conn)
        player = await room.join(conn, "Ann", "10.0.0.1")
        acknowledged = room.version
        _delete_files(db)
        if replace:  # deleted and a new, empty file put in its place
            sqlite3.connect(db).close()
        sent = len(conn.sent)
        with pytest.raises(StorageError) as failed:
            await room.start(player)
        assert str(db) in str(failed.value)
        assert ("replaced" if replace else "deleted") in str(failed.value)
        assert room.broken and room.version == acknowledged  # no update for the lost write
        assert not any('"update"' in text for text in conn.sent[sent:])
        with pytest.raises(StorageError, match=str(db)):
            await rooms.create(RoomSettings(), "10.0.0.2")  # nothing new either


async def test_a_restart_does_not_create_an_empty_database_where_one_was_expected(
    tmp_path: Path,
) -> None:
    db = tmp_path / "g.db"
    store = Storage(str(db), create=False)
    with pytest.raises(StorageError) as missing:
        await store.open()
    await store.close()
    assert str(db) in str(missing.value) and "--create-db" in str(missing.value)
    assert not db.exists()
    sqlite3.connect(db).close()  # a file, but not setgame's: also refused
    store = Storage(str(db), create=False)
    with pytest.raises(StorageError, match="no setgame tables"):
        await store.open()
    await store.close()
    async with registry(db, create=True):  # asked for: created
        pass
    async with registry(db, create=False):  # and from then on found
        pass


def _run_server(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "setgame.server", "--port", "1", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ | {"PYTHONPATH": str(SRC)} | (env or {}),
    )


def test_the_server_refuses_to_start_on_a_missing_database(tmp_path: Path) -> None:
    db = tmp_path / "gone.db"
    done = _run_server("--db", str(db))
    assert done.returncode == 2
    assert str(db) in done.stderr and "--create-db" in done.stderr
    assert "Traceback" not in done.stderr and not db.exists()


def test_a_bad_limit_stops_the_server_at_start_quoting_it(tmp_path: Path) -> None:
    done = _run_server("--db", str(tmp_path / "x.db"), env={"SETGAME_ROOM_CAP": "lots"})
    assert done.returncode == 2
    assert "SETGAME_ROOM_CAP" in done.stderr and "'lots'" in done.stderr
    assert "Traceback" not in done.stderr
    done = _run_server("--db", str(tmp_path / "x.db"), env={"SETGAME_SEATS_PER_CLIENT": "99"})
    assert done.returncode == 2 and "'99'" in done.stderr


def _corrupt(db: Path, sql: str) -> None:
    with sqlite3.connect(db) as conn:
        assert conn.execute(sql).rowcount == 1


@pytest.mark.parametrize(
    "target", ["action", "room settings", "game settings", "action of a wrong shape"]
)
async def test_one_unreadable_row_skips_its_room_and_the_others_restore(
    tmp_path: Path, target: str, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "g.db"
    async with registry(db) as rooms:
        made = []
        for name in ("Ann", "Bob", "Cid"):
            room = await rooms.create(RoomSettings(), "10.0.0.1")
            await room.join(FakeConnection(), name, "10.0.0.1")
            made.append(room)
        bad, game = made[1].id, made[1].game_id
    sql = {
        "action": f"UPDATE actions SET action = '{{not json' WHERE game = '{game}'",
        "room settings": f"UPDATE rooms SET settings = 'mode=multi' WHERE id = '{bad}'",
        "game settings": f"UPDATE games SET settings = '[' WHERE id = '{game}'",
        "action of a wrong shape": (
            f"UPDATE actions SET action = '{json.dumps({'type': 'dance'})}' WHERE game = '{game}'"
        ),
    }[target]
    _corrupt(db, sql)
    with caplog.at_level(logging.ERROR):
        async with registry(db, restore=True, create=False) as rooms:
            assert sorted(rooms.rooms) == sorted(r.id for r in made if r.id != bad)
            assert await rooms.load(bad) is None
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert bad in logged and str(db) in logged


async def test_a_read_only_database_names_the_path_and_the_cause(tmp_path: Path) -> None:
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        pytest.skip("root without setpriv: permissions do not bind")
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "g.db"
    async with registry(db):
        pass
    db.chmod(0o444)
    folder.chmod(0o555)
    try:
        # root ignores file modes: drop the capabilities that let it (setpriv)
        drop = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]
        command = [*(drop if os.geteuid() == 0 else []), sys.executable, "-m", "setgame.server"]
        done = subprocess.run(
            [*command, "--port", "1", "--db", str(db)],
            capture_output=True,
            text=True,
            timeout=60,
            env=os.environ | {"PYTHONPATH": str(SRC)},
        )
    finally:
        folder.chmod(0o755)
        db.chmod(0o644)
    assert done.returncode == 2, done.stderr
    assert str(db) in done.stderr and "readonly" in done.stderr
    assert "not writable" in done.stderr and "Traceback" not in done.stderr


async def test_a_write_error_names_the_path_and_the_cause(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    async with registry(db) as rooms:
        room = await rooms.create(RoomSettings(), "10.0.0.1")
        _quick_timeout(rooms.storage)
        with sqlite3.connect(db, timeout=0.1) as other:  # another process holds the lock
            other.execute("BEGIN EXCLUSIVE")
            with pytest.raises((StorageError, GameError)) as failed:
                await room.join(FakeConnection(), "A", "10.0.0.1")
            other.rollback()
        assert str(db) in str(failed.value) and "locked" in str(failed.value)
        assert rooms.storage.fault is None  # a lock is no lasting fault: later writes go on
        await rooms.create(RoomSettings(), "10.0.0.1")


def _quick_timeout(storage: Storage) -> None:
    """Lower the busy timeout of the writer's connection so that a lock fails fast."""
    writer = storage._writer_db
    assert writer is not None and writer._conn is not None
    writer._conn.execute("PRAGMA busy_timeout = 100")


async def test_an_online_backup_restores_every_room(tmp_path: Path) -> None:
    """docs/deploy.md, "Backups": the SQLite backup API while the server writes, then the
    copy opened as the database (without creating anything) brings the rooms back."""
    db, copy = tmp_path / "live.db", tmp_path / "backup.db"
    async with registry(db) as rooms:
        made = []
        for name in ("Ann", "Bob"):
            room = await rooms.create(RoomSettings(), "10.0.0.1")
            await room.join(FakeConnection(), name, "10.0.0.1")
            made.append((room.id, room.version))
        with sqlite3.connect(db) as source, sqlite3.connect(copy) as target:
            source.backup(target)  # the server keeps running meanwhile
        await rooms.create(RoomSettings(), "10.0.0.1")  # after the backup: not in it
    async with registry(copy, restore=True, create=False) as rooms:
        assert sorted((r.id, r.version) for r in rooms.rooms.values()) == sorted(made)


async def test_database_deleted_under_a_live_server(fresh_server: Any) -> None:
    """The issue's case end to end: files deleted mid-game; nothing more is acknowledged,
    the health check says so, and the restart refuses to begin from an empty database."""
    db = Path(fresh_server.db)
    async with httpx.AsyncClient(base_url=str(fresh_server), trust_env=False) as http:
        room = (await http.post("/api/rooms", json={})).json()["id"]
        client = await Client.connect(str(fresh_server), room)
        try:
            await client.join("Ann")
            _delete_files(db)
            with pytest.raises(ClientError):
                await client.start()
                await client.wait_update(lambda s: s["phase"] == "playing", timeout=3)
            assert client.state is not None and client.state["phase"] == "lobby"
            created = await http.post("/api/rooms", json={})
            assert (created.status_code, created.json()["code"]) == (503, "storage_error")
            health = await http.get("/api/health")
            assert health.status_code == 503 and health.json()["ok"] is False
        finally:
            await client.close()
    with pytest.raises(RuntimeError, match="no database at"):
        fresh_server.restart()
    assert not db.exists()
    assert "was deleted while the server ran" in fresh_server.log.read_text()


async def test_an_outage_during_a_later_message_closes_with_a_named_code(
    fresh_server: Any,
) -> None:
    """Issue 20: the database lost while a game is on (not at the handshake): the action that
    cannot be stored is not acknowledged, and every socket of the room is closed with 1011
    ``storage_unavailable`` (the reason the page shows), not a bare 1011."""
    db = Path(fresh_server.db)
    async with httpx.AsyncClient(trust_env=False) as http:
        rid = (await http.post(f"{fresh_server}/api/rooms", json={})).json()["id"]
    ann = await Client.connect(str(fresh_server), rid)
    bob = await Client.connect(str(fresh_server), rid)
    try:
        await ann.join("Ann")
        await bob.join("Bob")
        _delete_files(db)
        await ann.start()
        for client in (ann, bob):
            closed = await client.wait_closed(10)
            assert (closed.code, closed.reason) == (1011, "storage_unavailable"), closed
        assert ann.state is not None and ann.state["phase"] == "lobby"  # nothing acknowledged
    finally:
        await ann.close()
        await bob.close()


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
async def test_any_one_of_the_files_deleted_is_noticed(tmp_path: Path, suffix: str) -> None:
    db = tmp_path / "g.db"
    async with registry(db) as rooms:
        room = await rooms.create(RoomSettings(), "10.0.0.1")
        Path(f"{db}{suffix}").unlink()
        with pytest.raises(StorageError, match="deleted while the server ran"):
            await room.join(FakeConnection(), "Ann", "10.0.0.1")


async def test_a_replay_with_an_unreadable_action_is_a_clear_error(tmp_path: Path) -> None:
    from setgame.server.app import build

    from .roomkit import practice_to_the_end

    db = tmp_path / "g.db"
    async with registry(db) as rooms:
        game = (await practice_to_the_end(rooms)).game_id
    _corrupt(db, f"UPDATE actions SET action = 'oops' WHERE game = '{game}' AND version = 2")
    app = build(Storage(str(db), create=False), restore=False)
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://test") as http,
    ):
        reply = await http.get(f"/api/games/{game}/replay")
    assert reply.status_code == 500 and reply.json()["code"] == "storage_error"
    assert str(db) not in reply.text  # the path is for the log


async def test_a_file_that_is_not_a_database_names_the_path_and_the_cause(tmp_path: Path) -> None:
    db = tmp_path / "notes.db"
    db.write_bytes(b"these are my notes, not a database\n" * 200)
    store = Storage(str(db), create=False)
    with pytest.raises(StorageError) as failed:
        await store.open()
    await store.close()
    assert str(db) in str(failed.value) and "not a database" in str(failed.value)
