"""Moderation with several processes (``docs/cluster.md``): a moderator's action made on one
process reaches the sockets of the others: a deleted line vanishes on the owner and on a
mirror, a ban closes a seat on a mirror, a closed room closes everywhere and stays closed."""

from __future__ import annotations

import asyncio
import secrets
import subprocess
import sys
from typing import Any

import httpx

from conftest import LiveServer
from server.test_cluster import cluster, cluster_db  # noqa: F401 - the fixtures
from setgame.server.client import Client, create_room, sign_in

PASSWORD = "correct horse"


async def _claim(http: httpx.AsyncClient, base: str, name: str) -> None:
    answer = await http.post(f"{base}/api/account/claim", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text


def _grant(db: Any, name: str) -> None:
    command = [
        sys.executable,
        "-m",
        "setgame",
        "admin",
        "grant",
        name,
        "moderator",
        "--db",
        str(db),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr


async def _chat(client: Client) -> dict[str, Any]:
    message = await client.wait_for(lambda m: m["type"] in ("chat", "error"), 10)
    assert message["type"] == "chat", message
    line: dict[str, Any] = message["messages"][-1]
    return line


async def test_a_moderators_action_on_one_process_reaches_the_others(
    cluster: list[LiveServer],  # noqa: F811 - the fixture
) -> None:
    owner, mirror, third = cluster
    suffix = secrets.token_hex(2)
    bob_name, mod_name = f"Bob{suffix}", f"Mod{suffix}"
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        await _claim(http, mirror.url, bob_name)
    async with httpx.AsyncClient(base_url=third.url, trust_env=False, timeout=30) as mod:
        await _claim(mod, third.url, mod_name)
        await asyncio.to_thread(_grant, owner.db, mod_name)
        room = await create_room(owner.url)  # owned by the first process
        ann = await Client.connect(owner.url, room)
        await ann.join("Ann")
        session = await sign_in(mirror.url, bob_name, PASSWORD)
        bob = await Client.connect(mirror.url, room, session=session)  # on a mirror
        await bob.join(bob_name)
        try:
            await bob.send("chat", text="something vile")
            line = await _chat(ann)
            assert line["text"] == "something vile" and (await _chat(bob)) == line
            gone = await mod.delete(f"/api/rooms/{room}/chat/{line['seq']}")
            assert gone.status_code == 200, gone.text
            for client in (ann, bob):  # the owner's socket and the mirror's
                deleted = await client.wait_for(lambda m: m["type"] == "chat_deleted", 10)
                assert (deleted["game"], deleted["seq"]) == (line["game"], line["seq"])

            body = {"name": bob_name, "minutes": 10, "reason": "insults"}
            assert (await mod.post("/api/moderation/ban", json=body)).status_code == 201
            told = await bob.wait_for(lambda m: m["type"] == "error", 10)
            assert told["code"] == "banned" and told["reason"] == "insults"
            assert (await bob.wait_closed(10)).code == 4003

            body = {"room": room, "reason": "spam room"}
            assert (await mod.post("/api/moderation/close", json=body)).status_code == 200
            told = await ann.wait_for(lambda m: m["type"] == "error", 10)
            assert told["code"] == "room_closed" and "spam room" in told["message"]
            assert (await ann.wait_closed(10)).code == 4004
            for server in cluster:  # no process opens it again (the others hear of the
                answers = []  # close over Redis a moment later: a few seconds at most)
                for _ in range(50):
                    answers.append(await http_get(server.url, f"/api/rooms/{room}"))
                    if answers[-1] == 404:
                        break
                    await asyncio.sleep(0.1)
                assert answers[-1] == 404, (server.url, answers)
        finally:
            await asyncio.gather(ann.close(), bob.close(), return_exceptions=True)


async def http_get(base: str, path: str) -> int:
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        return (await http.get(f"{base}{path}")).status_code
