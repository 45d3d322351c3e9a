"""The per-address room caps of a cluster, kept in Redis so that N processes do not
multiply them (``docs/cluster.md``, "Caps across processes").

Every live room is a member of the sorted set ``setgame:quota:rooms`` and, while its creator
is known, of ``setgame:quota:rooms:<address>``; a member's score is the Redis time (ms) at
which it stops counting. The owner of a room pushes that time ``QUOTA_MS`` ahead at each
lease check, and takes the room out when it leaves memory; a process that dies stops
pushing, so its rooms stop counting within ``QUOTA_MS`` (the process that takes them over
counts them again, server-wide). Creating a room checks the server-wide cap
(``room_cap``), the address's open rooms (``rooms_per_client``) and its creation rate
(``rooms_per_minute``, ``rooms_burst``: a token bucket in a Redis hash; not for the rooms
the server makes for an arena's pairings) in one Lua script,
so two processes cannot both admit the last room. Seats and joins per address need nothing
here: every join of a room is done by its owner (a mirror relays it), whose
``JoinBounds`` therefore see all of them.

Redis failing while a room is created refuses it (503 ``quota_unavailable``): a cluster
cannot create a room without Redis anyway (its lease is taken there)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable
from typing import Any, Final

import redis.asyncio as aioredis

from setgame.server.limits import Limits
from setgame.server.registry import ARENA_MODE, RoomLimit, too_many_rooms
from setgame.server.rooms import Room

log = logging.getLogger(__name__)

QUOTA_MS: Final = 10_000
"""A room stops counting this long after its owner last said it lives (a dead owner)."""
RATE_KEY_MS: Final = 86_400_000
"""A creation-rate bucket left alone this long is forgotten (it would be full again)."""
ALL_KEY: Final = "setgame:quota:rooms"
WATCH_KEY_MS: Final = 6000
"""A process's watcher counts expire this long after it last wrote them (it died)."""
REFRESH_EVERY: Final = 4
"""The owned rooms' counts are pushed ahead at every 4th tick (3 s at a lease check every
0.75 s, well inside ``QUOTA_MS``): one script naming every room, each 0.75 s, cost 500 rooms'
owner a few ms of its event loop each time (issue 22's profile, ``docs/benchmarks.md``)."""

_ADMIT: Final = """
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('zremrangebyscore', KEYS[1], '-inf', now)
redis.call('zremrangebyscore', KEYS[2], '-inf', now)
local total = redis.call('zcard', KEYS[1])
if total >= tonumber(ARGV[2]) then return {1, total} end
local counts = ARGV[8] == '1'
local mine = redis.call('zcard', KEYS[2])
if counts and mine >= tonumber(ARGV[3]) then
  return {2, mine, unpack(redis.call('zrange', KEYS[2], 0, 99))}
end
if ARGV[9] == '1' then
  local rate, burst = tonumber(ARGV[4]), tonumber(ARGV[5])
  local b = redis.call('hmget', KEYS[3], 'tokens', 'stamp')
  local tokens, stamp = tonumber(b[1]) or burst, tonumber(b[2]) or now
  tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
  if tokens < 1 then return {3, mine} end
  redis.call('hset', KEYS[3], 'tokens', tostring(tokens - 1), 'stamp', tostring(now))
  redis.call('pexpire', KEYS[3], ARGV[7])
end
local live = now + tonumber(ARGV[6])
redis.call('zadd', KEYS[1], live, ARGV[1])
if not counts then return {0, mine} end
redis.call('zadd', KEYS[2], live, ARGV[1])
redis.call('pexpire', KEYS[2], ARGV[6])
return {0, mine + 1}
"""
# KEYS: every room's set, then the address sets; ARGV: ttl, then (room, the index in KEYS of
# its address's set, negative when it no longer counts there, or 0) pairs. Every key a script
# touches is passed in KEYS, as Redis requires (a script that builds key names would break
# on a Redis Cluster).
_REFRESH: Final = """
local t = redis.call('time')
local live = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
for i = 2, #ARGV, 2 do
  redis.call('zadd', KEYS[1], live, ARGV[i])
  local k = tonumber(ARGV[i + 1])
  if k > 0 then
    redis.call('zadd', KEYS[k], 'XX', live, ARGV[i])
    redis.call('pexpire', KEYS[k], ARGV[1])
  elseif k < 0 then
    redis.call('zrem', KEYS[-k], ARGV[i])
  end
end
return 0
"""


def rooms_key(address: str) -> str:
    return f"{ALL_KEY}:{address}"


def watch_key(process: str) -> str:
    """A hash: room -> the watchers (connections without a seat) ``process`` has there."""
    return f"setgame:watchers:{process}"


def rate_key(address: str) -> str:
    return f"setgame:quota:rate:{address}"


class Quota:
    """The cluster's caps over one Redis client, with ``limits``."""

    def __init__(self, client: aioredis.Redis, limits: Limits) -> None:
        self.client, self.limits = client, limits
        self._admit: Any = client.register_script(_ADMIT)
        self._refresh: Any = client.register_script(_REFRESH)
        self._tasks: set[asyncio.Task[None]] = set()
        self._written: dict[str, int] = {}  # room -> the watchers count this process wrote
        self._ticks = 0

    async def admit(self, room: str, address: str, mode: str = "multi") -> None:
        """Count a new ``room`` of ``address``, or raise :class:`RoomLimit` over a cap. A
        room of one player (``mode`` solo or practice) counts server-wide only: it is never
        refused for the address's other rooms (``Room.counts_for_creator``). A room the
        server makes itself (``mode`` "arena": an arena's pairing, ``arenas.py``) is not
        a person's creation either: it spends no token of the creation rate, which is
        meant for people (a 1,000-player arena opens 500 rooms at once, and again as its
        games end); the server-wide cap still bounds it."""
        cap = self.limits
        counts = "1" if mode == "multi" else "0"
        paced = "0" if mode == ARENA_MODE else "1"
        args = [room, cap.room_cap, cap.rooms_per_client, cap.rooms_per_minute / 60_000,
                cap.rooms_burst, QUOTA_MS, RATE_KEY_MS, counts, paced]
        keys = [ALL_KEY, rooms_key(address), rate_key(address)]
        try:
            verdict, count, *rooms = await self._admit(keys=keys, args=args)
            verdict, count = int(verdict), int(count)
        except Exception as exc:  # any Redis failure: refuse the room, keep serving
            log.error("cluster: room caps cannot be checked: %s", exc)
            raise RoomLimit(
                "quota_unavailable", 503, "the server cannot count rooms now: try later"
            ) from None
        if verdict == 1:
            raise RoomLimit("server_full", 503, f"the server holds {count} rooms: try later")
        if verdict == 2:
            raise too_many_rooms([_text(rid) for rid in rooms], cap.rooms_per_client)
        if verdict == 3:
            raise RoomLimit("rate_limited", 429, "too many rooms created from this address: wait")

    async def tick(
        self, me: str, owned: list[Room], rooms: list[Room], alive: set[str] | None = None
    ) -> None:
        """At each lease check of process ``me``: its owned rooms (``owned``, a subset of
        ``rooms``) go on counting (every :data:`REFRESH_EVERY` ticks), and the watchers are
        exchanged with the processes ``alive``. A Redis failure is logged: the counts run
        out by themselves, the watchers shown lag."""
        now, left = time.monotonic(), self.limits.left_seconds
        self._ticks += 1
        try:
            if self._ticks % REFRESH_EVERY == 1:
                await self.refresh(
                    (room.id, room.creator, room.counts_for_creator(now, left))
                    for room in owned
                )
            await self.share_watchers(me, rooms, alive or {me})
        except Exception as exc:  # never raised: the leases' check goes on
            log.warning("cluster: room counts and watchers not shared now: %s", exc)

    async def refresh(self, rooms: Iterable[tuple[str, str | None, bool]]) -> None:
        """The owner's rooms (id, creator address or None, whether it counts against that
        address: ``Room.counts_for_creator``) go on counting for ``QUOTA_MS`` server-wide;
        a room finished or left stops counting against its address now."""
        keys: dict[str, int] = {ALL_KEY: 1}  # key -> its index in KEYS (from 1, as Lua)
        args: list[Any] = [QUOTA_MS]
        for rid, address, counts in rooms:
            index = keys.setdefault(rooms_key(address), len(keys) + 1) if address else 0
            args += [rid, index if counts else -index]
        if len(args) > 1:
            await self._refresh(keys=list(keys), args=args)

    def release(self, room: str, address: str | None) -> None:
        """``room`` left memory: it stops counting now (in the background; should Redis
        fail, it stops counting within ``QUOTA_MS`` all the same)."""
        task = asyncio.create_task(self._release(room, address))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _release(self, room: str, address: str | None) -> None:
        try:
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.zrem(ALL_KEY, room)
                if address:
                    pipe.zrem(rooms_key(address), room)
                await pipe.execute()
        except Exception as exc:
            log.warning("cluster: room %s not uncounted now (%s): it expires", room, exc)

    async def drain(self) -> None:
        """Wait for the releases under way (a graceful stop, and tests)."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def share_watchers(self, me: str, rooms: list[Room], alive: set[str]) -> None:
        """Write this process (``me``)'s watchers of the rooms someone here has open (only
        the counts that changed), and show there the other live processes' (``alive``:
        ``Room.watchers_elsewhere``); one round trip, a few commands whatever the number of
        rooms (three per room each 0.75 s were most of Redis's work: ``docs/benchmarks.md``)."""
        shown = [room for room in rooms if room.conns]
        counts = {room.id: room.local_watchers() for room in shown}
        changed = {rid: n for rid, n in counts.items() if self._written.get(rid) != n}
        gone = [rid for rid in self._written if rid not in counts]
        others = sorted(alive - {me})
        async with self.client.pipeline(transaction=False) as pipe:
            if changed:
                pipe.hset(watch_key(me), mapping=changed)  # type: ignore[arg-type]
            if gone:
                pipe.hdel(watch_key(me), *gone)
            pipe.pexpire(watch_key(me), WATCH_KEY_MS)
            for process in others if shown else []:
                pipe.hmget(watch_key(process), [room.id for room in shown])
            results = await pipe.execute()
        self._written = counts
        read = results[len(results) - len(others) :] if shown and others else []
        totals = [sum(_count(v) for v in column) for column in zip(*read, strict=True)]
        for room, total in zip(shown, totals or [0] * len(shown), strict=True):
            if total != room.watchers_elsewhere:
                room.watchers_elsewhere = total
                room._tell_watchers()  # told at the next presence flush


def _count(value: bytes | str | None) -> int:
    try:
        return 0 if value is None else int(value)
    except ValueError:  # not written by this code: ignored
        return 0


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
