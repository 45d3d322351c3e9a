"""Issue 23's main test: an arena with 8 scripted players over the protocol, on a real
server process (its times scaled: a 10-minute arena lasts 24 s; the pairing loop and the
games are the real ones). Everyone is paired, nobody waits longer than the setting, the
standings equal the points recomputed from the stored games (``docs/rules.md``, "Arenas
(ours)"), the podium matches, and a streak doubles a win."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections import defaultdict
from pathlib import Path

import httpx
import pytest

from setgame.arena import finishes, score
from setgame.rules.game import Game
from setgame.rules.settings import Settings
from setgame.server.rooms import ENGINE_FIELDS

from .arenakit import FAST, Player, creator, server
from .conftest import free_port

PLAYERS = 8


def _recomputed(db: Path, arena: str) -> tuple[dict[str, int], list[int]]:
    """Each participant's points from the stored games alone: every game of the arena
    replayed from its actions, its finishes and points by the arena's rules, in the order
    the games were scored; and every points award (to see a doubled win)."""
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    rows = con.execute(
        "SELECT game, seats, scored FROM arena_games WHERE arena = ? ORDER BY scored", (arena,)
    ).fetchall()
    names = {r["key"]: r["name"] for r in con.execute(
        "SELECT key, name FROM arena_players WHERE arena = ?", (arena,))}
    points: dict[str, int] = defaultdict(int)
    streaks: dict[str, int] = defaultdict(int)
    awards = []
    for row in rows:
        assert row["scored"] is not None, row["game"]
        game_row = con.execute("SELECT * FROM games WHERE id = ?", (row["game"],)).fetchone()
        assert game_row["status"] == "finished", dict(game_row)  # over before the arena's end
        settings = json.loads(game_row["settings"])
        game = Game(Settings.from_dict({k: v for k, v in settings.items() if k in ENGINE_FIELDS}),
                    game_row["seed"], game_row["rules"])
        actions = con.execute("SELECT action FROM actions WHERE game = ? ORDER BY version",
                              (row["game"],))
        for action in actions:
            game.apply(game.parse_action(json.loads(action["action"])))
        seats: dict[str, str] = json.loads(row["seats"])
        totals = {pid: p.total for pid, p in game.players.items()}
        left = {pid for pid, p in game.players.items() if not p.present}
        left |= {pid for pid in seats if pid not in game.players}
        totals |= {pid: 0 for pid in seats if pid not in totals}
        for pid, finish in finishes(totals, left).items():
            key = seats.get(pid)
            if key is None:
                continue  # a computer player: it has no row
            gained, streaks[key] = score(finish, streaks[key])
            points[names[key]] += gained
            awards.append(gained)
    return dict(points), awards


async def _play(base: str, arena: str) -> list[Player]:
    players = [Player(base, arena, f"P{i}", delay=0.01 + 0.03 * i) for i in range(PLAYERS)]
    until = time.monotonic() + 60
    await asyncio.gather(*(p.run(until) for p in players))
    return players


@pytest.mark.slow
def test_an_arena_of_eight_over_the_protocol(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    with server(db, free_port()) as base, creator(base) as host:
        made = host.post("/api/arenas", json={
            "variant": "classic", "deck": "beginner", "minutes": 10, "room_size": 2,
            "starts_in_seconds": 0,
        })
        assert made.status_code == 201, made.text
        arena = made.json()["id"]
        players = asyncio.run(_play(base, arena))
        final = httpx.get(f"{base}/api/arenas/{arena}").json()
    assert final["status"] == "finished"
    bot_wait = float(FAST["SETGAME_ARENA_BOT_SECONDS"])
    pair_every = float(FAST["SETGAME_ARENA_PAIR_SECONDS"])
    for player in players:
        assert player.rooms, f"{player.name} was never paired"
        assert not [e for e in player.errors if e["code"] != "arena_closing"], player.errors
        assert max(player.waits) <= bot_wait + pair_every + 1.0, (player.name, player.waits)
        assert player.last is not None and player.last["status"] == "finished"
    standings = {row["name"]: row["points"] for row in final["standings"]}
    points, awards = _recomputed(db, arena)
    assert standings == {name: points.get(name, 0) for name in standings}
    assert len(standings) == PLAYERS
    order = [row["points"] for row in final["standings"]]
    assert order == sorted(order, reverse=True)
    played = [row for row in final["standings"] if row["games"]]
    assert final["podium"] == played[:3]
    assert [row["place"] for row in final["podium"]] == [1, 2, 3]
    assert 4 in awards, awards  # a streak doubled a win
    assert sum(row["games"] for row in final["standings"]) >= PLAYERS * 3
