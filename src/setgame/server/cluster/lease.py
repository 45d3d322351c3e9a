"""Room leases in Redis: which process owns a room now, for how long.

A lease is the key ``setgame:owner:<room>`` holding the owner's process id, set with
``NX PX`` (only when free) and renewed by its owner well before it expires. A lease is only
the fast, usually-right answer to "who orders this room's actions": a process paused past
its lease may still believe it owns the room, so every write also carries the fencing token
the database checks (``Storage.take_room``, ``docs/cluster.md``)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

import redis.asyncio as aioredis

log = logging.getLogger(__name__)

LEASE_MS: Final = 3000
"""A lease lasts this long unless renewed: a dead owner's rooms are free after it."""
RENEW_SECONDS: Final = 0.75
"""How often an owner renews all its leases (four times within a lease)."""

_RENEW: Final = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[1] then
    redis.call('pexpire', key, ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""
_RELEASE: Final = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


async def listen(
    pubsub: Any, handle: Callable[[str, Any], Awaitable[None]], what: str
) -> None:
    """Read a Redis subscription for ever: each message's channel and JSON body go to
    ``handle``. A failed read is retried (the subscription comes back with Redis); a message
    that fails is logged and skipped, so that one bad message never stops the others."""
    while True:
        try:
            raw = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s: the Redis subscription failed; retrying", what)
            await asyncio.sleep(0.5)
            continue
        if raw is None or raw.get("type") != "message":
            continue
        try:
            channel = raw["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else channel
            await handle(channel, json.loads(raw["data"]))
        except Exception:
            log.exception("%s: message %r failed", what, raw.get("data"))


def owner_key(room: str) -> str:
    return f"setgame:owner:{room}"


def room_channel(room: str) -> str:
    """The owner publishes each committed action of ``room`` here."""
    return f"setgame:room:{room}"


def process_channel(process: str) -> str:
    """Requests to a process (relayed actions) and its replies."""
    return f"setgame:proc:{process}"


class Leases:
    """The leases of one process (``me``) over one Redis client."""

    def __init__(self, client: aioredis.Redis, me: str) -> None:
        self.client = client
        self.me = me
        self._renew: Any = client.register_script(_RENEW)
        self._release: Any = client.register_script(_RELEASE)

    async def acquire(self, room: str) -> bool:
        """Take the lease of ``room`` if nobody holds it (or this process already does)."""
        if await self.client.set(owner_key(room), self.me, nx=True, px=LEASE_MS):
            return True
        return await self.owner(room) == self.me

    async def owner(self, room: str) -> str | None:
        value = await self.client.get(owner_key(room))
        return None if value is None else _text(value)

    async def owners(self, rooms: list[str]) -> list[str | None]:
        if not rooms:
            return []
        values = await self.client.mget([owner_key(r) for r in rooms])
        return [None if v is None else _text(v) for v in values]

    async def renew(self, rooms: list[str]) -> list[bool]:
        """Renew the leases of ``rooms``; False for each one this process no longer holds."""
        if not rooms:
            return []
        kept = await self._renew(keys=[owner_key(r) for r in rooms], args=[self.me, LEASE_MS])
        return [bool(k) for k in kept]

    async def release(self, room: str) -> None:
        await self._release(keys=[owner_key(room)], args=[self.me])


async def redis_now(client: aioredis.Redis) -> float:
    """Redis's clock in seconds: the processes' own clocks may disagree by seconds."""
    seconds, micros = await client.time()
    return float(seconds) + float(micros) / 1e6


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
