"""Load benchmark: simulated players in rooms of four against one server process.

    python3 benchmarks/load.py --players 1000 --room-size 4 --seconds 30
    python3 benchmarks/load.py --quick          # a few rooms for a few seconds (the test)
    python3 benchmarks/load.py --server-src ../other/src   # another checkout's server (A/B)
    python3 benchmarks/load.py --processes 1,2,3   # clusters of N servers (load_cluster.py)
    python3 benchmarks/load.py --processes 1,2 --players 2000 --speed 2 --runs 3 --json

It starts ONE server (``uvicorn`` in a subprocess on loopback, a temporary SQLite
file), creates the rooms over HTTP, connects the players through the Python
client (``setgame.server.client``) from one or more load-generator processes
on the same machine, and lets them play whole games: each player looks for sets
on the table (``setgame.find_sets_batch`` over the tables that arrived together, see
:class:`TableSolver`) and, after a person-like reaction time,
calls SET and picks them (each player is driven by its client's listener and by timers,
not by a task of its own, so that the instrument's own work stays small: its CPU and
event-loop lag are reported); when the table holds none it declares "no set";
now and then it makes a wrong call, and then waits out its fair-call cooldown before it
calls again. Between rounds and after a match, the first
seat starts the next round or a new game.

Reported: connected players, actions per second, the latency from a valid pick
being sent to the moment EVERY player of that room has received the update
(p50, p99, max), errors counted, CPU use and memory (RSS) of the server (also over
the play alone, and as CPU milliseconds per action), and the
baseline measured in the same run: right after the game server, the same
load generator drives the bare uvicorn WebSocket broadcast stack
(``benchmarks/bare_broadcast.py``) with the same number of players in rooms of
the same size at the actions per second the game server just sustained, each
action answered by an update to the whole room, and the same figures are taken
(``--no-bare`` skips it). The pick latency is printed as a ratio to the bare
stack's (p50 and p99). Also reported: a ``ping`` round trip on an idle
connection during the load, CPU use of the load generator and of the whole
machine (other work on a shared machine shows up as latency), the generator's
own event-loop lag, and the server log's warnings. ``--json`` prints the report
as JSON. No figure is typed in here: every run prints its own.

Its own servers get limits fit for the load (``SETGAME_ROOMS_PER_MINUTE``,
``SETGAME_ROOMS_BURST`` and ``SETGAME_ROOMS_PER_CLIENT``, so that one address may create
every room), and rooms are created a few at a time, so that thousands of players neither
hit the public server's room-creation rate nor wait out a connection pool.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Coroutine, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, WebSocketException

import server_metrics  # benchmarks/ (run as a script: its folder is on the path)
from setgame.analysis.batch import find_sets_batch
from setgame.rules.cards import card_name, parse_cards
from setgame.server.client import Client, ClientError, Message, create_room, table_sets

#: Error codes that are the normal outcome of simultaneous play (another player was faster, or
#: the table changed while the message was on its way). Any other error code counts as an error.
RACES = frozenset(
    {"board_held", "locked_out", "not_holder", "stale_version", "already_declared", "not_playing"}
)

COOLDOWN_MARGIN = 0.05
"""Seconds a simulated player waits past its fair-call cooldown (this project's own rule,
``docs/events.md``) before it calls again: a call inside it is refused ``cooling_down``."""


# --- the server -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) a process has used so far, from /proc (Linux); else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu(root: int) -> float | None:
    """CPU seconds of a process and all its descendants so far (PostgreSQL's backends): the
    live ones from /proc, those that ended in their parents' cutime and cstime; else None."""
    parents: dict[int, list[int]] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        parents.setdefault(int(fields[1]), []).append(pid)
        times[pid] = sum(int(f) for f in fields[11:15]) / tick  # utime stime cutime cstime
    if root not in times:
        return None
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += times.get(pid, 0.0)
        todo += parents.get(pid, [])
    return total


def written_bytes(pids: Sequence[int]) -> int | None:
    """Bytes the processes wrote so far (sockets and files: /proc/<pid>/io ``wchar``)."""
    total = 0
    for pid in pids:
        try:
            lines = Path(f"/proc/{pid}/io").read_text().splitlines()
        except OSError:
            return None
        total += next((int(x.split()[1]) for x in lines if x.startswith("wchar:")), 0)
    return total if pids else None


def machine_busy() -> tuple[float, float] | None:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat; else None."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    tick = os.sysconf("SC_CLK_TCK")
    return (sum(fields) - idle) / tick, sum(fields) / tick


@dataclass
class Server:
    url: str
    pid: int | None = None
    log: Path | None = None

    def log_lines(self) -> list[str]:
        """The server's log so far (empty for a server this run did not start)."""
        if self.log is None or not self.log.exists():
            return []
        return self.log.read_text(errors="replace").splitlines()


#: The limits of the benchmark's own server: one address creates every room and takes
#: every seat (the per-address limits are not what is measured here).
SERVER_ENV = {
    "SETGAME_ROOMS_PER_MINUTE": "1000000",
    "SETGAME_ROOMS_BURST": "1000000",
    "SETGAME_ROOMS_PER_CLIENT": "100000",
    "SETGAME_SEATS_PER_CLIENT": "8",  # every seat of a room of 8 from this one address
    # ...and opens every connection, 64 at a time (docs/deploy.md, the edge limits)
    "SETGAME_CONNECT_RATE": "100000",
    "SETGAME_CONNECT_BURST": "100000",
    "SETGAME_CONNECTIONS_PER_CLIENT": "100000",
    "SETGAME_UNAUTH_PER_CLIENT": "10000",
    "SETGAME_UNAUTH_TOTAL": "1000000",
}


def memory_mb(pid: int) -> tuple[float, float] | None:
    """(resident, peak resident) memory of a process in MiB, from /proc (Linux); else None."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    sizes = {
        line.split(":")[0]: int(line.split()[1]) / 1024
        for line in status.splitlines()
        if line.startswith(("VmRSS:", "VmHWM:"))
    }
    return round(sizes.get("VmRSS", 0.0), 1), round(sizes.get("VmHWM", 0.0), 1)


@contextmanager
def server_process(
    db: Path | str,
    log: Path,
    port: int | None = None,
    source: str | None = None,
    redis: str | None = None,
) -> Iterator[Server]:
    """Run the game server in a subprocess on loopback (``port``, or a free one); yield it.
    ``source``: a ``src`` folder whose ``setgame`` the server runs (another checkout, to
    compare two versions of the server under the same load generator). ``db``: a SQLite
    file or a database URL; ``redis``: run it as one process of a cluster (docs/cluster.md)."""
    port = port or free_port()
    command = [
        sys.executable,
        "-m",
        "setgame.server",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        str(db),
        "--log-level",
        "warning",
        "--create-db",
        *(["--redis", redis] if redis else []),
    ]
    paths = [source, os.environ.get("PYTHONPATH", "")] if source is not None else []
    path = {"PYTHONPATH": os.pathsep.join(p for p in paths if p)} if paths else {}
    yield from _subprocess(command, f"http://127.0.0.1:{port}", log, "/api/health", path)


@contextmanager
def bare_process(log: Path, port: int | None = None) -> Iterator[Server]:
    """Run the bare uvicorn broadcast stack (the baseline) in a subprocess; yield it."""
    port = port or free_port()
    script = Path(__file__).resolve().parent / "bare_broadcast.py"
    command = [sys.executable, str(script), "--port", str(port)]
    yield from _subprocess(command, f"http://127.0.0.1:{port}", log, "/")


def _subprocess(
    command: list[str], base: str, log: Path, health: str, extra: dict[str, str] | None = None
) -> Iterator[Server]:
    env = {**os.environ, **SERVER_ENV, **(extra or {})}
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
        try:
            _wait_up(base + health, proc, log)
            yield Server(base, proc.pid, log)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _wait_up(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            if httpx.get(url, timeout=1, trust_env=False).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"server did not answer at {url}: {log.read_text()[-2000:]}")


# --- one process of simulated players ---------------------------------------------------------


@dataclass
class Stats:
    """Raw figures of one load-generator process (merged by :func:`merge`)."""

    connected: int = 0
    actions: int = 0
    picks: int = 0
    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # perf_counter() of each latency's pick
    #: pick -> this player got the update, for players on the room's owner process and on
    #: another process (a mirror: one more hop, through Redis); with one server all are owner
    owner_arrivals: list[float] = field(default_factory=list)
    mirror_arrivals: list[float] = field(default_factory=list)
    pings: list[float] = field(default_factory=list)
    pinged_at: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)  # load generator's event-loop lateness
    gc_pauses: list[float] = field(default_factory=list)  # the generator's garbage collections
    begun: float = 0.0  # perf_counter() when play began
    races: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    unfinished: int = 0
    rounds: int = 0
    matches: int = 0
    seconds: float = 0.0
    wall: float = 0.0  # connect + play + grace, the span the CPU figures cover
    load_cpu: float = 0.0  # CPU seconds of the load generator(s)
    server_cpu: float | None = None  # CPU seconds of the server over the same span
    play_load_cpu: float = 0.0  # CPU seconds of the load generator(s) while playing only
    play_server_cpu: float | None = None  # CPU seconds of the server while playing only
    play_service_cpu: dict[str, float] = field(default_factory=dict)  # PostgreSQL, Redis
    play_server_written: int | None = None  # bytes the server(s) wrote while playing
    server_memory: tuple[float, float] | None = None  # server's (RSS, peak RSS) MiB at the end
    table_batches: int = 0  # find_sets_batch calls of the players' TableSolver
    tables_batched: int = 0  # tables those calls solved
    machine_cpu: float | None = None  # share of all cores busy (anyone's work) over the run
    server_warnings: list[str] = field(default_factory=list)  # from the server's log
    server_errors: list[str] = field(default_factory=list)
    server_tracebacks: list[str] = field(default_factory=list)  # the first few, whole


@dataclass
class Room:
    id: str
    owner: int = 0  # index of the server process that created (owns) the room
    players: list[Bot] = field(default_factory=list)
    #: valid picks in flight: picked cards -> (time sent, arrival times so far)
    pending: dict[frozenset[str], tuple[float, list[float]]] = field(default_factory=dict)


@dataclass
class Options:
    room_size: int = 4
    seconds: float = 30.0
    reaction: tuple[float, float] = (1.5, 6.0)  # seconds to spot a set, per player
    pick_delay: tuple[float, float] = (0.3, 0.8)  # seconds from holding the board to picking
    wrong_rate: float = 0.03  # share of calls that pick three cards that are not a set
    between: tuple[float, float] = (0.5, 1.5)  # seconds before starting a round or a game
    deck: str = "full"
    rounds: str = "match"
    connect_concurrency: int = 64
    samples: str | None = None  # write every latency with its time here (JSON)
    keepalive: float | None = 20.0  # WebSocket ping interval of each player's connection
    compression: str | None = None  # "deflate" as browsers negotiate, or None
    server_pids: tuple[int, ...] = ()  # the server processes, for their CPU time while playing
    service_pids: tuple[tuple[str, int], ...] = ()  # (name, root pid): PostgreSQL, Redis
    route: str = "spread"  # --route: a room's players spread over the processes, or "room"


def servers_cpu(pids: Sequence[int]) -> float | None:
    """CPU seconds the server processes ``pids`` have used so far, summed; None when any
    cannot be read (or there are none: a server this run did not start)."""
    used = [cpu_seconds(pid) for pid in pids]
    if not used or any(u is None for u in used):
        return None
    return sum(u for u in used if u is not None)


class PlayCpu:
    """CPU seconds of this load process and of the server(s) (``server_pids``, summed) over
    the play alone: connecting thousands of sockets costs both sides more than a second of
    play."""

    def __init__(
        self, server_pids: Sequence[int], services: Sequence[tuple[str, int]] = ()
    ) -> None:
        self.pids = server_pids
        self.services = services
        self.load = time.process_time()
        self.server = servers_cpu(server_pids)
        self.written = written_bytes(server_pids)
        self.service = {name: tree_cpu(pid) for name, pid in services}

    def finish(self, stats: Stats) -> None:
        stats.play_load_cpu = time.process_time() - self.load
        after = servers_cpu(self.pids)
        if self.server is not None and after is not None:
            stats.play_server_cpu = after - self.server
        written = written_bytes(self.pids)
        if self.written is not None and written is not None:
            stats.play_server_written = written - self.written
        for name, pid in self.services:
            began, now = self.service.get(name), tree_cpu(pid)
            if began is not None and now is not None:
                stats.play_service_cpu[name] = now - began


Triple = tuple[str, str, str]


class TableSolver:
    """The sets of the tables the players of one load process see, solved with
    :func:`setgame.find_sets_batch` a loop iteration's worth at a time: an update reaches
    the players of a room together, and the reader hands each table here (``expect``)
    before the players wake up to plan, so one batch call answers a burst of updates and
    each table is solved once for its whole room. A table not expected is solved alone."""

    LIMIT = 100_000  # tables remembered at most; then the memory starts over

    def __init__(self) -> None:
        self.known: dict[tuple[str, ...], list[Triple]] = {}
        self.waiting: set[tuple[str, ...]] = set()
        self.batches = 0
        self.batched = 0

    def expect(self, table: tuple[str, ...]) -> None:
        if table not in self.known and table not in self.waiting:
            if not self.waiting:
                asyncio.get_running_loop().call_soon(self.flush)
            self.waiting.add(table)

    def flush(self) -> None:
        tables = list(self.waiting)
        self.waiting.clear()
        if len(self.known) + len(tables) > self.LIMIT:
            self.known.clear()
        found = find_sets_batch([parse_cards(t) for t in tables])
        for table, sets in zip(tables, found, strict=True):
            self.known[table] = [(card_name(a), card_name(b), card_name(c)) for a, b, c in sets]
        self.batches += 1
        self.batched += len(tables)

    def sets(self, table: Sequence[str]) -> list[Triple]:
        key = tuple(table)
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = table_sets({"table": list(key)})
        return found


class Bot:
    """One simulated player: a client and a small plan (what to send, and when)."""

    def __init__(
        self,
        client: Client,
        room: Room,
        seat: int,
        opts: Options,
        stats: Stats,
        solver: TableSolver,
    ) -> None:
        self.client = client
        self.solver = solver
        self.room = room
        self.seat = seat
        self.opts = opts
        self.stats = stats
        self.rng = random.Random(f"{room.id}:{seat}")
        self.intent: str | None = None
        self.seen_table: tuple[str, ...] = ()
        self.sent: frozenset[str] | None = None  # this player's valid pick in flight
        #: the room version whose view this player last sent "start" or "again" for: other
        #: messages queued meanwhile (presence, joins) must not make it send the same again
        self.started_at_version: int | None = None
        self.cool_until = 0.0  # fair call: no call before this (time.monotonic())
        self.on_owner = True  # connected to the process that owns the room (created it)
        self.playing = False  # between start() and stop(): no action before or after
        self.errors: list[Exception] = []  # raised by actions (see stop())
        self._timer: asyncio.TimerHandle | None = None
        self._planning = False  # a plan() is scheduled
        self._acting: set[asyncio.Task[None]] = set()
        client.listener = self._arrived

    def _arrived(self, client: Client, message: Message, at: float) -> bool:
        """Reader hook (arrival time): count an update toward a pick's latency, and take
        every message (the client queues none): the player is driven from here and by
        timers, without a task waking up per message, so that the instrument spends as
        little of the machine as it can."""
        if message["type"] == "update":
            self._timed(message, at)
        self.receive(message)
        return True

    def _timed(self, message: Message, at: float) -> None:
        state = message.get("state")
        if state is not None and state.get("table"):
            self.solver.expect(tuple(state["table"]))
        for event in message["events"]:
            if event.get("type") != "set_taken":
                continue
            entry = self.room.pending.get(frozenset(event["cards"]))
            if entry is None:
                continue
            sent, arrivals = entry
            arrivals.append(at)
            (self.stats.owner_arrivals if self.on_owner else self.stats.mirror_arrivals).append(
                at - sent
            )
            if len(arrivals) == len(self.room.players):
                self.stats.latencies.append(max(arrivals) - sent)
                self.stats.sent_at.append(sent)
                del self.room.pending[frozenset(event["cards"])]

    def start(self) -> None:
        """Begin to play (from the latest view; messages queued before the listener was set
        changed nothing but that view)."""
        self.playing = True
        self.plan()

    def stop(self) -> list[str]:
        """Stop acting (a timer still pending does nothing); what went wrong while playing:
        an action that raised, a socket the server closed."""
        self.playing = False
        closed = [] if self.client.closed is None else [self.client.closed]
        return [f"player: {type(exc).__name__}: {exc}"[:120] for exc in [*self.errors, *closed]]

    def receive(self, message: Message) -> None:
        if message["type"] == "error":
            code = str(message.get("code"))
            (self.stats.races if code in RACES else self.stats.errors)[code] += 1
            if message.get("request") == "pick" and self.sent is not None:
                self.room.pending.pop(self.sent, None)  # rejected: no update to wait for
        elif message["type"] == "update":
            for event in message["events"]:
                kind = event.get("type")
                if self.seat == 0 and kind in ("round_over", "match_over"):
                    self.stats.rounds += kind == "round_over"
                    self.stats.matches += kind == "match_over"
        # planned after the table solver's batch (scheduled before it, see TableSolver.expect)
        if self.playing and not self._planning:
            self._planning = True
            asyncio.get_running_loop().call_soon(self._plan_now)

    def _plan_now(self) -> None:
        self._planning = False
        if self.playing:
            self.plan()

    def plan(self) -> None:
        """Decide the next action from the latest view; keep a running timer if still valid."""
        state = self.client.state
        if state is None:
            return
        phase = state["phase"]
        if phase != "playing":
            self._plan_between(state)
            return
        me = self.client.me or {}
        self._note_cooldown(me)
        holder = state["holder"]
        table = tuple(state["table"])
        if holder == self.client.player:
            if self.intent != "pick":
                self._set("pick", self.rng.uniform(*self.opts.pick_delay))
            return
        if holder is not None or me.get("locked"):
            self._set(None)
            return
        if table == self.seen_table and self.intent in ("call", "no_set"):
            return  # the same table: the player is still looking
        self.seen_table = table
        if self.solver.sets(table):
            self._set("call", max(self.rng.uniform(*self.opts.reaction), self._cooling()))
        elif not me.get("declared") and state["deck"] > 0 and state["settings"]["no_set"] == "vote":
            self._set("no_set", self.rng.uniform(0.5, 2.5))
        else:
            self._set(None)

    def _note_cooldown(self, me: Message) -> None:
        """Keep the fair-call cooldown of the latest view as a local deadline: the view's
        ``cooldown_in`` counts from when the server sent it, so from its arrival here the
        wait is never too short."""
        left = me.get("cooldown_in")
        self.cool_until = 0.0 if left is None else time.monotonic() + float(left)

    def _cooling(self) -> float:
        """Seconds until this player may call again (a little margin past the cooldown)."""
        left = self.cool_until - time.monotonic()
        return left + COOLDOWN_MARGIN if left > 0 else 0.0

    def _plan_between(self, state: Message) -> None:
        self.seen_table = ()
        phase = state["phase"]
        wanted = {"round_over": "start", "match_over": "again", "lobby": "start"}.get(phase)
        waiting = phase == "lobby" and len(state["players"]) < len(self.room.players)
        waiting = waiting or state.get("version") == self.started_at_version
        if self.seat != 0 or wanted is None or waiting:
            self._set(None)
        elif self.intent != wanted:
            self._set(wanted, self.rng.uniform(*self.opts.between))

    def _set(self, intent: str | None, delay: float = 0.0) -> None:
        """Mean to do ``intent`` in ``delay`` seconds (None: nothing), instead of any
        earlier intent."""
        self.intent = intent
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if intent is not None and self.playing:
            self._timer = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        self._timer = None
        if not self.playing:
            return
        task = asyncio.create_task(self._act_counted())
        self._acting.add(task)
        task.add_done_callback(self._acting.discard)

    async def _act_counted(self) -> None:
        try:
            await self.act()
        except Exception as exc:  # counted when the player stops
            self.errors.append(exc)

    async def act(self) -> None:
        if self.intent == "call" and self._cooling() > 0:
            self._set("call", self._cooling())  # the cooldown began meanwhile
            return
        intent, self.intent = self.intent, None
        client = self.client
        self.stats.actions += 1
        if intent == "call":
            await client.call()
        elif intent == "pick":
            await self._pick()
        elif intent == "no_set":
            await client.no_set()
        elif intent in ("start", "again"):
            self.started_at_version = (client.state or {}).get("version")
            await (client.start() if intent == "start" else client.again())

    async def _pick(self) -> None:
        state = self.client.state
        sets = self.solver.sets(state["table"]) if state is not None else []
        wrong = None
        if not sets or self.rng.random() < self.opts.wrong_rate:
            wrong = _not_a_set(self.client.table, sets, self.rng)
        if wrong is not None:
            await self.client.pick(wrong)
        elif sets:  # a right pick, also when every three cards of the table are a set
            cards = self.rng.choice(sets)
            self.sent = frozenset(cards)
            self.room.pending[self.sent] = (time.perf_counter(), [])
            self.stats.picks += 1
            await self.client.pick(cards)


def _not_a_set(table: list[str], sets: list[Triple], rng: random.Random) -> Triple | None:
    """Three cards of ``table`` that are not a set, or None if it has none: a table's last
    three cards can be a set (this looped forever there, hanging the whole benchmark)."""
    if len(table) < 3:
        return None
    taken = {frozenset(s) for s in sets}
    for _ in range(64 if len(table) > 3 else 1):  # of 4+ cards, at most 1 in 4 triples is a set
        a, b, c = rng.sample(table, 3)
        if frozenset((a, b, c)) not in taken:
            return (a, b, c)
    return None


def _named(exc: BaseException) -> str:
    """An error's kind, with the server's code (an error message's, or a close code)."""
    code = getattr(exc, "code", None)
    return type(exc).__name__ + (f" {code}" if code is not None else "")


async def _connect(
    bases: Sequence[str], room: Room, seat: int, opts: Options, stats: Stats, solver: TableSolver
) -> None:
    if opts.route == "room":
        # The balancer of docs/deploy.md ("Room affinity"): the room id hashed, every player
        # of a room on one process, which the room moves to (SETGAME_ROOM_AFFINITY) if it
        # was created elsewhere and nobody is connected to it yet.
        where = zlib.crc32(room.id.encode()) % len(bases)
    else:  # round-robin from the owner: a room's players spread over every server process
        where = (room.owner + seat) % len(bases)
    client = await Client.connect(
        bases[where], room.id, timeout=30, keepalive=opts.keepalive, compression=opts.compression
    )
    # not made of the room id: its random letters (or digits read as letters: 4 for a...)
    # now and then spelled a word the name filter refuses (name_word), an error of the run
    await client.join(f"Player {seat + 1}", timeout=30)
    bot = Bot(client, room, seat, opts, stats, solver)
    bot.on_owner = where == room.owner or opts.route == "room"  # it moved there
    room.players.append(bot)
    stats.connected += 1


class _GcTimer:
    """A ``gc.callbacks`` hook that records how long each collection takes."""

    def __init__(self, out: list[float]) -> None:
        self.out = out
        self.begun = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.begun = time.perf_counter()
        else:
            self.out.append(time.perf_counter() - self.begun)


async def _lag_meter(until: float, stats: Stats, period: float = 0.01) -> None:
    """How late this process's event loop wakes up: high values mean the load generator
    itself, not the server, delays what it measures."""
    loop = asyncio.get_running_loop()
    while time.monotonic() < until:
        planned = loop.time() + period
        await asyncio.sleep(period)
        stats.lags.append(max(0.0, loop.time() - planned))


async def _pinger(base: str, room_id: str, until: float, stats: Stats) -> None:
    """Ping once every 100 ms on an otherwise idle connection until ``until``."""
    async with await Client.connect(base, room_id) as client:
        while time.monotonic() < until:
            stats.pinged_at.append(time.perf_counter())
            stats.pings.append(await client.ping())
            await asyncio.sleep(0.1)


async def play(
    bases: Sequence[str], room_ids: list[tuple[str, int]], spare: str, opts: Options
) -> Stats:
    """Connect a room_size players to every room (id, index of its owner in ``bases``), play
    for opts.seconds, return the figures. ``spare`` is a room on ``bases[0]`` for pings."""
    stats = Stats()
    cpu, wall = time.process_time(), time.monotonic()
    rooms = [Room(rid, owner) for rid, owner in room_ids]
    base = bases[0]
    gate = asyncio.Semaphore(opts.connect_concurrency)
    solver = TableSolver()

    async def connect(room: Room, seat: int) -> None:
        async with gate:
            try:
                await _connect(bases, room, seat, opts, stats, solver)
            except (ClientError, OSError, TimeoutError) as exc:
                stats.errors[f"connect: {_named(exc)}"] += 1

    await asyncio.gather(*(connect(r, s) for r in rooms for s in range(opts.room_size)))
    # Measured: the generator's collections find no garbage (reference counting frees it
    # all) yet a gen-1 pass costs 15-30 ms of CPU with 1000 clients, which would show up as
    # latency. The load generator is the instrument, so it does not collect while playing.
    gc.freeze()
    gc.disable()
    timer = _GcTimer(stats.gc_pauses)
    gc.callbacks.append(timer)
    for room in rooms:
        room.players.sort(key=lambda bot: bot.seat)
    begun = time.monotonic()
    stats.begun = time.perf_counter()
    play_cpu = PlayCpu(opts.server_pids, opts.service_pids)
    stop = begun + opts.seconds
    bots = [bot for room in rooms for bot in room.players]
    for bot in bots:
        bot.start()
    # the players are driven by their sockets and timers; one sleep here, and stopping is a
    # flag per player, so that no burst of work at the stop delays the last picks' updates
    tasks = [_pinger(base, spare, stop, stats), _lag_meter(stop, stats)]
    tasks.append(asyncio.sleep(max(0.0, stop - time.monotonic())))
    for result in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(result, BaseException):
            stats.errors[f"player: {type(result).__name__}: {result}"[:120]] += 1
    for bot in bots:
        stats.errors.update(bot.stop())
    stats.seconds = time.monotonic() - begun
    play_cpu.finish(stats)
    gc.callbacks.remove(timer)
    grace = time.monotonic() + 2.0  # picks sent just before the stop may still be on their way
    while any(room.pending for room in rooms) and time.monotonic() < grace:
        await asyncio.sleep(0.05)
    stats.unfinished = sum(len(room.pending) for room in rooms)
    _collect_again()
    stats.table_batches, stats.tables_batched = solver.batches, solver.batched
    await asyncio.gather(*(bot.client.close() for room in rooms for bot in room.players))
    stats.load_cpu, stats.wall = time.process_time() - cpu, time.monotonic() - wall
    return stats


def _collect_again() -> None:
    """The garbage collector back on, once the last picks in flight are timed: the first
    collection after the freeze walks everything the generator holds (measured: a 163 ms
    pause, which a pick sent just before the stop had counted as latency)."""
    gc.enable()
    gc.unfreeze()


def _play_process(
    bases: list[str], room_ids: list[tuple[str, int]], spare: str, opts: Options
) -> Stats:
    return _run_loop(play(bases, room_ids, spare, opts))


def _run_loop(main: Coroutine[Any, Any, Stats]) -> Stats:
    """Run a load process's coroutine on uvloop when installed (uvicorn[standard] brings it;
    the servers run on it too), so that the instrument spends less time in its own loop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


# --- the baseline: the same players on the bare broadcast stack -----------------------------


async def bare_play(base: str, room_ids: list[str], opts: Options, rate: float) -> Stats:
    """Connect ``opts.room_size`` sockets to each room of the bare stack; each sends
    actions at random (Poisson) times, ``rate`` actions/s in all; each action's latency
    runs until every socket of its room has the update."""
    stats = Stats()
    cpu, wall = time.process_time(), time.monotonic()
    gate = asyncio.Semaphore(opts.connect_concurrency)
    sockets: list[tuple[ClientConnection, str]] = []
    pending: dict[str, dict[int, tuple[float, list[float]]]] = {room: {} for room in room_ids}

    async def connect(room: str) -> None:
        async with gate:
            try:
                ws = await ws_connect(
                    base.replace("http://", "ws://", 1) + "/ws/" + room,
                    proxy=None,
                    compression=opts.compression,
                    ping_interval=opts.keepalive,
                    open_timeout=30,
                    max_size=2**20,
                )
            except (OSError, TimeoutError, WebSocketException) as exc:
                stats.errors[f"connect: {type(exc).__name__}"] += 1
                return
            sockets.append((ws, room))
            stats.connected += 1

    await asyncio.gather(*(connect(r) for r in room_ids for _ in range(opts.room_size)))
    gc.freeze()
    gc.disable()
    begun = time.monotonic()
    stats.begun = time.perf_counter()
    play_cpu = PlayCpu(opts.server_pids)
    stop = begun + opts.seconds
    each = rate / max(1, len(sockets))
    numbers = itertools.count()

    async def reader(ws: ClientConnection, room: str) -> None:
        waiting = pending[room]
        with contextlib.suppress(ConnectionClosed):
            async for text in ws:
                at = time.perf_counter()
                number = json.loads(text).get("id")
                entry = waiting.get(number)
                if entry is not None:
                    entry[1].append(at)
                    if len(entry[1]) == opts.room_size:
                        stats.latencies.append(max(entry[1]) - entry[0])
                        stats.sent_at.append(entry[0])
                        del waiting[number]

    async def sender(ws: ClientConnection, room: str, rng: random.Random) -> None:
        while True:
            delay = rng.expovariate(each) if each > 0 else opts.seconds
            await asyncio.sleep(min(delay, max(0.0, stop - time.monotonic())))
            if time.monotonic() >= stop:
                return
            number = next(numbers)
            pending[room][number] = (time.perf_counter(), [])
            stats.actions += 1
            stats.picks += 1
            await ws.send(json.dumps({"id": number}))

    readers = [asyncio.create_task(reader(ws, room)) for ws, room in sockets]
    senders = (sender(ws, room, random.Random(i)) for i, (ws, room) in enumerate(sockets))
    for result in await asyncio.gather(*senders, return_exceptions=True):
        if isinstance(result, BaseException):
            stats.errors[f"player: {type(result).__name__}: {result}"[:120]] += 1
    stats.seconds = time.monotonic() - begun
    play_cpu.finish(stats)
    grace = time.monotonic() + 2.0
    while any(pending.values()) and time.monotonic() < grace:
        await asyncio.sleep(0.05)
    stats.unfinished = sum(len(waiting) for waiting in pending.values())
    _collect_again()
    await asyncio.gather(*(ws.close() for ws, _ in sockets))
    await asyncio.gather(*readers, return_exceptions=True)
    stats.load_cpu, stats.wall = time.process_time() - cpu, time.monotonic() - wall
    return stats


def _bare_process(base: str, room_ids: list[str], opts: Options, rate: float) -> Stats:
    return _run_loop(bare_play(base, room_ids, opts, rate))


def _load_bare(
    server: Server, players: int, opts: Options, processes: int, rate: float
) -> dict[str, Any]:
    """The bare stack under the same players at ``rate`` actions/s: its figures."""
    rooms = [f"r{i}" for i in range(max(1, players // opts.room_size))]
    slices = [rooms[i::processes] for i in range(processes)]
    cpu_before = None if server.pid is None else cpu_seconds(server.pid)
    opts = replace(opts, server_pids=_pids([server]))
    jobs = [(server.url, part, opts, rate / processes) for part in slices]
    total = merge(_in_processes(_bare_process, jobs))
    cpu_after = None if server.pid is None else cpu_seconds(server.pid)
    if cpu_before is not None and cpu_after is not None:
        total.server_cpu = cpu_after - cpu_before
    memory = None if server.pid is None else memory_mb(server.pid)
    return {
        "connected": total.connected,
        "seconds": round(total.seconds, 1),
        "actions": total.actions,
        "actions_per_second": round(total.actions / total.seconds, 1) if total.seconds else 0.0,
        "pick_to_all_latency": _summary(total.latencies),
        "errors": dict(total.errors),
        "error_count": sum(total.errors.values()) + total.unfinished,
        "unfinished": total.unfinished,
        "server_cpu_percent": _percent(total.server_cpu, total.wall),
        **playing_cpu(total),
        "server_rss_mb": None if memory is None else memory[0],
        "server_peak_rss_mb": None if memory is None else memory[1],
        "load_cpu_percent": _percent(total.load_cpu, total.wall),
    }


def _in_processes(target: Any, jobs: list[tuple[Any, ...]]) -> list[Stats]:
    """``target(*job)`` for each job: here for one job, else one process each."""
    if len(jobs) == 1:
        return [target(*jobs[0])]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(len(jobs)) as pool:
        return list(pool.starmap(target, jobs))


# --- the run ---------------------------------------------------------------------------------


async def _make_rooms(base: str, count: int, opts: Options) -> list[str]:
    """Create ``count`` rooms, a few requests at a time (each is a commit on the server)."""
    settings = {"deck": opts.deck, "rounds": opts.rounds, "public": False}
    gate = asyncio.Semaphore(16)
    limits = httpx.Limits(max_connections=16)

    async def one(http: httpx.AsyncClient) -> str:
        async with gate:
            return await create_room(base, http=http, **settings)

    async with httpx.AsyncClient(trust_env=False, timeout=60, limits=limits) as http:
        return list(await asyncio.gather(*(one(http) for _ in range(count))))


async def _idle_pings(base: str, room_id: str, count: int = 40) -> list[float]:
    """Round trips of ``ping`` on the idle server, paced under the rate limit."""
    rtts: list[float] = []
    async with await Client.connect(base, room_id) as client:
        for _ in range(count):
            rtts.append(await client.ping())
            await asyncio.sleep(0.06)
    return rtts


def run(
    players: int,
    opts: Options,
    processes: int,
    url: str | None = None,
    db_dir: str | None = None,
    port: int | None = None,
    bare: bool = True,
    server_src: str | None = None,
) -> dict[str, Any]:
    """Start a server (unless ``url`` names a running one), load it, then (with ``bare``)
    the bare broadcast stack at the same players and rate; return the report.

    The server's SQLite file goes into a new temporary directory (under ``db_dir`` if given,
    e.g. ``/dev/shm`` to take the disk out of the measurement). ``port``: the game server's
    port (the bare stack takes the next one); default: free ports."""
    with tempfile.TemporaryDirectory(prefix="setgame-load-", dir=db_dir) as tmp:
        if url is not None:
            result = _load([Server(url)], players, opts, processes)
        else:
            db, log = Path(tmp) / "load.db", Path(tmp) / "server.log"
            with server_process(db, log, port, server_src) as server:
                result = _load([server], players, opts, processes)
        if bare:
            rate = result["actions_per_second"]
            with bare_process(Path(tmp) / "bare.log", port and port + 1) as server:
                result["bare"] = _load_bare(server, players, opts, processes, rate)
            result.update(_ratios(result))
    return result


def _ratios(result: dict[str, Any]) -> dict[str, float | None]:
    """The game server's pick latency over the bare stack's, at p50 and p99."""
    ours, bare = result["pick_to_all_latency"], result["bare"]["pick_to_all_latency"]
    out: dict[str, float | None] = {}
    for key in ("p50", "p99"):
        a, b = ours[f"{key}_ms"], bare[f"{key}_ms"]
        out[f"{key}_ratio_to_bare"] = round(a / b, 2) if a and b else None
    return out


def _pids(servers: Sequence[Server]) -> tuple[int, ...]:
    return tuple(s.pid for s in servers if s.pid is not None)


def _rooms_on(servers: Sequence[Server], count: int, opts: Options) -> list[tuple[str, int]]:
    """``count`` rooms created round-robin on the servers: (id, index of its creator, which
    owns it: docs/cluster.md)."""
    shares = [len(range(i, count, len(servers))) for i in range(len(servers))]
    made = [asyncio.run(_make_rooms(s.url, n, opts)) for s, n in zip(servers, shares, strict=True)]
    return [(made[i % len(servers)][i // len(servers)], i % len(servers)) for i in range(count)]


def _load(
    servers: Sequence[Server], players: int, opts: Options, processes: int
) -> dict[str, Any]:
    """Load the server process(es) (one, or several of a cluster: each room's players are
    spread over all of them) with ``players`` from ``processes`` load processes."""
    bases = [s.url for s in servers]
    count = max(1, players // opts.room_size)
    rooms = _rooms_on(servers, count, opts)
    spares = asyncio.run(_make_rooms(bases[0], processes, opts))
    idle = asyncio.run(_idle_pings(bases[0], spares[0]))
    slices = [rooms[i::processes] for i in range(processes)]
    pids = _pids(servers)
    cpu_before = servers_cpu(pids)
    machine_before = machine_busy()
    opts = replace(opts, server_pids=pids)
    jobs = [(bases, part, spares[i], opts) for i, part in enumerate(slices)]
    total = merge(_in_processes(_play_process, jobs))
    lines = [line for server in servers for line in server.log_lines()]
    total.server_warnings = [line for line in lines if "WARNING" in line]
    total.server_errors = [line for line in lines if "ERROR" in line or "Traceback" in line]
    total.server_tracebacks = _tracebacks(lines)
    if opts.samples is not None:
        _write_samples(opts.samples, total)
    cpu_after = servers_cpu(pids)
    if cpu_before is not None and cpu_after is not None:
        total.server_cpu = cpu_after - cpu_before
    memories = [memory_mb(pid) for pid in pids]
    if memories and all(m is not None for m in memories):  # summed over the processes
        total.server_memory = (
            round(sum(m[0] for m in memories if m), 1),
            round(sum(m[1] for m in memories if m), 1),
        )
    machine_after = machine_busy()
    if machine_before is not None and machine_after is not None:
        busy = machine_after[0] - machine_before[0]
        total.machine_cpu = busy / max(machine_after[1] - machine_before[1], 1e-9)
    out = report(total, idle, players, opts, processes)
    if os.environ.get("SETGAME_METRICS") == "1":  # --metrics: each process's own figures
        out["server_metrics"] = [server_metrics.scrape(base) for base in bases]
    return out


def _tracebacks(lines: list[str], keep: int = 3) -> list[str]:
    """The first ``keep`` different tracebacks of a server log, whole (the cause of an
    error is in its last lines, which the ERROR lines alone leave out)."""
    found: list[str] = []
    for i, line in enumerate(lines):
        if not line.startswith("Traceback"):
            continue
        end = i + 1
        while end < len(lines) and lines[end].startswith((" ", "\t")):
            end += 1
        block = "\n".join(lines[i : end + 1])
        if block not in found:
            found.append(block)
        if len(found) >= keep:
            break
    return found


def _write_samples(path: str, stats: Stats) -> None:
    """Every latency and ping with its time into the run, as JSON, to see when spikes come."""
    data = {
        "begun_perf_counter": stats.begun,  # time.perf_counter() is system-wide (Linux)
        "pick_to_all": [
            (round(t - stats.begun, 3), round(v * 1000, 2))
            for t, v in zip(stats.sent_at, stats.latencies, strict=True)
        ],
        "ping": [
            (round(t - stats.begun, 3), round(v * 1000, 2))
            for t, v in zip(stats.pinged_at, stats.pings, strict=True)
        ],
    }
    Path(path).write_text(json.dumps(data))


def merge(parts: list[Stats]) -> Stats:
    total = Stats()
    for part in parts:
        total.connected += part.connected
        total.actions += part.actions
        total.picks += part.picks
        total.latencies += part.latencies
        total.sent_at += part.sent_at
        total.owner_arrivals += part.owner_arrivals
        total.mirror_arrivals += part.mirror_arrivals
        total.pings += part.pings
        total.pinged_at += part.pinged_at
        total.lags += part.lags
        total.gc_pauses += part.gc_pauses
        total.begun = min(total.begun or part.begun, part.begun)
        total.races.update(part.races)
        total.errors.update(part.errors)
        total.unfinished += part.unfinished
        total.rounds += part.rounds
        total.matches += part.matches
        total.seconds = max(total.seconds, part.seconds)
        total.wall = max(total.wall, part.wall)
        total.load_cpu += part.load_cpu
        total.play_load_cpu += part.play_load_cpu
        if part.play_server_cpu is not None:  # every process measured the same server
            total.play_server_cpu = max(total.play_server_cpu or 0.0, part.play_server_cpu)
        if part.play_server_written is not None:
            written = max(total.play_server_written or 0, part.play_server_written)
            total.play_server_written = written
        for name, cpu in part.play_service_cpu.items():
            total.play_service_cpu[name] = max(total.play_service_cpu.get(name, 0.0), cpu)
        total.table_batches += part.table_batches
        total.tables_batched += part.tables_batched
    return total


def _ms(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return round(ordered[index] * 1000, 2)


def _summary(values: list[float]) -> dict[str, Any]:
    return {
        "count": len(values),
        "p50_ms": _ms(values, 0.5),
        "p99_ms": _ms(values, 0.99),
        "max_ms": _ms(values, 1.0),
    }


def report(
    stats: Stats, idle: list[float], players: int, opts: Options, processes: int
) -> dict[str, Any]:
    pick = _summary(stats.latencies)
    baseline = _summary(idle)
    ratio = loaded = None
    if stats.latencies and idle:
        ratio = round(statistics.median(stats.latencies) / statistics.median(idle), 1)
    if stats.latencies and stats.pings:
        loaded = round(statistics.median(stats.latencies) / statistics.median(stats.pings), 1)
    return {
        "players_requested": players,
        "connected": stats.connected,
        "rooms": players // opts.room_size,
        "room_size": opts.room_size,
        "processes": processes,
        "cpus": os.cpu_count(),
        "seconds": round(stats.seconds, 1),
        "actions": stats.actions,
        "actions_per_second": round(stats.actions / stats.seconds, 1) if stats.seconds else 0.0,
        "valid_picks": stats.picks,
        "rounds_finished": stats.rounds,
        "matches_finished": stats.matches,
        "pick_to_all_latency": pick,
        "pick_to_owner_player_latency": _summary(stats.owner_arrivals),
        "pick_to_mirror_player_latency": _summary(stats.mirror_arrivals),
        "baseline_ping_during_load": _summary(stats.pings),
        "ping_before_load": baseline,
        "load_generator_loop_lag": _summary(stats.lags),
        "load_generator_gc": _summary(stats.gc_pauses),
        "tables_solved_in_batches": stats.tables_batched,
        "table_batches": stats.table_batches,
        "p50_ratio_to_baseline_ping": loaded,
        "p50_ratio_to_ping_before_load": ratio,
        "races": dict(stats.races),
        "errors": dict(stats.errors),
        "error_count": sum(stats.errors.values()) + stats.unfinished + len(stats.server_errors),
        "server_log_errors": stats.server_errors[-5:],
        "server_log_tracebacks": stats.server_tracebacks,
        "server_log_warnings": len(stats.server_warnings),
        "server_log_warning_sample": stats.server_warnings[-3:],
        "unfinished_picks": stats.unfinished,
        "load_cpu_percent": _percent(stats.load_cpu, stats.wall),
        "server_cpu_percent": _percent(stats.server_cpu, stats.wall),
        **playing_cpu(stats),
        "server_rss_mb": None if stats.server_memory is None else stats.server_memory[0],
        "server_peak_rss_mb": None if stats.server_memory is None else stats.server_memory[1],
        "machine_busy_percent": None
        if stats.machine_cpu is None
        else round(100 * stats.machine_cpu, 1),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


def playing_cpu(stats: Stats) -> dict[str, float | None]:
    """CPU use while playing (connecting left out): the server's and the load generator's
    share of one core, and the server's CPU milliseconds per action."""
    server, actions = stats.play_server_cpu, stats.actions
    written = stats.play_server_written
    return {
        "server_cpu_percent_playing": _percent(server, stats.seconds),
        "server_cpu_ms_per_action": None
        if server is None or not actions
        else round(1000 * server / actions, 3),
        "load_cpu_percent_playing": _percent(stats.play_load_cpu, stats.seconds),
        # PostgreSQL's and Redis's CPU (all their processes) while playing, per action
        "service_cpu_ms_per_action": {
            name: round(1000 * cpu / actions, 3) for name, cpu in stats.play_service_cpu.items()
        }
        if actions
        else {},
        "server_written_bytes_per_action": None
        if written is None or not actions
        else round(written / actions),
    }


def _percent(cpu: float | None, wall: float) -> float | None:
    """CPU use as a percentage of one core over ``wall`` seconds."""
    return None if cpu is None or wall <= 0 else round(100 * cpu / wall, 1)


def show(result: dict[str, Any]) -> str:
    pick, idle, busy, lag = (
        result["pick_to_all_latency"],
        result["ping_before_load"],
        result["baseline_ping_during_load"],
        result["load_generator_loop_lag"],
    )
    lines = [
        f"connected players   {result['connected']} of {result['players_requested']} "
        f"in {result['rooms']} rooms of {result['room_size']} "
        f"({result['processes']} load process(es), {result['cpus']} CPUs, server included)",
        f"run                 {result['seconds']} s, {result['actions']} actions = "
        f"{result['actions_per_second']} actions/s, {result['valid_picks']} valid picks, "
        f"{result['rounds_finished']} rounds and {result['matches_finished']} matches finished",
        f"pick -> all 4 got   p50 {pick['p50_ms']} ms  p99 {pick['p99_ms']} ms  "
        f"max {pick['max_ms']} ms  (n={pick['count']})",
        f"baseline: ping      p50 {busy['p50_ms']} ms  p99 {busy['p99_ms']} ms  "
        f"max {busy['max_ms']} ms  on an idle connection during the load "
        f"(pick p50 = {result['p50_ratio_to_baseline_ping']} x this)",
        f"ping before load    p50 {idle['p50_ms']} ms  p99 {idle['p99_ms']} ms  on the idle "
        f"server (pick p50 = {result['p50_ratio_to_ping_before_load']} x; an idle VM wakes slowly)",
        f"generator loop lag  p50 {lag['p50_ms']} ms  p99 {lag['p99_ms']} ms  "
        f"max {lag['max_ms']} ms  (how late the load generator itself runs; "
        f"{result['load_generator_gc']['count']} GC passes)",
        f"lost races          {sum(result['races'].values())} {result['races']}",
        f"errors              {result['error_count']} {result['errors']} "
        f"(unfinished picks: {result['unfinished_picks']}, "
        f"server log errors: {len(result['server_log_errors'])})",
        f"server warnings     {result['server_log_warnings']} "
        f"{result['server_log_warning_sample']}",
        f"CPU while playing   server {result['server_cpu_percent_playing']}% of one core "
        f"({result['server_cpu_ms_per_action']} ms per action), load generator "
        f"{result['load_cpu_percent_playing']}%",
        f"CPU (% of one core) server {result['server_cpu_percent']}, "
        f"load generator {result['load_cpu_percent']} (connect + play); all cores "
        f"{result['machine_busy_percent']}% busy (anyone's work), "
        f"load average {result['load_average_1min']}",
        f"server memory       RSS {result['server_rss_mb']} MiB, "
        f"peak {result['server_peak_rss_mb']} MiB",
    ]
    if "bare" in result:
        lines += _show_bare(result)
    return "\n".join(lines)


def _show_bare(result: dict[str, Any]) -> list[str]:
    bare = result["bare"]
    pick = bare["pick_to_all_latency"]
    return [
        f"BASELINE bare stack {bare['connected']} players, {bare['actions']} actions = "
        f"{bare['actions_per_second']} actions/s over {bare['seconds']} s "
        "(uvicorn + websockets, a broadcast per action, no game, no database)",
        f"bare: action -> all p50 {pick['p50_ms']} ms  p99 {pick['p99_ms']} ms  "
        f"max {pick['max_ms']} ms  (n={pick['count']}); errors {bare['error_count']} "
        f"{bare['errors']}",
        f"bare: playing       server CPU {bare['server_cpu_percent_playing']}% of one core "
        f"({bare['server_cpu_ms_per_action']} ms per action), load generator "
        f"{bare['load_cpu_percent_playing']}%",
        f"bare: server        CPU {bare['server_cpu_percent']}% of one core, "
        f"RSS {bare['server_rss_mb']} MiB (peak {bare['server_peak_rss_mb']}); "
        f"load generator {bare['load_cpu_percent']}%",
        f"RATIO to bare       pick p50 {result['p50_ratio_to_bare']}x, "
        f"p99 {result['p99_ratio_to_bare']}x (target: p99 at most 3x)",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--room-size", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--generators", type=int, default=1, help="load-generator processes")
    parser.add_argument(
        "--processes",
        type=_counts,
        help="server processes over PostgreSQL and Redis, e.g. 1,2,3: one run each, after "
        "the single SQLite server (benchmarks/load_cluster.py)",
    )
    parser.add_argument(
        "--runs", type=int, default=1, help="with --processes: repeat, give medians and spread"
    )
    parser.add_argument("--deck", default="full", help="room deck: full or beginner")
    parser.add_argument("--rounds", default="match", help="match (a round per player) or single")
    parser.add_argument("--quick", action="store_true", help="a few rooms for a few seconds")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--url", help="load a server already running here instead of one's own")
    parser.add_argument(
        "--port", type=int, help="port of its own server (the bare stack takes the next one)"
    )
    parser.add_argument("--no-bare", action="store_true", help="skip the bare-stack baseline")
    parser.add_argument(
        "--server-src",
        help="run its own server from this src folder (another checkout: an A/B comparison)",
    )
    parser.add_argument("--db-dir", help="where the temporary SQLite file goes (default: TMPDIR)")
    parser.add_argument(
        "--route", choices=("room", "spread"), default="room",
        help="with --processes: 'room' plays a load balancer that hashes the room id "
        "(every player of a room on one process, the servers with SETGAME_ROOM_AFFINITY: "
        "docs/deploy.md); 'spread': a room's players round-robin over the processes",
    )
    parser.add_argument(
        "--metrics", action="store_true",
        help="turn the servers' /metrics on and add what each measured (commits, loop lag, "
        "collector pauses, pick to broadcast, relays) to the report: server_metrics",
    )
    parser.add_argument("--samples", help="write each latency and ping with its time (JSON)")
    parser.add_argument("--keepalive", type=float, default=20.0, help="ping interval; 0: none")
    parser.add_argument("--deflate", action="store_true", help="per-message compression")
    parser.add_argument(
        "--speed", type=float, default=1.0, help="players think this many times faster"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.seconds, args.deck, args.rounds = 12, 6.0, "beginner", "single"
    if not 1 <= args.runs <= 20:
        parser.error(f"--runs must be 1-20, got {args.runs!r}")
    if args.players < args.room_size or args.room_size < 1 or args.generators < 1:
        parser.error(f"need players >= room size >= 1, got {args.players!r}, {args.room_size!r}")
    opts = Options(args.room_size, args.seconds, deck=args.deck, rounds=args.rounds)
    opts.samples = args.samples
    if args.metrics:  # the servers started here inherit it (SERVER_ENV adds to os.environ)
        os.environ["SETGAME_METRICS"] = "1"
    opts.route = args.route
    if args.route == "room":  # as the metrics: the servers started here inherit it
        os.environ["SETGAME_ROOM_AFFINITY"] = "1"
    opts.keepalive = args.keepalive or None
    opts.compression = "deflate" if args.deflate else None
    if args.quick:  # fast players, so that games end and start again within seconds
        opts.reaction, opts.pick_delay, opts.between = (0.1, 0.4), (0.05, 0.2), (0.1, 0.3)
    if args.speed <= 0:
        parser.error(f"--speed must be positive, got {args.speed!r}")
    opts.reaction = (opts.reaction[0] / args.speed, opts.reaction[1] / args.speed)
    opts.pick_delay = (opts.pick_delay[0] / args.speed, opts.pick_delay[1] / args.speed)
    if args.port is not None and not 1 <= args.port < 65535:
        parser.error(f"--port must be 1-65534, got {args.port!r}")
    if args.server_src is not None and not (Path(args.server_src) / "setgame").is_dir():
        parser.error(f"--server-src must be a src folder holding setgame/, got {args.server_src!r}")
    if args.processes is not None:
        if args.url is not None or args.server_src is not None:
            parser.error("--processes starts its own servers: no --url or --server-src")
        return _main_cluster(args.players, opts, args.processes, args.generators, args)
    result = run(
        args.players,
        opts,
        args.generators,
        args.url,
        args.db_dir,
        args.port,
        not args.no_bare,
        args.server_src,
    )
    print(json.dumps(result, indent=2) if args.json else show(result))
    errors = result["error_count"] + result.get("bare", {}).get("error_count", 0)
    return 0 if errors == 0 else 1


def _counts(text: str) -> list[int]:
    """``--processes``: a comma-separated list of server process counts, 1 to 8 each."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        counts = []
    if not counts or len(counts) > 8 or not all(1 <= n <= 8 for n in counts):
        raise argparse.ArgumentTypeError(f"want counts 1-8 like 1,2,3, got {text!r}")
    return counts


def _main_cluster(
    players: int, opts: Options, counts: list[int], generators: int, args: argparse.Namespace
) -> int:
    import services
    from load_cluster import run_cluster, show_cluster

    try:
        result = run_cluster(players, opts, counts, generators, args.db_dir, args.runs)
    except services.Missing as missing:
        print(f"load.py: error: --processes needs PostgreSQL and Redis: {missing}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2) if args.json else show_cluster(result))
    return 0 if result["error_count"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
