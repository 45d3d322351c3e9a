"""Games stored by the release before rules versions come back under the rules they were played
with: a real server restores the rooms and shows the replays of ``tests/golden/rules1``, made by
that release (``make.py`` there says how), with nothing skipped, lost or changed.

Each stored game plays differently under today's rules (rules 2, issue 19): replayed under them
a room would not come back at all (``crowd``), show a lockout its player escaped by leaving then
(``lockout``), or call a lost solo game won (``solo``). The first test checks that, so the second
cannot pass by luck."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest

from setgame.rules.game import Game, GameError, Settings
from setgame.server.client import Client, table_sets
from setgame.server.rooms import ENGINE_FIELDS

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "rules1"
EXPECTED = json.loads((GOLDEN / "expected.json").read_text())
#: The parts of a room's state that do not depend on when it is looked at.
STEADY = ("phase", "round", "rounds", "dealer", "table", "deck", "holder", "version", "game")
PLAYER = ("id", "name", "present", "score", "sets", "total", "locked", "wrong", "penalties")


def stored(room: str) -> tuple[Settings, int, list[dict[str, Any]]]:
    """The settings, seed and action log of ``room``'s game in the old database."""
    with closing(sqlite3.connect(GOLDEN / "rooms.db")) as conn:
        game, seed, settings = conn.execute(
            "SELECT id, seed, settings FROM games WHERE room = ?", (room,)
        ).fetchone()
        rows = conn.execute(
            "SELECT action FROM actions WHERE game = ? ORDER BY version", (game,)
        ).fetchall()
    engine = {k: v for k, v in json.loads(settings).items() if k in ENGINE_FIELDS}
    return Settings.from_dict(engine), seed, [json.loads(r[0]) for r in rows]


def replayed(room: str, rules: int) -> Game:
    settings, seed, actions = stored(room)
    game = Game(settings, seed, rules)
    for action in actions:
        game.apply(game.parse_action(action))
    return game


def steady(state: dict[str, Any]) -> dict[str, Any]:
    players = [{k: p[k] for k in PLAYER} for p in state["players"]]
    return {k: state[k] for k in STEADY} | {"players": players}


def test_the_stored_games_play_differently_under_todays_rules() -> None:
    rooms = EXPECTED["rooms"]
    with pytest.raises(GameError) as err:  # 33 seats kept: the room would be skipped, lost
        replayed(rooms["crowd"]["id"], rules=2)
    assert err.value.code == "room_full"
    assert replayed(rooms["crowd"]["id"], rules=1).phase == "playing"
    lockout = replayed(rooms["lockout"]["id"], rules=2)
    assert [p.name for p in lockout.players.values() if p.locked] == ["Ann"]  # escaped then
    shown = [p["name"] for p in rooms["lockout"]["state"]["players"]]
    assert shown == ["Bob", "Cid", "Dee"]  # what the old release showed: Ann gone
    assert [p["name"] for p in lockout.view(None)["players"]] == ["Ann", *shown]
    solo = replayed(rooms["solo"]["id"], rules=2).result()["solo"]
    assert solo["won"] is True and EXPECTED["solo_result"]["solo"]["won"] is False


async def test_rooms_and_replays_stored_before_rules_versions_come_back_as_played(
    server_factory: Any, tmp_path: Path
) -> None:
    db = tmp_path / "rooms.db"
    shutil.copy(GOLDEN / "rooms.db", db)
    server = server_factory(db=db)  # migrates 0006 -> head, then restores every room
    async with httpx.AsyncClient(base_url=str(server), trust_env=False, timeout=10) as http:
        for name, room in EXPECTED["rooms"].items():
            response = await http.get(f"/api/rooms/{room['id']}")
            assert response.status_code == 200, (name, response.text)
            assert steady(response.json()["state"]) == steady(room["state"]), name
        game = EXPECTED["rooms"]["solo"]["state"]["game"]
        replay = (await http.get(f"/api/games/{game}/replay")).json()
    assert replay["rules"] == 1
    assert replay["events"][-1]["state"]["result"] == EXPECTED["solo_result"]
    with closing(sqlite3.connect(db)) as conn:
        assert {r[0] for r in conn.execute("SELECT rules FROM games")} == {1}
    log = server.log.read_text(errors="replace")
    assert "skipped" not in log and "cannot be restored" not in log

    # the old game plays on, under its own rules: a newcomer sits down and takes a set
    room = EXPECTED["rooms"]["crowd"]["id"]
    eve = await Client.connect(str(server), room)
    try:
        await eve.join("Eve")
        await eve.wait_update(lambda s: any(p["name"] == "Eve" for p in s["players"]))
        cards = table_sets(eve.state)[0]
        await eve.call()
        await eve.wait_update(lambda s: s["holder"] == eve.player)
        await eve.pick(cards)
        await eve.wait_event("set_taken")
    finally:
        await eve.close()
