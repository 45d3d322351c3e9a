"""An online room, played through the protocol client (``docs/protocol.md``).

The client's reader keeps the latest view; :meth:`RemoteSession.poll` takes the
queued updates and errors, and :meth:`RemoteSession.view` ages the countdown and
the clock by the time since the view arrived, on the app's clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import getpass
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed, WebSocketException

from setgame.server.client import Client, ClientError, Disconnected

Event = dict[str, Any]
T = TypeVar("T")


class RemoteError(ValueError):
    """A room address that cannot be used. ``why`` says which way: ``"refused"`` (nothing
    listens there), ``"no_room"`` (the server knows no such room), ``"closed"`` (the socket
    closed before the room answered) or ``"address"`` (not a room address)."""

    def __init__(self, message: str, why: str = "address") -> None:
        super().__init__(message)
        self.why = why
        self.code: str | None = None

    def event(self, base_url: str, room: str) -> Event:
        """The ``unreachable`` event the screen words in the player's language."""
        return {"type": "unreachable", "why": self.why, "server": base_url, "room": room}


#: The close code the server gives a socket for a room it does not know (docs/protocol.md).
NO_ROOM_CODE = 4004
SEAT_ELSEWHERE_CODE = 4009  # the seat said hello on another socket (docs/protocol.md)


def _why(exc: BaseException) -> str:
    """Which way a connection attempt failed (see :class:`RemoteError`)."""
    if isinstance(exc, ConnectionRefusedError) or (
        isinstance(exc, OSError) and exc.errno == errno.ECONNREFUSED
    ):
        return "refused"
    code = getattr(exc, "code", None)
    frame = getattr(exc, "rcvd", None)
    if code == NO_ROOM_CODE or getattr(frame, "code", None) == NO_ROOM_CODE:
        return "no_room"
    return "closed"


def split_room_url(url: str) -> tuple[str, str]:
    """``http://host:port/room/<id>`` -> (``http://host:port``, ``<id>``).

    >>> split_room_url("http://127.0.0.1:8000/room/ab12")
    ('http://127.0.0.1:8000', 'ab12')
    >>> split_room_url("http://127.0.0.1:8000/")
    Traceback (most recent call last):
    ...
    setgame.tui.remote.RemoteError: not a room address: 'http://127.0.0.1:8000/' (expected http://host:port/room/<id>)
    """
    parts = urlsplit(url.strip()) if isinstance(url, str) else None
    path = parts.path.strip("/").split("/") if parts else []
    if not parts or parts.scheme not in ("http", "https") or len(path) != 2 or path[0] != "room":
        raise RemoteError(f"not a room address: {url!r} (expected http://host:port/room/<id>)")
    return f"{parts.scheme}://{parts.netloc}", path[1]


def default_name() -> str:
    try:
        name = getpass.getuser()
    except (OSError, KeyError):
        name = ""
    return (name or "Player")[:24]


#: Seconds to wait before each attempt to get back into the room after the socket closed.
RETRY_DELAYS = (0.2, 0.5, 1.0, 1.0, 2.0, 2.0, 3.0, 5.0, 5.0, 5.0, 5.0)


class RemoteSession:
    """A seat (or, when seats are taken, a spectator's chair) in a room on a server.

    When the socket closes unexpectedly the session reconnects in the background
    with its seat's token, so a restarted server or a network hiccup costs nothing.
    """

    def __init__(self, url: str, *, name: str | None = None, session: str | None = None) -> None:
        self.base_url, self.room_id = split_room_url(url)
        self.name = name or default_name()
        self.session = session  # signed in (claimed_session): joins as that player
        self.client: Client | None = None
        self._received = 0.0  # app clock when the latest view arrived
        self._now = 0.0  # app clock at the latest poll
        self._pending: list[Event] = []
        self._resuming: asyncio.Task[None] | None = None
        self._closing = False

    async def open(self, now: float) -> None:
        """Connect, then take a seat (a finished or full room leaves us watching)."""
        self._now = self._received = now
        self.client = await self._connect(None, None)
        try:
            await self.client.join(self.name)
        except ClientError as exc:  # seats taken or the game under way: watch
            code = getattr(exc, "code", None)
            self._pending.append({"type": "error", "code": code, "message": str(exc)})

    async def _connect(self, token: str | None, since: int | None) -> Client:
        try:
            return await Client.connect(
                self.base_url, self.room_id, token=token, since=since, session=self.session
            )
        except (ClientError, WebSocketException, OSError, TimeoutError) as exc:
            # the server may close the socket (4004: no such room) before the client's
            # own error handling sees it, or answer with a Disconnected carrying the code
            where = f"room {self.room_id!r} at {self.base_url!r}"
            raise RemoteError(f"cannot open {where}: {exc}", _why(exc)) from exc

    def _client(self) -> Client:
        if self.client is None:
            raise RemoteError("not connected: open the session first")
        return self.client

    def _state(self) -> dict[str, Any]:
        return dict(self.client.state or {}) if self.client is not None else {}

    async def _send(self, send: Callable[[Client], Awaitable[T]]) -> T:
        try:
            return await send(self._client())
        except (ConnectionClosed, Disconnected) as exc:
            error = RemoteError(f"not connected to room {self.room_id!r}: {exc}", "offline")
            error.code = "offline"  # worded by the screen, like the server's error codes
            raise error from exc

    async def start(self, now: float) -> None:
        await self._send(lambda client: client.start())

    async def again(self, now: float) -> None:
        await self._send(lambda client: client.again())

    async def call(self, now: float) -> None:
        await self._send(lambda client: client.call())

    async def pick(self, codes: tuple[str, ...], now: float) -> None:
        await self._send(lambda client: client.pick(codes))

    async def turn(self, position: int, now: float) -> None:
        """Memory: turn up the card at ``position`` (the wire message of docs/protocol.md)."""
        await self._send(lambda client: client.turn(position))

    async def no_set(self, now: float) -> None:
        await self._send(lambda client: client.no_set())

    async def hint(self, now: float) -> list[str]:
        return await self._send(lambda client: client.hint())

    async def close(self) -> None:
        """Give up the seat (the others see the player leave at once), then hang up."""
        await self._stop_resuming()
        client = self.client
        if client is not None and client.closed is None and client.player is not None:
            with contextlib.suppress(ConnectionClosed, ClientError):
                await client.leave()
        await self.hang_up()

    async def hang_up(self) -> None:
        """Close the connection, keeping the seat: the app ended without q (as when the
        terminal closes), so the seat waits for the player's return as after a drop."""
        await self._stop_resuming()
        if self.client is not None:
            await self.client.close()

    async def _stop_resuming(self) -> None:
        self._closing = True
        if self._resuming is not None:
            self._resuming.cancel()
            await asyncio.gather(self._resuming, return_exceptions=True)

    @property
    def offline(self) -> bool:
        """True while the socket is closed (reconnecting, or given up)."""
        return self.client is None or self.client.closed is not None

    def poll(self, now: float) -> list[Event]:
        """The events of every update since the last poll, and the server's errors."""
        self._now = now
        events, self._pending = self._pending, []
        client = self.client
        if client is None:
            return events
        for message in client.drain():
            if message["type"] == "update":
                events += message.get("events", [])
                self._received = now
            elif message["type"] == "error":
                events.append({"type": "error", **message})
            elif message["type"] == "presence":
                events.append(self._presence(client, message))
        if client.closed is not None and not self._closing and self._resuming is None:
            if client.closed.code == SEAT_ELSEWHERE_CODE:
                # final: coming back would close the other window's socket, which would come
                # back in turn, and the two would take the seat from each other for ever
                self._closing = True
                events.append({"type": "seat_elsewhere"})
                return events
            events.append({"type": "reconnecting", "code": client.closed.code})
            self._resuming = asyncio.get_running_loop().create_task(self._resume(client))
        return events

    @staticmethod
    def _presence(client: Client, message: dict[str, Any]) -> Event:
        """A seated player's connection came or went: mark it in the view until the next one."""
        seat = client.seat(str(message.get("player")))
        if seat is not None:
            seat["connected"] = bool(message.get("connected"))
        return dict(message)

    async def _resume(self, old: Client) -> None:
        """Get the seat back with its token; give up after the last of RETRY_DELAYS."""
        for delay in RETRY_DELAYS:
            await asyncio.sleep(delay)
            try:
                client = await self._connect(old.token, old.version)
            except ValueError:
                continue
            client.player = client.player or old.player
            self.client, self._received = client, self._now
            self._pending.append({"type": "reconnected"})
            self._resuming = None
            return
        self._pending.append({"type": "disconnected"})

    def view(self, now: float) -> dict[str, Any]:
        """The latest view from the server, its countdown and clock aged to ``now``."""
        state = self._state()
        if not state:
            return {"phase": "lobby", "mode": "multi", "table": [], "players": [], "deck": 0}

        # nothing moves while the socket is closed: the countdown and clock wait for the server
        age = 0.0 if self.offline else max(0.0, now - self._received)
        left = state.get("deadline_in", state.get("deadline"))
        state["deadline_in"] = None if left is None else max(0.0, float(left) - age)
        for player in state.get("players") or ():  # each fair-call wait, aged the same way
            cooling = player.get("cooldown_in")
            if isinstance(cooling, int | float):
                player["cooldown_in"] = max(0.0, float(cooling) - age)
        if state.get("clock") is not None and state.get("phase") == "playing":
            state["clock"] = float(state["clock"]) + age
        state["you"] = self._client().player
        state["link"] = f"{self.base_url}/room/{self.room_id}"
        return state
