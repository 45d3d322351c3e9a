"""The socket layer: rate-limit, parse a typed message, hand it to the room.

Nothing here knows the rules. Each connection has an outgoing queue drained by
its own task, so a slow client never holds up a room's broadcast; a client too
far behind is closed (1008) and may reconnect and resync.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from setgame.game import GameError
from setgame.server import protocol as p
from setgame.server.registry import Rooms
from setgame.server.rooms import Room

log = logging.getLogger(__name__)

RATE: Final = 20.0
"""Messages per second a connection may send on average..."""
BURST: Final = 40.0
"""...and at once."""
GARBAGE_LIMIT: Final = 10
"""Consecutive undecodable frames before the server closes with 1003."""
BACKLOG: Final = 256
"""Outgoing messages a connection may have queued before it counts as stuck."""
HELLO_SECONDS: Final = 15.0
"""A socket that has not said hello by then is closed with 1008."""
ROOM_CONNECTIONS: Final = 200
"""Connections one room accepts (players and spectators); more are closed with 1008."""


class TokenBucket:
    """``rate`` tokens per second, at most ``burst`` saved up; one token per message."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class SocketConnection:
    """One client's websocket, as a room sees it: ``player``, ``send``, ``close``."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.player: str | None = None
        self.greeted = False
        self.closing: int | None = None
        self._out: asyncio.Queue[str | int] = asyncio.Queue()

    def send(self, text: str) -> None:
        if self.closing is not None:
            return
        if self._out.qsize() >= BACKLOG:
            self.close(p.CLOSE_POLICY)
            return
        self._out.put_nowait(text)

    def close(self, code: int) -> None:
        if self.closing is None:
            self.closing = code
            self._out.put_nowait(code)

    async def pump(self) -> None:
        """Send queued messages in order; a close code ends the connection."""
        try:
            while True:
                item = await self._out.get()
                if isinstance(item, int):
                    await self.ws.close(item)
                    return
                await self.ws.send_text(item)
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closing = self.closing or 1006


async def websocket_endpoint(ws: WebSocket) -> None:
    rooms: Rooms = ws.app.state.rooms
    await ws.accept()
    room = await rooms.load(ws.path_params["room_id"])
    if room is None:
        await ws.close(p.CLOSE_NO_ROOM, "no such room")
        return
    if room.sockets >= ROOM_CONNECTIONS:
        await ws.close(p.CLOSE_POLICY, "the room is crowded")
        return
    conn = SocketConnection(ws)
    pump = asyncio.create_task(conn.pump())
    room.sockets += 1
    try:
        await _serve(room, conn)
    finally:
        room.sockets -= 1
        room.detach(conn)
        conn.close(1000)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(pump, 1.0)
        if not pump.done():
            pump.cancel()


async def _serve(room: Room, conn: SocketConnection) -> None:
    bucket, garbage = TokenBucket(), 0
    while conn.closing is None:
        try:
            message = await asyncio.wait_for(
                conn.ws.receive(), None if conn.greeted else HELLO_SECONDS
            )
        except TimeoutError:
            conn.close(p.CLOSE_POLICY)
            return
        if message["type"] == "websocket.disconnect":
            return
        if not bucket.take():
            conn.close(p.CLOSE_POLICY)
            return
        ok = await _frame(room, conn, message.get("text"), message.get("bytes"))
        garbage = 0 if ok else garbage + 1
        if garbage >= GARBAGE_LIMIT:
            conn.close(p.CLOSE_UNSUPPORTED)


async def _frame(room: Room, conn: SocketConnection, text: str | None, data: bytes | None) -> bool:
    """Handle one frame; False when it could not be understood."""
    if text is None:
        size = len(data or b"")
        if size > p.MAX_FRAME:
            conn.close(p.CLOSE_TOO_BIG)
            return False
        _error(conn, "not_text", f"messages are JSON text frames, got {size} binary bytes")
        return False
    try:
        message = p.decode(text)
    except p.ProtocolError as exc:
        if exc.code == "too_big":
            conn.close(p.CLOSE_TOO_BIG)
        else:
            _error(conn, exc.code, str(exc), exc.request)
        return False
    try:
        await dispatch(room, conn, message)
    except GameError as exc:
        _error(conn, exc.code, str(exc), _tag(message))
    except Exception:
        log.exception("room %s: %r failed", room.id, message)
        conn.close(p.CLOSE_SERVER_ERROR)
    return True


def _tag(message: p.ClientMessage) -> str:
    return str(type(message).__struct_config__.tag)


def _error(conn: SocketConnection, code: str, message: str, request: str | None = None) -> None:
    conn.send(p.encode(p.Error(code=code, message=message, request=request)))


async def dispatch(room: Room, conn: SocketConnection, message: p.ClientMessage) -> None:
    """Hand one typed message to the room, as the connection's own seat."""
    match message:
        case p.Ping():
            conn.send(p.encode(p.Pong()))
        case p.Hello(token=token, since=since):
            room.detach(conn)
            conn.player = room.seat_for(token)
            conn.greeted = True
            conn.send(room.welcome(conn, since))
            room.attach(conn)  # an unknown token leaves a spectator: welcome says you=null
        case _ if not conn.greeted:
            raise GameError("hello_first", f"send 'hello' before {_tag(message)!r}")
        case p.Join(name=name):
            await room.join(conn, name, conn.ws.client.host if conn.ws.client else "?")
        case p.Hint():
            conn.send(p.encode(p.HintReply(cards=room.hint(_seat(conn)))))
        case p.Leave():
            await room.leave(conn)
        case p.Again():
            await room.new_game(requested_by=_seat(conn))
        case _:
            await _play(room, _seat(conn), message)


async def _play(room: Room, player: str, message: p.ClientMessage) -> None:
    match message:
        case p.Start():
            await room.start(player)
        case p.Call(version=version):
            await room.call(player, version)
        case p.Pick(cards=cards, version=version):
            await room.pick(player, cards, version)
        case p.NoSet():
            await room.no_set(player)
        case _:  # pragma: no cover - every type is handled above
            raise GameError("unknown_type", f"unhandled message {message!r}")


def _seat(conn: SocketConnection) -> str:
    if conn.player is None:
        raise GameError("not_seated", "join the game first: spectators cannot act")
    return conn.player
