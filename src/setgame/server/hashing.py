"""The password-hashing queue: bounded, and fair between client addresses.

An argon2id hash costs 64 MiB and a fifth of a second of a core, so a crowd of sign-ins must
neither take the cores the rooms need nor make an honest player wait behind it. At most
``hashes_at_once`` hashes run (in threads); the others wait in a queue of at most
``signin_queue`` places, of which one address (an IPv6 /64: ``edge.address_group``) holds at
most ``signin_queue_per_client``. When a place frees, the waiting request of the address
that has asked least lately goes first (a count of requests per address that halves every
:data:`HALF_LIFE` seconds), so one who has not signed in for a while passes every flooder.
A request that finds the queue full answers at once (:class:`Busy`: ``503`` with
``Retry-After``); it takes the place of a waiting request of the busiest address when its
own address has asked less; none waits longer than ``signin_queue_seconds``.

The hashes run in threads of their own at a lower CPU priority (``hash_nice``): under a flood
the hashing keeps a core busy, and the event loop, which serves every room, must come first
(``benchmarks/abuse.py --only signin_flood`` on the shared 2-core machine, load 8-13: the
rooms' pick->update p99 went to 7.5x and 8.1x its calm value with the hashing at the loop's
priority, 1.7-3.7x in five runs of six with it 10 levels lower; the runs are noisy). The price:
on a machine busy with other work the hashes wait for it, and sign-ins get slower.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Final, TypeVar

from setgame.server.edge import BITES
from setgame.server.limits import Limits

T = TypeVar("T")

HALF_LIFE: Final = 60.0
"""Seconds in which an address's count of recent hashes halves."""
ADDRESSES: Final = 10_000
"""Addresses whose count is kept, at most; beyond it the smallest counts are forgotten."""


class Busy(Exception):
    """No place for this hash now: try again in ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(eq=False)
class _Ticket:
    host: str
    order: int
    granted: asyncio.Future[None] = field(repr=False)


class HashQueue:
    """Runs blocking hash functions in threads, a few at once, fairly between addresses."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits, self.clock = limits, clock
        self.running = 0
        self.waiting: list[_Ticket] = []
        self.used: dict[str, tuple[float, float]] = {}  # host -> (count, when)
        self._order = itertools.count()
        self._pool: ThreadPoolExecutor | None = None

    async def run(self, host: str, work: Callable[[], T]) -> T:
        """``work()`` in a thread once a place is free; :class:`Busy` when there is none."""
        await self._enter(host)
        try:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(
                    self.limits.hashes_at_once, "hashing", _nicer, (self.limits.hash_nice,)
                )
            return await asyncio.get_running_loop().run_in_executor(self._pool, work)
        finally:
            self._leave()

    def failed(self, host: str) -> None:
        """A wrong password from ``host`` counts once more: a guesser falls behind faster
        than an owner who types the password right."""
        self._count(host)

    def close(self) -> None:
        """Let the hashing threads end (at the server's stop)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def usage(self, host: str) -> float:
        count, when = self.used.get(host, (0.0, 0.0))
        return count * math.exp2(-(self.clock() - when) / HALF_LIFE)

    async def _enter(self, host: str) -> None:
        self._count(host)  # every request counts, refused or not: a flooder's count grows
        if self.running < self.limits.hashes_at_once and not self.waiting:
            self._start(host)
            return
        self._make_room(host)
        ticket = _Ticket(host, next(self._order), asyncio.get_running_loop().create_future())
        self.waiting.append(ticket)
        try:
            await asyncio.wait_for(asyncio.shield(ticket.granted), self.limits.signin_queue_seconds)
        except TimeoutError:
            self._drop(ticket)
            if ticket.granted.done() and ticket.granted.exception() is None:
                return  # given a place as the time ran out: use it
            raise self._busy("sign-ins are queued too long") from None
        except asyncio.CancelledError:  # the client left: give back a place it was given
            self._drop(ticket)
            if ticket.granted.done() and ticket.granted.exception() is None:
                self._leave()
            raise

    def _make_room(self, host: str) -> None:
        """Refuse (:class:`Busy`) when ``host`` holds its share of the queue, or when the
        queue is full of addresses that have asked no more than ``host``; else evict the
        newest request of the busiest address."""
        mine = sum(1 for t in self.waiting if t.host == host)
        if mine >= self.limits.signin_queue_per_client:
            BITES("signin_queue_per_client", f"{host} has {mine} sign-ins waiting")
            raise self._busy("this address has its share of sign-ins waiting")
        if len(self.waiting) < self.limits.signin_queue:
            return
        worst = max(self.waiting, key=lambda t: (self.usage(t.host), t.order))
        if self.usage(worst.host) <= self.usage(host):
            BITES("signin_queue", f"{len(self.waiting)} sign-ins waiting")
            raise self._busy("too many sign-ins are waiting")
        self._drop(worst)
        worst.granted.set_exception(self._busy("an address that asks less took this place"))

    def _leave(self) -> None:
        self.running -= 1
        while self.waiting and self.running < self.limits.hashes_at_once:
            nxt = min(self.waiting, key=lambda t: (self.usage(t.host), t.order))
            self._drop(nxt)
            if not nxt.granted.done():
                self._start(nxt.host)
                nxt.granted.set_result(None)

    def _start(self, host: str) -> None:
        self.running += 1

    def _count(self, host: str) -> None:
        if host not in self.used and len(self.used) >= ADDRESSES:
            self._forget()
        self.used[host] = (self.usage(host) + 1.0, self.clock())

    def _forget(self) -> None:
        """Keep the busiest half of the addresses' counts (the others are near new)."""
        ranked = sorted(self.used, key=self.usage, reverse=True)
        for host in ranked[len(ranked) // 2 :]:
            del self.used[host]

    def _drop(self, ticket: _Ticket) -> None:
        if ticket in self.waiting:
            self.waiting.remove(ticket)

    def _busy(self, why: str) -> Busy:
        """A refusal, with the seconds after which a place is likely free."""
        hashes = len(self.waiting) + self.running
        seconds = math.ceil(0.5 * hashes / self.limits.hashes_at_once)
        return Busy(f"{why}: try again in a few seconds", max(1, min(30, seconds)))


def _nicer(levels: int) -> None:
    """Lower this thread's priority by ``levels`` (on Linux a thread is a task of its own:
    ``who`` 0 is the calling thread); elsewhere, or when refused, it runs as it is."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, 0, min(19, os.getpriority(os.PRIO_PROCESS, 0) + levels))
