"""The accounts' HTTP side: ``/api/account/...``, the session cookie, and the sign-in limits.

A session is a row on the server (``account_tables.sessions``) whose random token travels in
Starlette's signed cookie (``SessionMiddleware``: itsdangerous, http-only, SameSite=Lax):
signing out deletes the row, so a copied cookie stops working; "sign out everywhere" deletes
all of the account's, a password change all but the browser's that made it. The cookie's
secret is ``SETGAME_SECRET`` or, when unset, one generated at the first start and kept beside
the database (``<database>.secret``, mode 0600; on PostgreSQL ``setgame.secret`` in the
working folder): losing it signs everyone out, nothing more.

Every request that checks or sets a password costs an argon2 hash, so it is rate-limited per
client address (``signins_per_minute``, ``signin_burst``) and waits its turn in the fair,
bounded hashing queue (``hashing.py``: ``503 busy`` with ``Retry-After`` when full). Failed
sign-ins are also limited per claimed name *and address* (``name_failures_per_hour``,
``name_failure_burst``): a guesser is slowed on the name it guesses, and nobody can lock the
owner out, whose own address has its own count (what a guesser with many addresses can still
do: ``docs/deploy.md``).
A cross-site request (an ``Origin`` other than the server's) is refused: SameSite=Lax already
keeps the cookie off cross-site POSTs, this keeps it off everything else.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
from pathlib import Path
from typing import Annotated, Any, Final, TypeVar

import msgspec
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from setgame.server import protocol as p
from setgame.server.accounts import (
    ANONYMOUS,
    MAX_PASSWORD,
    SESSION_KEY,
    Account,
    Accounts,
    session_token,
    signed_in,
)
from setgame.server.edge import BITES, BodyError, client_host, foreign_origin, read_body
from setgame.server.hashing import Busy, HashQueue
from setgame.server.limits import LimitError, Limits
from setgame.server.moderation import roles_of
from setgame.server.moderation_api import bans_of, refusal
from setgame.server.names import MAX_NAME, NameRefused, name_key
from setgame.server.players import leaderboard, profile
from setgame.server.registry import Rooms
from setgame.server.sockets import TokenBucket
from setgame.server.storage import Storage, StorageError

log = logging.getLogger(__name__)

COOKIE: Final = "setgame_session"
SECRET_ENV: Final = "SETGAME_SECRET"
MIN_SECRET: Final = 32
"""Characters of ``SETGAME_SECRET`` at least (a generated one has 64 hex digits)."""
BUCKETS: Final = 100_000
"""Addresses and (name, address) pairs with a bucket, at most; beyond it the full buckets are
forgotten (they are as new), and if that is not enough, all."""

T = TypeVar("T")
Name = Annotated[str, msgspec.Meta(max_length=MAX_NAME * 4)]
Password = Annotated[str, msgspec.Meta(max_length=MAX_PASSWORD)]


class Credentials(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    password: Password


class PasswordChange(msgspec.Struct, forbid_unknown_fields=True):
    password: Password
    new_password: Password


class Deletion(msgspec.Struct, forbid_unknown_fields=True):
    password: Password


# --- the secret and the middleware ---------------------------------------------------------


def session_secret(storage: Storage, env: dict[str, str] | None = None) -> str:
    """``SETGAME_SECRET``, else the secret kept beside the database (made at the first start).
    :class:`LimitError` for a secret too short, :class:`StorageError` for an unusable file."""
    given = (os.environ if env is None else env).get(SECRET_ENV)
    if given is not None:
        if len(given.strip()) < MIN_SECRET:
            raise LimitError(
                f"{SECRET_ENV} must have at least {MIN_SECRET} characters, not {len(given)}"
            )
        return given.strip()
    path = secret_path(storage)
    try:
        if not path.exists():
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_hex(32) + "\n")
            log.info("a new session secret was written to %s", path)
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise StorageError(f"cannot use the session secret {path}: {exc}") from None
    if len(text) < MIN_SECRET:
        raise StorageError(
            f"the session secret {path} has {len(text)} characters, fewer than {MIN_SECRET}: "
            "delete it (a new one is made; everyone is signed out) or set " + SECRET_ENV
        )
    return text


def secret_path(storage: Storage) -> Path:
    if storage.path is not None:
        return storage.path.with_name(storage.path.name + ".secret")
    return Path("setgame.secret").resolve()


class Sessions:
    """Starlette's ``SessionMiddleware``, made at the first request: its secret comes from
    the database's folder, known once the server has opened it (``app.state.session_secret``,
    set by :func:`open_accounts`). The cookie is ``Secure`` whenever the request came over
    TLS: to uvicorn itself, or to a trusted proxy that says so in ``X-Forwarded-Proto``
    (``edge.proxy_middleware`` has set the scheme by then), or always with ``secure_cookie``."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app, self.limits = app, limits
        self.inner: dict[bool, SessionMiddleware] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        secure = self.limits.secure_cookie or scope.get("scheme") in ("https", "wss")
        inner = self.inner.get(secure)
        if inner is None:
            inner = self.inner[secure] = SessionMiddleware(
                self.app,
                secret_key=scope["app"].state.session_secret,
                session_cookie=COOKIE,
                max_age=round(self.limits.session_days * 86400),
                same_site="lax",
                https_only=secure,
            )
        await inner(scope, receive, send)


def middleware(limits: Limits) -> list[Middleware]:
    return [Middleware(Sessions, limits=limits)]


def open_accounts(app: Any, storage: Storage) -> None:
    """At start, once the database is open: the session secret and the accounts."""
    app.state.session_secret = session_secret(storage)
    app.state.accounts = Accounts(storage, app.state.words, HashQueue(app.state.limits))
    app.state.signins = Guard(app.state.limits)


# --- rate limits ---------------------------------------------------------------------------


class Guard:
    """Token buckets for password checks: per address (every attempt) and per claimed name
    and address (failures only, checked before each attempt)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.hosts: dict[str, TokenBucket] = {}
        self.names: dict[str, TokenBucket] = {}

    def host(self, host: str) -> bool:
        bucket = _bucket(self.hosts, host, self.limits.signins_per_minute / 60,
                         self.limits.signin_burst)
        return bucket.take()

    def name_open(self, name: str, host: str) -> bool:
        bucket = self.names.get(_pair(name, host))
        if bucket is None:
            return True
        if not bucket.take():
            return False
        bucket.tokens += 1  # only a look: failures take their token in failed()
        return True

    def failed(self, name: str, host: str) -> None:
        per_second = self.limits.name_failures_per_hour / 3600
        _bucket(self.names, _pair(name, host), per_second, self.limits.name_failure_burst).take()


def _pair(name: str, host: str) -> str:
    """A name (any spelling of it) as tried from one address: the key of its failures."""
    return f"{name_key(name)}\x00{host}"


def _bucket(buckets: dict[str, TokenBucket], key: str, rate: float, burst: int) -> TokenBucket:
    bucket = buckets.get(key)
    if bucket is None:
        if len(buckets) >= BUCKETS:
            _prune(buckets)
        bucket = buckets[key] = TokenBucket(rate, burst)
    return bucket


def _prune(buckets: dict[str, TokenBucket]) -> None:
    """Forget the buckets that have refilled (as new ones); all, if that frees too little."""
    for key, bucket in list(buckets.items()):
        if bucket.full():
            del buckets[key]
    if len(buckets) >= BUCKETS * 0.9:
        buckets.clear()


# --- the routes ----------------------------------------------------------------------------


class Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


def _answer(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status)


def _me(account: Account | None) -> dict[str, Any]:
    return {"name": account.name if account else None, "signed_in": account is not None}


async def _body(request: Request, kind: type[T]) -> T:
    """The request's JSON body as ``kind``; :class:`Refused` for a cross-site request, a
    client over its rate, or a body too big, not UTF-8, not JSON or not of that shape."""
    _same_origin(request)
    if not request.app.state.signins.host(client_host(request)):  # each costs a hash
        BITES("signins_per_minute", f"{client_host(request)} tries passwords too fast")
        raise Refused(429, "rate_limited", "too many sign-in attempts from this address: wait")
    limits: Limits = request.app.state.limits
    try:
        body = await read_body(request, limits)
    except BodyError as exc:
        raise Refused(exc.status, exc.code, str(exc)) from None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        shown = _quote(body.decode("utf-8", "replace"))
        raise Refused(
            400, "bad_encoding", f"the body is not UTF-8 at byte {exc.start}: {shown}"
        ) from None
    try:
        p.check_depth(body, limits.json_depth)
        return msgspec.json.decode(body, type=kind)
    except p.ProtocolError as exc:
        raise Refused(400, exc.code, str(exc)) from None
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise Refused(400, "bad_body", f"{exc}: {_quote(text)}") from None


_PASSWORD: Final = re.compile(r'("[a-z_]*password"\s*:\s*)"(?:[^"\\]|\\.)*("|\\?$)')
"""A password field's value in a body, whole or cut off (for a body that is not JSON)."""


def _quote(text: str) -> str:
    """The body, for an error message, with any password in it blanked out."""
    try:
        data = msgspec.json.decode(text)
    except msgspec.DecodeError:
        return repr(_PASSWORD.sub(r'\1"***"', text)[:80])
    if isinstance(data, dict):
        data = {k: "***" if "password" in str(k) else v for k, v in data.items()}
    return repr(msgspec.json.encode(data).decode()[:80])


def _same_origin(request: Request) -> None:
    why = foreign_origin(request)
    if why is not None:
        raise Refused(403, "bad_origin", why)


async def _signed(request: Request, account: Account) -> None:
    """Sign this browser in as ``account``: a new session (the browser's old one ends)."""
    store: Accounts = request.app.state.accounts
    old = session_token(request)
    if old is not None:
        await store.end_session(old)
    seconds = request.app.state.limits.session_days * 86400
    request.session.clear()
    request.session[SESSION_KEY] = await store.open_session(account, seconds)
    # the account's id too, signed: what a ban check reads without a database read
    # (sockets._account_of); who is signed in is the session's row alone (accounts.signed_in)
    request.session["account"] = account.id


def _route(handler: Any) -> Any:
    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)  # type: ignore[no-any-return]
        except Refused as exc:
            return _answer(exc.status, exc.code, str(exc))
        except NameRefused as exc:
            return _answer(409 if exc.code == "name_taken" else 400, exc.code, str(exc))
        except Busy as exc:  # the hashing queue is full: at once, not after a wait
            answer = _answer(503, "busy", str(exc))
            answer.headers["retry-after"] = str(exc.retry_after)
            return answer
        except StorageError as exc:  # the path and cause go to the log, not to strangers
            log.error("account request %s: %s", request.url.path, exc)
            return _answer(503, "storage_error", "the server cannot store accounts now: try later")

    return endpoint


async def me(request: Request) -> Response:
    """Who this browser is; ``moderator`` (only when true) lets the room page offer a
    moderator's buttons (the moderation API checks the role again at each request)."""
    account = await signed_in(request)
    answer = _me(account)
    if account is not None and await roles_of(request.app.state.storage, account.id):
        answer["moderator"] = True
    return JSONResponse(answer)


async def claim(request: Request) -> Response:
    body = await _body(request, Credentials)
    ban = await bans_of(request.app).against(None, client_host(request), ("ban",))
    if ban is not None:  # a banned address claims no new name
        return refusal(ban)
    account = await request.app.state.accounts.claim(
        body.name, body.password, client_host(request)
    )
    await _signed(request, account)
    return JSONResponse(_me(account), status_code=201)


async def sign_in(request: Request) -> Response:
    body = await _body(request, Credentials)
    guard: Guard = request.app.state.signins
    host = client_host(request)
    if not guard.name_open(body.name, host):
        BITES("name_failures_per_hour", f"{host}'s sign-ins to {body.name!r} failed too often")
        raise Refused(
            429, "rate_limited", f"too many failed sign-ins as {body.name!r} from here: wait"
        )
    account = await request.app.state.accounts.verify(body.name, body.password, host)
    if account is None:
        guard.failed(body.name, host)
        request.app.state.accounts.hashing.failed(host)
        raise Refused(401, "bad_credentials", f"wrong name or password for {body.name!r}")
    ban = await bans_of(request.app).against(account.id, client_host(request), ("ban",))
    if ban is not None:  # the right password, but not now: told why and until when
        return refusal(ban)
    await _signed(request, account)
    return JSONResponse(_me(account))


async def sign_out(request: Request) -> Response:
    """End this browser's session, on the server too: a copy of the cookie is worth nothing."""
    _same_origin(request)
    token = session_token(request)
    if token is not None:
        await request.app.state.accounts.end_session(token)
    request.session.clear()
    return JSONResponse(_me(None))


async def sign_out_everywhere(request: Request) -> Response:
    """End every session of the signed-in account, this browser's too."""
    _same_origin(request)
    account = await signed_in(request)
    if account is None:
        raise Refused(401, "not_signed_in", "sign in first")
    await request.app.state.accounts.end_sessions(account)
    request.session.clear()
    return JSONResponse(_me(None))


async def _owner(request: Request, password: str) -> Account:
    """The signed-in account, its password checked again (for changes that matter)."""
    account = await signed_in(request)
    if account is None:
        raise Refused(401, "not_signed_in", "sign in first")
    store: Accounts = request.app.state.accounts
    host = client_host(request)
    if await store.verify(account.name, password, host) is None:
        request.app.state.signins.failed(account.name, host)
        raise Refused(401, "bad_credentials", f"wrong password for {account.name!r}")
    return account


async def change_password(request: Request) -> Response:
    body = await _body(request, PasswordChange)
    account = await _owner(request, body.password)
    changed = await request.app.state.accounts.change_password(  # the others are signed out
        account, body.new_password, client_host(request), keep=session_token(request)
    )
    return JSONResponse(_me(changed))


async def delete(request: Request) -> Response:
    body = await _body(request, Deletion)
    account = await _owner(request, body.password)
    await request.app.state.accounts.delete(account)
    _forget(request.app.state.rooms, account)
    request.session.clear()
    return JSONResponse(_me(None) | {"deleted": account.name})


def _forget(rooms: Rooms, account: Account) -> None:
    """Rooms in memory forget the deleted account: its seats become anonymous guests there
    too, so that a new game ("again") stores no trace of it."""
    for room in rooms.rooms.values():
        for seat in room.seats.values():
            if seat.account == account.id:
                seat.account, seat.name = None, ANONYMOUS


def routes() -> list[Route]:
    return [
        Route("/api/account", _route(me), methods=["GET"]),
        Route("/api/account/claim", _route(claim), methods=["POST"]),
        Route("/api/account/signin", _route(sign_in), methods=["POST"]),
        Route("/api/account/signout", _route(sign_out), methods=["POST"]),
        Route("/api/account/signout-everywhere", _route(sign_out_everywhere), methods=["POST"]),
        Route("/api/account/password", _route(change_password), methods=["POST"]),
        Route("/api/account/delete", _route(delete), methods=["POST"]),
        Route("/api/players/{name}", profile, methods=["GET"]),
        Route("/api/leaderboard", leaderboard, methods=["GET"]),
    ]
