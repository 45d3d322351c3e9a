"""Throwaway PostgreSQL and redis-server on loopback, for the tests and the load benchmark.

Both are context managers that start the server in a new temporary folder, wait until it
accepts connections, yield its URL and stop it (and remove its folder) on the way out, also
on an error or Ctrl-C. :class:`Missing` says that the machine lacks the server.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final


class Missing(RuntimeError):
    """The server's program is not installed."""


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


def wait_port(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited at startup")  # type: ignore[index]
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                time.sleep(0.3)  # accepting TCP comes a moment before accepting logins
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{proc.args[0]} did not start")  # type: ignore[index]


def _wait_logins(port: int, proc: subprocess.Popen[bytes]) -> None:
    """Until PostgreSQL accepts logins: it opens its port while still starting up and answers
    "the database system is starting up" meanwhile (a busy machine made tests fail on it)."""
    ready = _postgres_bin("pg_isready")
    if ready is None:
        return  # the port (and wait_port's pause) is all there is to go by
    deadline = time.monotonic() + 30
    check = [ready, "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-t", "1"]
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("postgres exited at startup")
        if subprocess.run(check, capture_output=True).returncode == 0:
            return
        time.sleep(0.1)
    raise RuntimeError("postgres did not accept logins")


def stop_process(proc: subprocess.Popen[bytes], seconds: float = 20) -> None:
    """Stop ``proc``: SIGTERM, then SIGKILL if it has not exited within ``seconds``."""
    proc.terminate()
    try:
        proc.wait(seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class Server:
    """A throwaway server that a test may stop (an outage) and start again, on the same
    port and data: ``url``, ``stop()``, ``start()``, ``pause()`` and ``resume()`` (SIGSTOP,
    SIGCONT: a server that hangs rather than refuses)."""

    def __init__(self, command: list[str], port: int, url: str, log: Path) -> None:
        self.command, self.port, self.url, self.log = command, port, url, log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(self.command, stdout=out, stderr=subprocess.STDOUT)
        wait_port(self.port, self.proc)
        self._ready()

    def _ready(self) -> None:
        """Until it takes requests (PostgreSQL: logins too)."""

    def stop(self) -> None:
        if self.proc is not None:
            self.resume()
            stop_process(self.proc)
            self.proc = None

    def pause(self) -> None:
        if self.proc is not None:
            os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        if self.proc is not None:
            os.kill(self.proc.pid, signal.SIGCONT)


class _Postgres(Server):
    def _ready(self) -> None:
        assert self.proc is not None
        _wait_logins(self.port, self.proc)

    def stop(self) -> None:
        """``pg_ctl stop -m fast``: sessions ended, the server shut down cleanly."""
        pg_ctl = _postgres_bin("pg_ctl")
        if self.proc is None or pg_ctl is None:
            super().stop()
            return
        data = self.command[self.command.index("-D") + 1]
        subprocess.run(_as_postgres([pg_ctl, "stop", "-D", data, "-m", "fast", "-w"]),
                       check=True, capture_output=True, timeout=60)
        self.proc.wait(20)
        self.proc = None


PG_SETTINGS: Final = "SETGAME_BENCH_PG_SETTINGS"
"""Settings for the throwaway PostgreSQL, space-separated ``name=value`` (``fsync=off``): for
a diagnosis only, such as what the PostgreSQL path costs without its WAL flush
(docs/benchmarks.md); the figures of record run with PostgreSQL's defaults."""


MAX_PG_SETTINGS: Final = 20


def settings() -> list[str]:
    """:data:`PG_SETTINGS` as PostgreSQL ``-c`` options (each checked to be ``name=value``)."""
    found = os.environ.get(PG_SETTINGS, "").split()
    if len(found) > MAX_PG_SETTINGS:
        raise SystemExit(f"{PG_SETTINGS}: {len(found)} settings, at most {MAX_PG_SETTINGS}")
    bad = [s for s in found if not re.fullmatch(r"[a-z_]{1,63}=[\w.-]{1,100}", s)]
    if bad:
        raise SystemExit(f"{PG_SETTINGS}: not name=value: {bad[0]!r}")
    return found


@contextmanager
def postgres() -> Iterator[str]:
    """``postgresql+asyncpg://...`` of a fresh cluster on loopback (raises :class:`Missing`)."""
    with postgres_server() as server:
        yield server.url


@contextmanager
def postgres_server() -> Iterator[Server]:
    """A fresh PostgreSQL cluster on loopback that may be stopped and started again (raises
    :class:`Missing`)."""
    initdb, program = _postgres_bin("initdb"), _postgres_bin("postgres")
    if initdb is None or program is None:
        raise Missing("PostgreSQL is not installed")
    # Not under a private (0700, root's) temporary folder: postgres must reach it.
    base = Path(tempfile.mkdtemp(prefix="setgame-pg-"))
    try:
        data = base / "data"
        data.mkdir()
        if os.geteuid() == 0:
            shutil.chown(base, "postgres", "postgres")
            shutil.chown(data, "postgres", "postgres")
        init = [initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"]
        subprocess.run(_as_postgres(init), check=True, capture_output=True)
        port = free_port()
        command = [program, "-D", str(data), "-p", str(port), "-h", "127.0.0.1", "-k", str(data)]
        command += [f"-c{setting}" for setting in settings()]
        url = f"postgresql+asyncpg://postgres@127.0.0.1:{port}/postgres"
        server = _Postgres(_as_postgres(command), port, url, base / "pg.log")
        try:
            server.start()
            yield server
        finally:
            if server.proc is not None:
                server.resume()
                stop_process(server.proc)
    finally:
        shutil.rmtree(base, ignore_errors=True)


@contextmanager
def redis() -> Iterator[str]:
    """``redis://127.0.0.1:<port>/0`` of a throwaway ``redis-server`` (no persistence;
    raises :class:`Missing`)."""
    with redis_server() as server:
        yield server.url


@contextmanager
def redis_server() -> Iterator[Server]:
    """A throwaway ``redis-server`` (no persistence) that may be stopped and started again
    (raises :class:`Missing`)."""
    program = shutil.which("redis-server")
    if program is None:
        raise Missing("redis-server is not installed")
    folder = Path(tempfile.mkdtemp(prefix="setgame-redis-"))
    try:
        port = free_port()
        command = [program, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                   "--appendonly", "no", "--dir", str(folder), "--protected-mode", "yes"]
        server = Server(command, port, f"redis://127.0.0.1:{port}/0", folder / "redis.log")
        try:
            server.start()
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
