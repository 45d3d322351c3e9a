"""Helpers of the arena tests: a real server process with fast arena settings, a signed-in
creator, and scripted players that take part over the protocol (``/ws/arena/{id}``, then
each paired room's ``/ws/{room}``) and play their games with real sets."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from setgame.rules.cards import card_names, parse_cards
from setgame.rules.sets import find_sets

# The throwaway servers' helpers are shared with the benchmarks (benchmarks/services.py); this
# module is also imported by tests/tui and tests/browser, where tests/server/conftest.py is not.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import services

free_port = services.free_port

FAST = {
    "SETGAME_ARENA_TIME_SCALE": "0.04",  # a 10-minute arena lasts 24 s
    "SETGAME_ARENA_PAIR_SECONDS": "0.2",
    "SETGAME_ARENA_BOT_SECONDS": "3",
    "SETGAME_ARENA_REPEAT_SECONDS": "1",
    "SETGAME_ARENA_START_SECONDS": "2",
    "SETGAME_ARENA_STANDINGS_SECONDS": "0.2",
}
BY_HAND = {**FAST, "SETGAME_ARENA_TIME_SCALE": "0.2", "SETGAME_ARENA_BOT_SECONDS": "60"}
"""Times of an arena played by hand (a terminal's keys, a page's clicks): a 10-minute arena
lasts 120 s, and nobody gets a computer opponent for a minute."""


@contextlib.contextmanager
def server(db: Path | str, port: int, env: dict[str, str] | None = None,
           redis: str | None = None, log: Path | None = None) -> Iterator[str]:
    """``setgame.server`` in a subprocess on ``port`` (one of a cluster with ``redis``);
    yields its base URL."""
    command = [sys.executable, "-m", "setgame.server", "--port", str(port), "--db", str(db),
               "--create-db", "--log-level", "warning", *(["--redis", redis] if redis else [])]
    log = log or Path(db).with_suffix(f".{port}.log")
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                env={**os.environ, **FAST, **(env or {})})
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                assert proc.poll() is None, log.read_text()[-3000:]
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                        break
                assert time.monotonic() < deadline, log.read_text()[-3000:]
                time.sleep(0.1)
            yield base
        finally:
            services.stop_process(proc, 10)


def cookie_of(client: httpx.Client) -> str:
    """The ``Cookie`` header a signed-in client sends."""
    return "; ".join(f"{k}={v}" for k, v in client.cookies.items())


def creator(base: str, name: str = "Host") -> httpx.Client:
    """A signed-in browser (it may create arenas)."""
    client = httpx.Client(base_url=base, timeout=10)
    with client:  # opened here, closed by the caller's ``with``... so opened once only
        answer = client.post("/api/account/claim", json={"name": name, "password": "correct horse"})
    assert answer.status_code == 201, answer.text
    return httpx.Client(base_url=base, timeout=10, cookies=client.cookies)


def new_arena(base: str, name: str = "Host", **settings: Any) -> str:
    """A private arena (beginner's deck, 10 minutes, starting at once unless ``settings``
    say otherwise) created over the API by a signed-in player ``name``; its id."""
    with creator(base, name) as host:
        body = {"deck": "beginner", "minutes": 10, "starts_in_seconds": 0, **settings}
        answer = host.post("/api/arenas", json=body)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


@dataclass
class Player:
    """A scripted participant: joins, follows every ``paired`` into its room and plays."""

    base: str
    arena: str
    name: str
    delay: float  # seconds before it calls a set it sees: the slower lose
    waits: list[float] = field(default_factory=list)  # queue -> paired, seconds
    rooms: list[str] = field(default_factory=list)
    bots: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    last: dict[str, Any] | None = None  # the last standings
    waiting_since: float | None = None
    games: set[asyncio.Task[None]] = field(default_factory=set)
    cookie: str | None = None  # a signed-in player's session cookie

    def _connect(self, path: str) -> Any:
        headers = {"Cookie": self.cookie} if self.cookie else None
        return connect(f"{self.ws_base}{path}", additional_headers=headers)

    @property
    def ws_base(self) -> str:
        return self.base.replace("http://", "ws://")

    async def run(self, until: float, *, drain: bool = False) -> None:
        """Take part until ``until`` (or the arena's end); ``drain``: then pause and play
        the game in progress to its end, so that no game of ours is left unfinished."""
        async with self._connect(f"/ws/arena/{self.arena}") as ws:
            await ws.send(json.dumps({"type": "hello", "name": self.name}))
            await ws.send(json.dumps({"type": "join"}))
            while time.monotonic() < until:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.1, until - time.monotonic()))
                except TimeoutError:
                    break
                message = json.loads(raw)
                if self.on_message(message):
                    break
            if drain:
                await ws.send(json.dumps({"type": "pause"}))
                await asyncio.sleep(0.5)  # a pairing made just before the pause
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.gather(*self.games), 20)
        games = list(self.games)
        for task in games:
            task.cancel()
        await asyncio.gather(*games, return_exceptions=True)  # their sockets closed

    def on_message(self, message: dict[str, Any]) -> bool:
        kind = message["type"]
        if kind == "error":
            self.errors.append(message)
        elif kind == "queue" and message["state"] == "waiting" and self.waiting_since is None:
            self.waiting_since = time.monotonic()
        elif kind == "paired":
            if self.waiting_since is not None:
                self.waits.append(time.monotonic() - self.waiting_since)
            self.waiting_since = None
            self.rooms.append(message["room"])
            self.bots += message["bot"]
            task = asyncio.create_task(self.play(message["room"], message["token"]))
            self.games.add(task)
            task.add_done_callback(self.games.discard)
        elif kind == "standings":
            self.last = message
            return bool(message["status"] == "finished")
        return False

    async def play(self, room: str, token: str) -> None:
        with contextlib.suppress(ConnectionClosed):
            async with self._connect(f"/ws/{room}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                await self._play(ws)

    async def _play(self, ws: ClientConnection) -> None:
        me = None
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "welcome":
                me = message["you"]
                assert me is not None, message  # the seat token seats us
            state = message.get("state")
            if state is None:
                continue
            if state["phase"] == "match_over":
                return
            if state["phase"] != "playing":
                continue
            if state["holder"] == me:
                sets = find_sets(parse_cards(state["table"]))
                if sets:
                    await ws.send(json.dumps({"type": "pick", "cards": card_names(sets[0]),
                                              "version": state["version"]}))
            elif state["holder"] is None and find_sets(parse_cards(state["table"])):
                await asyncio.sleep(self.delay)
                await ws.send(json.dumps({"type": "call", "version": state["version"]}))
