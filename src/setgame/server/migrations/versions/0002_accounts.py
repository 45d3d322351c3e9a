"""Player accounts: claimed names with their password hashes, and the seats they took.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("key", sa.String(128), nullable=False, unique=True),
        sa.Column("password", sa.String(256), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("epoch", sa.Integer, nullable=False),
    )
    op.create_table(
        "account_seats",
        sa.Column("room", sa.String(32), primary_key=True),
        sa.Column("player", sa.String(16), primary_key=True),
        sa.Column("account", sa.String(16), sa.ForeignKey("accounts.id"), nullable=False),
    )
    op.create_index("ix_account_seats_account", "account_seats", ["account"])


def downgrade() -> None:
    op.drop_index("ix_account_seats_account", table_name="account_seats")
    op.drop_table("account_seats")
    op.drop_table("accounts")
