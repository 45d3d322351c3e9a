"""The socket layer: rate-limit, parse a typed message, hand it to the room.

Nothing here knows the rules. A message goes out at once while the socket has
room; else it waits in the connection's outgoing queue, drained by its own task,
so a slow client never holds up a room's broadcast; a client too far behind is
closed (1008) and may reconnect and resync.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any, Final, TypeVar

from starlette.websockets import WebSocket, WebSocketDisconnect

from setgame.rules.game import GameError
from setgame.server import protocol as p
from setgame.server.accounts import seat_name, signed_in
from setgame.server.chat import ChatBounds, chat_of
from setgame.server.edge import BITES, client_host, foreign_origin
from setgame.server.limits import Limits
from setgame.server.memory import CHURN
from setgame.server.moderation import Banned, Bans
from setgame.server.names import NameRefused
from setgame.server.registry import Rooms
from setgame.server.rooms import Room
from setgame.server.storage import OUTAGES

log = logging.getLogger(__name__)

RATE: Final = 20.0
"""Messages per second a connection may send on average..."""
BURST: Final = 40.0
"""...and at once."""
GARBAGE_LIMIT: Final = 10
"""Consecutive undecodable frames before the server closes with 1003."""
STORAGE_UNAVAILABLE: Final = p.STORAGE_UNAVAILABLE
"""The reason of a 1011 close when the database (or a cluster's Redis) is down."""
BACKLOG: Final = 256
"""Outgoing messages a connection may have queued before it counts as stuck."""


class TokenBucket:
    """``rate`` tokens per second, at most ``burst`` saved up; one token per message."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def full(self) -> bool:
        """Whether it has refilled: as good as a new one."""
        return self.tokens + (time.monotonic() - self.stamp) * self.rate >= self.burst

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Lobby:
    """Websockets open but not yet greeted (no ``hello``), per client address and in total:
    they cost the server a socket each and prove nothing, so both counts are capped
    (``unauth_per_client``, ``unauth_total``). Greeted sockets count against their room."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.waiting: Counter[str] = Counter()
        self.total = 0

    def enter(self, host: str) -> str | None:
        """Count a new socket from ``host``; the name of the limit that refuses it, if any."""
        if self.total >= self.limits.unauth_total:
            return "unauth_total"
        if self.waiting[host] >= self.limits.unauth_per_client:
            return "unauth_per_client"
        self.waiting[host] += 1
        self.total += 1
        return None

    def leave(self, host: str) -> None:
        self.total -= 1
        self.waiting[host] -= 1
        if self.waiting[host] <= 0:
            del self.waiting[host]


SEND_ERRORS: Final = (WebSocketDisconnect, RuntimeError, OSError)
"""What sending on a websocket the client has left raises."""


class _Unfinished:
    """A send that began at once and had to wait (the socket's buffer was full): the
    suspended coroutine and the future it waits for, for :meth:`SocketConnection.pump`."""

    __slots__ = ("coro", "waiting")

    def __init__(self, coro: Coroutine[Any, Any, None], waiting: object) -> None:
        self.coro, self.waiting = coro, waiting

    async def finish(self) -> None:
        """Resume the coroutine whenever what it waits for is done, to its end."""
        try:
            while True:
                if isinstance(self.waiting, asyncio.Future):
                    await asyncio.wait((self.waiting,))
                else:  # a bare yield (sleep(0)): its task would just run again
                    await asyncio.sleep(0)
                self.waiting = self.coro.send(None)
        except StopIteration:
            return
        finally:
            self.coro.close()


class SocketConnection:
    """One client's websocket, as a room sees it: ``player``, ``send``, ``close``.

    A message is written at once when nothing is waiting to go out before it: the send
    coroutine is stepped right here, and it returns without ever suspending while the
    socket's buffer has room (as a Python 3.12 eager task would run). Otherwise the
    message waits in an outgoing queue that the connection's own task (:meth:`pump`)
    drains, so a slow client never holds up a room's broadcast; a client more than
    :data:`BACKLOG` messages behind is closed (1008) and may reconnect and resync."""

    def __init__(self, ws: WebSocket, limits: Limits | None = None) -> None:
        self.ws = ws
        self.limits = limits or Limits()
        self.host = client_host(ws)
        self.opened = time.monotonic()
        self.player: str | None = None
        self.token: str | None = None  # the seat token said at hello: who may be returning
        self.greeted = False
        self.closing: int | None = None
        self._out: asyncio.Queue[str | tuple[int, str] | _Unfinished | None] = asyncio.Queue()
        self.outages: tuple[type[BaseException], ...] = OUTAGES  # a cluster's: Redis too
        self._pumping = False  # the pump holds a message it has not finished sending

    def send(self, text: str) -> None:
        if self.closing is not None:
            return
        if self._pumping or not self._out.empty():  # keep the order: after the others
            if self._out.qsize() >= BACKLOG:
                self.close(p.CLOSE_POLICY)
                return
            self._out.put_nowait(text)
            return
        coro = self.ws.send_text(text)
        try:
            waiting = coro.send(None)
        except StopIteration:
            return  # written
        except SEND_ERRORS:
            self._gone()
            return
        except Exception:  # this runs inside a room's broadcast: the others must still get it
            log.exception("sending to %s failed; the connection is dropped", self.host)
            self._gone()
            return
        self._out.put_nowait(_Unfinished(coro, waiting))

    def close(self, code: int, reason: str = "") -> None:
        """Close after what is queued, with ``code`` and ``reason`` (a 1011's names why)."""
        if self.closing is None:
            self.closing = code
            self._out.put_nowait((code, reason))

    def _gone(self) -> None:
        """The client has left: stop sending, and end the pump without a close frame."""
        if self.closing is None:
            self.closing = 1006
            self._out.put_nowait(None)

    async def pump(self) -> None:
        """Send queued messages in order; a close code (or None: gone) ends the connection."""
        try:
            while True:
                item = await self._out.get()
                if item is None:
                    return
                if isinstance(item, tuple):
                    code, reason = item
                    await (self.ws.close(code, reason) if reason else self.ws.close(code))
                    return
                self._pumping = True
                if isinstance(item, _Unfinished):
                    await item.finish()
                else:
                    await self.ws.send_text(item)
                self._pumping = False
        except SEND_ERRORS:
            self.closing = self.closing or 1006
        finally:
            self._pumping = False

    @contextlib.asynccontextmanager
    async def pumping(self) -> AsyncIterator[None]:
        """The pump runs while the block does (a room's socket, an arena's); then the
        socket closes (1000) after what is queued, given a second to go out."""
        pump = asyncio.create_task(self.pump())
        try:
            yield
        finally:
            self.close(1000)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pump, 1.0)
            if not pump.done():
                pump.cancel()


async def websocket_endpoint(ws: WebSocket) -> None:
    rooms: Rooms = ws.app.state.rooms
    lobby: Lobby = ws.app.state.lobby
    await ws.accept()
    cross_site = foreign_origin(ws)
    if cross_site is not None:  # another site's page, maybe with our player's cookie
        BITES("websocket_origin", cross_site)
        await ws.close(p.CLOSE_BAD_ORIGIN, "bad_origin")
        CHURN.close()
        return
    conn = SocketConnection(ws, ws.app.state.limits)
    conn.outages = rooms.outages
    refused = lobby.enter(conn.host)
    if refused is not None:
        BITES(refused, f"{conn.host} opened more websockets without hello")
        await ws.close(p.CLOSE_TRY_LATER, "too many connections waiting for hello")
        return
    try:
        try:
            room = await rooms.load(ws.path_params["room_id"])
        except rooms.outages as exc:  # the cause to the log, a named close to the client
            log.error("a handshake to room %r: storage unavailable: %s",
                      ws.path_params["room_id"][:64], exc)
            await ws.close(p.CLOSE_SERVER_ERROR, STORAGE_UNAVAILABLE)
            return
        if room is None:
            await ws.close(p.CLOSE_NO_ROOM, "no such room")
            return
        await _connected(room, conn)
    finally:
        CHURN.close()  # its garbage is for the next full collection (memory.py)
        if not conn.greeted:
            lobby.leave(conn.host)


async def _connected(room: Room, conn: SocketConnection) -> None:
    async with conn.pumping():
        room.sockets += 1
        held = [room]
        try:
            await _serve(held, conn)
        finally:
            room = current(held)
            room.sockets -= 1
            room.detach(conn)


def current(held: list[Room]) -> Room:
    """The socket's room, following a room replaced in this process (``Room.moved_to``: a
    cluster's mirror that became the owner took its connections along, ``cluster/node.py``)."""
    room = held[0]
    while room.moved_to is not None:
        room.sockets -= 1
        room = room.moved_to
        room.sockets += 1
    held[0] = room
    return room


async def _serve(held: list[Room], conn: SocketConnection) -> None:
    bucket, garbage = TokenBucket(), 0
    loop = asyncio.get_running_loop()
    hello_by = loop.time() + conn.limits.hello_seconds  # fixed: a ping does not extend it
    while conn.closing is None:
        try:
            wait = None if conn.greeted else max(0.0, hello_by - loop.time())
            message = await asyncio.wait_for(conn.ws.receive(), wait)
        except TimeoutError:
            BITES("hello_seconds", f"{conn.host} said no hello in time")
            conn.close(p.CLOSE_POLICY)
            return
        if message["type"] == "websocket.disconnect":
            return
        if not bucket.take():
            conn.close(p.CLOSE_POLICY)
            return
        ok = await _frame(current(held), conn, message.get("text"), message.get("bytes"))
        garbage = 0 if ok else garbage + 1
        if garbage >= GARBAGE_LIMIT:
            conn.close(p.CLOSE_UNSUPPORTED)


async def _frame(room: Room, conn: SocketConnection, text: str | None, data: bytes | None) -> bool:
    """Handle one frame; False when it could not be understood."""
    message = decoded(conn, text, data, p.decode)
    if message is None:
        return False
    try:
        await dispatch(room, conn, message)
    except Banned as exc:  # told why and until when
        conn.send(exc.frame(_tag(message)))
    except GameError as exc:
        _error(conn, exc.code, str(exc), _tag(message))
    except conn.outages as exc:  # the cause to the log, a named close to the client
        log.error("room %s: %r: storage unavailable: %s", room.id, message, exc)
        conn.close(p.CLOSE_SERVER_ERROR, STORAGE_UNAVAILABLE)
    except Exception:
        log.exception("room %s: %r failed", room.id, message)
        conn.close(p.CLOSE_SERVER_ERROR, p.SERVER_ERROR)
    return True


Message = TypeVar("Message")


def decoded(
    conn: SocketConnection, text: str | None, data: bytes | None,
    decode: Callable[[str, int], Message],
) -> Message | None:
    """A frame's message by ``decode`` (a room's, an arena's), or None when it cannot be
    understood: the client is told why, or closed (1009) for a frame too big."""
    if text is None:
        size = len(data or b"")
        if size > p.MAX_FRAME:
            conn.close(p.CLOSE_TOO_BIG)
        else:
            _error(conn, "not_text", f"messages are JSON text frames, got {size} binary bytes")
        return None
    try:
        return decode(text, conn.limits.json_depth)
    except p.ProtocolError as exc:
        if exc.code == "too_big":
            conn.close(p.CLOSE_TOO_BIG)
        else:
            _error(conn, exc.code, str(exc), exc.request)
        return None


def _tag(message: p.ClientMessage) -> str:
    return str(type(message).__struct_config__.tag)


def _error(conn: SocketConnection, code: str, message: str, request: str | None = None) -> None:
    conn.send(p.encode(p.Error(code=code, message=message, request=request)))
    conn.ws.app.state.storage.metrics.error(code)  # metrics.py


async def dispatch(room: Room, conn: SocketConnection, message: p.ClientMessage) -> None:
    """Hand one typed message to the room, as the connection's own seat."""
    match message:
        case p.Ping():
            conn.send(p.encode(p.Pong()))
        case p.Hello(token=token, since=since):
            conn.token = token
            hello(room, conn, await _unbanned(room, conn, room.seat_for(token)), since)
            if conn.greeted:
                await chat_of(room).history(conn)
        case _ if not conn.greeted:
            raise GameError("hello_first", f"send 'hello' before {_tag(message)!r}")
        case p.Say(text=text):
            await _bans(conn).check(_account_of(room, conn), conn.host, chat=True)
            await _say(room, conn, text)
        case p.Join(name=name):
            await _join(room, conn, name)
        case p.Hint():
            conn.send(p.encode(p.HintReply(cards=room.hint(_seat(conn)))))
        case p.Leave():
            await room.leave(conn)
        case p.Again():
            await room.new_game(requested_by=_seat(conn))
        case _:
            await _play(room, _seat(conn), message)


async def _say(room: Room, conn: SocketConnection, text: str) -> None:
    """A chat line: the server's bounds (rates, words, newcomers in public rooms), then the
    room's chat (``chat.py``)."""
    state = conn.ws.app.state
    bounds: ChatBounds = state.chat_bounds
    if bounds.limits.chat_min_games > 0 and room.settings.public:
        await bounds.admit(room, conn, await signed_in(conn.ws), state.accounts)
    await chat_of(room).say(conn, text, bounds, conn.host)


async def _join(room: Room, conn: SocketConnection, name: str) -> None:
    """Seat a guest, or a signed-in player under their account (``accounts.seat_name``)."""
    try:
        account = await signed_in(conn.ws)
        rated = room.settings.rated is True
        name, account_id = await seat_name(conn.ws.app.state.accounts, name, account, rated)
    except NameRefused as exc:
        raise GameError(exc.code, str(exc)) from None
    await _bans(conn).check(account_id, conn.host)  # a banned account or address: no seat
    await room.join(conn, name, conn.host, account=account_id, token=conn.token)


def _bans(conn: SocketConnection) -> Bans:
    bans: Bans = conn.ws.app.state.bans
    return bans


def _account_of(room: Room, conn: SocketConnection) -> str | None:
    """The account a socket speaks for: its seat's, or a spectator's session's (a ban holds
    whatever the session's age: no database read for it)."""
    seat = room.seats.get(conn.player) if conn.player is not None else None
    if seat is not None:
        return seat.account
    session = conn.ws.scope.get("session") or {}
    account = session.get("account")
    return account if isinstance(account, str) else None


async def _unbanned(room: Room, conn: SocketConnection, seat: str | None) -> str | None:
    """The seat a hello may take back: none while a ban covers its account or the socket's
    address (the socket is told why and watches as a spectator)."""
    if seat is None:
        return None
    taken = room.seats.get(seat)
    try:
        await _bans(conn).check(taken.account if taken else None, conn.host)
    except Banned as exc:
        conn.send(exc.frame("hello"))
        return None
    return seat


def hello(room: Room, conn: SocketConnection, seat: str | None, since: int | None) -> None:
    """Greet a socket as ``seat`` (None: a spectator; an unknown token is one).

    A seated player always gets in, however crowded the room (a seat's oldest socket makes
    way past ``seat_sockets``); a spectator only while the room has fewer than
    ``room_sockets`` greeted sockets. Saying hello again as the same seat only resends the
    welcome: the others hear nothing of it."""
    if conn.greeted and seat == conn.player:
        conn.send(room.welcome(conn, since))
        return
    if seat is None and not conn.greeted and len(room.conns) >= conn.limits.room_sockets:
        BITES("room_sockets", f"room {room.id} is crowded")
        conn.close(p.CLOSE_POLICY)
        return
    if seat is not None:
        room.make_way(seat, conn)  # past seat_sockets, its oldest sockets close (4009)
    if not conn.greeted:
        conn.greeted = True
        conn.ws.app.state.lobby.leave(conn.host)
    room.detach(conn)
    conn.player = seat
    conn.send(room.welcome(conn, since))
    room.after_welcome(conn)
    room.attach(conn)  # an unknown token leaves a spectator: welcome says you=null


async def _play(room: Room, player: str, message: p.ClientMessage) -> None:
    match message:
        case p.Start():
            await room.start(player)
        case p.Call(version=version):
            await room.call(player, version)
        case p.Pick(cards=cards, version=version):
            await room.pick(player, cards, version)
        case p.Turn(position=position):
            await room.turn(player, position)
        case p.NoSet():
            await room.no_set(player)
        case _:  # pragma: no cover - every type is handled above
            raise GameError("unknown_type", f"unhandled message {message!r}")


def _seat(conn: SocketConnection) -> str:
    if conn.player is None:
        raise GameError("not_seated", "join the game first: spectators cannot act")
    return conn.player
