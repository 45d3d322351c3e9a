"""Make ``rooms.db`` and ``expected.json``: rooms and games stored by the release before rules
versions (rules 1), for ``tests/server/test_rules_versions.py``.

Run it once with that release's code, which it starts as a real server (SQLite)::

    git archive 8be4e27 src | tar -x -C /tmp/rules1
    python tests/golden/rules1/make.py /tmp/rules1/src

It plays, through the socket as players do, what the rules of issue 19 play differently:

* ``lockout``: Ann, locked out with no point, leaves (rules 1: her seat goes, lockout and
  all) and Dee sits down; still being played;
* ``crowd``: 31 guests in turn sit down, call SET wrongly and leave (rules 1 keeps nothing
  of them; rules 2 keeps each one's fair-call wait, so its 33rd seat would not fit in the
  match, and the room would not come back); still being played;
* ``solo``: a finished solo game with three requests for cards and fewer sets found among
  the last 12 cards (rules 1: lost; rules 2 would call it won).

``expected.json`` keeps what that release showed: each room's public state and the solo
replay's result.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from itertools import combinations
from pathlib import Path
from typing import Any

from setgame import is_set, parse_card
from setgame.server.client import Client, create_room, table_sets

HERE = Path(__file__).resolve().parent
LIMITS = {
    "SETGAME_ROOMS_PER_CLIENT": "1000",
    "SETGAME_JOINS_PER_MINUTE": "100000",
    "SETGAME_JOIN_BURST": "10000",
}


def not_a_set(table: list[str]) -> tuple[str, ...]:
    return next(t for t in combinations(table, 3) if not is_set(*map(parse_card, t)))


async def wrong_call(client: Client) -> None:
    await client.call()
    await client.wait_update(lambda s: s["holder"] == client.player)
    await client.pick(not_a_set(client.table))
    await client.wait_event("wrong_call")


async def take(client: Client) -> None:
    cards = table_sets(client.state)[0]
    if (client.state or {}).get("mode") == "multi":
        await client.call()
        await client.wait_update(lambda s: s["holder"] == client.player)
    before = client.version
    await client.pick(cards)
    await client.wait_update(lambda s: s["version"] > before and not set(cards) & set(s["table"]))


async def seated(base: str, names: tuple[str, ...], **settings: Any) -> tuple[str, list[Client]]:
    room = await create_room(base, **settings)
    clients = []
    for name in names:
        client = await Client.connect(base, room)
        await client.join(name)
        clients.append(client)
    await clients[0].start()
    for client in clients:
        await client.wait_update(lambda s: s["phase"] == "playing")
    return room, clients


async def lockout(base: str) -> str:
    room, (ann, bob, cid) = await seated(base, ("Ann", "Bob", "Cid"), penalty="lockout",
                                         no_set="auto")  # fmt: skip
    await take(bob)
    await wrong_call(ann)
    before = bob.version
    await ann.leave()
    await bob.wait_event("left", after=before)
    dee = await Client.connect(base, room)
    await dee.join("Dee")
    await bob.wait_update(lambda s: len(s["players"]) == 3)
    for client in (ann, bob, cid, dee):
        await client.close()
    return room


async def crowd(base: str) -> str:
    room, (ann, bob) = await seated(base, ("Ann", "Bob"), no_set="auto")
    await take(ann)
    for i in range(31):
        guest = await Client.connect(base, room)
        await guest.join(f"Guest {i}")
        await wrong_call(guest)
        before = ann.version
        await guest.leave()
        await ann.wait_event("left", after=before)
        await guest.close()
    await ann.close()
    await bob.close()
    return room


async def solo(base: str) -> str:
    """A finished solo game whose more-cards penalties were cancelled in part."""
    for _ in range(40):
        room, (me,) = await seated(base, ("Sol",), mode="solo")
        for _ in range(3):
            before = me.version
            await me.no_set()
            await me.wait_event("more_cards_asked", after=before)
        while (me.state or {})["phase"] == "playing":
            if table_sets(me.state):
                await take(me)
            else:
                before = me.version
                await me.no_set()
                await me.wait_update(lambda s, v=before: s["version"] > v)
        result = (me.state or {})["result"]["solo"]
        await me.close()
        if 1 <= result["cancelled"] < result["penalties"]:
            return room
    raise RuntimeError("no solo game with some penalties cancelled in 40 tries")


def fetch(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=10) as response:
        return json.load(response)


async def play(base: str) -> dict[str, Any]:
    rooms = {"lockout": await lockout(base), "crowd": await crowd(base), "solo": await solo(base)}
    expected: dict[str, Any] = {"rooms": {}}
    for name, room in rooms.items():
        state = fetch(base, f"/api/rooms/{room}")["state"]
        expected["rooms"][name] = {"id": room, "state": state}
    game = expected["rooms"]["solo"]["state"]["game"]
    replay = fetch(base, f"/api/games/{game}/replay")
    expected["solo_result"] = replay["events"][-1]["state"]["result"]
    return expected


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main(old_src: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "rooms.db"
        port = free_port()
        env = os.environ | LIMITS | {"PYTHONPATH": old_src}
        command = [sys.executable, "-m", "setgame.server", "--port", str(port), "--db", str(db),
                   "--create-db", "--log-level", "warning"]  # fmt: skip
        server = subprocess.Popen(command, env=env)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                with contextlib.suppress(OSError):
                    fetch(base, "/api/health")
                    break
                time.sleep(0.05)
            expected = asyncio.run(play(base))
        finally:
            server.terminate()
            server.wait(10)
        out = HERE / "rooms.db"
        out.unlink(missing_ok=True)
        with contextlib.closing(sqlite3.connect(db)) as conn:
            conn.execute("VACUUM INTO ?", (str(out),))
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
