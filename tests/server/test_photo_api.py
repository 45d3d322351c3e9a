"""``POST /api/photo`` and ``POST /api/photo/sets`` over real HTTP (issue 24): a good photo of a
table of known cards, and hostile ones (not an image, truncated, huge dimensions in a tiny file,
over 15 MB, too many at once, too many from one address); a practice room that starts from the
cards read (``start``)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import cv2
import httpx
import numpy as np
import pytest
from websockets.asyncio.client import connect

import photokit
from setgame.rules.cards import parse_cards
from setgame.rules.sets import find_sets
from setgame.server.limits import Limits

from .httpkit import assert_refused

CODES = ["1RSD", "2GTO", "3POS", "1PTS", "2RSO", "3GOD", "1GOS", "2PSD", "3RTO", "1RTD", "2GSS",
         "3PTD"]  # fmt: skip
MB = 1024 * 1024


@pytest.fixture(scope="module")
def photo() -> photokit.TablePhoto:
    return photokit.table_photo(CODES)


@pytest.fixture
async def http(live_server: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=str(live_server), trust_env=False, timeout=30) as c:
        yield c


def inside(point: tuple[float, float], polygon: list[tuple[float, float]]) -> bool:
    contour = np.array(polygon, np.float32)
    return cv2.pointPolygonTest(contour, point, False) >= 0


async def send(http: httpx.AsyncClient, body: bytes, **headers: str) -> httpx.Response:
    return await http.post(
        "/api/photo", content=body, headers={"content-type": "image/jpeg", **headers}
    )


async def test_a_photo_of_a_table_answers_its_cards_where_they_lie_and_their_sets(
    http: httpx.AsyncClient, photo: photokit.TablePhoto
) -> None:
    reply = await send(http, photo.jpeg)
    assert reply.status_code == 200, reply.text
    reading = reply.json()
    assert len(reading["cards"]) == len(CODES)
    for found in reading["cards"]:
        assert len(found["corners"]) == 4
        assert 0.0 <= found["confidence"] <= 1.0
        assert all(0 <= x <= photo.width and 0 <= y <= photo.height for x, y in found["corners"])
    # every card drawn is found once, where it lies
    places = [photokit.centre(c["corners"]) for c in reading["cards"]]
    for corners in photo.corners:
        assert sum(inside(p, corners) for p in places) == 1
    # the sets are the rules' own among the cards read (the reading's accuracy is the
    # recognition's tests' business: tests/test_photo_*.py)
    read = parse_cards([c["code"] for c in reading["cards"]])
    judged = {frozenset(s) for s in find_sets(read)}
    assert {frozenset(parse_cards(s)) for s in reading["sets"]} == judged
    assert isinstance(reading["seconds"], float)


@pytest.mark.parametrize("kind", [".png", ".webp"])
async def test_png_and_webp_photos_are_read_too(
    http: httpx.AsyncClient, photo: photokit.TablePhoto, kind: str
) -> None:
    pixels = cv2.imdecode(np.frombuffer(photo.jpeg, np.uint8), cv2.IMREAD_COLOR)
    ok, encoded = cv2.imencode(kind, pixels)
    assert ok
    reply = await send(http, encoded.tobytes(), **{"content-type": f"image/{kind[1:]}"})
    assert reply.status_code == 200, reply.text
    assert len(reply.json()["cards"]) == len(CODES)


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"", 400, "no_photo"),
        (b"this is not an image at all", 400, "not_an_image"),
        (b"GIF89a" + b"\x00" * 64, 400, "unsupported"),
        (photokit.png_header_bomb(100_000, 100_000), 413, "too_many_pixels"),  # 10 gigapixels
        (photokit.png_header_bomb(10_000, 5_001), 413, "too_many_pixels"),  # just over 50 MP
    ],
)
async def test_a_hostile_file_is_refused_quoting_what_is_wrong(
    http: httpx.AsyncClient, body: bytes, status: int, code: str
) -> None:
    reply = await send(http, body)
    assert reply.status_code == status, reply.text
    assert reply.json()["code"] == code
    assert reply.json()["message"]


def resident_mb(server: Any) -> float:
    """The server process's resident memory (Linux), in MB."""
    status = Path(f"/proc/{server.proc.pid}/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0]) / 1024


async def test_a_huge_image_in_a_tiny_file_is_refused_from_its_header_at_once(
    http: httpx.AsyncClient, live_server: Any
) -> None:
    bomb = photokit.png_header_bomb(40_000, 40_000)  # 1.6 gigapixels: 1.6 GB decoded
    assert len(bomb) < 100_000
    before = resident_mb(live_server)
    began = time.monotonic()
    reply = await send(http, bomb)
    assert resident_mb(live_server) - before < 100  # nothing was decoded
    assert reply.status_code == 413
    message = reply.json()["message"].replace(",", "")
    assert "40000 x 40000" in message or "1600000000 pixels" in message  # quoted
    assert time.monotonic() - began < 2.0  # nothing was decoded


async def test_a_photo_sent_by_another_sites_page_is_refused(
    http: httpx.AsyncClient, live_server: Any
) -> None:
    reply = await send(http, b"not read", origin="https://elsewhere.example")
    assert reply.status_code == 403
    assert reply.json()["code"] == "bad_origin"
    assert "elsewhere.example" in reply.json()["message"]
    host = str(live_server).removeprefix("http://").rstrip("/")
    same = await send(http, b"not an image", origin=f"http://{host}")
    assert same.json()["code"] == "not_an_image"  # its own page is served


async def test_a_truncated_photo_is_refused_as_truncated(
    http: httpx.AsyncClient, photo: photokit.TablePhoto
) -> None:
    for cut in (200, len(photo.jpeg) // 2):
        reply = await send(http, photo.jpeg[:cut])
        assert reply.status_code == 400, (cut, reply.text)
        assert reply.json()["code"] == "truncated"
        assert "cannot be read" in reply.json()["message"]


async def test_over_15_mb_is_refused_before_the_rest_is_read(live_server: Any) -> None:
    assert Limits().photo_bytes == 15 * MB
    async with httpx.AsyncClient(base_url=str(live_server), trust_env=False, timeout=30) as http:
        declared = await http.post(
            "/api/photo",
            content=b"\xff\xd8\xff" + bytes(15 * MB),
            headers={"content-type": "image/jpeg"},
        )
    assert declared.status_code == 413
    assert declared.json()["code"] == "too_big"

    async def stream() -> AsyncIterator[bytes]:  # no Content-Length: counted as it comes
        yield b"\xff\xd8\xff"
        for _ in range(64):
            yield bytes(MB)

    async with httpx.AsyncClient(base_url=str(live_server), trust_env=False, timeout=30) as http:
        streamed = await http.post("/api/photo", content=stream())
    assert streamed.status_code == 413
    assert streamed.json()["code"] == "too_big"


async def test_too_many_photos_at_once_get_503_with_retry_after(server_factory: Any) -> None:
    server = server_factory(env={"SETGAME_PHOTOS_AT_ONCE": "1"})
    big = photokit.table_photo(CODES, size=(4000, 3000), seed=2)  # 12 megapixels: about a second
    async with httpx.AsyncClient(base_url=str(server), trust_env=False, timeout=60) as http:
        replies = await asyncio.gather(*(send(http, big.jpeg) for _ in range(4)))
        statuses = sorted(r.status_code for r in replies)
        assert 200 in statuses and 503 in statuses, statuses
        busy = next(r for r in replies if r.status_code == 503)
        assert busy.json()["code"] == "busy"
        assert int(busy.headers["retry-after"]) >= 1
        assert set(statuses) <= {200, 503}


async def test_uploads_held_at_once_are_bounded(server_factory: Any, photo: Any) -> None:
    """A slow upload holds its place; past ``photo_uploads`` the next is refused at once."""
    server = server_factory(env={"SETGAME_PHOTO_UPLOADS": "1", "SETGAME_PHOTO_SECONDS": "3"})
    sent = asyncio.Event()

    async def trickle() -> AsyncIterator[bytes]:
        yield photo.jpeg[:1000]
        sent.set()
        await asyncio.sleep(5)  # past photo_seconds: the server gives up on it
        yield photo.jpeg[1000:]

    async with httpx.AsyncClient(base_url=str(server), trust_env=False, timeout=30) as http:
        slow = asyncio.create_task(http.post("/api/photo", content=trickle()))
        await sent.wait()
        await asyncio.sleep(0.3)
        other = await send(http, photo.jpeg)
        assert other.status_code == 503
        assert other.json()["code"] == "busy"
        assert (await slow).status_code == 408
        assert (await send(http, photo.jpeg)).status_code == 200  # its place is free again


async def test_one_address_holds_a_quarter_of_the_uploads(server_factory: Any, photo: Any) -> None:
    server = server_factory(env={"SETGAME_PHOTO_UPLOADS": "8", "SETGAME_PHOTO_SECONDS": "3"})
    started = [asyncio.Event(), asyncio.Event()]

    def trickle(sent: asyncio.Event) -> AsyncIterator[bytes]:
        async def body() -> AsyncIterator[bytes]:
            yield photo.jpeg[:1000]
            sent.set()
            await asyncio.sleep(5)
            yield photo.jpeg[1000:]

        return body()

    async with httpx.AsyncClient(base_url=str(server), trust_env=False, timeout=30) as http:
        slow = [asyncio.create_task(http.post("/api/photo", content=trickle(e))) for e in started]
        for event in started:
            await event.wait()
        await asyncio.sleep(0.3)
        third = await send(http, photo.jpeg)
        assert third.status_code == 503
        assert "(2 at once)" in third.json()["message"]
        assert [(await task).status_code for task in slow] == [408, 408]
        assert (await send(http, photo.jpeg)).status_code == 200


async def test_the_server_keeps_serving_while_photos_are_read(server_factory: Any) -> None:
    server = server_factory()
    big = photokit.table_photo(CODES, size=(4000, 3000), seed=3)
    async with httpx.AsyncClient(base_url=str(server), trust_env=False, timeout=60) as http:
        await http.get("/api/health")
        reading = asyncio.gather(*(send(http, big.jpeg) for _ in range(2)))
        await asyncio.sleep(0.3)  # both uploaded, being recognized
        slowest = 0.0
        for _ in range(5):
            began = time.monotonic()
            assert (await http.get("/api/rooms")).status_code == 200
            slowest = max(slowest, time.monotonic() - began)
            await asyncio.sleep(0.05)
        assert [r.status_code for r in await reading] == [200, 200]
    assert slowest < 0.5, f"the event loop stalled {slowest:.2f} s during recognition"


async def test_photos_from_one_address_are_rate_limited(server_factory: Any) -> None:
    server = server_factory(env={"SETGAME_PHOTO_BURST": "2", "SETGAME_PHOTOS_PER_MINUTE": "1"})
    async with httpx.AsyncClient(base_url=str(server), trust_env=False, timeout=30) as http:
        first = [await send(http, b"not an image") for _ in range(2)]
        assert [r.status_code for r in first] == [400, 400]  # refused, but counted
        third = await send(http, b"not an image")
    assert third.status_code == 429
    assert third.json()["code"] == "rate_limited"
    assert 1 <= int(third.headers["retry-after"]) <= 60


# --- the corrected table's sets -------------------------------------------------------------


async def test_a_corrected_table_is_judged_by_the_rules(http: httpx.AsyncClient) -> None:
    reply = await http.post("/api/photo/sets", json={"cards": [c.lower() for c in CODES]})
    assert reply.status_code == 200, reply.text
    assert reply.json()["cards"] == CODES
    expected = {frozenset(s) for s in find_sets(parse_cards(CODES))}
    assert {frozenset(parse_cards(s)) for s in reply.json()["sets"]} == expected
    none = await http.post("/api/photo/sets", json={"cards": ["1RSD", "1RSO"]})
    assert none.json()["sets"] == []


@pytest.mark.parametrize(
    ("body", "code", "quoted"),
    [
        (b'{"cards": ["1RSD", "9XYZ"]}', "bad_card", "9XYZ"),
        (b'{"cards": ["1RSD", "1rsd"]}', "bad_card", "1rsd"),
        (b'{"cards": "1RSD"}', "bad_table", "cards"),
        (b'{"cards": [], "extra": []}', "bad_table", "extra"),
        (b"[1, 2", "bad_table", "cards"),
        (('{"cards": [' + ", ".join(['"1RSD"'] * 82) + "]}").encode(), "too_many_cards", "82"),
    ],
)
async def test_a_bad_table_is_refused_quoting_it(
    http: httpx.AsyncClient, body: bytes, code: str, quoted: str
) -> None:
    assert_refused(await http.post("/api/photo/sets", content=body), code, quoted)


async def test_a_table_too_big_to_judge_is_refused_before_reading(http: httpx.AsyncClient) -> None:
    reply = await http.post("/api/photo/sets", content=b"{" + b" " * 5000 + b"}")
    assert reply.status_code == 413


# --- play this table -----------------------------------------------------------------------


async def test_a_practice_room_starts_from_the_cards_of_the_photo(http: httpx.AsyncClient) -> None:
    reply = await http.post(
        "/api/rooms", json={"mode": "practice", "start": CODES, "public": False}
    )
    assert reply.status_code == 201, reply.text
    room = (await http.get(f"/api/rooms/{reply.json()['id']}")).json()
    assert room["settings"]["start"] == CODES


@pytest.mark.parametrize(
    ("settings", "code", "quoted"),
    [
        ({"mode": "solo", "start": CODES}, "bad_setting", "practice game only"),
        ({"mode": "practice", "start": ["1RSD", "1RSD"]}, "bad_setting", "duplicate card"),
        ({"mode": "practice", "start": ["1RSD", "4BCH"]}, "bad_setting", "4BCH"),
        ({"mode": "practice", "start": ["1RSD"] * 22}, "bad_settings", "length <= 21"),
        ({"mode": "practice", "start": ["1RSD", "x"]}, "bad_settings", "start"),
    ],
)
async def test_a_bad_starting_table_is_refused(
    http: httpx.AsyncClient, settings: dict[str, Any], code: str, quoted: str
) -> None:
    assert_refused(await http.post("/api/rooms", json=settings), code, quoted)


async def test_a_room_from_a_photo_deals_its_cards_after_a_restart(fresh_server: Any) -> None:
    """The cards are stored with the room's settings: a restart finds them, and the game
    deals them."""
    async with httpx.AsyncClient(base_url=str(fresh_server), trust_env=False, timeout=30) as h:
        made = await h.post("/api/rooms", json={"mode": "practice", "start": CODES})
        room = made.json()["id"]
    fresh_server.restart()
    async with connect(f"{fresh_server.ws}/ws/{room}", proxy=None) as ws:

        async def until(kind: str) -> dict[str, Any]:
            while True:
                message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if message["type"] == kind or (
                    kind == "dealt" and message.get("state", {}).get("phase") == "playing"
                ):
                    return message

        await ws.send(json.dumps({"type": "hello"}))
        await until("welcome")
        await ws.send(json.dumps({"type": "join", "name": "Ann"}))
        await until("joined")
        await ws.send(json.dumps({"type": "start"}))
        dealt = await until("dealt")
    assert dealt["state"]["table"] == CODES
    assert dealt["state"]["deck"] == 81 - len(CODES)


def test_a_fault_of_the_reader_is_a_500_that_names_no_photo(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import setgame.photo
    from setgame.server import photo_api

    def broken(data: bytes, **_: Any) -> None:
        raise RuntimeError("a bug in the reader")

    monkeypatch.setattr(setgame.photo, "read_photo", broken)
    with pytest.raises(photo_api.Refused) as info:
        photo_api.recognize(b"\xff\xd8\xff secret pixels", 1000)
    assert (info.value.status, info.value.code) == (500, "photo_failed")
    assert "secret pixels" not in caplog.text
    assert "a bug in the reader" in caplog.text  # the traceback, for the host
