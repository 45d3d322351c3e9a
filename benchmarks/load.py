"""Load benchmark: simulated players in rooms of four against one server process.

    python3 benchmarks/load.py --players 1000 --room-size 4 --seconds 30
    python3 benchmarks/load.py --quick          # a few rooms for a few seconds (the test)

It starts ONE server (``uvicorn`` in a subprocess on loopback, a temporary SQLite
file), creates the rooms over HTTP, connects the players through the Python
client (``setgame.server.client``) from one or more load-generator processes
on the same machine, and lets them play whole games: each player looks for sets
on the table (``setgame.find_sets``) and, after a person-like reaction time,
calls SET and picks them; when the table holds none it declares "no set";
now and then it makes a wrong call. Between rounds and after a match, the first
seat starts the next round or a new game.

Reported: connected players, actions per second, the latency from a valid pick
being sent to the moment EVERY player of that room has received the update
(p50, p99, max), errors counted, and a baseline measured in the same run: the
``ping``/``pong`` round trip on an idle connection while the load runs (and on the
idle server before it), so the pick latency reads as a ratio too. On an idle
virtual machine the "before" figure can be the larger one (idle CPUs wake up
slowly), hence the ratio against the ping during the load. Also reported: CPU use
of the server, of the load generator and of the whole machine (other work on a
shared machine shows up as latency), the generator's own event-loop lag, and the
server log's warnings. ``--json`` prints the report as JSON.

Measured on the project's 2-core VM (server, load generator and nothing else busy), 1000
players in 250 rooms of four, person-like pace, 30 s: about 177 actions/s, pick to all four
players p50 3-4 ms, p99 10-14 ms, max 30-50 ms, no errors; 150 s with ``--rounds single``:
288 whole games played to the end, p99 10.6 ms. Faster players (``--speed 8``: 1024
actions/s) keep p99 at 34 ms with the server at 79% of a core; ``--speed 12`` (1321/s) at
37 ms with both cores nearly full. While other heavy work shares the machine (load average
5-9) p99 rises to 0.2-1.4 s; the server then logs slow commits.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
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
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from setgame.server.client import Client, ClientError, Message, create_room, table_sets

#: Error codes that are the normal outcome of simultaneous play (another player was faster, or
#: the table changed while the message was on its way). Any other error code counts as an error.
RACES = frozenset(
    {"board_held", "locked_out", "not_holder", "stale_version", "already_declared", "not_playing"}
)


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


@contextmanager
def server_process(db: Path, log: Path) -> Iterator[Server]:
    """Run the game server in a subprocess on a free loopback port; yield it."""
    port = free_port()
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
    ]
    # every room comes from this one address: lift the per-client room cap (not measured here)
    env = {"SETGAME_ROOMS_PER_CLIENT": "100000"} | os.environ
    base = f"http://127.0.0.1:{port}"
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
        try:
            _wait_up(base, proc, log)
            yield Server(base, proc.pid, log)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _wait_up(base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            if httpx.get(base + "/api/health", timeout=1, trust_env=False).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"server did not answer at {base}: {log.read_text()[-2000:]}")


# --- one process of simulated players ---------------------------------------------------------


@dataclass
class Stats:
    """Raw figures of one load-generator process (merged by :func:`merge`)."""

    connected: int = 0
    actions: int = 0
    picks: int = 0
    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # perf_counter() of each latency's pick
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
    machine_cpu: float | None = None  # share of all cores busy (anyone's work) over the run
    server_warnings: list[str] = field(default_factory=list)  # from the server's log
    server_errors: list[str] = field(default_factory=list)


@dataclass
class Room:
    id: str
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


class Bot:
    """One simulated player: a client and a small plan (what to send, and when)."""

    def __init__(self, client: Client, room: Room, seat: int, opts: Options, stats: Stats) -> None:
        self.client = client
        self.room = room
        self.seat = seat
        self.opts = opts
        self.stats = stats
        self.rng = random.Random(f"{room.id}:{seat}")
        self.intent: str | None = None
        self.due: float | None = None
        self.seen_table: tuple[str, ...] = ()
        self.sent: frozenset[str] | None = None  # this player's valid pick in flight
        client.listener = self._arrived

    def _arrived(self, client: Client, message: Message, at: float) -> None:
        """Reader hook (arrival time): count the update toward a pick's latency."""
        if message["type"] != "update":
            return
        for event in message["events"]:
            if event.get("type") != "set_taken":
                continue
            entry = self.room.pending.get(frozenset(event["cards"]))
            if entry is None:
                continue
            sent, arrivals = entry
            arrivals.append(at)
            if len(arrivals) == len(self.room.players):
                self.stats.latencies.append(max(arrivals) - sent)
                self.stats.sent_at.append(sent)
                del self.room.pending[frozenset(event["cards"])]

    async def run(self, stop: float) -> None:
        self.plan()
        while True:
            now = time.monotonic()
            if now >= stop:
                return
            wait = stop - now if self.due is None else min(stop, self.due) - now
            try:
                message = await self.client.next_message(max(wait, 0.0))
            except TimeoutError:
                if self.due is not None and time.monotonic() >= self.due:
                    await self.act()
                continue
            self.receive(message)

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
        if table_sets(state):
            self._set("call", self.rng.uniform(*self.opts.reaction))
        elif not me.get("declared") and state["deck"] > 0 and state["settings"]["no_set"] == "vote":
            self._set("no_set", self.rng.uniform(0.5, 2.5))
        else:
            self._set(None)

    def _plan_between(self, state: Message) -> None:
        self.seen_table = ()
        phase = state["phase"]
        wanted = {"round_over": "start", "match_over": "again", "lobby": "start"}.get(phase)
        waiting = phase == "lobby" and len(state["players"]) < len(self.room.players)
        if self.seat != 0 or wanted is None or waiting:
            self._set(None)
        elif self.intent != wanted:
            self._set(wanted, self.rng.uniform(*self.opts.between))

    def _set(self, intent: str | None, delay: float = 0.0) -> None:
        self.intent = intent
        self.due = None if intent is None else time.monotonic() + delay

    async def act(self) -> None:
        intent, self.intent, self.due = self.intent, None, None
        client = self.client
        self.stats.actions += 1
        if intent == "call":
            await client.call()
        elif intent == "pick":
            await self._pick()
        elif intent == "no_set":
            await client.no_set()
        elif intent == "start":
            await client.start()
        elif intent == "again":
            await client.again()

    async def _pick(self) -> None:
        sets = table_sets(self.client.state)
        if sets and self.rng.random() >= self.opts.wrong_rate:
            cards = self.rng.choice(sets)
            self.sent = frozenset(cards)
            self.room.pending[self.sent] = (time.perf_counter(), [])
            self.stats.picks += 1
        else:
            cards = _not_a_set(self.client.table, self.rng)
        await self.client.pick(cards)


def _not_a_set(table: list[str], rng: random.Random) -> tuple[str, str, str]:
    sets = {frozenset(s) for s in table_sets({"table": table})}
    while True:
        a, b, c = rng.sample(table, 3)
        if frozenset((a, b, c)) not in sets:
            return (a, b, c)


async def _connect(base: str, room: Room, seat: int, opts: Options, stats: Stats) -> None:
    client = await Client.connect(
        base, room.id, timeout=30, keepalive=opts.keepalive, compression=opts.compression
    )
    await client.join(f"p{seat}-{room.id[:6]}", timeout=30)
    room.players.append(Bot(client, room, seat, opts, stats))
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


async def play(base: str, room_ids: list[str], spare: str, opts: Options) -> Stats:
    """Connect a room_size players to every room, play for opts.seconds, return the figures."""
    stats = Stats()
    cpu, wall = time.process_time(), time.monotonic()
    rooms = [Room(rid) for rid in room_ids]
    gate = asyncio.Semaphore(opts.connect_concurrency)

    async def connect(room: Room, seat: int) -> None:
        async with gate:
            try:
                await _connect(base, room, seat, opts, stats)
            except (ClientError, OSError, TimeoutError) as exc:
                stats.errors[f"connect: {type(exc).__name__}"] += 1

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
    stop = begun + opts.seconds
    tasks = [asyncio.create_task(bot.run(stop)) for room in rooms for bot in room.players]
    tasks.append(asyncio.create_task(_pinger(base, spare, stop, stats)))
    tasks.append(asyncio.create_task(_lag_meter(stop, stats)))
    for result in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(result, BaseException):
            stats.errors[f"player: {type(result).__name__}: {result}"[:120]] += 1
    stats.seconds = time.monotonic() - begun
    gc.callbacks.remove(timer)
    gc.enable()
    gc.unfreeze()
    grace = time.monotonic() + 2.0  # picks sent just before the stop may still be on their way
    while any(room.pending for room in rooms) and time.monotonic() < grace:
        await asyncio.sleep(0.05)
    stats.unfinished = sum(len(room.pending) for room in rooms)
    await asyncio.gather(*(bot.client.close() for room in rooms for bot in room.players))
    stats.load_cpu, stats.wall = time.process_time() - cpu, time.monotonic() - wall
    return stats


def _play_process(base: str, room_ids: list[str], spare: str, opts: Options) -> Stats:
    return asyncio.run(play(base, room_ids, spare, opts))


# --- the run ---------------------------------------------------------------------------------


async def _make_rooms(base: str, count: int, opts: Options) -> list[str]:
    settings = {"deck": opts.deck, "rounds": opts.rounds, "public": False}
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        return list(
            await asyncio.gather(*(create_room(base, http=http, **settings) for _ in range(count)))
        )


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
) -> dict[str, Any]:
    """Start a server (unless ``url`` names a running one), load it, return the report.

    The server's SQLite file goes into a new temporary directory (under ``db_dir`` if given,
    e.g. ``/dev/shm`` to take the disk out of the measurement)."""
    if url is not None:
        return _load(Server(url), players, opts, processes)
    with (
        tempfile.TemporaryDirectory(prefix="setgame-load-", dir=db_dir) as tmp,
        server_process(Path(tmp) / "load.db", Path(tmp) / "server.log") as server,
    ):
        return _load(server, players, opts, processes)


def _load(server: Server, players: int, opts: Options, processes: int) -> dict[str, Any]:
    base = server.url
    count = max(1, players // opts.room_size)
    room_ids = asyncio.run(_make_rooms(base, count + processes, opts))
    rooms, spares = room_ids[:count], room_ids[count:]
    idle = asyncio.run(_idle_pings(base, spares[0]))
    slices = [rooms[i::processes] for i in range(processes)]
    cpu_before = None if server.pid is None else cpu_seconds(server.pid)
    machine_before = machine_busy()
    if processes == 1:
        parts = [_play_process(base, slices[0], spares[0], opts)]
    else:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(processes) as pool:
            parts = pool.starmap(
                _play_process, [(base, s, spares[i], opts) for i, s in enumerate(slices)]
            )
    total = merge(parts)
    lines = server.log_lines()
    total.server_warnings = [line for line in lines if "WARNING" in line]
    total.server_errors = [line for line in lines if "ERROR" in line or "Traceback" in line]
    if opts.samples is not None:
        _write_samples(opts.samples, total)
    cpu_after = None if server.pid is None else cpu_seconds(server.pid)
    if cpu_before is not None and cpu_after is not None:
        total.server_cpu = cpu_after - cpu_before
    machine_after = machine_busy()
    if machine_before is not None and machine_after is not None:
        busy = machine_after[0] - machine_before[0]
        total.machine_cpu = busy / max(machine_after[1] - machine_before[1], 1e-9)
    return report(total, idle, players, opts, processes)


def _write_samples(path: str, stats: Stats) -> None:
    """Every latency and ping with its time into the run, as JSON, to see when spikes come."""
    data = {
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
        "baseline_ping_during_load": _summary(stats.pings),
        "ping_before_load": baseline,
        "load_generator_loop_lag": _summary(stats.lags),
        "load_generator_gc": _summary(stats.gc_pauses),
        "p50_ratio_to_baseline_ping": loaded,
        "p50_ratio_to_ping_before_load": ratio,
        "races": dict(stats.races),
        "errors": dict(stats.errors),
        "error_count": sum(stats.errors.values()) + stats.unfinished + len(stats.server_errors),
        "server_log_errors": stats.server_errors[-5:],
        "server_log_warnings": len(stats.server_warnings),
        "server_log_warning_sample": stats.server_warnings[-3:],
        "unfinished_picks": stats.unfinished,
        "load_cpu_percent": _percent(stats.load_cpu, stats.wall),
        "server_cpu_percent": _percent(stats.server_cpu, stats.wall),
        "machine_busy_percent": None
        if stats.machine_cpu is None
        else round(100 * stats.machine_cpu, 1),
        "load_average_1min": round(os.getloadavg()[0], 2),
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
        f"CPU (% of one core) server {result['server_cpu_percent']}, "
        f"load generator {result['load_cpu_percent']} (connect + play); all cores "
        f"{result['machine_busy_percent']}% busy (anyone's work), "
        f"load average {result['load_average_1min']}",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--room-size", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--processes", type=int, default=1, help="load-generator processes")
    parser.add_argument("--deck", default="full", help="room deck: full or beginner")
    parser.add_argument("--rounds", default="match", help="match (a round per player) or single")
    parser.add_argument("--quick", action="store_true", help="a few rooms for a few seconds")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--url", help="load a server already running here instead of one's own")
    parser.add_argument("--db-dir", help="where the temporary SQLite file goes (default: TMPDIR)")
    parser.add_argument("--samples", help="write each latency and ping with its time (JSON)")
    parser.add_argument("--keepalive", type=float, default=20.0, help="ping interval; 0: none")
    parser.add_argument("--deflate", action="store_true", help="per-message compression")
    parser.add_argument(
        "--speed", type=float, default=1.0, help="players think this many times faster"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.seconds, args.deck, args.rounds = 12, 6.0, "beginner", "single"
    if args.players < args.room_size or args.room_size < 1 or args.processes < 1:
        parser.error(f"need players >= room size >= 1, got {args.players!r}, {args.room_size!r}")
    opts = Options(args.room_size, args.seconds, deck=args.deck, rounds=args.rounds)
    opts.samples = args.samples
    opts.keepalive = args.keepalive or None
    opts.compression = "deflate" if args.deflate else None
    if args.quick:  # fast players, so that games end and start again within seconds
        opts.reaction, opts.pick_delay, opts.between = (0.1, 0.4), (0.05, 0.2), (0.1, 0.3)
    if args.speed <= 0:
        parser.error(f"--speed must be positive, got {args.speed!r}")
    opts.reaction = (opts.reaction[0] / args.speed, opts.reaction[1] / args.speed)
    opts.pick_delay = (opts.pick_delay[0] / args.speed, opts.pick_delay[1] / args.speed)
    result = run(args.players, opts, args.processes, args.url, args.db_dir)
    print(json.dumps(result, indent=2) if args.json else show(result))
    return 0 if result["error_count"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
