"""The ``ratings`` message of a finished game reaches every process's sockets in a cluster
(``docs/cluster.md``): the owner records the game and tells its own sockets, and the room's
channel carries it to the mirrors, whose players and spectators get it as the owner's do (a
spectator who comes later too). Three real ``setgame serve --redis`` processes over one
PostgreSQL database."""

from __future__ import annotations

import secrets
from typing import Any

import httpx

from conftest import LiveServer
from server.test_cluster import cluster, cluster_db  # noqa: F401 - the fixtures
from setgame.server.client import Client, create_room, sign_in, table_sets

PASSWORD = "correct horse"
FAST = {"deck": "beginner", "rounds": "single", "no_set": "auto", "pick_seconds": 10}


async def play_to_the_end(me: Client) -> dict[str, Any]:
    """Take every set (``no_set`` auto: the server deals when there is none) until the
    match is over; the final state."""
    for _ in range(100):
        state = me.state
        assert state is not None
        if state["phase"] == "match_over":
            return state
        if state["phase"] == "playing" and state["holder"] is None and table_sets(state):
            cards = table_sets(state)[0]
            await me.call()
            await me.wait_update(lambda s: s["holder"] is not None, 10)
            if me.state is not None and me.state["holder"] == me.player:
                await me.pick(cards)
        version = me.version
        await me.wait_update(lambda s, v=version: s["version"] > v, 10)
    raise AssertionError("the game did not end")


async def test_the_ratings_message_reaches_the_sockets_of_every_process(
    cluster: list[LiveServer],  # noqa: F811 - the fixture
) -> None:
    owner, mirror, third = cluster
    name = f"Ann{secrets.token_hex(2)}"
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        claimed = await http.post(
            f"{owner.url}/api/account/claim", json={"name": name, "password": PASSWORD}
        )
        assert claimed.status_code == 201, claimed.text
    room = await create_room(owner.url, rated=False, public=False, **FAST)  # the owner's
    session = await sign_in(owner.url, name, PASSWORD)
    ann = await Client.connect(owner.url, room, session=session)
    bob = await Client.connect(mirror.url, room)  # a player on a mirror
    watcher = await Client.connect(third.url, room)  # a spectator on another mirror
    late: Client | None = None
    try:
        await ann.join(name)
        await bob.join("Bob")
        await ann.start()
        final = await play_to_the_end(ann)
        told = await ann.wait_for(lambda m: m["type"] == "ratings", 10)
        assert told["game"] == final["game"]
        (change,) = told["changes"]  # Ann, signed in; the game was not rated: says why
        assert change["unrated"] == "room" and change["player"] == ann.player
        for other in (bob, watcher):
            assert await other.wait_for(lambda m: m["type"] == "ratings", 10) == told
        late = await Client.connect(third.url, room)  # greeted after: told too
        assert await late.wait_for(lambda m: m["type"] == "ratings", 10) == told
    finally:
        for client in (ann, bob, watcher, late):
            if client is not None:
                await client.close()
