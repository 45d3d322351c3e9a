"""Migration 0011 recomputes the stored name keys (issue 20: lookalike names)."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic.script import ScriptDirectory

from setgame.server import migrations
from setgame.server.account_tables import accounts
from setgame.server.names import name_key


def _before(revision: str) -> str:
    """The revision ``revision`` follows (the chain is re-made when branches merge)."""
    script = ScriptDirectory.from_config(migrations._config())
    down = script.get_revision(revision).down_revision
    assert isinstance(down, str)
    return down


def _account(id_: str, name: str, key: str, created: float) -> dict[str, object]:
    return {"id": id_, "name": name, "key": key, "password": "x", "created": created, "epoch": 0}


def test_0011_recomputes_every_key_and_the_older_account_keeps_a_shared_one(
    tmp_path: Path,
) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'keys.db'}")
    with engine.begin() as conn:
        migrations.upgrade(conn, _before("0011"))
        # keys as the fold before 0011 made them: the Lisu lookalike got a key of its own
        conn.execute(accounts.insert(), [
            _account("a1", "Anna", "anna", 1.0),
            _account("a2", "\ua4eenna", "\ua4eenna", 2.0),  # Lisu A
            _account("a3", "Olga", "olga", 3.0),
        ])  # fmt: skip
        migrations.upgrade(conn)
        rows = dict(conn.execute(sa.select(accounts.c.id, accounts.c.key)).all())
    engine.dispose()
    assert rows == {"a1": name_key("Anna"), "a2": name_key("Anna") + "#a2", "a3": "olga"}
    assert name_key("\ua4eenna") == name_key("Anna") == "anna"
