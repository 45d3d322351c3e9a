"""How the web client is delivered (issue 21, "an app one can install"): gzip where the client
accepts it and nowhere else, cache headers, the manifest and its icons, the service worker's
list of files, and hostile requests (a huge head, paths outside the static files). A real
server over real HTTP; the browser's side is tests/browser/test_install.py."""

from __future__ import annotations

import asyncio
import gzip
import importlib.util
import json
import re
import struct
import sys
import zlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from setgame.server.delivery import API_CACHE, STATIC_CACHE, accepts_gzip

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "setgame" / "web" / "static"
PLAIN = {"Accept-Encoding": "identity"}
GZIP = {"Accept-Encoding": "gzip, deflate, br, zstd"}


@pytest.fixture
async def http(live_server: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=str(live_server), trust_env=False) as client:
        yield client


async def raw(
    http: httpx.AsyncClient, path: str, headers: dict[str, str]
) -> tuple[httpx.Response, bytes]:
    """The answer and its bytes as sent: httpx would decompress them (and send its own
    Accept-Encoding)."""
    async with http.stream("GET", path, headers=headers) as response:
        data = b"".join([chunk async for chunk in response.aiter_raw()])
    return response, data


async def test_text_answers_are_gzipped_when_the_client_accepts_it(
    http: httpx.AsyncClient,
) -> None:
    file = (STATIC / "js" / "room.js").read_bytes()
    for path, kind in [
        ("/static/js/room.js", "javascript"),
        ("/static/css/app.css", "css"),
        ("/", "html"),
        ("/i18n/ru.json", "json"),
        ("/api/words/de", "json"),
        ("/sw.js", "javascript"),
    ]:
        packed, packed_bytes = await raw(http, path, GZIP)
        assert packed.status_code == 200, path
        assert kind in packed.headers["content-type"], path
        assert packed.headers.get("content-encoding") == "gzip", path
        assert "accept-encoding" in packed.headers["vary"].lower(), path
        assert int(packed.headers["content-length"]) == len(packed_bytes), path
        plain, plain_bytes = await raw(http, path, PLAIN)
        assert "content-encoding" not in plain.headers, path
        unpacked = gzip.decompress(packed_bytes)
        if path.startswith("/static/"):  # the same bytes either way (a page's are rendered)
            assert unpacked == plain_bytes, path
        assert len(packed_bytes) < len(unpacked) / 2, path
    _, room = await raw(http, "/static/js/room.js", GZIP)
    assert gzip.decompress(room) == file


@pytest.mark.parametrize(
    "offered", ["", "identity", "gzip;q=0", "gzip;q=0, br", "br, zstd", "x-gzip;q=0, *;q=0"]
)
async def test_no_gzip_unless_accepted(http: httpx.AsyncClient, offered: str) -> None:
    response, data = await raw(http, "/static/js/room.js", {"Accept-Encoding": offered})
    assert "content-encoding" not in response.headers, offered
    assert data == (STATIC / "js" / "room.js").read_bytes()


async def test_images_and_small_answers_are_sent_as_they_are(http: httpx.AsyncClient) -> None:
    for path in ("/static/icons/icon-512.png", "/api/online", "/static/favicon.svg"):
        response, _ = await raw(http, path, GZIP)
        assert response.status_code == 200, path
        assert "content-encoding" not in response.headers, path


def test_accept_encoding_is_read_as_rfc_9110_says() -> None:
    assert accepts_gzip("GZIP") and accepts_gzip("x-gzip") and accepts_gzip("*")
    assert accepts_gzip("br;q=1.0, gzip;q=0.5")
    assert not accepts_gzip("gzip;q=0.0") and not accepts_gzip("gzip;q=zero")
    assert not accepts_gzip("*;q=0") and not accepts_gzip("gzipx, deflate")
    assert not accepts_gzip("br, " * 40 + "gzip")  # only the first items are looked at


async def test_websockets_pass_the_compression_untouched(live_server: Any) -> None:
    async with httpx.AsyncClient(base_url=str(live_server), trust_env=False) as http:
        room = (await http.post("/api/rooms", json={"public": False})).json()["id"]
    headers = {"Accept-Encoding": "gzip"}
    async with connect(f"{live_server.ws}/ws/{room}", proxy=None, additional_headers=headers) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None, "since": None}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
        assert welcome["type"] == "welcome"


async def test_static_files_are_cached_and_revalidated(http: httpx.AsyncClient) -> None:
    first, _ = await raw(http, "/static/js/common.js", GZIP)
    assert first.headers["cache-control"] == STATIC_CACHE
    etag = first.headers["etag"]
    assert etag.startswith('W/"'), etag  # weak: the gzipped and the plain bytes share it
    assert first.headers["last-modified"]
    again, nothing = await raw(http, "/static/js/common.js", GZIP | {"If-None-Match": etag})
    assert again.status_code == 304 and nothing == b""
    assert again.headers["cache-control"] == STATIC_CACHE and again.headers["etag"] == etag
    stale, _ = await raw(http, "/static/js/common.js", GZIP | {"If-None-Match": 'W/"other"'})
    assert stale.status_code == 200


async def test_pages_and_personal_answers_are_not_kept(http: httpx.AsyncClient) -> None:
    worker = (await http.get("/sw.js")).text
    version = re.search(r'"version": "([0-9a-f]{16})"', worker)
    assert version, worker[:300]
    for path in ("/", "/rules", "/offline", "/account", "/puzzle"):
        page = await http.get(path)
        assert page.headers["cache-control"] == "no-cache", path
        assert page.headers["x-setgame-release"] == version.group(1), path
    for path in ("/api/account", "/api/rooms", "/api/online", "/api/players/Nobody"):
        answer = await http.get(path)
        assert answer.headers.get("cache-control") == API_CACHE, (path, answer.headers)
    daily = await http.get("/api/puzzle/daily")  # sets its own: the same for everyone all day
    assert daily.headers["cache-control"] != API_CACHE


async def test_service_worker_lists_the_static_files_and_no_api(http: httpx.AsyncClient) -> None:
    response = await http.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "no-cache"
    release = json.loads(re.search(r"const RELEASE = (\{.*\});", response.text).group(1))  # type: ignore[union-attr]
    files = release["files"]
    on_disk = {f"/static/{p.relative_to(STATIC).as_posix()}" for p in STATIC.rglob("*.*")}
    assert on_disk <= set(files)
    assert "/offline" in files and "/i18n/pl.json" in files
    assert not [f for f in files if f.startswith(("/api/", "/ws/", "/room/"))], files
    for url in files:
        assert (await http.get(url)).status_code == 200, url


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


async def test_manifest_names_the_app_in_the_players_language(http: httpx.AsyncClient) -> None:
    page = (await http.get("/")).text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    english = await http.get("/manifest.webmanifest")
    assert english.headers["content-type"] == "application/manifest+json"
    manifest = english.json()
    assert manifest["name"] == "SET — the card game" and manifest["short_name"] == "SET"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    russian = await http.get("/manifest.webmanifest", headers={"Accept-Language": "ru"})
    assert russian.json()["name"] == "Сет — карточная игра"
    assert russian.json()["lang"] == "ru"
    purposes = set()
    for icon in manifest["icons"]:
        answer = await http.get(icon["src"])
        assert answer.status_code == 200, icon
        assert answer.headers["content-type"].startswith(icon["type"]), icon
        if icon["type"] == "image/png":
            width, height = png_size(answer.content)
            assert icon["sizes"] == f"{width}x{height}", icon
        purposes.add(icon.get("purpose", "any"))
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"any", "192x192", "512x512"} <= sizes and purposes == {"any", "maskable"}


def load_icons() -> Any:
    spec = importlib.util.spec_from_file_location("icons", ROOT / "scripts" / "icons.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def png_pixels(data: bytes) -> bytes:
    """The pixel rows of one of our PNGs (one IDAT chunk, filter 0 on each row)."""
    width, height = png_size(data)
    idat = data.index(b"IDAT")
    (length,) = struct.unpack(">I", data[idat - 4 : idat])
    rows = zlib.decompress(data[idat + 4 : idat + 4 + length])
    stride = 1 + width * 4
    assert len(rows) == stride * height
    return b"".join(rows[i * stride + 1 : (i + 1) * stride] for i in range(height))


def test_committed_icons_are_what_the_script_draws() -> None:
    """Rebuilt with ``python3 scripts/icons.py``; pixels may differ by one level between NumPy
    builds (sums in another order), nothing more."""
    drawn = load_icons().icons()
    for name, data in drawn.items():
        committed = (STATIC / "icons" / name).read_bytes()
        if name.endswith(".svg"):
            assert committed == data, name
            continue
        ours, theirs = png_pixels(committed), png_pixels(data)
        assert len(ours) == len(theirs), name
        assert max(abs(a - b) for a, b in zip(ours, theirs, strict=True)) <= 1, name


async def test_a_huge_request_head_gets_431_and_the_server_goes_on(live_server: Any) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", live_server.port)
    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: " + b"gzip, " * 200_000)
    writer.write(b"\r\n\r\n")
    await writer.drain()  # the rest of the head is read and dropped: no reset, the answer stays
    writer.write_eof()
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    await writer.wait_closed()
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:100]
    assert answer.endswith(b"the request head exceeds 16384 bytes\n")
    async with httpx.AsyncClient(trust_env=False) as http:
        assert (await http.get(f"{live_server}/api/health")).status_code == 200


async def test_paths_outside_the_static_files_are_not_found(live_server: Any) -> None:
    """Raw requests: a client library would tidy the dots away before sending."""
    for path in (
        "/static/../pyproject.toml",
        "/static/%2e%2e/%2e%2e/%2e%2e/pyproject.toml",
        "/static/..%2fserver%2fapp.py",
        "/static//etc/passwd",
        "/static/js/",
        "/static/js/room.js%00.png",
    ):
        reader, writer = await asyncio.open_connection("127.0.0.1", live_server.port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        answer = await asyncio.wait_for(reader.read(), 5)
        writer.close()
        await writer.wait_closed()
        status = answer.split(b" ", 2)[1]
        assert status in (b"404", b"400"), (path, answer[:200])
        assert b"[project]" not in answer and b"root:" not in answer, path


async def answer(reader: asyncio.StreamReader) -> tuple[bytes, bytes]:
    """One answer's status line and body from a kept-alive connection."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    size = int(re.search(rb"content-length: (\d+)", head, re.IGNORECASE).group(1))  # type: ignore[union-attr]
    return head.split(b"\r\n", 1)[0], await asyncio.wait_for(reader.readexactly(size), 5)


async def test_the_head_bound_counts_the_head_alone(server_factory: Any) -> None:
    """A body sent in the same packet as its head, and many requests on one kept-alive
    connection, are not a big head; one head over the bound is."""
    server = server_factory(env={"SETGAME_HEADER_BYTES": "1024", "SETGAME_BODY_BYTES": "8192"})
    settings = json.dumps({"public": False, "mode": "solo", "pad": "x" * 6000}).encode()
    head = "POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(head.encode() + f"Content-Length: {len(settings)}\r\n\r\n".encode() + settings)
    status, body = await answer(reader)
    assert status == b"HTTP/1.1 400 Bad Request" and b"pad" in body  # the app's own refusal
    for _ in range(5):  # 5 KB of heads on one connection, each under 1 KB
        writer.write(b"GET /api/online HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"p" * 900 + b"\r\n\r\n")
        assert (await answer(reader))[0] == b"HTTP/1.1 200 OK"
    for part in (b"GET /api/online HTTP/1.1\r\nHost: x\r", b"\n\r", b"\n"):  # its end split
        writer.write(part)
        await writer.drain()
        await asyncio.sleep(0.1)
    assert (await answer(reader))[0] == b"HTTP/1.1 200 OK"
    writer.write(b"GET /api/online HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"p" * 1100 + b"\r\n\r\n")
    status, body = await answer(reader)
    assert status == b"HTTP/1.1 431 Request Header Fields Too Large"
    assert body == b"the request head exceeds 1024 bytes\n"
    writer.close()
    await writer.wait_closed()


async def test_event_streams_pass_uncompressed_chunk_by_chunk() -> None:
    """A Server-Sent Events answer through the real middleware: its head and each event reach
    the client as the app sends them, not held back to be compressed."""
    from setgame.server.delivery import Compression

    log: list[str] = []
    events = [b"data: one\n\n" * 100, b"data: two\n\n" * 100]

    async def app(scope: Any, receive: Any, send: Any) -> None:
        head = [(b"content-type", b"text/event-stream")]
        await send({"type": "http.response.start", "status": 200, "headers": head})
        for event in events:
            log.append("app sent")
            await send({"type": "http.response.body", "body": event, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def send(message: dict[str, Any]) -> None:
        log.append(message["type"])
        if message["type"] == "http.response.start":
            assert b"content-encoding" not in dict(message["headers"])
        elif message["body"]:
            assert message["body"] in events  # as sent: not gzip

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    scope = {"type": "http", "method": "GET", "path": "/events", "headers": list(GZIP_RAW)}
    await Compression(app)(scope, receive, send)
    assert log == [
        "http.response.start",
        "app sent", "http.response.body",
        "app sent", "http.response.body",
        "http.response.body",
    ]  # fmt: skip


GZIP_RAW = [(b"accept-encoding", b"gzip, deflate, br")]
