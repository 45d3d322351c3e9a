"""The per-address room caps hold across the processes of a cluster (``docs/cluster.md``,
"Caps across processes"): two ``setgame serve --redis`` processes, one client address."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import redis.asyncio as aioredis

from conftest import LiveServer, free_port
from server.test_cluster import cluster_db  # noqa: F401 (a fixture)
from server.test_restart import close_all
from setgame.server.client import Client, ServerError
from setgame.server.cluster.quota import ALL_KEY, QUOTA_MS, Quota, rooms_key
from setgame.server.limits import Limits
from setgame.server.registry import RoomLimit
from setgame.server.roomcap import SEATS_HEADER

CAPS = {"SETGAME_ROOMS_PER_CLIENT": "2"}


@contextlib.asynccontextmanager
async def two(
    db: str, redis_url: str, tmp_path: Path, **env: str
) -> AsyncIterator[list[LiveServer]]:
    client = aioredis.from_url(redis_url)  # the Redis of the session: no other test's counts
    try:
        await client.delete(*[key async for key in client.scan_iter("setgame:quota:*")], ALL_KEY)
    finally:
        await client.aclose()
    servers = [LiveServer(db, tmp_path / f"caps{n}.log", env=CAPS | env) for n in range(2)]
    for n, server in enumerate(servers):
        server.options = ["--redis", redis_url]
        server.created = n > 0
    try:
        for server in servers:
            await asyncio.to_thread(server.start)
        yield servers
    finally:
        for server in servers:
            await asyncio.to_thread(server.stop)


async def post(server: str) -> httpx.Response:
    async with httpx.AsyncClient(trust_env=False, timeout=10) as http:
        return await http.post(server + "/api/rooms", json={"mode": "multi"})


async def counted(redis_url: str) -> tuple[int, int]:
    """Rooms counting server-wide, and for the test's address (127.0.0.1)."""
    client = aioredis.from_url(redis_url)
    try:
        now = (await client.time())[0] * 1000
        total = await client.zcount(ALL_KEY, now, "+inf")
        mine = await client.zcount(rooms_key("127.0.0.1"), now, "+inf")
        return int(total), int(mine)
    finally:
        await client.aclose()


async def created_within(server: str, seconds: float) -> float:
    """Seconds until ``server`` creates a room again (fails after ``seconds``)."""
    start = time.monotonic()
    while True:
        response = await post(server)
        if response.status_code == 201:
            return time.monotonic() - start
        assert response.json()["code"] == "too_many_rooms", response.text
        assert time.monotonic() - start < seconds, "the address never got its room back"
        await asyncio.sleep(0.25)


async def test_rooms_per_address_hold_across_two_processes(
    cluster_db: str, redis_url: str, tmp_path: Path  # noqa: F811
) -> None:
    async with two(cluster_db, redis_url, tmp_path) as (a, b):
        assert (await post(a)).status_code == 201
        assert (await post(b)).status_code == 201  # each process alone holds one room
        for server in (a, b):
            refused = await post(server)
            assert refused.status_code == 429, refused.text
            assert refused.json()["code"] == "too_many_rooms"
            assert "2 open multiplayer rooms (at most 2)" in refused.json()["message"]
        assert await counted(redis_url) == (2, 2)


async def test_a_closed_room_gives_its_address_a_room_back(
    cluster_db: str, redis_url: str, tmp_path: Path  # noqa: F811
) -> None:
    fast = {"SETGAME_ABANDON_SECONDS": "3", "SETGAME_SWEEP_SECONDS": "0.25"}
    async with two(cluster_db, redis_url, tmp_path, **fast) as (a, b):
        assert (await post(a)).status_code == 201
        assert (await post(b)).status_code == 201
        assert (await post(a)).json()["code"] == "too_many_rooms"
        # the sweep closes both (nobody opened them): counted out at once, not expired
        waited = await created_within(a, 3 + QUOTA_MS / 1000)
        assert waited < QUOTA_MS / 1000, waited


async def test_a_killed_process_rooms_stop_counting_for_its_address(
    cluster_db: str, redis_url: str, tmp_path: Path  # noqa: F811
) -> None:
    async with two(cluster_db, redis_url, tmp_path) as (a, b):
        assert (await post(a)).status_code == 201
        assert (await post(a)).status_code == 201
        assert (await post(b)).json()["code"] == "too_many_rooms"
        a.kill()  # kill -9: nothing uncounted, the counts expire
        waited = await created_within(b, QUOTA_MS / 1000 + 10)
        assert waited > 1.0  # not at once: the dead process's rooms counted until they expired
        # only the new room, soon: the killed rooms (adopted or not) no longer count. The two
        # were created moments apart, so unless a refresh came between, the second one's count
        # expires that moment later, and the new room may have taken the first one's place
        deadline = time.monotonic() + 1.0
        while (mine := (await counted(redis_url))[1]) != 1 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert mine == 1


async def test_solo_is_admitted_and_a_left_room_stops_counting_across_processes(
    cluster_db: str, redis_url: str, tmp_path: Path  # noqa: F811
) -> None:
    """Issue 21: one player's rooms never meet the address's cap; a multiplayer room nobody
    has open stops counting after ``SETGAME_LEFT_SECONDS`` (not the two hours of its
    abandon time); the refusal counts the rooms that count, on either process (naming only
    those the player holds: none here)."""
    async with two(cluster_db, redis_url, tmp_path, SETGAME_LEFT_SECONDS="2") as (a, b):
        first, second = (await post(a)).json()["id"], (await post(b)).json()["id"]
        refused = (await post(a)).json()
        assert refused["code"] == "too_many_rooms"
        assert first != second and refused["others"] == 2  # counted; named to their holders only
        assert refused["rooms"] == []
        async with httpx.AsyncClient(trust_env=False, timeout=10) as http:
            for server in (a, b):
                solo = await http.post(server + "/api/rooms", json={"mode": "solo"})
                assert solo.status_code == 201, solo.text
        assert (await counted(redis_url))[1] == 2  # the solo rooms count server-wide only
        waited = await created_within(b, 10)  # nobody opened the two: left
        assert 0.5 < waited < 2 + 3, waited


async def test_a_refusal_on_one_process_names_the_players_room_on_another(
    cluster_db: str, redis_url: str, tmp_path: Path  # noqa: F811
) -> None:
    """The rooms a refusal names are the player's own (their seat token), wherever they
    live: Ann's room is owned by the other process; the other room behind her address is
    only counted."""
    async with two(cluster_db, redis_url, tmp_path) as (a, b):
        mine, theirs = (await post(b)).json()["id"], (await post(a)).json()["id"]
        ann = await Client.connect(b, mine)
        try:
            await ann.join("Ann")
            seats = {SEATS_HEADER: ann.token or ""}
            async with httpx.AsyncClient(trust_env=False, timeout=10) as http:
                answer = await http.post(a + "/api/rooms", json={"mode": "multi"}, headers=seats)
            refused = answer.json()
            assert answer.status_code == 429 and refused["code"] == "too_many_rooms", refused
            assert refused["rooms"] == [{"id": mine, "url": f"/room/{mine}"}]
            assert refused["others"] == 1 and theirs not in answer.text
        finally:
            await ann.close()


# --- the script alone, over the test Redis (no processes) ---------------------------------


async def fresh(redis_url: str) -> aioredis.Redis:
    client = aioredis.from_url(redis_url)
    await client.delete(*[key async for key in client.scan_iter("setgame:quota:*")], ALL_KEY)
    return client


async def test_the_room_cap_is_server_wide_and_the_rate_per_address(redis_url: str) -> None:
    client = await fresh(redis_url)
    try:
        limits = Limits(room_cap=3, rooms_per_client=100, rooms_per_minute=0.01, rooms_burst=2)
        first, second = Quota(client, limits), Quota(client, limits)  # two processes
        await first.admit("r1", "10.0.0.1")
        await second.admit("r2", "10.0.0.1")
        with pytest.raises(RoomLimit) as refused:
            await first.admit("r3", "10.0.0.1")  # its burst of two is spent, on both
        assert (refused.value.code, refused.value.status) == ("rate_limited", 429)
        await second.admit("r3", "10.0.0.2")
        with pytest.raises(RoomLimit) as full:
            await first.admit("r4", "10.0.0.3")
        assert (full.value.code, full.value.status) == ("server_full", 503)
        first.release("r1", "10.0.0.1")
        await first.drain()
        await first.admit("r4", "10.0.0.3")  # a room closed: the server takes one more
    finally:
        await client.aclose()


async def test_a_redis_that_does_not_answer_refuses_the_room_by_name() -> None:
    client = aioredis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_timeout=2)
    try:
        with pytest.raises(RoomLimit) as refused:
            await Quota(client, Limits()).admit("r1", "10.0.0.1")
        assert (refused.value.code, refused.value.status) == ("quota_unavailable", 503)
        quota = Quota(client, Limits())
        quota.release("r1", "10.0.0.1")  # logged, never raised: the count runs out by itself
        await quota.drain()
    finally:
        await client.aclose()


# --- watchers -------------------------------------------------------------------------------


async def test_a_room_counts_the_watchers_of_every_process(
    cluster_db: str, redis_url: str, tmp_path: Path  # noqa: F811
) -> None:
    async with two(cluster_db, redis_url, tmp_path) as (a, b):
        room = (await post(a)).json()["id"]
        ann = await Client.connect(a.url, room)
        await ann.join("Ann")
        viewers = [await Client.connect(b.url, room), await Client.connect(a.url, room)]
        try:
            told = await ann.wait_for(lambda m: m["type"] == "watchers" and m["count"] == 2, 8.0)
            assert told["count"] == 2  # one here, one on the other process
            assert (await viewers[0].wait_for(
                lambda m: m["type"] == "watchers" and m["count"] == 2, 8.0
            ))["count"] == 2  # the mirror shows both too
            await viewers[0].close()  # the one on the other process goes
            await ann.wait_for(lambda m: m["type"] == "watchers" and m["count"] == 1, 8.0)
        finally:
            await close_all([ann, *viewers])


async def test_seats_per_address_hold_across_two_processes(
    cluster_db: str, redis_url: str, tmp_path: Path  # noqa: F811
) -> None:
    async with two(cluster_db, redis_url, tmp_path, SETGAME_SEATS_PER_CLIENT="2") as (a, b):
        room = (await post(a)).json()["id"]
        clients = [await Client.connect(s.url, room) for s in (a, b, b)]
        try:
            await clients[0].join("Ann")  # on the owner
            await clients[1].join("Bob")  # on the mirror: relayed to the owner
            with pytest.raises(ServerError) as refused:
                await clients[2].join("Cid")
            assert refused.value.code == "too_many_seats"
            assert "already holds 2 seats" in str(refused.value)
        finally:
            await close_all(clients)
