"""Room leases in Redis: which process owns a room now, for how long.

A lease is the key ``setgame:owner:<room>`` holding the owner's process id, set with
``NX PX`` (only when free) and renewed by its owner well before it expires. A lease is only
the fast, usually-right answer to "who orders this room's actions": a process paused past
its lease may still believe it owns the room, so every write also carries the fencing token
the database checks (``Storage.take_room``, ``docs/cluster.md``)."""

from __future__ import annotations

from typing import Any, Final

import redis.asyncio as aioredis

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
