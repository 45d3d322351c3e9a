"""Bounds on joining one room from one client address.

A family on one home network shares one address, so the bounds are per address and per
room, and generous enough for a family: ``seats_per_client`` seats held at once (of the
room's eight), and joins at ``joins_per_minute`` after a burst of ``join_burst``. What they
stop is one client taking every seat, or cycling join/leave to grow the room's state.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Final

ADDRESSES: Final = 256
"""Join-rate buckets one room keeps; beyond, the one used longest ago is forgotten."""


@dataclass(slots=True)
class _Bucket:
    tokens: float
    stamp: float


@dataclass
class JoinBounds:
    """The join bounds of one room; ``check`` before seating, ``take`` when seating."""

    seats_per_client: int = 6
    per_minute: float = 6.0
    burst: int = 12
    _buckets: OrderedDict[str, _Bucket] = field(default_factory=OrderedDict)

    def wait(self, client: str, now: float | None = None) -> float:
        """Seconds until ``client`` may join again (0.0: now)."""
        bucket = self._refill(client, time.monotonic() if now is None else now)
        return 0.0 if bucket.tokens >= 1 else (1 - bucket.tokens) * 60 / self.per_minute

    def take(self, client: str, now: float | None = None) -> None:
        """Count one join of ``client`` (after :meth:`wait` said 0.0)."""
        bucket = self._refill(client, time.monotonic() if now is None else now)
        bucket.tokens -= 1

    def _refill(self, client: str, now: float) -> _Bucket:
        bucket = self._buckets.get(client)
        if bucket is None:
            bucket = self._buckets[client] = _Bucket(float(self.burst), now)
            while len(self._buckets) > ADDRESSES:
                self._buckets.popitem(last=False)
        self._buckets.move_to_end(client)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.per_minute / 60)
        bucket.stamp = now
        return bucket
