"""The tables of player accounts (``accounts.py``), apart from ``storage.py``'s so that both
the storage (retention, restoring seats) and the accounts can use them. Their history is
migration ``0002`` (``migrations/versions``)."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    # name_key(name): unique, so that no two accounts hold lookalike names
    sa.Column("key", sa.String(128), nullable=False, unique=True),
    sa.Column("password", sa.String(256), nullable=False),  # argon2id, with its parameters
    sa.Column("created", sa.Float, nullable=False),
    # bumped by a password change: the sessions signed with an older one end
    sa.Column("epoch", sa.Integer, nullable=False),
)
account_seats = sa.Table(
    "account_seats",
    metadata,
    # the seat (room, player) a signed-in player took; kept when the seat is left (its games
    # name the player), deleted with the room by retention and with the account
    sa.Column("room", sa.String(32), primary_key=True),
    sa.Column("player", sa.String(16), primary_key=True),
    sa.Column("account", sa.String(16), sa.ForeignKey("accounts.id"), nullable=False, index=True),
)
