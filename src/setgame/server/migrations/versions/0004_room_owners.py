"""Room owners: the fencing token of each room served by a cluster of processes
(``docs/cluster.md``). Every write of a room's owner is guarded by its token in the same
transaction; a takeover increments it, so a stale owner's writes are refused.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "room_owners",
        sa.Column("room", sa.String(32), primary_key=True),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("owner", sa.String(128), nullable=False),
        sa.Column("since", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("room_owners")
