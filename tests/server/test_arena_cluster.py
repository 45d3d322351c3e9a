"""An arena on two processes of a cluster (PostgreSQL + Redis, ``docs/cluster.md``): one
process owns and runs it; players on either process take part (the other relays them through
Redis, and its API shows the stored standings); when the owner stops, the other takes the
arena over and goes on from the stored standings, pairing new games."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from .arenakit import Player, creator, server
from .conftest import free_port
from .test_cluster import cluster_db  # noqa: F401  (a fixture: a database for this test)

ENV = {"SETGAME_ARENA_TIME_SCALE": "0.1"}  # a 10-minute arena lasts 60 s
KEPT = ("name", "points", "games", "wins", "streak", "performance")


def _rows(detail: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: row[k] for k in KEPT} for row in detail["standings"]]


async def _run(players: list[Player], seconds: float) -> None:
    until = time.monotonic() + seconds
    await asyncio.gather(*(p.run(until, drain=True) for p in players))


async def _greeted(base: str, arena: str) -> str:
    """The first answer of an arena socket: ``welcome``, or how it closed."""
    async with connect(f"{base.replace('http', 'ws')}/ws/arena/{arena}") as ws:
        await ws.send('{"type": "hello"}')
        try:
            return str((await ws.recv())[:30])
        except ConnectionClosed as closed:
            return f"closed {closed.rcvd.code if closed.rcvd else None}"


@pytest.mark.slow
def test_an_arena_on_two_processes(cluster_db: str, redis_url: str, tmp_path: Path) -> None:  # noqa: F811
    other = free_port()
    with server(cluster_db, other, ENV, redis_url, tmp_path / "b.log") as b:
        with (
            server(cluster_db, free_port(), ENV, redis_url, tmp_path / "a.log") as a,
            creator(a) as host,
        ):
            made = host.post("/api/arenas", json={"deck": "beginner", "minutes": 10,
                                                   "starts_in_seconds": 0})
            assert made.status_code == 201, made.text
            arena = made.json()["id"]
            players = [Player(a, arena, f"A{i}", 0.01 * i) for i in range(2)]
            players += [Player(b, arena, f"B{i}", 0.015 * i) for i in range(2)]  # relayed
            asyncio.run(_run(players, 8))
            for player in players:
                assert player.rooms and player.last is not None, (player.name, player.errors)
            time.sleep(1.0)  # the last results stored
            before = httpx.get(f"{a}/api/arenas/{arena}").json()
            assert {r["name"] for r in before["standings"] if r["games"]} == {
                "A0", "A1", "B0", "B1"}
            elsewhere = httpx.get(f"{b}/api/arenas/{arena}").json()  # as stored: the same
            assert _rows(elsewhere) == _rows(before)
        time.sleep(3)  # a stopped (its leases let go): b takes the arena over
        assert asyncio.run(_greeted(b, arena)).startswith('{"type":"welcome"')
        after = httpx.get(f"{b}/api/arenas/{arena}").json()
        assert after["status"] == "running" and _rows(after) == _rows(before)
        newcomers = [Player(b, arena, f"C{i}", 0.01 * i) for i in range(2)]
        asyncio.run(_run(newcomers, 6))
        assert all(p.rooms for p in newcomers), [p.errors for p in newcomers]
        final = httpx.get(f"{b}/api/arenas/{arena}").json()
        assert sum(r["games"] for r in final["standings"]) > sum(
            r["games"] for r in before["standings"])
