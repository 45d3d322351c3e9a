"""Arenas on several processes (``docs/cluster.md``): one owner process per arena, as for
rooms. The owner holds the arena's lease in Redis (``setgame:owner:arena:<id>``, the rooms'
own lease machinery, ``cluster/lease.py``) and a fencing token in PostgreSQL (``room_owners``
under the name ``arena:<id>``): every write of the arena's standings carries the token, so a
stale owner (paused past its lease, cut off from Redis) cannot write once another process has
taken the arena over. A process that finds an arena not finished whose lease is free takes it
over and goes on from the stored standings (and watches its games in progress again).
"""

from __future__ import annotations

import logging
from typing import Any, Final

from setgame.server.cluster.lease import RENEW_SECONDS, Leases

log = logging.getLogger(__name__)

CHECK_SECONDS: Final = RENEW_SECONDS
"""How often the owner renews its arenas' leases and looks for arenas left free."""


def fence(aid: str) -> str:
    """The name of an arena's lease and fencing token (the rooms' namespace, apart)."""
    return f"arena:{aid}"


class Ownership:
    """This process's arenas in a cluster: taking, renewing and letting go of their leases."""

    def __init__(self, node: Any) -> None:
        self.node = node
        self.leases = Leases(node.client, node.me)

    async def take(self, aid: str) -> bool:
        """Whether this process now owns the arena: its lease, then a new fencing token
        (committed before anything of the arena is read here)."""
        if not await self.leases.acquire(fence(aid)):
            return False
        await self.node.storage.take_room(fence(aid), self.node.me)
        return True

    async def renew(self, aids: list[str]) -> list[bool]:
        return await self.leases.renew([fence(aid) for aid in aids])

    async def owner(self, aid: str) -> str | None:
        return await self.leases.owner(fence(aid))

    async def release(self, aid: str) -> None:
        await self.leases.release(fence(aid))
        self.node.storage.release_room(fence(aid))
