"""The server process's memory: when garbage is collected, when freed memory goes back.

Why not leave it to Python's collector: nearly everything the server makes lives long (games
and their logs, seats, sockets), so a collection finds almost nothing to free (measured under
``benchmarks/load.py`` at 4,000 players: 0 objects freed by each young collection) yet walks
every object made since the last one, and on this machine that walk costs 0.3-1 us an object.
With the thresholds alone (``GC_THRESHOLDS``) that was a 35-55 ms pause every 2-3 s, the
longest in the server and most of its pick->update p99 (38-47 ms; with young collections more
often, 2-6 ms pauses plus 40 ms ones for the middle generation). So, as Instagram's servers do
with ``gc.freeze``:

- every :data:`FREEZE_SECONDS` the objects alive are *frozen* (``gc.freeze``: moved out of
  the collector's sight in constant time, and the young count reset), so a collection only
  ever walks what was made in the last fraction of a second and hardly ever runs: measured,
  p99 9.7 ms at the same load, no pause over 1 ms from the collector;
- reference cycles among frozen objects (a closed connection's, a closed room's) are freed
  by a *full* collection, which unfreezes everything first. It is the one long pause left (it
  walks every object: 150-550 ms with 4,000 sockets open here), so it runs when there is
  garbage worth it: once as many connections have closed since the last one as half of those
  still open, and at least :data:`COLLECT_AFTER` (a burst of connections is gone: its cost is
  spread over the connections it frees), and every :data:`FULL_SECONDS` at the latest, so
  that memory stays bounded however the server is used;
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
from collections.abc import Callable
from typing import Final

GC_THRESHOLDS: Final = (20_000, 50, 100)
"""A young collection after 20,000 new objects: between two freezes hardly ever reached."""
FREEZE_SECONDS: Final = 0.1
TRIM_SECONDS: Final = 5.0
COLLECT_AFTER: Final = 200
"""Closed connections after which a full collection runs (with few open: see ``due``)."""
FULL_SECONDS: Final = 600.0


class Churn:
    """Connections opened (admitted) and closed: all along, and closed since the last full
    garbage collection."""

    opened = 0
    closed = 0
    closed_since = 0

    def close(self) -> None:
        self.closed += 1
        self.closed_since += 1

    def due(self) -> bool:
        """Whether enough connections closed for a full collection to be worth its pause."""
        still_open = max(0, self.opened - self.closed)
        return self.closed_since >= max(COLLECT_AFTER, still_open // 2)


CHURN: Final = Churn()


def tune() -> None:
    """Collect young objects in larger batches than Python's default (700)."""
    gc.set_threshold(*GC_THRESHOLDS)


def full_collection() -> int:
    """Unfreeze, collect everything, freeze what is left; how many objects were freed."""
    gc.unfreeze()
    freed = gc.collect()
    gc.freeze()
    return freed


async def freeze_young(every: float = FREEZE_SECONDS) -> None:
    """Freeze the objects alive every ``every`` seconds (see the module docstring)."""
    while True:
        await asyncio.sleep(every)
        gc.freeze()


async def trim_memory(
    every: float = TRIM_SECONDS, *, frozen: bool = False, full_every: float = FULL_SECONDS
) -> None:
    """Every ``every`` seconds: a full collection when due (:meth:`Churn.due`; while objects
    are ``frozen``, also every ``full_every`` seconds), then the trim."""
    trim = _malloc_trim()
    last = time.monotonic()
    while True:
        await asyncio.sleep(every)
        late = frozen and time.monotonic() - last >= full_every
        if CHURN.due() or late:
            CHURN.closed_since = 0
            last = time.monotonic()
            if frozen:
                full_collection()
            else:
                gc.collect()
        if trim is not None:
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
