"""The rules version each game is played under (``setgame.rules.settings.RULES_VERSION``).

A game is replayed (restored, shown as a replay, rated) under the rules it was played
with, so a rule changed by a later release never changes, nor breaks, a stored game. Every
game stored before this revision was played under rules 1: the column's default, which is
also what a release that does not know the column writes.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column(
        "games", sa.Column("rules", sa.Integer, nullable=False, server_default=sa.text("1"))
    )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:  # SQLite rebuilds the table
        batch.drop_column("rules")
