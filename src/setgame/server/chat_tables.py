"""The table of room chat (``chat.py``), apart from ``storage.py``'s so that retention can
delete a game's chat with the game. Its history is migrations ``0005`` and ``0009``."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

chat_lines = sa.Table(
    "chat",
    metadata,
    # one row per message, numbered per game from 1 (the room numbers them under its chat
    # lock, so the numbers are the order everyone saw)
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("room", sa.String(32), nullable=False),
    sa.Column("at", sa.Float, nullable=False),  # game time, as the actions' ``at``
    sa.Column("sender", sa.String(16), nullable=False),  # a seat's player id, or w<hex>
    sa.Column("name", sa.String(64), nullable=True),  # the seat's name; None: a spectator
    sa.Column("text", sa.String(800), nullable=False),
    sa.Column("posted", sa.Float, nullable=False),  # wall clock, for retention and audits
    # when a moderator deleted it (its text is gone): kept so that numbers are never reused
    sa.Column("deleted", sa.Float, nullable=True),
)
