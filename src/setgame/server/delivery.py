"""How the web client reaches a browser: compressed, cached, installable (issue 21).

- **Compression**: Starlette's own :class:`~starlette.middleware.gzip.GZipMiddleware`, chosen
  over ``brotli-asgi``: it is kept with Starlette itself (no second dependency, no C extension
  to build), it already leaves websockets, ``text/event-stream`` and images alone and
  compresses big bodies in a worker thread; Brotli is commonly 10-20% smaller than gzip on
  text (not measured here), a few KB of the room page's 61 KB as sent. A host's reverse
  proxy may compress (and use Brotli) instead: it then sees ``Content-Encoding`` and leaves
  the answer as it is (``docs/deploy.md``).
- **Cache headers**: static files are revalidated by their ETag after :data:`STATIC_CACHE`;
  the service worker keeps them for the life of a release.
- **The installable app**: ``/manifest.webmanifest`` (in the player's language), ``/sw.js``
  (the service worker, at the root so that its scope is every page) and ``/offline`` (the
  page it shows when a navigation finds no network).
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any, Final

from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, PathLike, StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from setgame.words import catalog, i18n

STATIC_CACHE: Final = "public, max-age=3600"
"""Static files: an hour, then revalidated (ETag -> 304). Not a year: their addresses carry no
release (``/static/js/room.js``), so a longer life would keep an old release's scripts beside a
new release's page for browsers without the service worker, which tells releases apart."""

API_CACHE: Final = "private, no-cache"
"""API answers that say nothing else (:class:`NoCache`)."""

RELEASE_HEADER: Final = "X-Setgame-Release"
"""Sent with every page: the release of the static files the page expects (the service worker
serves its cached files only to pages of its own release)."""

COMPRESS_AT: Final = 512
"""Bytes below which an answer is sent as it is: the gzip header and the work cost more."""

ENCODING_ITEMS: Final = 32
"""Items of an Accept-Encoding header looked at; browsers send four or five."""


# --- compression ----------------------------------------------------------------------------


def accepts_gzip(header: str) -> bool:
    """Whether an Accept-Encoding header accepts gzip (RFC 9110: ``gzip``, ``x-gzip`` or ``*``
    with a quality above 0; ``gzip;q=0`` refuses it, which a plain substring test misses).

    >>> accepts_gzip("gzip, deflate, br, zstd"), accepts_gzip("br;q=1, *;q=0.1")
    (True, True)
    >>> accepts_gzip("gzip;q=0, br"), accepts_gzip("identity"), accepts_gzip("")
    (False, False, False)
    """
    named: dict[str, float] = {}
    for item in header.split(",", ENCODING_ITEMS)[:ENCODING_ITEMS]:
        coding, _, params = item.strip().partition(";")
        named.setdefault(coding.strip().lower(), _quality(params))
    for coding in ("gzip", "x-gzip", "*"):
        if coding in named:
            return named[coding] > 0
    return False


def _quality(params: str) -> float:
    key, _, value = params.strip().partition("=")
    if key.strip().lower() != "q":
        return 1.0
    try:
        return float(value.strip())
    except ValueError:
        return 0.0


class Compression:
    """gzip for HTTP answers of a client that accepts it (HTML, JS, CSS, SVG, JSON; images and
    event streams are left alone); websockets pass untouched. The client's Accept-Encoding is
    read here, by :func:`accepts_gzip`, and handed on as ``gzip`` or nothing."""

    def __init__(self, app: ASGIApp, level: int = 6) -> None:
        self.app = app
        # Level 6, zlib's default: 9 saves 0.1% of the static files' bytes (measured: 59 316
        # against 59 374 of 164 594) and costs more time on bigger bodies.
        self.gzip = GZipMiddleware(app, minimum_size=COMPRESS_AT, compresslevel=level)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = [(k, v) for k, v in scope["headers"] if k != b"accept-encoding"]
        offered = b", ".join(v for k, v in scope["headers"] if k == b"accept-encoding")
        if accepts_gzip(offered.decode("latin-1")):
            headers.append((b"accept-encoding", b"gzip"))
        await self.gzip({**scope, "headers": headers}, receive, send)


class NoCache:
    """``Cache-Control: private, no-cache`` on every API answer that sets none: they are live
    room state or personal (an account, a moderator's lists), never for a shared cache to keep
    and always asked again by the browser; the few that may be kept say so themselves (the
    daily puzzle). Not ``no-store``: Chromium then leaves an answer whose body the page never
    reads (a 404 the page only looks at the status of) open, and the page never goes idle."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).setdefault("Cache-Control", API_CACHE)
            await send(message)

        await self.app(scope, receive, sending)


def middleware() -> list[Middleware]:
    """Compression outside (it sees every answer), then the API's cache header."""
    return [Middleware(Compression), Middleware(NoCache)]


# --- static files ---------------------------------------------------------------------------


class Static(StaticFiles):
    """Starlette's static files (ETag, Last-Modified, 304) with :data:`STATIC_CACHE`; the ETag
    is weak (``W/``), as nginx makes it, because the compressed and the plain bytes share it."""

    def file_response(
        self, full_path: PathLike, stat_result: Any, scope: Scope, status_code: int = 200
    ) -> Response:
        response = FileResponse(full_path, status_code=status_code, stat_result=stat_result)
        unchanged = self.is_not_modified(response.headers, Request(scope).headers)
        response.headers["ETag"] = "W/" + response.headers["etag"]
        response.headers["Cache-Control"] = STATIC_CACHE
        response.headers["X-Content-Type-Options"] = "nosniff"
        return NotModifiedResponse(response.headers) if unchanged else response


# --- the release: what the service worker caches --------------------------------------------


@functools.cache
def release(web: Path) -> tuple[str, tuple[str, ...]]:
    """The release's name (a hash of every file the service worker caches, the worker itself
    and the offline page's parts, and the catalogs) and the addresses it caches: the static
    files, the offline page and each language's messages. Computed once per process."""
    static = web / "static"
    files = sorted(p for p in static.rglob("*") if p.is_file() and not p.name.startswith("."))
    digest = hashlib.sha256()
    pages = ("offline.html", "_head.html", "_header.html")
    parts = [web / "sw.js", *(web / "pages" / name for name in pages)]
    for path in [*files, *parts]:
        digest.update(path.relative_to(web).as_posix().encode() + b"\0" + path.read_bytes())
    for lang in i18n.LANGUAGES:
        digest.update(messages_json(lang))
    urls = [f"/static/{p.relative_to(static).as_posix()}" for p in files]
    urls += ["/offline", *(f"/i18n/{lang}.json" for lang in i18n.LANGUAGES)]
    return digest.hexdigest()[:16], tuple(urls)


@functools.cache
def messages_json(lang: str) -> bytes:
    """``/i18n/<lang>.json``, built once per process: the catalogs change only with a release."""
    return json.dumps(catalog.web_messages(lang), ensure_ascii=False).encode()


WORKER_SLOT: Final = '{ version: "", files: [] }'
"""The text of ``web/sw.js`` the server fills in with the release (valid JS as it stands)."""


@functools.cache
def _worker(web: Path) -> bytes:
    version, files = release(web)
    text = (web / "sw.js").read_text(encoding="utf-8")
    filled = json.dumps({"version": version, "files": files})
    return text.replace(WORKER_SLOT, filled, 1).encode()


async def service_worker(request: Request) -> Response:
    """``/sw.js``: revalidated at each check (no-cache), so a new release is found at the next
    page a player opens; served from the root so its scope is the whole site."""
    body = _worker(request.app.state.web)
    headers = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}
    return Response(body, media_type="text/javascript", headers=headers)


# --- the manifest ---------------------------------------------------------------------------

THEME: Final = {"light": "#f4f1ea", "dark": "#16171c"}
"""The pages' background in each theme (``--bg`` in app.css): the app's window and the
splash screen; ``_head.html`` gives both to the browser as ``theme-color``."""

ICONS: Final = (
    {"src": "/static/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"},
    {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
    {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
    {
        "src": "/static/icons/maskable-512.png",
        "sizes": "512x512",
        "type": "image/png",
        "purpose": "maskable",
    },
)
"""Made by ``scripts/icons.py`` from the card shapes of ``favicon.svg``."""


def manifest_of(lang: str) -> dict[str, Any]:
    """The web app manifest in ``lang``: the name a phone shows under the icon is translated."""
    return {
        "name": catalog.gettext(lang, "pwa.name"),
        "short_name": catalog.gettext(lang, "pwa.short_name"),
        "description": catalog.gettext(lang, "pwa.description"),
        "lang": lang,
        "dir": "ltr",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": THEME["light"],
        "theme_color": THEME["light"],
        "icons": list(ICONS),
    }


def manifest(lang: str) -> Response:
    """``/manifest.webmanifest`` in ``lang`` (the server's app negotiates it as for a page)."""
    body = json.dumps(manifest_of(lang), ensure_ascii=False)
    headers = {"Cache-Control": "no-cache", "Content-Language": lang}
    headers["Vary"] = "Accept-Language, Cookie"
    return Response(body, media_type="application/manifest+json", headers=headers)
