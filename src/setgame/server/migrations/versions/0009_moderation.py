"""Moderation (``moderation.py``): roles, bans and mutes, reports, the moderators' log,
closed rooms, and the ``deleted`` mark of a chat line a moderator removed.

Revision ID: 0009
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "roles",
        sa.Column("account", sa.String(16), primary_key=True),
        sa.Column("role", sa.String(16), primary_key=True),
        sa.Column("granted", sa.Float, nullable=False),
    )
    op.create_table(
        "bans",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("account", sa.String(16), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("until", sa.Float, nullable=False),
        sa.Column("moderator", sa.String(64), nullable=False),
        sa.Column("lifted", sa.Float, nullable=True),
    )
    op.create_index("ix_bans_account", "bans", ["account"])
    op.create_index("ix_bans_until", "bans", ["until"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=True),
        sa.Column("line", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("text", sa.String(800), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("reporter", sa.String(64), nullable=True),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("closed", sa.Float, nullable=True),
    )
    op.create_index("ix_reports_closed", "reports", ["closed"])
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("moderator", sa.String(64), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("target", sa.String(200), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
    )
    op.create_index("ix_moderation_log_at", "moderation_log", ["at"])
    op.create_table(
        "closed_rooms",
        sa.Column("room", sa.String(32), primary_key=True),
        sa.Column("closed", sa.Float, nullable=False),
        sa.Column("moderator", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
    )
    op.add_column("chat", sa.Column("deleted", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat") as batch:  # SQLite: a copy of the table without it
        batch.drop_column("deleted")
    op.drop_table("closed_rooms")
    op.drop_index("ix_moderation_log_at", "moderation_log")
    op.drop_table("moderation_log")
    op.drop_index("ix_reports_closed", "reports")
    op.drop_table("reports")
    op.drop_index("ix_bans_until", "bans")
    op.drop_index("ix_bans_account", "bans")
    op.drop_table("bans")
    op.drop_table("roles")
