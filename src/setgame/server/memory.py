"""The server process's memory: when garbage is collected, when freed memory goes back.

Why not leave it all to Python's collector: with thousands of players nearly everything the
server makes lives long (games and their logs, seats, sockets), so a collection finds almost
nothing to free (measured under ``benchmarks/load.py`` at 4,000 players: 0 objects freed by
each young collection) yet walks every object made since the last one, and on this machine
that walk costs 0.3-1 us an object: with the thresholds below that was a 35-48 ms pause every
2.3 s, the longest in the server and most of its pick->update p99 (38-47 ms). So:

- while at least :data:`FREEZE_FROM` connections are open, every :data:`FREEZE_SECONDS` the
  objects alive are *frozen* (``gc.freeze``: moved out of the collector's sight in constant
  time, the young count reset), so no collection walks them: p99 about 10 ms at that load.
  With fewer connections the heap is small, Python's own collections are short, and they
  free young garbage at once; freezing there measurably hurt (under six 300 MB request bodies
  refused again and again, honest picks' p99 went from 8-10 ms to 24-50 ms, and frozen
  cycles held their buffers), so it is left to Python;
- reference cycles among frozen objects (a closed connection's, a closed room's) are freed by
  a *full* collection, which unfreezes everything first. It is the one long pause left (it
  walks every object: 150-550 ms with 4,000 sockets open here), so it runs when there is
  garbage worth it: once as many connections have closed (or been refused) since the last
  one as half of those still open, and at least :data:`COLLECT_AFTER` (a burst of
  connections is gone: its cost is spread over the connections it frees), and while
  freezing every :data:`FULL_SECONDS` at the latest, so that memory stays bounded;
- every :data:`TRIM_SECONDS` freed heap memory is handed back to the system (glibc's
  ``malloc_trim``, in a thread; elsewhere nothing): measured, 250 sockets refused again and
  again left RSS 25 MB up, of which a trim returned 16 MB; with the collection after a burst
  RSS came back within 20% of the start (``benchmarks/abuse.py``), 21-26% over without.

Only ``setgame serve`` freezes (``build(..., freeze=True)``): a test process that embeds the
app keeps Python's own collector.
"""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Callable
from typing import Any, Final

GC_THRESHOLDS: Final = (20_000, 50, 100)
"""Young objects collected in larger batches than Python's default (700)."""
FREEZE_FROM: Final = 500
"""Open connections from which long-lived objects are frozen. It was 1,000: two processes
sharing 2,000 players hold about 1,000 each, so one of them often did not freeze (measured,
``load.py --processes 2 --metrics``: 12-14 collections a process over a run, 7 at 500)."""
FREEZE_SECONDS: Final = 0.1
TRIM_SECONDS: Final = 5.0
COLLECT_AFTER: Final = 200
"""Closed connections after which a full collection runs (with few open: see ``due``)."""
FULL_SECONDS: Final = 600.0
CHECK_SECONDS: Final = 1.0
"""How often it is decided whether a full collection is due."""


class Churn:
    """The connections: those open (every admitted transport, held weakly, behind a proxy or
    not, upgraded to a websocket or not), and how many closed since the last full garbage
    collection."""

    def __init__(self) -> None:
        self.live: weakref.WeakSet[Any] = weakref.WeakSet()
        self.open_now = 0  # as last counted (``count_open``)
        self.closed_since = 0

    def close(self) -> None:
        self.closed_since += 1

    def count_open(self) -> int:
        """Count the open connections now (a walk over them: once a second, not more)."""
        self.open_now = sum(1 for transport in list(self.live) if not transport.is_closing())
        return self.open_now

    def due(self) -> bool:
        """Whether enough connections closed for a full collection to be worth its pause."""
        return self.closed_since >= max(COLLECT_AFTER, self.open_now // 2)


CHURN: Final = Churn()


def tune() -> None:
    """Collect young objects in larger batches than Python's default (700)."""
    gc.set_threshold(*GC_THRESHOLDS)


class Freezer:
    """Whether this process has frozen objects itself (beyond what was frozen at start)."""

    froze = False


FREEZER: Final = Freezer()


def full_collection(freezing: bool = True) -> int:
    """Collect everything, the objects this process froze included; freeze again what is
    left while many connections are open (and the process ``freezing`` at all). How many
    objects were freed."""
    if FREEZER.froze:
        gc.unfreeze()
    freed = gc.collect()
    FREEZER.froze = freezing and CHURN.open_now >= FREEZE_FROM
    if FREEZER.froze:
        gc.freeze()
    return freed


async def freeze_young(every: float = FREEZE_SECONDS, start: int = FREEZE_FROM) -> None:
    """Freeze the objects alive every ``every`` seconds while at least ``start`` connections
    are open (see the module docstring)."""
    while True:
        await asyncio.sleep(every)
        if CHURN.open_now >= start:
            gc.freeze()
            FREEZER.froze = True


async def trim_memory(
    every: float = CHECK_SECONDS,
    *,
    frozen: bool = False,
    full_every: float = FULL_SECONDS,
    trim_every: float = TRIM_SECONDS,
) -> None:
    """Every ``every`` seconds: a full collection when due (:meth:`Churn.due`; while objects
    are ``frozen`` here, also every ``full_every`` seconds); every ``trim_every`` seconds,
    the trim."""
    trim = _malloc_trim()
    last = trimmed = time.monotonic()
    while True:
        await asyncio.sleep(every)
        now = time.monotonic()
        CHURN.count_open()
        late = frozen and FREEZER.froze and now - last >= full_every
        if CHURN.due() or late:
            CHURN.closed_since = 0
            last = now
            full_collection(freezing=frozen)
        if trim is not None and now - trimmed >= trim_every:
            trimmed = now
            await asyncio.to_thread(trim, 0)


def _malloc_trim() -> Callable[[int], int] | None:
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    try:
        trim: Callable[[int], int] = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    return trim
