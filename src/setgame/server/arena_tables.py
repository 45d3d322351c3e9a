"""The tables of arenas (``arenas.py``; issue 23), apart from ``storage.py``'s. Their history
is migrations ``0013`` and ``0014``.

An arena's standings are kept in ``arena_players`` (one row per participant, written with
each game's result in one transaction), so that a restart or another process taking the
arena over goes on from them; ``arena_games`` lists its games, each with the seats that were
participants, so that the standings can be recomputed from the stored games.
"""

from __future__ import annotations

import json
from typing import Any, Final

import sqlalchemy as sa

metadata = sa.MetaData()

arenas = sa.Table(
    "arenas",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("settings", sa.Text, nullable=False),  # JSON: ArenaSettings (arenas.py)
    sa.Column("status", sa.String(16), nullable=False),  # waiting, running, finished
    sa.Column("starts_at", sa.Float, nullable=False),  # Unix seconds
    sa.Column("ends_at", sa.Float, nullable=False),
    sa.Column("private", sa.Boolean, nullable=False),
    sa.Column("schedule", sa.String(64), nullable=True),  # the host's schedule entry
    sa.Column("creator", sa.String(16), nullable=True),  # a player's account id
    sa.Column("creator_name", sa.String(64), nullable=True),
    sa.Column("address", sa.String(64), nullable=True),  # the creator's address, hashed
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Index("ix_arenas_status", "status", "starts_at"),
    # the limits per creator count their arenas not finished (arena_caps.py; migration 0014)
    sa.Index("ix_arenas_creator", "creator", "status"),
    sa.Index("ix_arenas_address", "address", "status"),
)
arena_players = sa.Table(
    "arena_players",
    metadata,
    sa.Column("arena", sa.String(16), primary_key=True),
    sa.Column("key", sa.String(80), primary_key=True),  # "a:<account>" or "g:<name folded>"
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("account", sa.String(16), nullable=True, index=True),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("rating", sa.Integer, nullable=False),
    sa.Column("entered", sa.Float, nullable=False),
    sa.Column("points", sa.Integer, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("streak", sa.Integer, nullable=False),
    sa.Column("reached", sa.Float, nullable=False),
    sa.Column("performance_sum", sa.Float, nullable=False),
    sa.Column("rated_games", sa.Integer, nullable=False),
    sa.Column("place", sa.Integer, nullable=True),  # the final place, once finished
)
arena_games = sa.Table(
    "arena_games",
    metadata,
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("arena", sa.String(16), nullable=False, index=True),
    sa.Column("room", sa.String(32), nullable=False),
    sa.Column("seats", sa.Text, nullable=False),  # JSON {seat player id: participant key}
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("scored", sa.Float, nullable=True),  # when its result counted
    sa.Column("result", sa.Text, nullable=True),  # JSON {key: {"finish", "points"}}
)

BEST: Final = 5
"""A profile's best arena placements shown."""


async def arena_figures(conn: Any, account: str) -> dict[str, Any]:
    """A profile's arenas (``GET /api/players/<name>``): how many finished arenas the account
    played a game in, and its best placements (best place, then most players, then newest)."""
    sizes = (
        sa.select(arena_players.c.arena, sa.func.count().label("players"))
        .group_by(arena_players.c.arena)
        .subquery()
    )
    played = sa.and_(
        arena_players.c.account == account,
        arena_players.c.games > 0,
        arena_players.c.place.is_not(None),
        arenas.c.status == "finished",
    )
    rows = (
        await conn.execute(
            sa.select(arena_players, arenas.c.settings, arenas.c.finished, sizes.c.players)
            .join(arenas, arenas.c.id == arena_players.c.arena)
            .join(sizes, sizes.c.arena == arena_players.c.arena)
            .where(played)
            .order_by(arena_players.c.place, sizes.c.players.desc(), arenas.c.finished.desc())
        )
    ).all()
    best = [
        {
            "arena": r.arena, "place": r.place, "players": r.players, "points": r.points,
            "games": r.games, "variant": json.loads(r.settings).get("variant"),
            "finished": r.finished,
        }
        for r in rows[:BEST]
    ]
    return {"played": len(rows), "best": best}


def forget_arena_player(account: str, name: str) -> tuple[sa.Executable, dict[str, Any]]:
    """A deleted account's rows of the arenas' standings: renamed ``name`` and no longer
    linked to it (the places and points stay: the others' standings do not change)."""
    mine = arena_players.c.account == account
    return (arena_players.update().where(mine).values(name=name, account=None), {})
