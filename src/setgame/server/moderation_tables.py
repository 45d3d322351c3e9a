"""The tables of moderation (``moderation.py``): roles, bans and mutes, players' reports, the
log of every moderator action, and rooms a moderator closed. Apart from ``storage.py``'s so
that the command line (``setgame admin``) and the server share them. Their history is
migration ``0009``, which also gives ``chat`` its ``deleted`` mark (``chat_tables.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import sqlalchemy as sa

if TYPE_CHECKING:
    from setgame.server.storage import Storage

metadata = sa.MetaData()

roles = sa.Table(
    "roles",
    metadata,
    # one row per account and role it holds (``moderator``, ``admin``); granted and revoked
    # by the host with ``setgame admin``
    sa.Column("account", sa.String(16), primary_key=True),  # deleted with the account
    sa.Column("role", sa.String(16), primary_key=True),
    sa.Column("granted", sa.Float, nullable=False),
)
bans = sa.Table(
    "bans",
    metadata,
    # a ban (no sign-in, seat or chat) or a mute (no chat) of an account or of an address
    # (a network in CIDR form), from ``created`` to ``until`` (wall clock) unless lifted
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String(8), nullable=False),  # ban | mute
    sa.Column("account", sa.String(16), nullable=True, index=True),  # not a foreign key:
    sa.Column("name", sa.String(64), nullable=True),  # the ban outlives a deleted account
    sa.Column("address", sa.String(64), nullable=True),
    sa.Column("reason", sa.String(500), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("until", sa.Float, nullable=False, index=True),
    sa.Column("moderator", sa.String(64), nullable=False),  # the moderator's name
    sa.Column("lifted", sa.Float, nullable=True),
)
reports = sa.Table(
    "reports",
    metadata,
    # a player's report of a chat line or a player; what the line said is copied, so that a
    # moderator reads it even once the line is deleted
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("room", sa.String(32), nullable=False),
    sa.Column("game", sa.String(32), nullable=True),
    sa.Column("line", sa.Integer, nullable=True),
    sa.Column("name", sa.String(64), nullable=True),  # the player reported (or the line's)
    sa.Column("text", sa.String(800), nullable=True),  # the line, as it was reported
    sa.Column("reason", sa.String(500), nullable=False),
    sa.Column("reporter", sa.String(64), nullable=True),  # a signed-in reporter's name
    sa.Column("address", sa.String(64), nullable=False),  # the reporter's address
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("closed", sa.Float, nullable=True, index=True),  # dealt with: off the queue
)
actions = sa.Table(
    "moderation_log",
    metadata,
    # every moderator action, in the transaction of the action itself
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Float, nullable=False, index=True),
    sa.Column("moderator", sa.String(64), nullable=False),  # a name, or "host" (the CLI)
    sa.Column("action", sa.String(16), nullable=False),
    sa.Column("target", sa.String(200), nullable=False),
    sa.Column("reason", sa.String(500), nullable=False),
)
closed_rooms = sa.Table(
    "closed_rooms",
    metadata,
    # a room a moderator closed: it is never opened again (its finished games keep replays)
    sa.Column("room", sa.String(32), primary_key=True),
    sa.Column("closed", sa.Float, nullable=False),
    sa.Column("moderator", sa.String(64), nullable=False),
    sa.Column("reason", sa.String(500), nullable=False),
)


async def is_closed(storage: Storage, room: str) -> bool:
    """Whether a moderator closed ``room`` (``registry.Rooms`` never brings it back)."""
    query = sa.select(closed_rooms.c.room).where(closed_rooms.c.room == room)
    async with storage.reading() as conn:
        return await conn.scalar(query) is not None
