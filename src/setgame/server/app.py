"""HTTP routes: the pages, the static web client, the JSON API and the websocket.

See ``docs/protocol.md`` for every route. Pages are the web client's HTML files
with ``{{lang}}``, ``{{room_id}}``, ``{{game_id}}`` and ``{{rules}}`` filled in.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import html
import ipaddress
import logging
import re
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute

from setgame.rules.cards import ATTRIBUTE_NAMES, CARDS, LETTERS, VALUE_NAMES, card_name
from setgame.rules.decks import DECKS
from setgame.rules.game import GameError
from setgame.rules.sets import Flaw
from setgame.server import (
    account_api,
    arena_api,
    delivery,
    keys,
    memory,
    metrics_api,
    moderation_api,
    photo_api,
    roomcap,
    wordfilter,
)
from setgame.server import players as people
from setgame.server import protocol as p
from setgame.server.accounts import signed_in
from setgame.server.arena_settings import ArenaLimits
from setgame.server.bots import BotPlayers
from setgame.server.chat import ChatBounds, stored_lines
from setgame.server.edge import (
    BodyError,
    client_host,
    proxy_middleware,
    read_body,
)
from setgame.server.limits import Limits
from setgame.server.puzzle import daily as daily_puzzle
from setgame.server.puzzle import utc_now
from setgame.server.registry import RoomLimit, Rooms
from setgame.server.rooms import stored_game
from setgame.server.sockets import Lobby, TokenBucket, websocket_endpoint
from setgame.server.storage import Storage, StorageError
from setgame.words import i18n
from setgame.words.event_words import annotate

log = logging.getLogger(__name__)

WEB: Final = Path(__file__).resolve().parent.parent / "web"
LANG_COOKIE: Final = "lang"
_TAG: Final = re.compile(r"^[A-Za-z]{2,3}")


# --- language ---------------------------------------------------------------


def negotiate(request: Request) -> str:
    """``?lang`` > the ``lang`` cookie > Accept-Language > English."""
    for candidate in (request.query_params.get("lang"), request.cookies.get(LANG_COOKIE)):
        if candidate in i18n.LANGUAGES:
            return candidate
    return accept_language(request.headers.get("accept-language", ""))


def accept_language(header: str) -> str:
    """The best of our languages for an Accept-Language header.

    >>> accept_language("de-CH,de;q=0.9,en;q=0.8")
    'de'
    >>> accept_language("fr, pl;q=0.5, ru;q=0.7")
    'ru'
    >>> accept_language("")
    'en'
    """
    best, best_q = i18n.DEFAULT_LANGUAGE, 0.0
    for item in header.split(","):
        tag, _, params = item.strip().partition(";")
        match = _TAG.match(tag.strip())
        lang = match.group(0).lower() if match else ""
        q = _quality(params)
        if lang in i18n.LANGUAGES and q > best_q:
            best, best_q = lang, q
    return best


def _quality(params: str) -> float:
    for param in params.split(";"):
        key, _, value = param.strip().partition("=")
        if key == "q":
            try:
                return max(0.0, min(1.0, float(value)))
            except ValueError:
                return 0.0
    return 1.0


# --- pages ------------------------------------------------------------------


def _page(request: Request, name: str, **values: str) -> Response:
    lang = negotiate(request)
    path = request.app.state.web / "pages" / f"{name}.html"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise HTTPException(404, f"page {name!r} is not installed") from None
    text = _with_parts(request.app.state.web, text, name)
    fields = {"lang": lang, **{k: html.escape(v) for k, v in values.items()}}
    if "{{rules}}" in text:
        fields["rules"] = _rules_fragment(request.app.state.web, lang)
    for key, value in fields.items():
        text = text.replace("{{" + key + "}}", value)
    response = HTMLResponse(text, headers=_page_headers(request, lang))
    if request.query_params.get("lang") == lang:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="lax")
    return response


_CURRENT: Final = {
    "rules": "/rules",
    "puzzle": "/puzzle",
    "leaderboard": "/leaderboard",
    "arenas": "/arena",
    "account": "/account",
    "photo": "/photo",
}
"""The pages the site header links to, by page name: that link is marked as the current page."""


def _with_parts(web: Path, text: str, name: str) -> str:
    """The page with the parts every page shares filled in (no build step: the server does it):
    ``{{head}}`` (meta, style sheet, icon) and ``{{header}}`` (the site header), whose link to
    this page, if any, says so (``aria-current``)."""
    head, header = _parts(web)
    current = _CURRENT.get(name)
    if current is not None:
        header = header.replace(f'href="{current}"', f'href="{current}" aria-current="page"', 1)
    return text.replace("{{head}}", head, 1).replace("{{header}}", header, 1)


@functools.cache
def _parts(web: Path) -> tuple[str, str]:
    pages = web / "pages"
    return (
        (pages / "_head.html").read_text(encoding="utf-8").rstrip("\n"),
        (pages / "_header.html").read_text(encoding="utf-8").rstrip("\n"),
    )


def _rules_fragment(web: Path, lang: str) -> str:
    for candidate in (lang, i18n.DEFAULT_LANGUAGE):
        path = web / "rules" / f"{candidate}.html"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return ""


def _page_headers(request: Request, lang: str) -> dict[str, str]:
    host = request.headers.get("host", "")
    return {
        "Content-Language": lang,
        "Vary": "Accept-Language, Cookie",
        "Cache-Control": "no-cache",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
        delivery.RELEASE_HEADER: delivery.release(request.app.state.web)[0],
        "Content-Security-Policy": (
            "default-src 'self'; img-src 'self' data: blob:; media-src 'self' data:; "
            "style-src 'self' 'unsafe-inline'; script-src 'self'; "
            f"connect-src 'self' ws://{host} wss://{host}; "
            "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
        ),
    }


async def home(request: Request) -> Response:
    return _page(request, "home")


async def rules(request: Request) -> Response:
    return _page(request, "rules")


async def account_page(request: Request) -> Response:
    return _page(request, "account")


async def moderation_page(request: Request) -> Response:
    """The moderators' page; its data comes from ``/api/moderation/...`` (403 to others)."""
    return _page(request, "moderation")


async def photo_page(request: Request) -> Response:
    """A photo of a real table: its cards and sets (``photo_api.py``, issue 24)."""
    return _page(request, "photo")


async def leaderboard_page(request: Request) -> Response:
    return _page(request, "leaderboard")


async def player_page(request: Request) -> Response:
    """A profile; an unknown name is told by the page (the API answers 404)."""
    return _page(request, "player", player_name=request.path_params["name"][:100])


async def arenas_page(request: Request) -> Response:
    """The arenas running and coming (``GET /api/arenas``) and the form to create one."""
    return _page(request, "arenas")


async def arena_page(request: Request) -> Response:
    """One arena: its standings, games and podium over ``/ws/arena/{id}``."""
    return _page(request, "arena", arena_id=request.path_params["arena_id"][:64])


async def room_page(request: Request) -> Response:
    room_id = request.path_params["room_id"]
    if await _rooms(request).load(room_id) is None:
        raise HTTPException(404, f"no such room: {room_id!r}")
    bind = request.app.state.bind_host
    origin, reach = share_origin(request.url.hostname or "", request.url.port, bind, lan_address)
    return _page(request, "room", room_id=room_id, share_origin=origin, reach=reach)


LOOPBACK_NAMES: Final = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})
ALL_INTERFACES: Final = frozenset({"0.0.0.0", "::", ""})


def _is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def share_origin(host: str, port: int | None, bind: str | None, lan: Any) -> tuple[str, str]:
    """The origin to put in a room's share link, and how far it reaches (``local``: this
    machine only, ``lan``: other machines too, ``""``: as the page was opened).

    A page opened on a loopback address of a server bound to all interfaces gets the
    machine's network address (``lan()``), so the link works for friends on other machines;
    a server bound to loopback only is reachable from this machine alone, and the page
    says how to open it to others (``setgame serve --host 0.0.0.0``)."""
    if not _is_loopback(host):
        return "", ""
    if bind is not None and _is_loopback(bind):
        return "", "local"
    if bind in ALL_INTERFACES:
        address = lan()
        if address:
            shown = f"[{address}]" if ":" in address else address
            return f"http://{shown}" + (f":{port}" if port else ""), "lan"
    return "", ""


def lan_address() -> str | None:
    """This machine's address on its network: the source address of a route outwards
    (a UDP socket's connect sends no packet), or None without a network."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, only routed
        address: str = probe.getsockname()[0]
        if not ipaddress.ip_address(address).is_loopback and address != "0.0.0.0":
            return address
    return None


async def offline_page(request: Request) -> Response:
    """What the service worker shows when a navigation finds no network (it caches this)."""
    return _page(request, "offline")


async def manifest(request: Request) -> Response:
    return delivery.manifest(negotiate(request))


async def favicon(request: Request) -> Response:
    icon = request.app.state.web / "static" / "favicon.svg"
    return FileResponse(icon, media_type="image/svg+xml")


async def replay_page(request: Request) -> Response:
    return _page(request, "replay", game_id=request.path_params["game_id"])


async def puzzle_page(request: Request) -> Response:
    """The daily puzzle, ``?date=YYYY-MM-DD`` for a past day (today, UTC, without it). The
    page gets today's date from the server's clock (the browser's may be wrong), reads the
    date, and plays it as a solo room: creating that room refuses a bad or future day."""
    day = request.query_params.get("date", "")[:40]  # quoted back by the page, so bounded
    today = utc_now().date().isoformat()  # the server's one today (setgame.server.puzzle)
    return _page(request, "puzzle", day=day, today=today)


# --- JSON API ---------------------------------------------------------------


def _rooms(request: Request) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status)


async def create_room(request: Request) -> Response:
    if not _creation_allowed(request):
        return _error(429, "rate_limited", "too many rooms created from this address: wait")
    limits: Limits = request.app.state.limits
    try:
        body = await read_body(request, limits)
    except BodyError as exc:
        return _refuse_body(exc)
    try:
        settings = p.decode_settings(body, limits.body_bytes, limits.json_depth)
        room = await _rooms(request).create(settings, client_host(request))
    except p.ProtocolError as exc:
        return _error(413 if exc.code == "too_big" else 400, exc.code, str(exc))
    except GameError as exc:
        return _error(400, exc.code, str(exc))
    except RoomLimit as exc:
        return await _refuse_room(request, exc)
    except StorageError as exc:  # the path and cause go to the log, not to strangers
        log.error("cannot create a room: %s", exc)
        return _error(503, "storage_error", "the server cannot store games now: try later")
    return JSONResponse({"id": room.id, "url": f"/room/{room.id}"}, status_code=201)


async def _refuse_room(request: Request, exc: RoomLimit) -> Response:
    """A room refused over a cap; over the address's cap, the rooms that count and that this
    player holds (a seat of theirs by token or account: ``roomcap.py``), so that the page
    links to them (play there, or leave one), and how many others count, never which."""
    if not exc.rooms:
        return _error(exc.status, exc.code, str(exc))
    tokens = roomcap.seat_tokens(request.headers.get(roomcap.SEATS_HEADER))
    account = await signed_in(request)
    try:
        held = await roomcap.held_rooms(
            _rooms(request).storage, exc.rooms, tokens, account.id if account else None
        )
    except StorageError as exc_storage:  # the count alone still answers
        log.error("cannot read whose rooms count: %s", exc_storage)
        held = []
    rooms = [{"id": rid, "url": f"/room/{rid}"} for rid in held]
    others = len(exc.rooms) - len(held)
    body = {"code": exc.code, "message": str(exc), "rooms": rooms, "others": others}
    return JSONResponse(body, status_code=exc.status)


def _refuse_body(exc: BodyError) -> Response:
    """A body refused while reading: the rest is never read, so the connection closes."""
    response = _error(exc.status, exc.code, str(exc))
    response.headers["connection"] = "close"
    return response


def _creation_allowed(request: Request) -> bool:
    """A token bucket per client address (limits ``rooms_per_minute``, ``rooms_burst``)."""
    buckets: dict[str, TokenBucket] = request.app.state.creators
    limits: Limits = request.app.state.limits
    host = client_host(request)  # the peer, or what a trusted proxy says (edge.proxy_middleware)
    bucket = buckets.get(host)
    if bucket is None:
        if len(buckets) > 10_000:
            buckets.clear()
        bucket = buckets[host] = TokenBucket(limits.rooms_per_minute / 60, limits.rooms_burst)
    return bucket.take()


async def list_rooms(request: Request) -> Response:
    return JSONResponse(_rooms(request).public())


async def online(request: Request) -> Response:
    """How many people have a room open (the home page shows it beside the public rooms)."""
    rooms = _rooms(request)
    return JSONResponse({"online": rooms.online(), "listed": len(rooms.listed)})


async def get_room(request: Request) -> Response:
    room_id = request.path_params["room_id"]
    room = await _rooms(request).load(room_id)
    if room is None:
        return _error(404, "no_room", f"no such room: {room_id!r}")
    return JSONResponse(room.summary() | {"state": room.view(None)})


async def replay(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    storage: Storage = request.app.state.storage
    row = await storage.game(game_id)
    if row is None:
        return _error(404, "no_game", f"no such game: {game_id!r}")
    if row.status != "finished":
        return _error(409, "not_finished", f"game {game_id!r} is still being played")
    game = stored_game(row)  # under the rules it was played with
    steps: list[dict[str, Any]] = []
    try:
        stored = await storage.actions(game_id)
        chat = await stored_lines(storage, game_id)  # chat.py: shown beside the steps
    except StorageError as exc:  # the path and cause go to the log, not to strangers
        log.error("replay of %s: %s", game_id, exc)
        return _error(500, "storage_error", f"game {game_id!r} cannot be read from the database")
    for action in stored:
        events = annotate(game.apply(game.parse_action(action.action)), game.variant)
        steps.append(
            {
                "version": action.version,
                "at": action.at,
                "events": events,
                "state": game.view(None, action.at),
            }
        )
    players = [{"id": pid, "name": game.players[pid].name} for pid in game.order]
    body = {"game": game_id, "room": row.room, "settings": row.settings, "players": players}
    body["rules"] = row.rules
    body["chat"] = chat
    return JSONResponse(body | {"events": steps})


async def words(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in i18n.LANGUAGES:
        return _error(404, "no_language", f"unknown language: {lang!r}")
    return JSONResponse(words_of(lang))


async def messages(request: Request) -> Response:
    """``/i18n/<lang>.json``: the web client's messages, from the compiled gettext catalog."""
    lang, dot, ext = str(request.path_params["name"]).partition(".")
    if lang not in i18n.LANGUAGES or (dot, ext) != (".", "json"):
        return _error(404, "no_language", f"unknown language: {request.path_params['name']!r}")
    body = delivery.messages_json(lang)
    return Response(
        body,
        media_type="application/json",
        headers={"Cache-Control": "public, max-age=300", "Content-Language": lang},
    )


@functools.cache
def words_of(lang: str) -> dict[str, Any]:
    """Card names and flaw texts in ``lang``, for the browser (from ``setgame.words.i18n``): the
    name of every card of every deck, so that the browser composes none (built once per
    process and language)."""
    cards = {card_name(c): i18n.card_label(c, lang) for c in CARDS}
    for deck in (DECKS["megaset"], DECKS["4set"]):
        for card in range(deck.space):
            cards.setdefault(deck.name_of(card), i18n.card_words(card, deck, lang))
    flaws = {
        f"{attr}:{common}:{odd}": i18n.flaw_text(Flaw(attr, common, odd), lang)
        for attr in range(4)
        for common in range(3)
        for odd in range(3)
        if odd != common
    }
    attributes = [
        {
            "name": name,
            "values": list(VALUE_NAMES[i]),
            "letters": list(LETTERS[i]),
            "label": i18n.attribute_name(i, lang),
            "words": [i18n.value_name(i, v, lang) for v in range(3)],
        }
        for i, name in enumerate(ATTRIBUTE_NAMES)
    ]
    return {"lang": lang, "cards": cards, "flaws": flaws, "attributes": attributes}


HEALTH_SECONDS: Final = 1.0
"""An answer of ``/api/ready`` (and ``/api/health``) is reused this long: a flood of checks
asks the database (and Redis) once a second at most, each within ``PING_SECONDS`` (2 s)."""


async def live(request: Request) -> Response:
    """Liveness: the process answers (its event loop runs). Nothing else is asked, so that an
    outage of the database never makes a supervisor restart every process."""
    return JSONResponse({"ok": True})


async def ready(request: Request) -> Response:
    """Readiness: 200 while the database (and a cluster's Redis) answers and no write has
    failed; else 503 naming what failed (the cause is in the log)."""
    failed = await _failed(request)
    if failed:
        error = " and ".join(failed) + " not answering: see the server log"
        return JSONResponse({"ok": False, "failed": failed, "error": error}, status_code=503)
    return JSONResponse({"ok": True})


async def health(request: Request) -> Response:
    """The readiness answer (``/api/ready``) with the number of rooms in memory, and what
    failed also as ``down`` (its name before ``/api/ready``)."""
    failed = await _failed(request)
    body: dict[str, Any] = {"ok": not failed, "rooms": len(_rooms(request).rooms)}
    if failed:
        error = " and ".join(failed) + " not answering: see the server log"
        body |= {"failed": failed, "down": failed, "error": error}
    return JSONResponse(body, status_code=503 if failed else 200)


async def _failed(request: Request) -> list[str]:
    """What does not answer now, asked at most once a :data:`HEALTH_SECONDS`."""
    state = request.app.state
    loop = asyncio.get_running_loop()
    cached: tuple[float, list[str]] | None = state.health
    if cached is None or loop.time() - cached[0] > HEALTH_SECONDS:
        async with state.health_lock:  # one check in flight; the others wait for its answer
            cached = state.health
            if cached is None or loop.time() - cached[0] > HEALTH_SECONDS:
                cached = state.health = (loop.time(), await _rooms(request).down())
    down = cached[1]
    if state.storage.fault is not None and "database" not in down:
        down = ["database", *down]  # a failed write is known at once, without asking
    return down


async def schema(request: Request) -> Response:
    return JSONResponse(p.schemas())


# --- the app ----------------------------------------------------------------


def routes(web: Path) -> list[Any]:
    return [
        Route("/", home),
        Route("/rules", rules),
        Route("/account", account_page),
        Route("/player/{name}", player_page),
        Route("/leaderboard", leaderboard_page),
        Route("/moderation", moderation_page),
        Route("/arena", arenas_page),
        Route("/arena/{arena_id}", arena_page),
        Route("/room/{room_id}", room_page),
        Route("/replay/{game_id}", replay_page),
        Route("/puzzle", puzzle_page),
        Route("/photo", photo_page),
        Route("/favicon.ico", favicon),
        Route("/offline", offline_page),
        Route("/manifest.webmanifest", manifest),
        Route("/sw.js", delivery.service_worker),
        Route("/api/health", health),
        Route("/api/live", live),
        Route("/api/ready", ready),
        Route("/api/schema", schema),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms", list_rooms, methods=["GET"]),
        Route("/api/rooms/{room_id}", get_room),
        Route("/api/online", online),
        Route("/api/games/{game_id}/replay", replay),
        Route("/api/words/{lang}", words),
        Route("/api/puzzle/daily", daily_puzzle),
        Route("/i18n/{name}", messages),
        *account_api.routes(),
        *moderation_api.routes(),
        *arena_api.routes(),
        *photo_api.routes(),
        WebSocketRoute("/ws/{room_id}", websocket_endpoint),
        Mount("/static", delivery.Static(directory=web / "static", check_dir=False), name="static"),
    ]


async def _cluster(storage: Storage, limits: Limits, url: str) -> Rooms:
    from setgame.server.cluster import open_cluster  # redis is imported only for a cluster

    return await open_cluster(storage, limits, url)


def build(
    storage: Storage,
    *,
    web: Path = WEB,
    restore: bool = True,
    limits: Limits | None = None,
    bind_host: str | None = None,
    redis: str | None = None,
    freeze: bool = False,
    arena_limits: ArenaLimits | None = None,
) -> Starlette:
    """The Starlette app over ``storage``; rooms in progress come back on startup.
    ``limits`` default to :meth:`Limits.from_env` (:class:`LimitError` for a bad variable);
    ``bind_host`` is the address the server listens on (for the rooms' share links);
    ``redis`` (a ``redis://`` URL) makes this process one of a cluster (``docs/cluster.md``);
    ``freeze``: hide long-lived objects from the garbage collector (``memory.py``; the
    ``setgame serve`` process, not a test embedding the app); ``arena_limits``: the arenas'
    (default :meth:`ArenaLimits.from_env`, ``SETGAME_ARENA_*``)."""
    limits = Limits.from_env() if limits is None else limits

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await storage.open()
        account_api.open_accounts(app, storage)
        moderation_api.open_moderation(app, storage)
        rooms = Rooms(storage, limits) if redis is None else await _cluster(storage, limits, redis)
        app.state.rooms = rooms
        moderation_api.follow(rooms, app.state.bans)  # a cluster's other processes' actions
        app.state.server_secret = secret = await keys.server_secret(storage)
        rooms.puzzle_key = keys.derive(secret, "daily puzzle")
        app.state.address_key = address_key = keys.derive(secret, "address")
        players = BotPlayers(rooms)
        keeper = people.RatingKeeper(
            rooms, storage, people.fair_play(limits), address_key
        )
        app.state.keeper = keeper
        await rooms.start(restore=restore)
        await keeper.catch_up()  # games that ended as the server stopped, before recording
        arenas = await arena_api.open_arenas(app, rooms)  # after the rooms their games are in
        gc.freeze()  # what exists now (modules, restored rooms) lives on: never rescan it
        if app.state.metrics is not None:
            app.state.metrics.start()  # the collector's pauses, from now on
        tending = [asyncio.create_task(memory.trim_memory(frozen=freeze), name="trim-memory")]
        if freeze:
            tending.append(asyncio.create_task(memory.freeze_young(), name="freeze-young"))
        try:
            yield
        finally:
            for task in tending:
                task.cancel()
            if app.state.metrics is not None:
                app.state.metrics.stop()
            await arenas.close()
            await players.close()
            await people.close(keeper)
            if redis is not None:  # its rooms go to the other processes first
                await rooms.node.close()  # type: ignore[attr-defined]
            await rooms.close()
            await storage.close()
            app.state.accounts.hashing.close()
            app.state.photo.close()

    middleware = proxy_middleware(limits) + delivery.middleware() + account_api.middleware(limits)
    every = routes(web) + metrics_api.routes(limits)
    app = Starlette(routes=every, lifespan=lifespan, middleware=middleware)
    app.state.limits = limits
    app.state.arena_limits = ArenaLimits.from_env() if arena_limits is None else arena_limits
    app.state.lobby = Lobby(limits)
    app.state.words = wordfilter.load(limits.words_file, limits.word_filter)
    app.state.chat_bounds = ChatBounds(limits, app.state.words)
    app.state.storage = storage
    app.state.web = web
    app.state.bind_host = bind_host
    app.state.creators = {}
    app.state.photo = photo_api.PhotoDesk(limits)
    app.state.health, app.state.health_lock = None, asyncio.Lock()
    metrics_api.open_metrics(app, limits)
    return app
