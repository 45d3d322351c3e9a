"""An online room, played through the protocol client (``docs/protocol.md``).

The client's reader keeps the latest view; :meth:`RemoteSession.poll` takes the
queued updates and errors, and :meth:`RemoteSession.view` ages the countdown and
the clock by the time since the view arrived, on the app's clock.
"""

from __future__ import annotations

import getpass
from typing import Any
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed

from setgame.server.client import Client, ClientError

Event = dict[str, Any]


class RemoteError(ValueError):
    """A room address that cannot be used."""


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


class RemoteSession:
    """A seat (or, when seats are taken, a spectator's chair) in a room on a server."""

    def __init__(self, url: str, *, name: str | None = None) -> None:
        self.base_url, self.room_id = split_room_url(url)
        self.name = name or default_name()
        self.client: Client | None = None
        self._received = 0.0  # app clock when the latest view arrived
        self._pending: list[Event] = []

    async def open(self, now: float) -> None:
        """Connect, then take a seat (a finished or full room leaves us watching)."""
        try:
            self.client = await Client.connect(self.base_url, self.room_id)
        except ClientError:
            raise
        except (ConnectionClosed, OSError, TimeoutError) as exc:
            # the server may close the socket (4004: no such room) before the client's
            # own error handling sees it
            raise RemoteError(
                f"cannot open room {self.room_id!r} at {self.base_url!r}: {exc}"
            ) from exc
        self._received = now
        try:
            await self.client.join(self.name)
        except ClientError as exc:  # seats taken or the game under way: watch
            code = getattr(exc, "code", None)
            self._pending.append({"type": "error", "code": code, "message": str(exc)})

    def _client(self) -> Client:
        if self.client is None:
            raise RemoteError("not connected: open the session first")
        return self.client

    def _state(self) -> dict[str, Any]:
        return dict(self.client.state or {}) if self.client is not None else {}

    async def start(self, now: float) -> None:
        await self._client().start()

    async def call(self, now: float) -> None:
        await self._client().call()

    async def pick(self, codes: tuple[str, ...], now: float) -> None:
        await self._client().pick(codes)

    async def no_set(self, now: float) -> None:
        await self._client().no_set()

    async def hint(self, now: float) -> list[str]:
        return await self._client().hint()

    async def close(self) -> None:
        if self.client is not None:
            await self.client.close()

    def poll(self, now: float) -> list[Event]:
        """The events of every update since the last poll, and the server's errors."""
        events, self._pending = self._pending, []
        client = self.client
        if client is None:
            return events
        for message in client.drain():
            if message["type"] == "update":
                events += message.get("events", [])
                self._received = now
            elif message["type"] == "welcome":
                self._received = now
            elif message["type"] == "error":
                events.append({"type": "error", **message})
        if client.closed is not None and not getattr(self, "_told_closed", False):
            self._told_closed = True
            events.append(
                {"type": "disconnected", "reason": client.closed.reason or client.closed.code}
            )
        return events

    def view(self, now: float) -> dict[str, Any]:
        """The latest view from the server, its countdown and clock aged to ``now``."""
        state = self._state()
        if not state:
            return {"phase": "lobby", "mode": "multi", "table": [], "players": [], "deck": 0}
        age = max(0.0, now - self._received)
        left = state.get("deadline_in", state.get("deadline"))
        state["deadline_in"] = None if left is None else max(0.0, float(left) - age)
        if state.get("clock") is not None and state.get("phase") == "playing":
            state["clock"] = float(state["clock"]) + age
        state["you"] = self._client().player
        return state
