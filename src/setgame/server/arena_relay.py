"""Arena sockets on the processes that do not run the arena (a cluster, ``docs/cluster.md``,
"Arenas"): their messages relayed through Redis to the owner and back.

A process with sockets of an arena run elsewhere tells the owner every second which of the
arena's participants it holds (``here``: they count as connected, so they are paired), and
hands on their ``join`` and ``pause`` (a new participant is checked where its socket is: its
name, account, bans and rating; the owner enters it). The owner publishes what it sends its own
sockets that concerns them: the messages to one participant (``paired``, ``queue``), the
standings (the shared part once, each remote participant's own row beside it) and the answers
to one socket (``entered``, errors). Everything goes on the two channels below, in order (the
cluster's one publishing connection).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from typing import Any, Final

from setgame.rules.game import GameError
from setgame.server import protocol as p
from setgame.server.cluster.lease import listen
from setgame.server.rooms import Connection

log = logging.getLogger(__name__)

UP: Final = "setgame:arena-up"
"""To the owners: presence and requests of sockets elsewhere."""
DOWN: Final = "setgame:arena-down"
"""From the owners: what the sockets elsewhere are sent."""
PRESENCE_SECONDS: Final = 1.0
PRESENCE_TTL: Final = 3.5
"""A process's participants count as connected this long after its last ``here``."""


class Relay:
    """This process's side of the relay, both ways."""

    def __init__(self, arenas: Any, node: Any) -> None:
        self.arenas = arenas  # the process's Arenas (arena_registry.py, which imports this)
        self.node = node
        self.me: str = node.me
        self.pubsub: Any = node.client.pubsub()
        self.sockets: dict[str, set[Connection]] = {}  # arena run elsewhere -> sockets here
        self.pending: dict[int, tuple[Connection, str]] = {}  # socket id -> (socket, key)
        self.ids: dict[int, Connection] = {}
        self._next = itertools.count(1)
        self.presence: dict[str, dict[str, tuple[float, frozenset[str]]]] = {}  # owner side
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        await self.pubsub.subscribe(UP, DOWN)
        self._tasks = [
            asyncio.create_task(self._listen(), name="arena-relay"),
            asyncio.create_task(self._here(), name="arena-here"),
        ]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()

    def _send(self, channel: str, message: dict[str, Any]) -> None:
        self.node._send(channel, message)  # the cluster's one ordered publisher

    # --- the owner's side ------------------------------------------------------------------

    def remote_keys(self, aid: str) -> set[str]:
        """The participants of ``aid`` connected on other processes now."""
        now = time.monotonic()
        found: set[str] = set()
        for seen, keys in self.presence.get(aid, {}).values():
            if now - seen < PRESENCE_TTL:
                found |= keys
        return found

    def tell(self, aid: str, key: str, text: str) -> None:
        if key in self.remote_keys(aid):
            self._send(DOWN, {"a": aid, "to": key, "text": text})

    def standings(self, aid: str, shared: str, rows: dict[str, str]) -> None:
        if rows:
            self._send(DOWN, {"a": aid, "standings": shared, "rows": rows})

    def _answer(self, message: dict[str, Any], text: str, entered: bool = False) -> None:
        self._send(DOWN, {"a": message["a"], "proc": message["proc"], "conn": message["conn"],
                          "text": text, "entered": entered})

    async def _request(self, message: dict[str, Any]) -> None:
        arena = self.arenas.arenas.get(message["a"])
        if arena is None or not arena.running_here:
            return  # not ours (another process's, or ours no more: the socket retries)
        op, key = message["op"], message["key"]
        if op == "here":
            self.presence.setdefault(arena.id, {})[message["proc"]] = (
                time.monotonic(), frozenset(message["keys"]))
            return
        try:
            if op == "enter":
                token = await arena.enter(key, message["name"], message["account"],
                                          message["rating"])
                entered = {"type": "entered", "name": message["name"], "token": token}
                self._answer(message, json.dumps(entered, separators=(",", ":")), entered=True)
                self.presence.setdefault(arena.id, {}).setdefault(
                    message["proc"], (time.monotonic(), frozenset()))
                seen, keys = self.presence[arena.id][message["proc"]]
                self.presence[arena.id][message["proc"]] = (seen, keys | {key})
            elif op == "join":
                arena.resume(key)
            elif op == "pause":
                arena.pause(key)
        except GameError as exc:
            error = p.Error(code=exc.code, message=str(exc), request=message["request"])
            self._answer(message, p.encode(error))
            return
        arena.tell(key, arena.queue_message(key))
        arena.changed()

    # --- the other processes' side ---------------------------------------------------------

    def attach(self, aid: str, conn: Connection) -> int:
        self.sockets.setdefault(aid, set()).add(conn)
        number = next(self._next)
        self.ids[number] = conn
        return number

    def detach(self, aid: str, conn: Connection, number: int) -> None:
        self.sockets.get(aid, set()).discard(conn)
        if not self.sockets.get(aid):
            self.sockets.pop(aid, None)
        self.ids.pop(number, None)
        self.pending.pop(number, None)

    def ask(self, aid: str, number: int, op: str, key: str, **fields: Any) -> None:
        """Hand a request of socket ``number`` to the owner of ``aid``."""
        if op == "enter":
            self.pending[number] = (self.ids[number], key)
        self._send(UP, {"a": aid, "proc": self.me, "conn": number, "op": op, "key": key,
                        "request": "join" if op == "enter" else op, **fields})

    def _deliver(self, message: dict[str, Any]) -> None:
        conns = self.sockets.get(message["a"])
        if not conns:
            return
        if "proc" in message:
            if message["proc"] != self.me:
                return
            conn = self.ids.get(message["conn"])
            if conn is None:
                return
            waiting = self.pending.pop(message["conn"], None)
            if waiting is not None and message["entered"]:
                conn.player = waiting[1]  # entered: the socket is that participant now
            conn.send(message["text"])
        elif "to" in message:
            for conn in list(conns):
                if conn.player == message["to"]:
                    conn.send(message["text"])
        elif "standings" in message:
            rows: dict[str, str] = message["rows"]
            for conn in list(conns):
                own = rows.get(conn.player or "", "null")
                conn.send(message["standings"] + ',"you":' + own + "}")

    async def _here(self) -> None:
        """Every second: the participants this process holds, per arena run elsewhere."""
        while True:
            for aid, conns in list(self.sockets.items()):
                keys = sorted({c.player for c in conns if c.player is not None})
                self._send(UP, {"a": aid, "proc": self.me, "conn": 0, "op": "here",
                                "key": "", "keys": keys, "request": None})
            await asyncio.sleep(PRESENCE_SECONDS)

    async def _listen(self) -> None:
        await listen(self.pubsub, self._handle, "arena relay")

    async def _handle(self, channel: str, message: dict[str, Any]) -> None:
        if channel == UP:
            await self._request(message)
        else:
            self._deliver(message)
