"""Arenas (issue 23): the arenas, their participants' standings and their games
(``arena_tables.py``).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "arenas",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("ends_at", sa.Float, nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("schedule", sa.String(64), nullable=True),
        sa.Column("creator", sa.String(16), nullable=True),
        sa.Column("creator_name", sa.String(64), nullable=True),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
    )
    op.create_index("ix_arenas_status", "arenas", ["status", "starts_at"])
    op.create_table(
        "arena_players",
        sa.Column("arena", sa.String(16), primary_key=True),
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("account", sa.String(16), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("entered", sa.Float, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("reached", sa.Float, nullable=False),
        sa.Column("performance_sum", sa.Float, nullable=False),
        sa.Column("rated_games", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=True),
    )
    op.create_index("ix_arena_players_account", "arena_players", ["account"])
    op.create_table(
        "arena_games",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("arena", sa.String(16), nullable=False),
        sa.Column("room", sa.String(32), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("scored", sa.Float, nullable=True),
        sa.Column("result", sa.Text, nullable=True),
    )
    op.create_index("ix_arena_games_arena", "arena_games", ["arena"])


def downgrade() -> None:
    op.drop_index("ix_arena_games_arena", "arena_games")
    op.drop_table("arena_games")
    op.drop_index("ix_arena_players_account", "arena_players")
    op.drop_table("arena_players")
    op.drop_index("ix_arenas_status", "arenas")
    op.drop_table("arenas")
