"""Fixtures shared by tests/server, tests/browser and tests/tui: a real game server.

``live_server`` is a real uvicorn process (``python -m setgame.server``) on a free
loopback port with a temporary SQLite database, shared by the whole session;
it is a ``str`` (the base URL, ``http://127.0.0.1:<port>``) with a few extras::

    live_server.ws          # "ws://127.0.0.1:<port>"
    live_server.port, live_server.db, live_server.log
    live_server.restart()   # kill -9 and start again on the same port and database
    live_server.stop()      # graceful shutdown (SIGTERM)

``fresh_server`` is the same thing for one test alone (use it to restart or kill
without disturbing other tests). ``server_factory()`` makes more of them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from pytest_timeout import Settings

import clikit

STARTUP_SECONDS = 30.0
TOLERANT = {
    "SETGAME_CONNECT_RATE": "100000",
    "SETGAME_CONNECT_BURST": "100000",
    "SETGAME_CONNECTIONS_PER_CLIENT": "100000",
}
"""The whole test session is one client (127.0.0.1) opening connections as fast as it can:
the test servers let it, unless a test sets these limits itself (tests/server/test_edge.py)."""
TEST_LIMITS = {
    "SETGAME_ROOMS_PER_CLIENT": "100000",
    "SETGAME_PHOTO_BURST": "100000",
    "SETGAME_PHOTO_SETS_PER_MINUTE": "100000",
}
"""The shared test servers create every room, and send every photo, from one address
(loopback): lift those caps there (tests of the caps start their own server with
``server_factory(env=...)``)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class LiveServer(str):
    """A game server in a subprocess; the string is its base URL."""

    port: int
    db: Path | str
    log: Path
    proc: subprocess.Popen[bytes] | None

    env: dict[str, str]
    created: bool

    def __new__(
        cls, db: Path | str, log: Path, port: int | None = None, env: dict[str, str] | None = None
    ) -> LiveServer:
        """``db``: an SQLite path or a database URL (PostgreSQL works too); ``env``: more
        environment variables for the server (``SETGAME_*`` limits)."""
        port = port or free_port()
        self = super().__new__(cls, f"http://127.0.0.1:{port}")
        self.port, self.db, self.log, self.proc = port, db, log, None
        self.env, self.created = TEST_LIMITS | (env or {}), False
        self.options: list[str] = []  # more command-line options (``--redis URL``)
        return self

    @property
    def url(self) -> str:
        return str(self)

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = STARTUP_SECONDS) -> LiveServer:
        command = [sys.executable, "-m", "setgame.server", "--port", str(self.port)]
        command += ["--db", str(self.db), "--log-level", "warning", *self.options]
        if not self.created:  # the first start creates the database; a restart must find it
            command.append("--create-db")
        out: IO[bytes] = self.log.open("ab")
        with out:
            self.proc = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, env=TOLERANT | os.environ | self.env
            )
        self._wait_ready(timeout)
        self.created = True
        return self

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc is None or self.proc.poll() is not None:
                break
            with (
                contextlib.suppress(OSError, urllib.error.URLError),
                urllib.request.urlopen(f"{self}/api/health", timeout=1) as response,
            ):
                if response.status == 200:
                    return
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"server did not start; log:\n{self.log.read_text(errors='replace')}")

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to flush or say goodbye."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        """SIGTERM: a graceful shutdown."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None

    def restart(self, *, graceful: bool = False) -> LiveServer:
        """Stop (kill -9 unless ``graceful``) and start again: same port, same database."""
        if graceful:
            self.stop()
        else:
            self.kill()
        return self.start()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


ServerFactory = Callable[..., LiveServer]


@contextlib.contextmanager
def _servers(directory: Path) -> Iterator[ServerFactory]:
    made: list[LiveServer] = []

    def make(db: Path | str | None = None, env: dict[str, str] | None = None) -> LiveServer:
        n = len(made)
        server = LiveServer(
            db or directory / f"server{n}.db", directory / f"server{n}.log", env=env
        )
        made.append(server)
        return server.start()

    try:
        yield make
    finally:
        for server in made:
            server.stop()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A real server for the whole session (base URL string; see the module docstring)."""
    with _servers(tmp_path_factory.mktemp("live_server")) as make:
        yield make()


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[ServerFactory]:
    """``server_factory(db=None, env=None)`` starts one more server for this test alone
    (``db``: an SQLite path or a database URL, default a new SQLite file; ``env``: more
    environment variables, e.g. ``SETGAME_*`` limits)."""
    with _servers(tmp_path) as make:
        yield make


@pytest.fixture
def fresh_server(server_factory: ServerFactory) -> LiveServer:
    """A real server for this test alone: restart or kill it freely."""
    return server_factory()


def pytest_configure(config: pytest.Config) -> None:
    # The servers run in subprocesses; make sure they import this checkout's package.
    src = str(Path(__file__).resolve().parent.parent / "src")
    paths = os.environ.get("PYTHONPATH", "")
    if src not in paths.split(os.pathsep):
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (src, paths) if p)


def _bounded_phase(item: pytest.Item) -> Iterator[None]:
    """pytest-timeout bounds each run of a test's body (``timeout_func_only``, so that a rerun
    is bounded anew); this bounds its fixtures' setup and teardown alike, where a server that
    never answers would otherwise hang the whole run."""
    seconds = float(item.config.getini("timeout") or 0)
    hook = item.config.pluginmanager.hook
    if seconds > 0:
        hook.pytest_timeout_set_timer(item=item, settings=Settings(seconds, "signal", False, False))
    try:
        yield
    finally:
        if seconds > 0:
            hook.pytest_timeout_cancel_timer(item=item)


pytest_runtest_setup = pytest.hookimpl(wrapper=True)(_bounded_phase)
pytest_runtest_teardown = pytest.hookimpl(wrapper=True)(_bounded_phase)

_reruns: list[pytest.TestReport] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Keep the failure that made a test run again: the summary names a rerun test, but its
    failure is otherwise lost when the second run passes, and a flaky test needs it to be
    mended (xdist hands the workers' reports to this process)."""
    if report.outcome == "rerun":
        _reruns.append(report)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for report in _reruns:
        terminalreporter.write_sep("-", f"first run of {report.nodeid} ({report.when})")
        terminalreporter.write_line(str(report.longrepr)[-4000:])


@pytest.fixture(autouse=True)
def english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line speaks the environment's language: tests expect English unless
    they set one, whatever the machine's locale."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def setgame(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """``setgame(*args, stdin=None)`` runs the command in this process: (status, out, err)."""
    return lambda *args, stdin=None: clikit.run(capsys, monkeypatch, *args, stdin=stdin)
