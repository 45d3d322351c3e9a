"""Room affinity (``SETGAME_ROOM_AFFINITY``, ``docs/cluster.md``, issue 22): with a load
balancer that sends a room's websockets to one process, a room nobody is connected to moves
to the process its first player reaches, so that its players play on its owner, without
relays; a room someone is connected to stays where it is; the creator's cap still counts it;
and an action acknowledged there survives a ``kill -9`` of its new owner."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from server.test_cluster import (  # noqa: F401 (a fixture)
    cluster_db,
    heard_on,
    lease_of,
    stored_log,
)
from server.test_cluster_caps import counted, two
from server.test_restart import close_all, synced, take_a_set
from setgame.server.client import Client
from setgame.server.cluster.quota import QUOTA_MS
from setgame.server.limits import LimitError, Limits

AFFINITY = {"SETGAME_ROOM_AFFINITY": "1", "SETGAME_ROOMS_PER_CLIENT": "1"}


async def post(server: str) -> httpx.Response:
    """A new room of several players; a set is always on its table (``no_set="auto"``), so
    that ``take_a_set`` finds one."""
    async with httpx.AsyncClient(trust_env=False, timeout=10) as http:
        return await http.post(server + "/api/rooms", json={"mode": "multi", "no_set": "auto"})


async def relays(server: str) -> float:
    """Requests this process relayed to an owner elsewhere (its ``/metrics``)."""
    async with httpx.AsyncClient(trust_env=False, timeout=10) as http:
        text = (await http.get(server + "/metrics")).text
    mark = 'setgame_relays_total{side="sent"'
    sent = [line for line in text.splitlines() if line.startswith(mark)]
    return float(sent[0].rsplit(" ", 1)[1]) if sent else 0.0


async def test_a_room_moves_to_its_first_players_process_and_plays_there(
    cluster_db: str, redis_url: str, tmp_path: Path  # noqa: F811
) -> None:
    env = AFFINITY | {"SETGAME_METRICS": "1"}
    async with (
        two(cluster_db, redis_url, tmp_path, **env) as (creator, reached),
        heard_on(redis_url) as heard,
    ):
        made = await post(creator.url)
        assert made.status_code == 201, made.text
        room = made.json()["id"]
        await heard.subscribe(room)
        first_owner = await lease_of(redis_url, room)
        assert first_owner is not None
        clients = []
        for name in ("Ann", "Bob"):  # both reach the same process, as the balancer sends them
            client = await Client.connect(reached.url, room)
            await client.join(name)
            clients.append(client)
        try:
            moved_to = await lease_of(redis_url, room)
            assert moved_to is not None and moved_to != first_owner
            await clients[0].start()
            for client in clients:
                await client.wait_update(lambda s: s["phase"] == "playing")
            await take_a_set(clients[1])
            await synced(clients)
            acknowledged = clients[0].version
            assert await relays(reached.url) == 0  # played on the owner: nothing relayed
            # and nothing published for mirrors: there is none (only who owns it now)
            assert {m["k"] for m in heard.messages} <= {"owner"}, heard.messages[:3]
            # the creator's address still holds its one room, past the time a count that
            # nobody renews runs out: another room is refused on either process
            await asyncio.sleep(QUOTA_MS / 1000 + 1.0)
            assert await counted(redis_url) == (1, 1)
            refused = await post(creator.url)
            assert refused.status_code == 429 and refused.json()["code"] == "too_many_rooms"
            reached.kill()  # kill -9 of the room's new owner
            versions = [version for version, _ in await stored_log(cluster_db, room)]
            assert max(versions) >= acknowledged  # every acknowledged action is stored
        finally:
            await close_all(clients)


async def test_a_room_someone_is_connected_to_stays_with_its_owner(
    cluster_db: str, redis_url: str, tmp_path: Path  # noqa: F811
) -> None:
    async with two(cluster_db, redis_url, tmp_path, **AFFINITY) as (first, second):
        made = await post(first.url)
        room = made.json()["id"]
        ann = await Client.connect(first.url, room)
        await ann.join("Ann")
        owner = await lease_of(redis_url, room)
        bob = await Client.connect(second.url, room)  # a mirror: Ann is connected to the owner
        try:
            await bob.join("Bob")
            await bob.start()  # relayed to the owner
            for client in (ann, bob):
                await client.wait_update(lambda s: s["phase"] == "playing")
            await take_a_set(bob)
            await synced([ann, bob])
            assert await lease_of(redis_url, room) == owner
        finally:
            await close_all([ann, bob])


def test_the_affinity_setting_reads_yes_or_no_and_refuses_anything_else() -> None:
    """``SETGAME_ROOM_AFFINITY`` is a yes/no setting (off unless asked for); another value
    is refused with an error that names the setting and quotes the value."""
    assert Limits.from_env({}).room_affinity is False
    assert Limits.from_env({"SETGAME_ROOM_AFFINITY": "1"}).room_affinity is True
    assert Limits.from_env({"SETGAME_ROOM_AFFINITY": "off"}).room_affinity is False
    with pytest.raises(LimitError, match="SETGAME_ROOM_AFFINITY must be true or false") as caught:
        Limits.from_env({"SETGAME_ROOM_AFFINITY": "hash-it"})
    assert "hash-it" in str(caught.value)
