"""Server-side sessions (``account_api.py``): signing out ends a session on the server, and
"sign out everywhere" ends all of an account's. The cookies of the releases before (the account
and its epoch, signed) are no longer accepted: everyone signs in once again.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account", sa.String(16), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account", "sessions", ["account"])
    op.create_index("ix_sessions_expires", "sessions", ["expires"])


def downgrade() -> None:
    op.drop_index("ix_sessions_expires", "sessions")
    op.drop_index("ix_sessions_account", "sessions")
    op.drop_table("sessions")
