"""Liveness and readiness during real outages (issue 22, ``docs/deploy.md`` "Health checks"):
two ``setgame serve --redis`` processes; PostgreSQL stopped with ``pg_ctl stop`` and started
again, Redis hung (SIGSTOP), then shut down and started again. ``/api/ready`` answers 503 naming
what failed, within its short timeout, and 200 again once it is back, without a restart;
``/api/live`` answers 200 throughout, and the processes keep serving what needs neither."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx
import pytest

import services
from conftest import LiveServer
from setgame.server.client import Client, Disconnected, ServerError

PING_BOUND = 2.0 + 1.5  # PING_SECONDS, and room for a busy machine


def _own(start: Callable[[], AbstractContextManager[services.Server]]) -> Iterator[services.Server]:
    """The server ``start`` starts, or skip when the machine lacks it."""
    try:
        with start() as server:
            yield server
    except services.Missing as missing:
        pytest.skip(str(missing))


@pytest.fixture
def postgres() -> Iterator[services.Server]:
    """A PostgreSQL of this test's own: it is stopped here."""
    yield from _own(services.postgres_server)


@pytest.fixture
def redis() -> Iterator[services.Server]:
    """A Redis of this test's own: it is hung and stopped here."""
    yield from _own(services.redis_server)


@pytest.fixture
def two(
    postgres: services.Server, redis: services.Server, tmp_path: Path
) -> Iterator[list[LiveServer]]:
    servers = [LiveServer(postgres.url, tmp_path / f"node{n}.log") for n in range(2)]
    for n, server in enumerate(servers):
        server.options, server.created = ["--redis", redis.url], n > 0
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(LiveServer.stop, servers))


async def answer(http: httpx.AsyncClient, url: str) -> tuple[int, Any, float]:
    began = time.monotonic()
    got = await http.get(url)
    return got.status_code, got.json(), time.monotonic() - began


async def until(http: httpx.AsyncClient, url: str, status: int) -> Any:
    """The answer of ``url`` once it is ``status`` (an answer is reused for a second)."""
    deadline = time.monotonic() + 20
    while True:
        code, body, took = await answer(http, url)
        assert took < PING_BOUND, f"{url} took {took:.1f} s"
        if code == status:
            return body
        assert time.monotonic() < deadline, (code, body)
        await asyncio.sleep(0.2)


async def serves_what_it_can(http: httpx.AsyncClient, server: str) -> None:
    """What needs neither the database nor Redis: liveness, pages, the public list."""
    assert (await http.get(f"{server}/api/live")).json() == {"ok": True}
    assert (await http.get(f"{server}/")).status_code == 200
    assert (await http.get(f"{server}/api/rooms")).status_code == 200


async def all_ready(http: httpx.AsyncClient, servers: list[LiveServer]) -> None:
    """Until every process is ready (``/api/ready`` answers 200, ``{"ok": true}``)."""
    for server in servers:
        assert await until(http, f"{server}/api/ready", 200) == {"ok": True}


async def test_the_database_stopped_and_started_again(
    two: list[LiveServer], postgres: services.Server
) -> None:
    async with httpx.AsyncClient(timeout=10) as http:
        await all_ready(http, two)
        await asyncio.to_thread(postgres.stop)  # pg_ctl stop -m fast
        for server in two:
            down = await until(http, f"{server}/api/ready", 503)
            assert down["ok"] is False and down["failed"] == ["database"]
            assert "database" in down["error"]
            health = (await http.get(f"{server}/api/health")).json()
            assert health["ok"] is False and health["down"] == ["database"]
            await serves_what_it_can(http, server)
        refused = await http.post(f"{two[0]}/api/rooms", json={})
        assert refused.status_code == 503, refused.text
        await asyncio.to_thread(postgres.start)
        await all_ready(http, two)
        await plays_again(http, two)


async def test_redis_hung_then_stopped_then_started_again(
    two: list[LiveServer], redis: services.Server
) -> None:
    async with httpx.AsyncClient(timeout=10) as http:
        await all_ready(http, two)
        redis.pause()  # hangs: every answer must still come within the ping's timeout
        try:
            for server in two:
                down = await until(http, f"{server}/api/ready", 503)
                assert down["failed"] == ["redis"]
                await serves_what_it_can(http, server)
        finally:
            redis.resume()
        await all_ready(http, two)
        await asyncio.to_thread(redis.stop)
        for server in two:
            assert (await until(http, f"{server}/api/ready", 503))["failed"] == ["redis"]
            await serves_what_it_can(http, server)
        await asyncio.to_thread(redis.start)
        await all_ready(http, two)
        await plays_again(http, two)


async def plays_again(http: httpx.AsyncClient, two: list[LiveServer]) -> None:
    """A room created on one process is opened through the other (its mirror, over Redis),
    within a few seconds of Redis coming back (leases, subscriptions)."""
    deadline = time.monotonic() + 20
    while True:
        try:
            created = await http.post(f"{two[0]}/api/rooms", json={})
            assert created.status_code == 201, created.text
            client = await Client.connect(str(two[1]), created.json()["id"], timeout=5)
        except (AssertionError, OSError, Disconnected, ServerError):
            assert time.monotonic() < deadline, "the cluster did not come back"
            await asyncio.sleep(0.5)
            continue
        assert client.welcome["type"] == "welcome"
        await client.close()
        return


def test_liveness_readiness_and_a_storage_fault_in_one_process(tmp_path: Path) -> None:
    """SQLite: a latched storage fault (the files deleted under the server) makes readiness
    503 at once, naming the database; liveness still answers; other methods get 405."""
    from setgame.server.app import build
    from setgame.server.storage import Storage

    from .accountkit import TestClient

    with TestClient(build(Storage(str(tmp_path / "one.db")))) as client:
        assert client.get("/api/live").json() == {"ok": True}
        assert client.get("/api/ready").json() == {"ok": True}
        assert client.get("/api/health").json() == {"ok": True, "rooms": 0}
        for route in ("/api/live", "/api/ready", "/api/health"):
            assert client.post(route, content=b"{}").status_code == 405, route
            assert client.head(route).status_code == 200, route
        client.app.state.storage.fault = "the database file one.db was deleted"  # type: ignore[attr-defined]
        ready = client.get("/api/ready")
        assert ready.status_code == 503
        assert ready.json() == {
            "ok": False, "failed": ["database"],
            "error": "database not answering: see the server log",
        }
        health = client.get("/api/health").json()
        assert health["failed"] == health["down"] == ["database"] and health["rooms"] == 0
        assert client.get("/api/live").status_code == 200
        client.app.state.storage.fault = None  # type: ignore[attr-defined]
