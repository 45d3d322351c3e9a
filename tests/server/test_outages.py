"""A cluster whose database or Redis goes down: ``/api/health`` answers 503 naming which, and a
websocket handshake that needs the missing service is closed with ``1011``
``storage_unavailable`` instead of failing with an unhandled error. Real PostgreSQL and Redis:
the database is closed to connections (``ALLOW_CONNECTIONS false``, its sessions ended), Redis
is shut down."""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

import services
from setgame.server.app import build
from setgame.server.storage import Storage

from .accountkit import TestClient


@pytest.fixture
async def database(postgres_url: str) -> AsyncIterator[tuple[str, str, Any]]:
    """A new database of the test cluster for this test alone: its URL, its name, and an
    admin connection."""
    import asyncpg

    name = "outage_" + uuid.uuid4().hex[:10]
    admin = await asyncpg.connect(postgres_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        await admin.execute(f"CREATE DATABASE {name}")
        yield postgres_url.rsplit("/", 1)[0] + "/" + name, name, admin
        await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
    finally:
        await admin.close()


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A Redis of this test's own (the session's is shared): it is shut down here."""
    try:
        with services.redis() as url:
            yield url
    except services.Missing as missing:
        pytest.skip(str(missing))


def _process(db: str, redis: str) -> TestClient:
    """One process of the cluster (its own event loop: a TestClient's)."""
    return TestClient(build(Storage(db), redis=redis))


def _health(client: TestClient, expect: int) -> Any:
    """The health answer, once it is ``expect`` (an answer is reused for 1 s)."""
    deadline = time.monotonic() + 8
    while (answer := client.get("/api/health")).status_code != expect:
        assert time.monotonic() < deadline, answer.json()
        time.sleep(0.2)
    return answer.json()


def _handshake_closes(client: TestClient, room: str) -> tuple[int, str]:
    with (
        client.websocket_connect(f"/ws/{room}") as ws,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        ws.receive_json()
    return closed.value.code, closed.value.reason


async def test_the_database_down_health_503_and_handshakes_closed_1011(
    database: tuple[str, str, Any], redis_url: str
) -> None:
    db, name, admin = database
    with _process(db, redis_url) as one, _process(db, redis_url) as two:
        assert _health(one, 200)["ok"] is True
        room = one.post("/api/rooms", json={}).json()["id"]  # in memory on one, not on two
        await admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
            name,
        )
        down = _health(two, 503)
        assert down["ok"] is False and down["down"] == ["database"]
        assert "database" in down["error"]
        assert _handshake_closes(two, room) == (1011, "storage_unavailable")
        assert _handshake_closes(two, "nosuchroom") == (1011, "storage_unavailable")
        await admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        assert _health(two, 200)["ok"] is True  # back, without a restart
        with two.websocket_connect(f"/ws/{room}") as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["type"] == "welcome"


async def test_redis_down_health_503_and_handshakes_closed_1011(
    database: tuple[str, str, Any], redis_url: str
) -> None:
    import redis

    db = database[0]
    with _process(db, redis_url) as one, _process(db, redis_url) as two:
        assert _health(two, 200)["ok"] is True
        room = one.post("/api/rooms", json={}).json()["id"]
        with contextlib.suppress(redis.exceptions.ConnectionError):  # it hangs up as it goes
            redis.Redis.from_url(redis_url).shutdown(nosave=True)
        down = _health(two, 503)
        assert down["down"] == ["redis"] and "redis" in down["error"]
        assert _handshake_closes(two, room) == (1011, "storage_unavailable")
