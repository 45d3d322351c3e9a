"""Room chat (``chat.py``): one row per message, kept with its game.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("room", sa.String(32), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("sender", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("text", sa.String(800), nullable=False),
        sa.Column("posted", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat")
