"""An arena, played from the terminal (``setgame play --arena URL``; ``docs/protocol.md``,
"Arenas"): the arena's socket enters the player and keeps the standings; each pairing it
sends is a room this session plays through a :class:`~setgame.tui.remote.RemoteSession`
holding the seat's token, one after another. Between games the view is the standings
(phase ``arena``); during a game it is the room's view with the arena's line beside it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any, Final
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from setgame.server.client import SESSION_COOKIE, ws_url
from setgame.tui.remote import RETRY_DELAYS, RemoteError, RemoteSession, _why, default_name

Event = dict[str, Any]

#: Seconds a finished game's results stay on screen before the standings come back.
RESULTS_SECONDS: Final = 3.0
#: Seconds the standings stay on screen at least before the next game's room is entered (the
#: server pairs again at once; the room waits for its players up to its start time, 15 s).
STANDINGS_SECONDS: Final = 4.0
#: Seconds to wait for the arena's answers (welcome, entered) when opening.
OPEN_TIMEOUT: Final = 10.0
#: The arena's socket refuses a frame over 4096 bytes; the server's frames are bounded too,
#: but a client keeps its own bound (the standings hold at most 100 rows).
MAX_FRAME: Final = 2**20


def split_arena_url(url: str) -> tuple[str, str]:
    """``http://host:port/arena/<id>`` -> (``http://host:port``, ``<id>``).

    >>> split_arena_url("http://127.0.0.1:8000/arena/ab12")
    ('http://127.0.0.1:8000', 'ab12')
    >>> split_arena_url("http://127.0.0.1:8000/room/ab12")
    Traceback (most recent call last):
    ...
    setgame.tui.arena.ArenaError: not an arena address: 'http://127.0.0.1:8000/room/ab12' (expected http://host:port/arena/<id>)
    """
    parts = urlsplit(url.strip()) if isinstance(url, str) else None
    path = parts.path.strip("/").split("/") if parts else []
    good = parts is not None and parts.scheme in ("http", "https") and bool(parts.netloc)
    if not good or len(path) != 2 or path[0] != "arena" or not 0 < len(path[1]) <= 64:
        raise ArenaError(f"not an arena address: {url!r} (expected http://host:port/arena/<id>)")
    assert parts is not None
    return f"{parts.scheme}://{parts.netloc}", path[1]


class ArenaError(RemoteError):
    """An arena that cannot be played: not there, not reachable, or refusing this player
    (``code``: the server's error code, worded by the screen)."""

    def event(self, base_url: str, room: str) -> Event:
        return {
            "type": "arena_unreachable", "why": self.why, "server": base_url, "room": room,
            "code": self.code, "message": str(self),
        }  # fmt: skip


class ArenaRoom(RemoteSession):
    """A room the arena seated this player in: it opens with the seat's token (no ``join``)."""

    def __init__(self, base_url: str, room: str, token: str) -> None:
        super().__init__(f"{base_url}/room/{room}")
        self.token = token

    async def open(self, now: float) -> None:
        self._now = self._received = now
        self.client = await self._connect(self.token, None)


class ArenaSession:
    """A participant of an arena: the terminal app's session (``setgame.tui.app.Session``)."""

    def __init__(self, url: str, *, name: str | None = None, session: str | None = None) -> None:
        self.base_url, self.arena_id = split_arena_url(url)
        self.room_id = self.arena_id  # what the app's "cannot open" screen names
        self.name = name or default_name()
        self.session = session
        self.ws: ClientConnection | None = None
        self.arena: dict[str, Any] = {}  # the summary, then the standings' times and status
        self.standings: list[dict[str, Any]] = []
        self.you: dict[str, Any] | None = None
        # paused by p: the server's row says "playing" during a game, whether paused or not
        self.paused = False
        self.room: ArenaRoom | None = None
        self._over_at: float | None = None  # when the room's game ended (app clock)
        self._shown_at = 0.0  # when the standings came on screen (app clock)
        self._pairings: list[dict[str, Any]] = []
        self._pending: list[Event] = []
        self._reader: asyncio.Task[None] | None = None
        self._entering: asyncio.Task[None] | None = None
        self._answers: asyncio.Queue[dict[str, Any]] | None = None  # while saying hello
        self._resuming: asyncio.Task[None] | None = None
        self._closing = False
        self.token: str | None = None  # from ``entered``: resumes this participant
        self._now = 0.0

    # -- the arena's socket --------------------------------------------------------------

    async def open(self, now: float) -> None:
        """Connect, say hello, join: the player waits for the first pairing."""
        self._now = self._shown_at = now
        try:
            await self._connect(None)
            self._answers = asyncio.Queue()
            await self._send("join")
            await self._answer({"entered", "queue"})
        except (WebSocketException, OSError, TimeoutError) as exc:
            where = f"arena {self.arena_id!r} at {self.base_url!r}"
            raise ArenaError(f"cannot open {where}: {exc}", _why(exc)) from exc
        finally:
            self._answers = None

    async def _connect(self, token: str | None) -> None:
        """Open the arena's socket and say hello (``token``: as the participant we were)."""
        url = ws_url(self.base_url, f"arena/{self.arena_id}")
        cookie = {"Cookie": f"{SESSION_COOKIE}={self.session}"} if self.session else None
        self._answers = asyncio.Queue()
        try:
            self.ws = await ws_connect(
                url, open_timeout=OPEN_TIMEOUT, proxy=None, max_size=MAX_FRAME,
                additional_headers=cookie,
            )  # fmt: skip
            self._reader = asyncio.get_running_loop().create_task(self._read(self.ws))
            await self._send("hello", name=self.name, token=token)
            await self._answer({"welcome"})
        finally:
            self._answers = None

    async def _resume(self) -> None:
        """The arena's socket closed (a restart, a lost connection, a process that lost it: 1012):
        come back as the same participant with the token; give up after the last delay."""
        for delay in RETRY_DELAYS:
            await asyncio.sleep(delay)
            try:
                await self._connect(self.token)
            except (ValueError, WebSocketException, OSError, TimeoutError):
                continue
            self._pending.append({"type": "reconnected"})
            return
        self._pending.append({"type": "disconnected"})

    async def _send(self, type_: str, **fields: Any) -> None:
        if self.ws is None:
            raise RemoteError("not connected: open the session first", "offline")
        await self.ws.send(json.dumps({"type": type_, **fields}))

    async def _answer(self, wanted: set[str]) -> dict[str, Any]:
        """The next answer of one of the ``wanted`` types; an error answer is raised."""
        assert self._answers is not None
        while True:
            message = await asyncio.wait_for(self._answers.get(), OPEN_TIMEOUT)
            if message.get("type") == "closed":
                raise ArenaError(str(message.get("reason") or "closed"), str(message["why"]))
            if message.get("type") == "error":
                error = ArenaError(str(message.get("message")), "refused_join")
                error.code = str(message.get("code"))
                raise error
            if message.get("type") in wanted:
                return message

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                self._absorb(json.loads(raw))
        except (ConnectionClosed, ValueError):
            pass
        why = "no_room" if ws.close_code == 4004 else "closed"
        if self._answers is not None:
            self._answers.put_nowait({"type": "closed", "why": why, "reason": ws.close_reason})
        elif not self._closing and self.arena.get("status") != "finished":
            self._pending.append({"type": "reconnecting", "code": ws.close_code})
            self._resuming = asyncio.get_running_loop().create_task(self._resume())

    def _absorb(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "welcome" and isinstance(message.get("arena"), dict):
            self.arena.update(message["arena"])
        if kind in ("welcome", "standings") and "you" in message:
            self.you = message["you"]
        state = (self.you or {}).get("state") if kind != "queue" else message.get("state")
        if state in ("paused", "waiting"):
            self.paused = state == "paused"
        if kind == "standings":
            for key in ("status", "starts_at", "ends_at", "players", "podium"):
                if key in message:
                    self.arena[key] = message[key]
            self.standings = list(message.get("standings") or [])
        elif kind == "queue" and self.you is not None:
            self.you = {**self.you, "state": message.get("state"), "room": message.get("room")}
        elif kind == "entered":
            self.token = str(message.get("token") or "") or None
        elif kind == "paired":
            self._pairings.append(message)
        elif kind == "error" and self._answers is None:  # opening raises its errors instead
            self._pending.append({**message, "type": "error"})
        if self._answers is not None:
            self._answers.put_nowait(message)

    # -- the rooms, one after another ------------------------------------------------------

    def poll(self, now: float) -> list[Event]:
        """The arena's news and the room's events since the last poll. A finished game's
        results give way to the standings after a while, and a pairing's room is entered
        once the standings have been on screen a while too."""
        self._now = now
        events, self._pending = self._pending, []
        shown = self.room is None and now - self._shown_at >= STANDINGS_SECONDS
        idle = self._entering is None or self._entering.done()
        if self._pairings and shown and idle:
            pairing = self._pairings.pop(0)
            self._entering = asyncio.get_running_loop().create_task(self._enter(pairing, now))
            events.append({"type": "arena_paired", "opponents": pairing.get("opponents") or []})
        if self.room is not None:
            events += self.room.poll(now)
            over = self.room._state().get("phase") == "match_over"
            if over and self._over_at is None:
                self._over_at = now
            if self._over_at is not None and now - self._over_at >= RESULTS_SECONDS:
                self._leave_room()
        return events

    async def _enter(self, pairing: dict[str, Any], now: float) -> None:
        room = ArenaRoom(self.base_url, str(pairing.get("room")), str(pairing.get("token")))
        try:
            await room.open(now)
        except RemoteError as exc:
            self._pending.append({"type": "error", "code": None, "message": str(exc)})
            return
        if self.room is not None:
            await self.room.hang_up()
        self.room, self._over_at = room, None

    def _leave_room(self) -> None:
        room, self.room, self._over_at = self.room, None, None
        self._shown_at = self._now
        if room is not None:
            asyncio.get_running_loop().create_task(room.hang_up())

    def view(self, now: float) -> dict[str, Any]:
        """The room's view while a game is on (its results a moment after); else the
        standings, as phase ``arena``."""
        arena = self._arena_view(now)
        if self.room is not None:
            return {**self.room.view(now), "arena": arena}
        return {
            "phase": "arena", "mode": "multi", "table": [], "players": [], "deck": 0,
            "variant": {"name": self.arena.get("variant", "classic")}, "arena": arena,
        }  # fmt: skip

    def _arena_view(self, now: float) -> dict[str, Any]:
        return {
            **self.arena,
            "standings": self.standings,
            "you": self.you,
            "paused": self.paused,
            "now": time.time(),  # the arena's times are the server's wall clock
        }

    # -- the player's commands: to the room of the game in progress ------------------------

    def _room(self) -> ArenaRoom:
        if self.room is None:
            error = ArenaError("no game in progress: the arena pairs you by itself", "offline")
            error.code = "arena_between"
            raise error
        return self.room

    async def start(self, now: float) -> None:
        await self._room().start(now)

    async def again(self, now: float) -> None:
        """No "play again" in an arena: the next game comes by itself."""

    async def call(self, now: float) -> None:
        await self._room().call(now)

    async def pick(self, codes: tuple[str, ...], now: float) -> None:
        await self._room().pick(codes, now)

    async def turn(self, position: int, now: float) -> None:
        await self._room().turn(position, now)

    async def no_set(self, now: float) -> None:
        await self._room().no_set(now)

    async def hint(self, now: float) -> list[str]:
        return await self._room().hint(now)

    async def toggle_pause(self) -> None:
        """Leave the pairing queue, or come back to it (``p``)."""
        await self._send("join" if self.paused else "pause")
        self.paused = not self.paused

    @property
    def offline(self) -> bool:
        """True while the socket the screen depends on is closed (the room's in a game)."""
        if self.room is not None:
            return self.room.offline
        return self.ws is None or (self._resuming is not None and not self._resuming.done())

    async def close(self) -> None:
        """Leave the game in progress (it is forfeited) and the arena."""
        if self.room is not None:
            await self.room.close()
        await self.hang_up()

    async def hang_up(self) -> None:
        self._closing = True
        for task in (self._entering, self._resuming):
            if task is not None and not task.done():
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        if self.room is not None:
            await self.room.hang_up()
        if self.ws is not None:
            with contextlib.suppress(WebSocketException, OSError):
                await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)
