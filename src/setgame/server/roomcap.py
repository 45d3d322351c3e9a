"""Which of the rooms that count against an address a refusal over its cap may name.

One address is often many people (a classroom, an office, a family behind one router). When it
reaches ``rooms_per_client``, ``POST /api/rooms`` refuses with ``too_many_rooms``; the page links
the rooms the player could play in or leave, but only those the player holds: a seat whose
token the page sent (``X-Setgame-Seats``, the tokens it keeps per room) or a seat of their
signed-in account. The others' rooms are only counted, never named: their ids would let
anyone behind the same address walk into strangers' private rooms.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

import sqlalchemy as sa

from setgame.server.account_tables import account_seats
from setgame.server.rooms import hash_token
from setgame.server.storage import Storage, seats

SEATS_HEADER: Final = "x-setgame-seats"
"""The request header with the seat tokens the page holds, separated by spaces."""
MAX_TOKENS: Final = 64
"""Tokens read from the header at most (the rest is ignored): a page holds few rooms."""
_TOKEN: Final = re.compile(r"^[A-Za-z0-9_-]{8,64}$")  # secrets.token_urlsafe's alphabet


def seat_tokens(header: str | None) -> list[str]:
    """The well-formed tokens of the header, at most :data:`MAX_TOKENS`; anything else in it
    is ignored (it only ever narrows what a refusal names).

    >>> seat_tokens("abcdefgh  bad! " + "x" * 65)
    ['abcdefgh']
    """
    if not header:
        return []
    words = header[: MAX_TOKENS * 66].split()
    return [w for w in words if _TOKEN.match(w)][:MAX_TOKENS]


async def held_rooms(
    storage: Storage, rooms: Iterable[str], tokens: Iterable[str], account: str | None
) -> list[str]:
    """Those of ``rooms`` in which one of ``tokens`` or ``account`` holds a seat (as stored:
    a seat is durable before its ``joined`` is sent), sorted."""
    counted = sorted(set(rooms))
    digests = sorted({hash_token(token) for token in tokens})
    if not counted or not (digests or account):
        return []
    queries = []
    if digests:
        s = seats.c
        queries.append(sa.select(s.room).where(s.room.in_(counted), s.token_hash.in_(digests)))
    if account:
        c = account_seats.c
        queries.append(sa.select(c.room).where(c.room.in_(counted), c.account == account))
    async with storage.reading() as conn:
        rows = (await conn.execute(sa.union(*queries))).all()
    return sorted({str(row[0]) for row in rows})
