"""Arenas by creator (issue 23): the limits per account and per address count the arenas
not finished of a creator in the database (``arena_caps.py``), at each arena created, on
every process of a cluster; these indexes keep that count from reading the whole table.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_index("ix_arenas_creator", "arenas", ["creator", "status"])
    op.create_index("ix_arenas_address", "arenas", ["address", "status"])


def downgrade() -> None:
    op.drop_index("ix_arenas_address", table_name="arenas")
    op.drop_index("ix_arenas_creator", table_name="arenas")
