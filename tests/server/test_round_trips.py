"""Round trips per action to PostgreSQL and to Redis, counted on the wire (issue 22).

A server process of a cluster talks to PostgreSQL and Redis through counting proxies
(``benchmarks/roundtrips.py``); players take sets, one action at a time, and the round trips
of the same span of idling (the lease renewals, the shared lists) are taken away. The
figures of ``docs/benchmarks.md`` ("Round trips per action") come from the same count."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from conftest import LiveServer
from roundtrips import Counts, Proxy
from server.test_restart import close_all, synced, take_a_set
from setgame.server.client import Client, create_room

PG_TRIPS_PER_ACTION = 1.5
"""One grouped commit per action at most when the actions come one at a time (a group of
several rooms' actions shares one), plus slack for what a round adds (a new deal is an
action too)."""
REDIS_TRIPS_PER_ACTION = 0.3
"""None for a room that no other process mirrors (the owner publishes only what a mirror
follows, ``docs/cluster.md``, "Who hears a room"), plus slack for the lease checks that fall
in the span (the idle span's rate is taken away, but a busy machine makes both noisy).
Before issue 22: PostgreSQL 4.0, Redis 0.9 (a publish per action, never shared); then one
pipelined publish per action (0.95) until the owner published only followed rooms."""
SETS = 16
IDLE_SECONDS = 3.0
"""The idle span measured: several lease checks (every 0.75 s), whatever the actions took."""


@pytest.fixture
async def proxied(
    postgres_url: str, redis_url: str
) -> AsyncIterator[tuple[str, str, Proxy, Proxy]]:
    """A fresh database, and counting proxies in front of it and of Redis."""
    import asyncpg

    name = "trips_" + uuid.uuid4().hex[:10]
    dsn = postgres_url.replace("postgresql+asyncpg", "postgresql")
    admin = await asyncpg.connect(dsn)
    await admin.execute(f"CREATE DATABASE {name}")
    await admin.close()
    pg_host, pg_port = postgres_url.split("@", 1)[1].split("/", 1)[0].split(":")
    redis_host, redis_port = redis_url.split("//", 1)[1].split("/", 1)[0].split(":")
    pg, redis = Proxy(pg_host, int(pg_port)), Proxy(redis_host, int(redis_port))
    await pg.start()
    await redis.start()
    try:
        yield (
            f"postgresql+asyncpg://postgres@127.0.0.1:{pg.port}/{name}",
            f"redis://127.0.0.1:{redis.port}/0",
            pg,
            redis,
        )
    finally:
        await pg.close()
        await redis.close()


async def _started(server: LiveServer) -> list[Client]:
    room = await create_room(server.url, no_set="auto", pick_seconds=5)
    clients = []
    for name in ("Ann", "Bob"):
        client = await Client.connect(server.url, room)
        await client.join(name)
        clients.append(client)
    await clients[0].start()
    for client in clients:
        await client.wait_update(lambda s: s["phase"] == "playing")
    return clients


async def _per_action(clients: list[Client], pg: Proxy, redis: Proxy) -> tuple[float, float]:
    """Take sets (a call and a pick each), then idle: round trips per action, less what
    the same span of idling costs (measured over at least :data:`IDLE_SECONDS`)."""
    await synced(clients)
    before, before_redis, begun = pg.snapshot(), redis.snapshot(), time.monotonic()
    first = clients[0].version
    for i in range(SETS):
        await take_a_set(clients[i % 2])
        await synced(clients)
    took = time.monotonic() - begun
    actions = clients[0].version - first
    busy, busy_redis = pg.snapshot().minus(before), redis.snapshot().minus(before_redis)
    idle_pg, idle_redis, idled = pg.snapshot(), redis.snapshot(), time.monotonic()
    await asyncio.sleep(max(took, IDLE_SECONDS))
    share = took / (time.monotonic() - idled)
    idle, idle_r = pg.snapshot().minus(idle_pg), redis.snapshot().minus(idle_redis)
    print(f"{actions} actions in {took:.2f} s: PostgreSQL {busy}, idle {idle}; "
          f"Redis {busy_redis}, idle {idle_r}")
    return _rate(busy, idle, share, actions), _rate(busy_redis, idle_r, share, actions)


def _rate(busy: Counts, idle: Counts, share: float, actions: int) -> float:
    return max(0.0, busy.trips - idle.trips * share) / max(actions, 1)


async def test_one_action_costs_few_round_trips(
    proxied: tuple[str, str, Proxy, Proxy], tmp_path: Path
) -> None:
    db, redis_url, pg, redis = proxied
    server = LiveServer(db, tmp_path / "node.log")
    server.options = ["--redis", redis_url]
    await asyncio.to_thread(server.start)
    clients: list[Client] = []
    try:
        clients = await _started(server)
        pg_rate, redis_rate = await _per_action(clients, pg, redis)
        print(f"round trips per action: PostgreSQL {pg_rate:.2f}, Redis {redis_rate:.2f}")
        assert pg_rate <= PG_TRIPS_PER_ACTION, pg_rate
        assert redis_rate <= REDIS_TRIPS_PER_ACTION, redis_rate
    finally:
        await close_all(clients)
        await asyncio.to_thread(server.stop)
