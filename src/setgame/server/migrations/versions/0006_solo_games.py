"""Solo results of signed-in players (``players.py``): the solo and daily-puzzle boards.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "solo_games",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column(
            "account", sa.String(16), sa.ForeignKey("accounts.id"), primary_key=True
        ),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("deck", sa.String(40), nullable=False),
        sa.Column("day", sa.String(10), nullable=True),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("sets", sa.Integer, nullable=False),
        sa.Column("wrong", sa.Integer, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
    )
    op.create_index("ix_solo_games_board", "solo_games", ["variant", "deck", "seconds"])
    op.create_index("ix_solo_games_account", "solo_games", ["account", "finished"])


def downgrade() -> None:
    op.drop_index("ix_solo_games_account", "solo_games")
    op.drop_index("ix_solo_games_board", "solo_games")
    op.drop_table("solo_games")
