"""An arena's life beyond one game (issue 23): signed-in players' profiles show the arenas
they played and their best places; a restarted server goes on from the stored standings."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest

from .arenakit import Player, cookie_of, creator, server
from .conftest import free_port


async def _run(players: list[Player], seconds: float, *, drain: bool = False) -> None:
    until = time.monotonic() + seconds
    await asyncio.gather(*(p.run(until, drain=drain) for p in players))


def _made(host: httpx.Client, **settings: object) -> str:
    made = host.post("/api/arenas", json={"deck": "beginner", "minutes": 10,
                                          "starts_in_seconds": 0} | settings)
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


@pytest.mark.slow
def test_profiles_show_arenas_played_and_best_places(tmp_path: Path) -> None:
    fast = {"SETGAME_ARENA_TIME_SCALE": "0.02"}  # 12 s
    with server(tmp_path / "p.db", free_port(), fast) as base, creator(base, "Ada") as ada:
        bea = creator(base, "Bea")
        arena = _made(ada, rated=True)
        players = [Player(base, arena, "x", delay, cookie=cookie_of(c))
                   for delay, c in ((0.01, ada), (0.2, bea))]
        asyncio.run(_run(players, 60))
        final = httpx.get(f"{base}/api/arenas/{arena}").json()
        assert final["status"] == "finished"
        assert [row["name"] for row in final["podium"]] == ["Ada", "Bea"]  # the faster first
        for place, name in ((1, "Ada"), (2, "Bea")):
            figures = httpx.get(f"{base}/api/players/{name}").json()["arenas"]
            assert figures["played"] == 1
            (best,) = figures["best"]
            assert (best["arena"], best["place"], best["players"]) == (arena, place, 2)
            assert best["variant"] == "classic" and best["games"] >= 2
        bea.close()


@pytest.mark.slow
def test_a_restart_goes_on_from_the_stored_standings(tmp_path: Path) -> None:
    db, port = tmp_path / "r.db", free_port()
    with server(db, port, {"SETGAME_ARENA_TIME_SCALE": "0.1"}) as base, creator(base) as host:
        arena = _made(host)  # 60 s
        asyncio.run(_run([Player(base, arena, f"R{i}", 0.01 * i) for i in range(4)], 10,
                         drain=True))  # paused, their last games played to the end
        time.sleep(1.0)  # the last results stored
        before = httpx.get(f"{base}/api/arenas/{arena}").json()
    assert before["status"] == "running" and sum(r["games"] for r in before["standings"]) > 4
    with server(db, port, {"SETGAME_ARENA_TIME_SCALE": "0.1"}) as base:
        after = httpx.get(f"{base}/api/arenas/{arena}").json()
        assert after["status"] == "running"
        kept = ("name", "points", "games", "wins", "streak", "performance")
        assert [{k: r[k] for k in kept} for r in after["standings"]] == [
            {k: r[k] for k in kept} for r in before["standings"]
        ]
        players = [Player(base, arena, f"R{i}", 0.01 * i) for i in range(4)]
        asyncio.run(_run(players, 5))  # a guest comes back by its token only, not its name
        assert any(e["code"] == "name_taken" for p in players for e in p.errors)
