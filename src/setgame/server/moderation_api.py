"""Moderation over HTTP (``docs/protocol.md``, "Moderation"): a signed-in moderator bans and
mutes, deletes chat lines, closes rooms and reads the queue of players' reports; anyone
reports a line or a player (``POST /api/reports``, rate-limited per address).

Every moderator action is written with its log row in one transaction before it is answered.
A request of anyone without a role is refused with 403 ``not_moderator``; a bad body with 400
quoting it; a cross-site one (another ``Origin``) with 403 ``bad_origin``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Annotated, Any, Final, Literal, TypeVar

import msgspec
import sqlalchemy as sa
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from setgame.server import protocol as p
from setgame.server.accounts import Account, Accounts, signed_in
from setgame.server.chat import chat_of
from setgame.server.chat_tables import chat_lines
from setgame.server.edge import BodyError, client_host, read_body
from setgame.server.limits import Limits
from setgame.server.moderation import (
    MAX_MINUTES,
    MAX_REASON,
    Ban,
    Banned,
    Bans,
    ModerationError,
    check_reason,
    log_rows,
    logged,
    network_of,
    roles_of,
)
from setgame.server.moderation_tables import closed_rooms, is_closed, reports
from setgame.server.names import MAX_NAME
from setgame.server.registry import Rooms
from setgame.server.rooms import Room
from setgame.server.sockets import TokenBucket
from setgame.server.storage import Storage, StorageError, games

log = logging.getLogger(__name__)

T = TypeVar("T")
REPORT_BURST: Final = 5
REPORTS_PER_HOUR: Final = 20
"""Reports one address may send: a burst, then this many an hour."""
MOST_OPEN: Final = 5000
"""Open reports the queue holds at most; past it new ones are refused (503) until moderators
deal with some: a flood of reports cannot grow the database without end."""
SHOWN: Final = 200
"""Rows a moderator's list shows at most (newest first)."""
BUCKETS: Final = 10_000

Reason = Annotated[str, msgspec.Meta(max_length=MAX_REASON * 2)]
NameText = Annotated[str, msgspec.Meta(max_length=MAX_NAME * 4)]
Address = Annotated[str, msgspec.Meta(max_length=64)]
RoomId = Annotated[str, msgspec.Meta(min_length=1, max_length=32)]


class BanBody(msgspec.Struct, forbid_unknown_fields=True):
    minutes: Annotated[int, msgspec.Meta(ge=1, le=MAX_MINUTES)]
    reason: Reason
    name: NameText | None = None
    address: Address | None = None
    kind: Literal["ban", "mute"] = "ban"


class UnbanBody(msgspec.Struct, forbid_unknown_fields=True):
    name: NameText | None = None
    address: Address | None = None
    kind: Literal["ban", "mute"] | None = None  # None: both


class CloseBody(msgspec.Struct, forbid_unknown_fields=True):
    room: RoomId
    reason: Reason


class ReportBody(msgspec.Struct, forbid_unknown_fields=True):
    room: RoomId
    reason: Reason
    line: Annotated[int, msgspec.Meta(ge=1)] | None = None
    name: NameText | None = None
    game: Annotated[str, msgspec.Meta(max_length=32)] | None = None


# --- plumbing -------------------------------------------------------------------------------


def _answer(status: int, code: str, message: str, **more: Any) -> JSONResponse:
    return JSONResponse({"code": code, "message": message, **more}, status_code=status)


def refusal(ban: Ban) -> JSONResponse:
    """403 for a banned person: why and until when (``until``: wall-clock seconds)."""
    error = Banned(ban)
    return _answer(403, error.code, str(error), **error.details)


def _route(handler: Any) -> Any:
    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)  # type: ignore[no-any-return]
        except ModerationError as exc:
            return _answer(exc.status, exc.code, str(exc))
        except StorageError as exc:  # the path and cause go to the log, not to strangers
            log.error("moderation request %s: %s", request.url.path, exc)
            return _answer(503, "storage_error", "the server cannot store this now: try later")

    return endpoint


def _same_origin(request: Request) -> None:
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    if origin is not None and origin.partition("://")[2] != host:
        raise ModerationError(
            403, "bad_origin", f"a request from {origin!r} to {host!r} is cross-site"
        )


async def _body(request: Request, kind: type[T]) -> T:
    _same_origin(request)
    limits: Limits = request.app.state.limits
    try:
        body = await read_body(request, limits)
    except BodyError as exc:
        raise ModerationError(exc.status, exc.code, str(exc)) from None
    shown = repr(body[:80].decode("utf-8", "replace"))
    try:
        p.check_depth(body, limits.json_depth)
        return msgspec.json.decode(body, type=kind)
    except p.ProtocolError as exc:
        raise ModerationError(400, exc.code, str(exc)) from None
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ModerationError(400, "bad_body", f"{exc}: {shown}") from None


def _storage(request: Request) -> Storage:
    storage: Storage = request.app.state.storage
    return storage


def bans_of(app: Any) -> Bans:
    bans: Bans = app.state.bans
    return bans


async def _moderator(request: Request) -> tuple[Account, set[str]]:
    """The signed-in moderator (or admin) and their roles; 403 for anyone else."""
    account = await signed_in(request)
    if account is None:
        raise ModerationError(403, "not_moderator", "moderators only: sign in as one")
    held = await roles_of(_storage(request), account.id)
    if not held:
        raise ModerationError(403, "not_moderator", f"{account.name!r} is not a moderator")
    return account, held


def _one_target(name: str | None, address: str | None) -> None:
    if (name is None) == (address is None):
        raise ModerationError(
            400, "bad_body", 'give either "name" or "address", not both or neither'
        )


async def _target(request: Request, name: str) -> Account:
    account = await Accounts(_storage(request)).by_name(name)
    if account is None:
        raise ModerationError(404, "no_account", f"no account is named {name!r}")
    return account


# --- bans -----------------------------------------------------------------------------------


async def ban(request: Request) -> Response:
    moderator, held = await _moderator(request)
    body = await _body(request, BanBody)
    _one_target(body.name, body.address)
    reason = check_reason(body.reason)
    account = None if body.name is None else await _target(request, body.name)
    address = None if body.address is None else network_of(body.address)
    if (
        account is not None
        and "admin" not in held
        and await roles_of(_storage(request), account.id)
    ):
        raise ModerationError(403, "not_admin", f"only an admin may {body.kind} {account.name!r}")
    made = await bans_of(request.app).add(
        moderator.name, body.kind, body.minutes, reason, account=account, address=address
    )
    if made.kind == "ban":
        turn_away(_rooms(request), made)
        announce(_rooms(request), {"do": "ban", "ban": made.wire()})
    return JSONResponse({"ban": made.as_dict()}, status_code=201)


def turn_away(rooms: Rooms, made: Ban) -> None:
    """The banned people seated in this process's rooms are told, and their sockets closed
    (``CLOSE_BANNED``): back, they may watch but not sit (``sockets.hello``)."""
    text = Banned(made).frame()
    for room in list(rooms.rooms.values()):
        for conn in list(room.conns):
            seat = room.seats.get(conn.player or "")
            if seat is not None and made.covers(seat.account, getattr(conn, "host", "")):
                conn.send(text)
                conn.close(p.CLOSE_BANNED)


async def unban(request: Request) -> Response:
    moderator, _ = await _moderator(request)
    body = await _body(request, UnbanBody)
    _one_target(body.name, body.address)
    account = None if body.name is None else await _target(request, body.name)
    address = None if body.address is None else network_of(body.address)
    kinds = ("ban", "mute") if body.kind is None else (body.kind,)
    lifted = await bans_of(request.app).lift(moderator.name, kinds, account, address)
    announce(_rooms(request), {"do": "unban"})
    if not lifted:
        who = body.name if body.name is not None else body.address
        raise ModerationError(404, "not_banned", f"{who!r} has no {' or '.join(kinds)} to lift")
    return JSONResponse({"lifted": lifted})


async def recent_bans(request: Request) -> Response:
    await _moderator(request)
    return JSONResponse({"bans": await bans_of(request.app).recent(SHOWN)})


async def moderator_log(request: Request) -> Response:
    await _moderator(request)
    return JSONResponse({"log": await log_rows(_storage(request), SHOWN)})


# --- chat lines -----------------------------------------------------------------------------


async def _game_of(request: Request, room_id: str, game: str | None) -> str:
    """The game whose line is meant: ``game`` if it is the room's, else the room's current
    one (in memory) or newest (in the database); 404 for an unknown room or game."""
    if game is None:
        room = _rooms(request).get(room_id)
        if room is not None:
            return room.game_id
    query = sa.select(games.c.id).where(games.c.room == room_id)
    query = query.where(games.c.id == game) if game else query.order_by(games.c.created.desc())
    async with _storage(request).reading() as conn:
        found = await conn.scalar(query.limit(1))
    if found is None:
        what = f"game {game!r} of room {room_id!r}" if game else f"room {room_id!r}"
        raise ModerationError(404, "no_room", f"no such {what}")
    return str(found)


async def _line(request: Request, room_id: str, game: str, seq: int) -> Any:
    where = sa.and_(
        chat_lines.c.game == game, chat_lines.c.seq == seq, chat_lines.c.room == room_id,
        chat_lines.c.deleted.is_(None),
    )  # fmt: skip
    async with _storage(request).reading() as conn:
        row = (await conn.execute(chat_lines.select().where(where))).first()
    if row is None:
        raise ModerationError(
            404, "no_line", f"room {room_id!r} has no chat line {seq} in game {game!r}"
        )
    return row


def _number(text: str, what: str) -> int:
    """A path's number (a line, a report): a whole number from 1, else 400 quoting it."""
    if not (text.isascii() and text.isdigit()) or len(text) > 12 or int(text) < 1:
        raise ModerationError(400, f"bad_{what}", f"a {what} is a number from 1, not {text[:20]!r}")
    return int(text)


def _rooms(request: Request) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


async def delete_line(request: Request) -> Response:
    moderator, _ = await _moderator(request)
    _same_origin(request)
    room_id = str(request.path_params["room_id"])[:64]
    seq = _number(request.path_params["line"], "line")
    game = await _game_of(request, room_id, request.query_params.get("game", "")[:32] or None)
    row = await _line(request, room_id, game, seq)
    key = sa.and_(chat_lines.c.game == game, chat_lines.c.seq == seq)
    said = f"{room_id}/{game}#{seq} {row.name or row.sender}: {row.text!r}"
    await _storage(request).write(
        (chat_lines.update().where(key).values(text="", deleted=time.time()), {}),
        logged(moderator.name, "delete_line", said),
    )
    room = _rooms(request).get(room_id)
    if room is not None:
        await _unsay(room, game, seq)
    announce(_rooms(request), {"do": "unsay", "room": room_id, "game": game, "seq": seq})
    return JSONResponse({"deleted": {"room": room_id, "game": game, "line": seq}})


async def _unsay(room: Room, game: str, seq: int) -> None:
    """The line leaves the room's history here and every page in this process drops it."""
    chat = chat_of(room)
    async with chat.lock:
        chat.lines = [line for line in chat.lines if (line["game"], line["seq"]) != (game, seq)]
    text = p.encode(p.ChatDeleted(game=game, seq=seq))
    for conn in list(room.conns):
        conn.send(text)


# --- rooms ----------------------------------------------------------------------------------


async def close_room(request: Request) -> Response:
    moderator, _ = await _moderator(request)
    body = await _body(request, CloseBody)
    reason = check_reason(body.reason)
    if await is_closed(_storage(request), body.room):
        raise ModerationError(409, "room_closed", f"room {body.room!r} is closed already")
    await _game_of(request, body.room, None)  # 404 for an unknown room
    row = {"room": body.room, "closed": time.time(), "moderator": moderator.name, "reason": reason}
    await _storage(request).write(
        (closed_rooms.insert().values(row), {}),
        logged(moderator.name, "close_room", body.room, reason),
    )
    rooms = _rooms(request)
    room = rooms.get(body.room)
    if room is not None:
        await shut(rooms, room, reason)
    announce(rooms, {"do": "close", "room": body.room, "reason": reason})
    return JSONResponse({"closed": body.room})


async def shut(rooms: Rooms, room: Room, reason: str) -> None:
    """Tell the room's sockets why, close them (``CLOSE_NO_ROOM``: the page says the room is
    gone), and take the room out of memory; its unfinished game is deleted as an abandoned
    room's is (``registry.py``), its finished games stay for their replays."""
    # Out of memory first: a page told "closed" that asks again finds the room closed (a
    # load checks the closed rooms), never the copy still being taken down.
    rooms._remove(room)
    text = p.encode(p.Error(code="room_closed", message=f"a moderator closed this room: {reason}"))
    for conn in list(room.conns):
        conn.send(text)
        conn.close(p.CLOSE_NO_ROOM)
    unfinished = room.game_id and room.phase != "match_over"
    node = getattr(rooms, "node", None)
    if node is None:
        await room.close()
        if unfinished:
            await rooms.storage.delete_games([room.game_id], [room.id])
        return
    from setgame.server.cluster.mirror import MirrorRoom  # a cluster (docs/cluster.md)

    owner = not isinstance(room, MirrorRoom)
    if owner and unfinished:  # deleted while the lease is held: nobody adopts the game
        await rooms.storage.delete_games([room.game_id], [room.id])
    await node.drop(room, p.CLOSE_NO_ROOM)
    if owner:
        await node.let_go(room.id)


# --- several processes (docs/cluster.md) ----------------------------------------------------


def announce(rooms: Rooms, message: dict[str, Any]) -> None:
    """Tell the other processes of a cluster (none without one) of a moderator's action:
    each applies it to the rooms and sockets it holds (:func:`heard`)."""
    node = getattr(rooms, "node", None)
    if node is not None:
        node.moderate(message)


def follow(rooms: Rooms, bans: Bans) -> None:
    """At start: a process of a cluster applies the actions made on the others."""
    node = getattr(rooms, "node", None)
    if node is not None:
        node.on_moderation.append(lambda message: heard(rooms, bans, message))


async def heard(rooms: Rooms, bans: Bans, message: dict[str, Any]) -> None:
    """Another process's moderator action, applied here (what it did to the database is
    done: only the rooms and sockets in this process's memory are left)."""
    do = message.get("do")
    if do in ("ban", "unban"):
        bans.stale()  # read again at the next check, not up to FRESH seconds later
    if do == "ban":
        turn_away(rooms, Ban.from_wire(message["ban"]))
        return
    room = rooms.get(str(message.get("room")))
    if room is None:
        return
    if do == "unsay":
        await _unsay(room, str(message["game"]), int(message["seq"]))
    elif do == "close":
        await shut(rooms, room, str(message.get("reason", "")))


# --- reports --------------------------------------------------------------------------------


async def report(request: Request) -> Response:
    _same_origin(request)
    host = client_host(request)
    if not _reporter(request, host).take():
        raise ModerationError(429, "rate_limited", "too many reports from this address: wait")
    body = await _body(request, ReportBody)
    reason = check_reason(body.reason)
    if body.line is None and body.name is None:
        raise ModerationError(400, "bad_body", 'report a "line", a "name", or both')
    storage = _storage(request)
    async with storage.reading() as conn:
        open_ = sa.select(sa.func.count()).select_from(reports).where(reports.c.closed.is_(None))
        queued = await conn.scalar(open_)
    if (queued or 0) >= MOST_OPEN:
        raise ModerationError(
            503, "reports_full", "the moderators have too many reports: try later"
        )
    game = await _game_of(request, body.room, body.game)
    text, name = None, None if body.name is None else check_reason(body.name, "name")
    if body.line is not None:
        row = await _line(request, body.room, game, body.line)
        text, name = row.text, name or row.name or row.sender
    account = await signed_in(request)
    values = {
        "room": body.room, "game": game, "line": body.line, "name": name, "text": text,
        "reason": reason, "reporter": account.name if account else None, "address": host,
        "created": time.time(),
    }  # fmt: skip
    async with request.app.state.reporting:  # a double click's two requests: one report
        if await _already_open(storage, values):
            return JSONResponse({"reported": True, "already": True})
        await storage.write((reports.insert().values(values), {}))
    return JSONResponse({"reported": True}, status_code=201)


async def _already_open(storage: Storage, values: dict[str, Any]) -> bool:
    """The same report (of the same line or player, for the same reason, from the same
    address and account) is in the queue still: another would only repeat it there."""
    same = [
        reports.c[key].is_(None) if values[key] is None else reports.c[key] == values[key]
        for key in ("room", "game", "line", "name", "reason", "reporter", "address")
    ]
    query = sa.select(reports.c.id).where(reports.c.closed.is_(None), *same).limit(1)
    async with storage.reading() as conn:
        return await conn.scalar(query) is not None


def _reporter(request: Request, host: str) -> TokenBucket:
    buckets: dict[str, TokenBucket] = request.app.state.reporters
    bucket = buckets.get(host)
    if bucket is None:
        if len(buckets) >= BUCKETS:
            buckets.clear()
        bucket = buckets[host] = TokenBucket(REPORTS_PER_HOUR / 3600, REPORT_BURST)
    return bucket


async def open_reports(request: Request) -> Response:
    await _moderator(request)
    query = reports.select().where(reports.c.closed.is_(None)).order_by(reports.c.id.desc())
    async with _storage(request).reading() as conn:
        rows = (await conn.execute(query.limit(SHOWN))).all()
    fields = ("id", "room", "game", "line", "name", "text", "reason", "reporter", "created")
    return JSONResponse({"reports": [{f: getattr(r, f) for f in fields} for r in rows]})


async def dismiss(request: Request) -> Response:
    moderator, _ = await _moderator(request)
    _same_origin(request)
    number = _number(request.path_params["report"], "report")
    where = sa.and_(reports.c.id == number, reports.c.closed.is_(None))
    async with _storage(request).reading() as conn:
        found = await conn.scalar(sa.select(reports.c.id).where(where))
    if found is None:
        raise ModerationError(404, "no_report", f"no open report {number}")
    await _storage(request).write(
        (reports.update().where(where).values(closed=time.time()), {}),
        logged(moderator.name, "close_report", f"report {number}"),
    )
    return JSONResponse({"closed": number})


def routes() -> list[Route]:
    return [
        Route("/api/moderation/ban", _route(ban), methods=["POST"]),
        Route("/api/moderation/unban", _route(unban), methods=["POST"]),
        Route("/api/moderation/bans", _route(recent_bans), methods=["GET"]),
        Route("/api/moderation/log", _route(moderator_log), methods=["GET"]),
        Route("/api/moderation/reports", _route(open_reports), methods=["GET"]),
        Route("/api/moderation/reports/{report}/close", _route(dismiss), methods=["POST"]),
        Route("/api/moderation/close", _route(close_room), methods=["POST"]),
        Route("/api/rooms/{room_id}/chat/{line}", _route(delete_line), methods=["DELETE"]),
        Route("/api/reports", _route(report), methods=["POST"]),
    ]


def open_moderation(app: Any, storage: Storage) -> None:
    """At start, once the database is open."""
    app.state.bans = Bans(storage)
    app.state.reporters = {}
    app.state.reporting = asyncio.Lock()
