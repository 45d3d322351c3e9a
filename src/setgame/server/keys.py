"""The server's secret for fair play: the daily puzzle's cards and the keyed hashes
of addresses depend on it, so nobody can compute a future day's puzzle from the source, and
the rating rules can tell two seats from one address apart without storing the address.

The secret is ``SETGAME_SECRET`` when it is set (every process of a cluster then agrees),
else one made at the first start and stored in the database (``server_keys``), so that it
lives exactly as long as the games it dealt: a daily puzzle replays with the cards it was
played with. Each use takes its own key, an HMAC of the secret and the use's name: a key
shown by one use (none is) would tell nothing of another.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import sqlite3
from collections.abc import Mapping
from typing import Final

import sqlalchemy as sa

from setgame.server.account_tables import server_keys
from setgame.server.storage import Storage, StorageError

log = logging.getLogger(__name__)

SECRET_ENV: Final = "SETGAME_SECRET"
ROW: Final = "server"
ADDRESS_HASH: Final = 32
"""Hex digits of an address's keyed hash (128 bits: no two addresses meet by chance)."""


async def server_secret(storage: Storage, env: Mapping[str, str] | None = None) -> bytes:
    """``SETGAME_SECRET``, else the database's secret, made now if there is none yet (two
    processes starting together agree: the second insert fails and reads the first's)."""
    given = (os.environ if env is None else env).get(SECRET_ENV, "").strip()
    if given:
        return given.encode()
    for _ in range(3):
        async with storage.reading() as conn:
            found = await conn.scalar(
                sa.select(server_keys.c.value).where(server_keys.c.name == ROW)
            )
        if found is not None:
            return str(found).encode()
        try:
            made = secrets.token_hex(32)
            await storage.write((server_keys.insert().values(name=ROW, value=made), {}))
            log.info("a new server secret was stored in the database")
            return made.encode()
        except (sa.exc.IntegrityError, sqlite3.IntegrityError):
            continue  # another process made it first: read it
    raise StorageError("the server secret could not be stored nor read")


def derive(secret: bytes, use: str) -> bytes:
    """The key of one use of the secret."""
    return hmac.new(secret, f"setgame {use}".encode(), hashlib.sha256).digest()


def address_hash(key: bytes, address: str | None) -> str | None:
    """A keyed hash of a client address (its group: an IPv6 /64, ``edge.address_group``),
    the same for the same address; None for none."""
    if not address:
        return None
    return hmac.new(key, address.encode(), hashlib.sha256).hexdigest()[:ADDRESS_HASH]
