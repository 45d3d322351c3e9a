"""Server-test fixtures: a throwaway PostgreSQL cluster when the machine has one."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

# Servers the tests start on PostgreSQL would otherwise write their generated session secret to
# ./setgame.secret, in the checkout; the tests of the secret itself pass their own environment.
os.environ.setdefault("SETGAME_SECRET", "tests-only-session-secret-" + "x" * 32)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _postgres_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    return next((str(v / name) for v in versions if (v / name).exists()), None)


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run it as the ``postgres`` user then."""
    if os.geteuid() == 0 and shutil.which("runuser"):
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``postgresql+asyncpg://...`` of a fresh cluster on loopback, or skip."""
    initdb, postgres = _postgres_bin("initdb"), _postgres_bin("postgres")
    if initdb is None or postgres is None:
        if os.environ.get("SETGAME_REQUIRE_POSTGRES"):  # scripts/test.sh installs it: a gap
            pytest.fail("PostgreSQL is not installed (scripts/test.sh should have installed it)")
        pytest.skip("PostgreSQL is not installed")
    pytest.importorskip("asyncpg")
    # Not under pytest's private (0700, root's) temporary folder: postgres must reach it.
    base = Path(tempfile.mkdtemp(prefix="setgame-pg-"))
    data = base / "data"
    data.mkdir()
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
        shutil.chown(data, "postgres", "postgres")
    init = _as_postgres([initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"])
    subprocess.run(init, check=True, capture_output=True)
    port = free_port()
    command = [postgres, "-D", str(data), "-p", str(port), "-h", "127.0.0.1", "-k", str(data)]
    log = (tmp_path_factory.mktemp("pg") / "pg.log").open("wb")
    proc = subprocess.Popen(_as_postgres(command), stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_port(port, proc)
        yield f"postgresql+asyncpg://postgres@127.0.0.1:{port}/postgres"
    finally:
        proc.terminate()
        proc.wait(20)
        log.close()
        shutil.rmtree(base, ignore_errors=True)


def _wait_port(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited at startup")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                time.sleep(0.3)  # accepting TCP comes a moment before accepting logins
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{proc.args[0]} did not start")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``redis://127.0.0.1:<port>/0`` of a throwaway ``redis-server`` (no persistence), or
    skip when Redis is not installed (fail under ``SETGAME_REQUIRE_REDIS``)."""
    server = shutil.which("redis-server")
    if server is None:
        if os.environ.get("SETGAME_REQUIRE_REDIS"):  # scripts/test.sh installs it: a gap
            pytest.fail("redis-server is not installed (scripts/test.sh should have installed it)")
        pytest.skip("redis-server is not installed")
    folder = tmp_path_factory.mktemp("redis")
    port = free_port()
    command = [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no", "--dir", str(folder), "--protected-mode", "yes"]
    log = (folder / "redis.log").open("wb")
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_port(port, proc)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(20)
        log.close()
