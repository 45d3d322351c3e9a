"""Arenas over HTTP and the websocket ``/ws/arena/{id}`` (``docs/protocol.md``, "Arenas").

The socket reuses the rooms' socket machinery (``sockets.SocketConnection``: the outgoing
queue, the origin check, the sockets without ``hello``) with its own messages and a tighter
rate: an arena's socket says little (hello, join, pause, ping).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import Annotated, Any, Final

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from setgame.rules.game import GameError
from setgame.server import arena_settings as cfg
from setgame.server import keys
from setgame.server import protocol as p
from setgame.server.accounts import seat_name, signed_in
from setgame.server.arena_registry import Arenas
from setgame.server.arenas import CLOSE_MOVED, Arena
from setgame.server.edge import BITES, BodyError, client_host, foreign_origin, read_body
from setgame.server.limits import Limits
from setgame.server.memory import CHURN
from setgame.server.moderation import Banned
from setgame.server.names import NameRefused
from setgame.server.registry import RoomLimit
from setgame.server.sockets import (
    GARBAGE_LIMIT,
    STORAGE_UNAVAILABLE,
    SocketConnection,
    TokenBucket,
    decoded,
)
from setgame.server.storage import OUTAGES

log = logging.getLogger(__name__)

RATE: Final = 2.0
BURST: Final = 10.0
"""An arena socket's messages: 10 at once, 2 a second sustained (then 1008)."""
JOINS_PER_MINUTE: Final = 10
CREATIONS_PER_MINUTE: Final = 10.0


# --- messages ----------------------------------------------------------------------------


class _In(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    pass


class Hello(_In, tag="hello"):
    name: p.Name | None = None
    token: Annotated[str, msgspec.Meta(max_length=64)] | None = None


class Join(_In, tag="join"):
    pass


class Pause(_In, tag="pause"):
    pass


ArenaMessage = Hello | Join | Pause | p.Ping  # a ping is the rooms' own
_decoder: Final = msgspec.json.Decoder(ArenaMessage)
TYPES: Final = ("hello", "join", "pause", "ping")


def decode(text: str, depth: int = p.MAX_DEPTH) -> ArenaMessage:
    """One client frame -> a typed message, or :class:`ProtocolError` quoting it."""
    data = text.encode()
    if len(data) > p.MAX_FRAME:
        raise p.ProtocolError("too_big", f"frame of {len(data)} bytes exceeds {p.MAX_FRAME}")
    p.check_depth(data, depth)
    try:
        message: ArenaMessage = _decoder.decode(data)
        return message
    except msgspec.ValidationError as exc:
        kind = p._request_type(data)
        if kind is not None and kind not in TYPES:
            raise p.ProtocolError("unknown_type", f"unknown message type: {kind!r}") from None
        raise p.ProtocolError("bad_message", f"{exc} in {p._quote(data)}", kind) from None
    except msgspec.DecodeError:
        raise p.ProtocolError("bad_json", f"not a JSON message: {p._quote(data)}") from None


# --- HTTP --------------------------------------------------------------------------------


def _arenas(request: Request | WebSocket) -> Arenas:
    found: Arenas = request.app.state.arenas
    return found


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status)


async def create_arena(request: Request) -> Response:
    account = await signed_in(request)
    if account is None:
        return _error(401, "not_signed_in", "sign in to create an arena")
    if not _creation_allowed(request):
        return _error(429, "rate_limited", "too many arenas created from this address: wait")
    limits: Limits = request.app.state.limits
    try:
        settings = cfg.decode(await read_body(request, limits), limits.body_bytes)
        address = keys.address_hash(request.app.state.address_key, client_host(request))
        arena = await _arenas(request).create(
            settings, account=account.id, name=account.name, address=address
        )
    except BodyError as exc:
        return _error(exc.status, exc.code, str(exc))
    except p.ProtocolError as exc:
        return _error(413 if exc.code == "too_big" else 400, exc.code, str(exc))
    except cfg.ArenaError as exc:
        return _error(400, exc.code, str(exc))
    except RoomLimit as exc:
        return _error(exc.status, exc.code, str(exc))
    except OUTAGES as exc:
        log.error("cannot create an arena: %s", exc)
        return _error(503, "storage_error", "the server cannot store arenas now: try later")
    return JSONResponse({"id": arena.id, "url": f"/arena/{arena.id}"}, status_code=201)


def _creation_allowed(request: Request) -> bool:
    buckets: dict[str, TokenBucket] = request.app.state.arena_creators
    host = client_host(request)
    bucket = buckets.get(host)
    if bucket is None:
        if len(buckets) > 10_000:
            buckets.clear()
        bucket = buckets[host] = TokenBucket(CREATIONS_PER_MINUTE / 60, CREATIONS_PER_MINUTE)
    return bucket.take()


async def list_arenas(request: Request) -> Response:
    return JSONResponse(_arenas(request).listed())


async def get_arena(request: Request) -> Response:
    aid = request.path_params["arena_id"]
    try:
        arena = await _arenas(request).load(aid)
    except OUTAGES as exc:
        log.error("arena %r: %s", aid[:64], exc)
        return _error(503, "storage_error", "the server cannot read arenas now: try later")
    if arena is None:
        return _error(404, "no_arena", f"no such arena: {aid[:64]!r}")
    return JSONResponse(arena.detail())


# --- the socket --------------------------------------------------------------------------


class ArenaSocket(SocketConnection):
    """A socket of an arena: ``player`` is the participant's key once known."""

    def __init__(self, ws: WebSocket, limits: Limits) -> None:
        super().__init__(ws, limits)
        self.name: str | None = None
        self.joins: deque[float] = deque(maxlen=JOINS_PER_MINUTE)
        self.relayed = 0  # its number in the relay when another process runs the arena


async def arena_socket(ws: WebSocket) -> None:
    await ws.accept()
    if foreign_origin(ws) is not None:
        await ws.close(p.CLOSE_BAD_ORIGIN, "bad_origin")
        return
    conn = ArenaSocket(ws, ws.app.state.limits)
    lobby = ws.app.state.lobby
    if lobby.enter(conn.host) is not None:
        await ws.close(p.CLOSE_TRY_LATER, "too many connections waiting for hello")
        return
    try:
        try:
            arena = await _arenas(ws).load(ws.path_params["arena_id"])
        except OUTAGES as exc:
            log.error("arena socket: storage unavailable: %s", exc)
            await ws.close(p.CLOSE_SERVER_ERROR, STORAGE_UNAVAILABLE)
            return
        if arena is None:
            await ws.close(p.CLOSE_NO_ROOM, "no such arena")
            return
        relay = _arenas(ws).relay
        elsewhere = not arena.running_here and arena.status != "finished"
        if elsewhere and relay is None:  # pragma: no cover - one process runs every arena
            await ws.close(CLOSE_MOVED, "arena_elsewhere")
            return
        async with conn.pumping():
            if elsewhere:  # a cluster: another process runs it; relayed (arena_relay.py)
                conn.relayed = relay.attach(arena.id, conn)  # type: ignore[union-attr]
            try:
                await _serve(arena, conn)
            finally:
                if conn.relayed:
                    relay.detach(arena.id, conn, conn.relayed)  # type: ignore[union-attr]
                arena.detach(conn)
    finally:
        CHURN.close()
        if not conn.greeted:
            lobby.leave(conn.host)


async def _serve(arena: Arena, conn: ArenaSocket) -> None:
    bucket, garbage = TokenBucket(RATE, BURST), 0
    loop = asyncio.get_running_loop()
    hello_by = loop.time() + conn.limits.hello_seconds
    while conn.closing is None:
        try:
            wait = None if conn.greeted else max(0.0, hello_by - loop.time())
            message = await asyncio.wait_for(conn.ws.receive(), wait)
        except TimeoutError:
            conn.close(p.CLOSE_POLICY)
            return
        if message["type"] == "websocket.disconnect":
            return
        if not bucket.take():
            BITES("arena_rate", f"{conn.host} sent too fast on an arena socket")
            conn.close(p.CLOSE_POLICY)
            return
        ok = await _frame(arena, conn, message.get("text"), message.get("bytes"))
        garbage = 0 if ok else garbage + 1
        if garbage >= GARBAGE_LIMIT:
            conn.close(p.CLOSE_UNSUPPORTED)


async def _frame(arena: Arena, conn: ArenaSocket, text: str | None, data: bytes | None) -> bool:
    message = decoded(conn, text, data, decode)
    if message is None:
        return False
    kind = str(type(message).__struct_config__.tag)
    try:
        await _dispatch(arena, conn, message)
    except Banned as exc:
        conn.send(exc.frame(kind))
    except GameError as exc:
        _refuse(conn, exc.code, str(exc), kind)
    except OUTAGES as exc:
        log.error("arena %s: %s failed: %s", arena.id, kind, exc)
        _refuse(conn, "storage_error", "the server cannot store this now: try later", kind)
    except Exception:
        log.exception("arena %s: %r failed", arena.id, message)
        conn.close(p.CLOSE_SERVER_ERROR)
    return True


def _refuse(conn: ArenaSocket, code: str, message: str, request: str | None) -> None:
    conn.send(p.encode(p.Error(code=code, message=message, request=request)))


async def _dispatch(arena: Arena, conn: ArenaSocket, message: ArenaMessage) -> None:
    match message:
        case p.Ping():
            conn.send(p.encode(p.Pong()))
        case Hello(name=name, token=token):
            await _hello(arena, conn, name, token)
        case _ if not conn.greeted:
            raise GameError("hello_first", "send 'hello' first")
        case Join() if conn.relayed:
            _pace(conn)
            await _join_elsewhere(arena, conn)
        case Join():
            _pace(conn)
            await _join(arena, conn)
        case Pause():
            _pace(conn)
            if conn.player is None or (conn.player not in arena.people and not conn.relayed):
                raise GameError("not_entered", "join the arena first")
            if conn.relayed:  # the owner knows (this copy may be older than their entry)
                _arenas(conn.ws).relay.ask(  # type: ignore[union-attr]
                    arena.id, conn.relayed, "pause", conn.player)
                return
            arena.pause(conn.player)
            arena.tell(conn.player, arena.queue_message(conn.player))
            arena.changed()


def _pace(conn: ArenaSocket) -> None:
    """At most :data:`JOINS_PER_MINUTE` joins and pauses a minute from one socket."""
    now = time.monotonic()
    if len(conn.joins) == conn.joins.maxlen and now - conn.joins[0] < 60:
        wait = 60 - (now - conn.joins[0])
        raise GameError("joining_too_fast", f"too many joins and pauses: wait {wait:.0f} s")
    conn.joins.append(now)


async def _hello(arena: Arena, conn: ArenaSocket, name: str | None, token: str | None) -> None:
    account = await signed_in(conn.ws)
    key = f"a:{account.id}" if account is not None else None
    if key is None and token is not None:
        key = arena.by_token(token)  # a guest coming back
    conn.name = account.name if account is not None else name
    if not conn.greeted:
        conn.greeted = True
        conn.ws.app.state.lobby.leave(conn.host)
    arena.detach(conn)
    conn.player = key if key in arena.entries else None
    welcome = {"type": "welcome", "arena": arena.summary(), "you": arena.you(conn.player)}
    conn.send(msgspec.json.encode(welcome).decode())
    arena.attach(conn)
    conn.send(arena.standings_text(conn.player))


async def _join(arena: Arena, conn: ArenaSocket) -> None:
    if conn.player is not None:
        arena.resume(conn.player)
    else:
        await _enter(arena, conn)
    arena.tell(conn.player or "", arena.queue_message(conn.player or ""))
    arena.changed()
    # the joiner sees their own row at once; the others within standings_seconds
    conn.send(arena.standings_text(conn.player))


async def _join_elsewhere(arena: Arena, conn: ArenaSocket) -> None:
    """``join`` on a socket of an arena another process runs: the owner does it (a newcomer
    is checked here first: its name, account, bans and rating)."""
    relay = _arenas(conn.ws).relay
    assert relay is not None
    if conn.player is not None:
        relay.ask(arena.id, conn.relayed, "join", conn.player)
        return
    key, name, account, rating = await _admission(arena, conn)
    relay.ask(arena.id, conn.relayed, "enter", key, name=name, account=account, rating=rating)


async def _enter(arena: Arena, conn: ArenaSocket) -> None:
    key, name, account_id, rating = await _admission(arena, conn)
    token = await arena.enter(key, name, account_id, rating)
    conn.player = key
    conn.send(msgspec.json.encode({"type": "entered", "name": name, "token": token}).decode())


async def _admission(arena: Arena, conn: ArenaSocket) -> tuple[str, str, str | None, int]:
    """Who the socket would enter as: its key, name, account and rating; :class:`GameError`
    when it may not (a guest in a rated arena, no name, a name refused or taken, a ban)."""
    state = conn.ws.app.state
    account = await signed_in(conn.ws)
    if account is None and arena.record.settings.rated:
        raise GameError("rated_arena", "this arena is rated: sign in to play in it")
    if account is None and not conn.name:
        raise GameError("name_needed", "say hello with a name to join as a guest")
    try:
        name, account_id = await seat_name(state.accounts, conn.name or "", account)
    except NameRefused as exc:
        raise GameError(exc.code, str(exc)) from None
    await state.bans.check(account_id, conn.host)
    key = f"a:{account_id}" if account_id is not None else f"g:{name.casefold()}"
    if key in arena.entries:  # a guest's name is the arena's: only its token brings it back
        raise GameError("name_taken", f"{name!r} plays in this arena already: choose another")
    rating = await _arenas(conn.ws).rating(account_id, arena.record.settings.variant)
    return key, name, account_id, rating


def routes() -> list[Any]:
    return [
        Route("/api/arenas", create_arena, methods=["POST"]),
        Route("/api/arenas", list_arenas, methods=["GET"]),
        Route("/api/arenas/{arena_id}", get_arena),
        WebSocketRoute("/ws/arena/{arena_id}", arena_socket),
    ]


async def open_arenas(app: Any, rooms: Any) -> Arenas:
    """The arenas of the app (at start: those not finished come back)."""
    found = Arenas(rooms, app.state.arena_limits)
    app.state.arenas = found
    app.state.arena_creators = {}
    await found.start()
    return found
