"""The schema of the releases before migrations: rooms, games, seats, actions.

Revision ID: 0001
Revises: none

Those releases made it with ``metadata.create_all``, which creates only missing tables; this
revision does the same (``checkfirst``), so an existing database becomes revision 0001 as it
is. The tables are spelled out here as they were then, never imported from ``storage.py``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

TABLES = ("actions", "seats", "games", "rooms")  # dependents first


def _metadata() -> sa.MetaData:
    metadata = sa.MetaData()
    sa.Table(
        "rooms",
        metadata,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    sa.Table(
        "games",
        metadata,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("room", sa.String(32), sa.ForeignKey("rooms.id"), nullable=False, index=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
    )
    sa.Table(
        "seats",
        metadata,
        sa.Column("room", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("player", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("bot_level", sa.Integer, nullable=True),
    )
    sa.Table(
        "actions",
        metadata,
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
    )
    return metadata


def upgrade() -> None:
    _metadata().create_all(op.get_bind(), checkfirst=True)


def downgrade() -> None:
    for name in TABLES:
        op.drop_table(name)
