"""What one server process measures, for Prometheus (issue 22; ``docs/deploy.md``, "Metrics").

The server calls a :class:`Probe` at a few points: a commit of the storage's writer
(``Storage._commit``), an action committed and broadcast (``Room._commit``), an action asked
for by a player and answered (``Room.act``), an error sent to a socket (``sockets._error``), a
request relayed between processes (``cluster/node.py``); and, while the app runs, the
collector's pauses and how late the event loop wakes (:data:`LAG_PERIOD`). The plain
:class:`Probe` does nothing: that is the server without metrics (the default).
:class:`Metrics` records them with the ``prometheus_client`` library in a registry of its
own (never the library's global one: two apps in one process, as the tests make, do not
mix), and reads what exists now (rooms, sockets) when it is scraped. The route and who may
read it: ``metrics_api.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Iterable
from typing import Any, Final

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

LABELS: Final = 64
"""Different values one label takes at most (error codes, action types); any beyond are
counted as ``other``, so a bug that makes new codes cannot grow the answer without end."""

FAST: Final = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
               0.5, 1.0, 2.5)
"""Histogram buckets (seconds) of commits and garbage collections."""
ANSWER: Final = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                 2.5, 5.0)
"""Histogram buckets (seconds) of an action from its request to its broadcast."""
WRITES: Final = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
"""Histogram buckets of the writes one group commit carries."""
LAG_PERIOD: Final = 0.01
"""Seconds between two wake-ups of the loop-lag probe: how late each comes is the time the
event loop spent on other work (a burst of messages, a commit, a collection) or off the CPU
before it could run a ready callback, which every socket of the process waits out too."""


class Probe:
    """The measuring points of the server. This one measures nothing (metrics are off):
    each call costs a method call and no more."""

    def commit(self, seconds: float, writes: int) -> None:
        """A group commit of ``writes`` writes took ``seconds``."""

    def action(self, kind: str) -> None:
        """An action of type ``kind`` was committed and broadcast."""

    def answered(self, kind: str, seconds: float) -> None:
        """A player's action (``pick``...) went from its request to its broadcast in
        ``seconds``."""

    def error(self, code: str) -> None:
        """A socket was sent the error ``code``."""

    def relay(self, side: str) -> None:
        """A request relayed between processes: ``sent`` by a mirror, ``answered`` by an
        owner."""


QUIET: Final = Probe()


class Metrics(Probe):
    """The metrics of one app, in their own registry. ``state``: the app's state, whose
    ``rooms`` and ``lobby`` are read at each scrape. :meth:`start` and :meth:`stop` hook the
    garbage collector's pauses (``gc.callbacks``) while the app runs."""

    def __init__(self, state: Any) -> None:
        self.registry = registry = CollectorRegistry(auto_describe=True)
        self.commits = Histogram(
            "setgame_db_commit_seconds", "Time of one database commit of the writer (a group "
            "of writes from any rooms).", buckets=FAST, registry=registry)
        self.writes = Histogram(
            "setgame_db_commit_writes", "Writes carried by one database commit.",
            buckets=WRITES, registry=registry)
        self.actions = Counter(
            "setgame_actions", "Actions committed and broadcast, by type (join, pick, "
            "tick...).", ["type"], registry=registry)
        self.answers = Histogram(
            "setgame_action_seconds", "A player's action from its request to its broadcast "
            "to every socket of the room, by type: type=pick is pick to broadcast.",
            ["type"], buckets=ANSWER, registry=registry)
        self.errors = Counter(
            "setgame_errors", "Errors sent to sockets, by code.", ["code"], registry=registry)
        self.relays = Counter(
            "setgame_relays", "Requests relayed between processes of a cluster: sent by a "
            "mirror, answered by an owner.", ["side"], registry=registry)
        self.pauses = Histogram(
            "setgame_gc_pause_seconds", "Pauses of Python's garbage collector, by "
            "generation.", ["generation"], buckets=FAST, registry=registry)
        self.lag = Histogram(
            "setgame_loop_lag_seconds", "How late the event loop ran a timer due every "
            f"{LAG_PERIOD * 1000:.0f} ms (its stalls: every socket waits them out).",
            buckets=FAST, registry=registry)
        registry.register(_Now(state))
        self._lag_task: asyncio.Task[None] | None = None
        self._children: dict[tuple[str, str], Any] = {}
        self._gc_began = 0.0

    # --- the measuring points -------------------------------------------------------------

    def commit(self, seconds: float, writes: int) -> None:
        self.commits.observe(seconds)
        self.writes.observe(writes)

    def action(self, kind: str) -> None:
        self._child("actions", kind).inc()

    def answered(self, kind: str, seconds: float) -> None:
        self._child("answers", kind).observe(seconds)

    def error(self, code: str) -> None:
        self._child("errors", code).inc()

    def relay(self, side: str) -> None:
        self._child("relays", side).inc()

    def _child(self, name: str, value: str) -> Any:
        """The labelled child of the metric ``name``, looked up once per label value."""
        key = (name, value)
        child = self._children.get(key)
        if child is None:
            seen = sum(1 for known, _ in self._children if known == name)
            if seen >= LABELS:
                return self._child(name, "other") if value != "other" else None
            child = self._children[key] = getattr(self, name).labels(value.lower())
        return child

    # --- the garbage collector --------------------------------------------------------------

    def start(self) -> None:
        """From now on: the collector's pauses, and the loop's lag (in a running loop)."""
        gc.callbacks.append(self._gc)
        with contextlib.suppress(RuntimeError):  # no running loop: no lag to measure
            self._lag_task = asyncio.get_running_loop().create_task(self._probe_lag())

    def stop(self) -> None:
        if self._gc in gc.callbacks:
            gc.callbacks.remove(self._gc)
        if self._lag_task is not None:
            self._lag_task.cancel()
            self._lag_task = None

    async def _probe_lag(self) -> None:
        while True:
            due = time.perf_counter() + LAG_PERIOD
            await asyncio.sleep(LAG_PERIOD)
            self.lag.observe(max(0.0, time.perf_counter() - due))

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_began = time.perf_counter()
        elif self._gc_began:
            took = time.perf_counter() - self._gc_began
            self.pauses.labels(str(info.get("generation", "?"))).observe(took)

    def text(self) -> bytes:
        """Everything, in Prometheus' text format (version 0.0.4)."""
        return generate_latest(self.registry)


class _Now(Collector):
    """What exists at the moment of the scrape: rooms and sockets (counted, not hooked)."""

    def __init__(self, state: Any) -> None:
        self.state = state

    def describe(self) -> Iterable[Metric]:
        return []  # read at each scrape: nothing to declare ahead

    def collect(self) -> Iterable[Metric]:
        rooms = getattr(self.state, "rooms", None)
        held = list(rooms.rooms.values()) if rooms is not None else []
        phases: dict[str, int] = {}
        for room in held:
            phase = room.phase
            phases[phase] = phases.get(phase, 0) + 1
        yield _gauge("setgame_rooms", "Rooms held in memory by this process, by phase.",
                     "phase", phases)
        yield _gauge("setgame_rooms_listed", "Rooms in the public list.", None,
                     len(rooms.listed) if rooms is not None else 0)
        yield _gauge("setgame_websockets", "Websockets open to a room of this process "
                     "(greeted or not yet).", None, sum(room.sockets for room in held))
        lobby = getattr(self.state, "lobby", None)
        yield _gauge("setgame_websockets_waiting_hello", "Websockets that have not said "
                     "hello yet.", None, lobby.total if lobby is not None else 0)


def _gauge(name: str, doc: str, label: str | None, value: dict[str, int] | int) -> Metric:
    if label is None:
        return GaugeMetricFamily(name, doc, value=float(value))  # type: ignore[arg-type]
    family = GaugeMetricFamily(name, doc, labels=[label])
    for key, count in sorted(value.items()):  # type: ignore[union-attr]
        family.add_metric([key], float(count))
    return family
