"""Ratings: each signed-in player's finished games (place, points, sets, rating before and
after) and their current rating per family of variants.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "player_games",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("account", sa.String(16), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("room", sa.String(32), nullable=False),
        sa.Column("family", sa.String(16), nullable=True),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("sets", sa.Integer, nullable=False),
        sa.Column("wrong", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=True),
        sa.Column("sigma_before", sa.Float, nullable=True),
        sa.Column("mu_after", sa.Float, nullable=True),
        sa.Column("sigma_after", sa.Float, nullable=True),
        sa.Column("finished", sa.Float, nullable=False),
    )
    op.create_index("ix_player_games_account", "player_games", ["account", "finished"])
    op.create_table(
        "ratings",
        sa.Column("account", sa.String(16), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("family", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ratings")
    op.drop_index("ix_player_games_account", table_name="player_games")
    op.drop_table("player_games")
