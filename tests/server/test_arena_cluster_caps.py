"""The limits on the arenas people create hold across the processes of a cluster
(``docs/cluster.md``, "Arenas"; ``arena_caps.py``): ``setgame serve --redis`` processes on one
PostgreSQL, a burst of creates spread over them at once, and a burst mixed with hostile
requests (bad settings, a body too big, a forged address header)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import httpx
import pytest

from .arenakit import creator, server
from .conftest import free_port
from .test_cluster import cluster_db  # noqa: F401  (a fixture: a database for this test)

ENV = {"SETGAME_ARENAS_PER_ACCOUNT": "2", "SETGAME_ARENAS_PER_CLIENT": "3"}
GOOD = {"deck": "beginner", "minutes": 10, "starts_in_seconds": 600}


@contextlib.contextmanager
def processes(db: str, redis: str, tmp_path: Path, n: int) -> Iterator[list[str]]:
    with contextlib.ExitStack() as stack:
        yield [
            stack.enter_context(server(db, free_port(), ENV, redis, tmp_path / f"{i}.log"))
            for i in range(n)
        ]


def cookies(base: str, name: str) -> httpx.Cookies:
    with creator(base, name) as signed_in:
        return signed_in.cookies


Request = tuple[str, httpx.Cookies, dict[str, object]]


async def burst(requests: list[Request]) -> list[httpx.Response]:
    """Every request at once: (process, session cookies, ``httpx`` arguments)."""
    async with contextlib.AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(
                httpx.AsyncClient(base_url=base, cookies=jar, timeout=30)
            )
            for base, jar, _ in requests
        ]
        return await asyncio.gather(*(
            client.post("/api/arenas", **kwargs)  # type: ignore[arg-type]
            for client, (_, _, kwargs) in zip(clients, requests, strict=True)
        ))


async def stored(db: str, creator_name: str) -> int:
    """The arenas not finished that ``creator_name`` created, as the database has them."""
    connection = await asyncpg.connect(db.replace("postgresql+asyncpg", "postgresql"))
    try:
        query = "SELECT count(*) FROM arenas WHERE creator_name = $1 AND status <> 'finished'"
        return int(await connection.fetchval(query, creator_name))
    finally:
        await connection.close()


def codes(answers: list[httpx.Response]) -> list[tuple[int, str | None]]:
    return sorted((a.status_code, a.json().get("code")) for a in answers)


@pytest.mark.slow
def test_a_burst_of_creates_on_three_processes_gets_the_limits_and_no_more(
    cluster_db: str, redis_url: str, tmp_path: Path  # noqa: F811
) -> None:
    with processes(cluster_db, redis_url, tmp_path, 3) as bases:
        ann = cookies(bases[0], "Ann")  # one session, good on every process
        answers = asyncio.run(burst([(bases[i % 3], ann, {"json": GOOD}) for i in range(12)]))
        assert codes(answers) == [(201, None)] * 2 + [(429, "too_many_arenas")] * 10
        refused = [a.json()["message"] for a in answers if a.status_code == 429]
        assert all("(at most 2)" in m and "your account has 2 arenas" in m for m in refused)
        # another account from the same address: the address's limit (3) leaves it one
        bob = cookies(bases[1], "Bob")
        answers = asyncio.run(burst([(bases[i % 3], bob, {"json": GOOD}) for i in range(9)]))
        assert codes(answers) == [(201, None)] + [(429, "too_many_arenas")] * 8
        assert all("your address has 3 arenas not finished (at most 3)" in a.json()["message"]
                   for a in answers if a.status_code == 429)
        assert (asyncio.run(stored(cluster_db, "Ann")), asyncio.run(stored(cluster_db, "Bob"))) == (
            2, 1)
        made = [a.json()["id"] for a in answers if a.status_code == 201]
        for base in bases:  # every process knows it (its owner runs it, the others read it)
            assert httpx.get(f"{base}/api/arenas/{made[0]}").json()["creator"] == "Bob"


@pytest.mark.slow
def test_hostile_creates_mixed_into_a_burst_take_no_place_and_no_forged_address(
    cluster_db: str, redis_url: str, tmp_path: Path  # noqa: F811
) -> None:
    forged = {"X-Forwarded-For": "10.9.8.7", "X-Real-IP": "10.9.8.6"}
    as_json = {"content-type": "application/json"}
    hostile: list[dict[str, object]] = [
        {"json": GOOD | {"minutes": 100000}},  # absurd: 400 quoting it
        {"content": b'{"deck": "beginner", "minutes": 10', "headers": as_json},  # cut short
        {"content": b"{" + b" " * 5000 + b"}", "headers": as_json},  # over 4096 bytes
        {"json": GOOD, "headers": forged},  # another address, says a header nobody trusts
    ]
    with processes(cluster_db, redis_url, tmp_path, 2) as bases:
        ann = cookies(bases[0], "Ann")
        mixed = [(base, ann, kwargs) for base in bases for kwargs in [{"json": GOOD}, *hostile]]
        answers = asyncio.run(burst(mixed))
        found = codes(answers)
        assert found.count((201, None)) == 2, found
        assert found.count((400, "bad_arena")) == 2 and found.count((400, "bad_json")) == 2
        assert found.count((413, "too_big")) == 2
        assert found.count((429, "too_many_arenas")) == 2, found
        absurd = [a.json()["message"] for a in answers if a.json().get("code") == "bad_arena"]
        assert all("100000" in m for m in absurd), absurd
        # the forged header did not make the address another: Bob gets the one place left
        bob = cookies(bases[1], "Bob")
        answers = asyncio.run(burst([(base, bob, {"json": GOOD, "headers": forged})
                                     for base in bases for _ in range(2)]))
        assert codes(answers) == [(201, None)] + [(429, "too_many_arenas")] * 3
        assert (asyncio.run(stored(cluster_db, "Ann")), asyncio.run(stored(cluster_db, "Bob"))) == (
            2, 1)
        for base in bases:  # and both processes go on serving
            assert httpx.get(f"{base}/api/health").status_code == 200
