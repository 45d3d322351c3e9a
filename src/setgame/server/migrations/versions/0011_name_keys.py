"""Name keys recomputed: lookalike names are now found with Unicode TR39 skeletons
(``names.name_key``, issue 20).

Every account's ``key`` is computed again with this release's :func:`names.name_key` (imported,
not spelled out: the keys must be the ones the running code compares). Two accounts whose names
now have one key: the older keeps it; the newer one's key becomes ``<key>#<id>``, which no name
gives, so that the newer account cannot be signed in by name any more (its name passes for the
older account's; ``docs/deploy.md`` says what the host can do). Such accounts are logged.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

from setgame.server.names import name_key

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None

log = logging.getLogger("setgame.server")
accounts = sa.table(
    "accounts", sa.column("id", sa.String), sa.column("name", sa.String),
    sa.column("key", sa.String), sa.column("created", sa.Float),
)  # fmt: skip


def upgrade() -> None:
    rebuild(name_key)


def downgrade() -> None:
    """The keys stay as they are: the older code finds fewer lookalikes with them, and a
    collision the upgrade resolved must not come back."""


def rebuild(key_of: Callable[[str], str]) -> None:
    """Give every account the key ``key_of(name)``, the oldest first (see the module)."""
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(accounts.c.id, accounts.c.name, accounts.c.key).order_by(
            accounts.c.created, accounts.c.id
        )
    ).all()
    # two passes: a key may move to one another account still holds (unique)
    for row in rows:
        bind.execute(accounts.update().where(accounts.c.id == row.id).values(key=f"#{row.id}"))
    taken: dict[str, str] = {}
    for row in rows:
        key = key_of(row.name)[:100]
        if key in taken:
            log.warning(
                "account %s %r now looks like the older %r: it can no longer sign in by name",
                row.id, row.name, taken[key],
            )  # fmt: skip
            key = f"{key}#{row.id}"
        else:
            taken[key] = row.name
        bind.execute(accounts.update().where(accounts.c.id == row.id).values(key=key))
