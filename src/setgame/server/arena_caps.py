"""The limits on the arenas people create (``SETGAME_ARENAS_PER_ACCOUNT``,
``SETGAME_ARENAS_PER_CLIENT``), counted where every process sees the same figure: the
``arenas`` table, the arenas not finished whose creator is the account, or whose creator's
address (hashed) is the address. A process's memory would not do: in a cluster each process
runs only its own arenas, and a player hitting several processes could create the limit on
each.

Counting and inserting are one step, so that a burst of creates cannot pass a limit together
(two processes that each count, then insert, would both take the last place). On PostgreSQL
they are one transaction that first takes a transaction-scoped advisory lock on the account
and one on the address (``pg_advisory_xact_lock``, in a fixed order, so that two creates
never wait on each other): a second create of the same account or address waits until the
first commits, then counts its arena. An SQLite file serves one process (a cluster needs
PostgreSQL), whose registry already makes its creates one at a time (``Arenas.create``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from setgame.server.arena_tables import arenas
from setgame.server.registry import RoomLimit
from setgame.server.storage import Storage, StorageError


@dataclass(frozen=True, slots=True)
class Caps:
    """Whose arena it is and the limits that apply (``None``: the host's schedule)."""

    account: str | None
    address: str | None
    per_account: int
    per_client: int

    def locks(self) -> list[int]:
        """The advisory lock keys of the account and the address, in a fixed order."""
        names = [f"arena-account:{self.account}"] if self.account is not None else []
        names += [f"arena-address:{self.address}"] if self.address is not None else []
        return sorted(lock_key(name) for name in names)


def lock_key(name: str) -> int:
    """A 64-bit signed key for ``pg_advisory_xact_lock`` (a name's hash: any input fits)."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


async def insert_within(storage: Storage, row: dict[str, Any], caps: Caps) -> None:
    """Insert the new arena ``row`` unless its creator's account or address already has its
    limit of arenas not finished (:class:`RoomLimit` 429 ``too_many_arenas``, the count
    quoted). ``IntegrityError`` for an id taken (a scheduled arena made twice)."""
    if storage.sqlite:  # one process, whose creates come one at a time
        async with storage.reading() as conn:
            await _check(conn, caps)
        await storage.write((arenas.insert().values(row), {}))
        return
    try:
        async with storage.engine.begin() as conn:
            for key in caps.locks():
                await conn.execute(sa.select(sa.func.pg_advisory_xact_lock(key)))
            await _check(conn, caps)
            await conn.execute(arenas.insert().values(row))
    except sa.exc.IntegrityError:
        raise
    except (sa.exc.DBAPIError, OSError) as exc:
        cause = getattr(exc, "orig", None) or exc  # the driver's words, not SQLAlchemy's dump
        raise StorageError(f"cannot create an arena in {storage.where}: {cause}") from exc


async def _check(conn: Any, caps: Caps) -> None:
    for column, value, cap, whose in (
        (arenas.c.creator, caps.account, caps.per_account, "account"),
        (arenas.c.address, caps.address, caps.per_client, "address"),
    ):
        if value is None:
            continue
        query = sa.select(sa.func.count()).select_from(arenas).where(
            column == value, arenas.c.status != "finished"
        )
        held = int((await conn.execute(query)).scalar_one())
        if held >= cap:
            raise RoomLimit(
                "too_many_arenas", 429,
                f"your {whose} has {held} arenas not finished (at most {cap})",
            )
