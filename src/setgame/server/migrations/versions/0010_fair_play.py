"""Fair play: what the rating rules and the daily puzzle's clock need.

- ``player_games.address``: a keyed hash of the address a seat was taken from (never the
  address itself), ``bots`` (computer players in the game) and ``unrated`` (why the game did
  not move that player's rating): the daily allowances of ``docs/rules.md`` ("Ratings").
- ``solo_games.timed``: the time was the server's, from the day's cards first sent to that
  player to the last pick (only such times are on the daily board).
- ``puzzle_starts``: when a day's cards were first sent to an account or an address.
- ``server_keys``: the server's secret (daily puzzle cards, address hashes), made at the first
  start when ``SETGAME_SECRET`` is not set.
- Daily-puzzle games stored before: their seed becomes 0, the public table of the day they
  were played with (``setgame.rules.puzzle.daily_puzzle``), so their replays stay the same.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("player_games") as batch:
        batch.add_column(sa.Column("address", sa.String(32), nullable=True))
        batch.add_column(sa.Column("bots", sa.Integer, nullable=True))
        batch.add_column(sa.Column("unrated", sa.String(16), nullable=True))
    op.create_index("ix_player_games_address", "player_games", ["address", "finished"])
    with op.batch_alter_table("solo_games") as batch:
        batch.add_column(sa.Column("timed", sa.Boolean, nullable=True))
    op.create_table(
        "puzzle_starts",
        sa.Column("who", sa.String(40), primary_key=True),
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("sent", sa.Float, nullable=False),
    )
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(16), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    _public_daily_seeds()


def _public_daily_seeds() -> None:
    """Daily puzzles played before: the public table of their day (seed 0), which is the one
    they were dealt, whatever seed they were stored with."""
    bind = op.get_bind()
    games = sa.table("games", sa.column("id"), sa.column("seed"), sa.column("settings"))
    found = bind.execute(
        sa.select(games.c.id, games.c.settings).where(games.c.settings.like("%puzzle%"))
    )
    daily = []
    for game, text in found.all():
        try:
            settings = json.loads(text)
        except ValueError:
            continue
        if not isinstance(settings, dict):
            continue
        if settings.get("variant") == "puzzle" and settings.get("day"):
            daily.append(game)
    for game in daily:
        bind.execute(games.update().where(games.c.id == game).values(seed=0))


def downgrade() -> None:
    op.drop_table("server_keys")
    op.drop_table("puzzle_starts")
    with op.batch_alter_table("solo_games") as batch:
        batch.drop_column("timed")
    op.drop_index("ix_player_games_address", "player_games")
    with op.batch_alter_table("player_games") as batch:
        batch.drop_column("unrated")
        batch.drop_column("bots")
        batch.drop_column("address")
