"""Photos of real tables (issue 24): ``POST /api/photo`` reads the cards and the sets of a
photo, ``POST /api/photo/sets`` judges a table of cards as the player corrected it.

A photo costs CPU and memory, so each step is bounded before the next one starts, cheapest
first: a rate per client address (``photos_per_minute``, ``photo_burst``: 429), the uploads held
at once by the process (``photo_uploads``: 503), the body's size (``photo_bytes``: 413 from the
Content-Length, or as soon as the stream passes it, never read on) and time
(``photo_seconds``: 408), the image's pixels from its header before anything is decoded
(``photo_pixels``: 413, so a decompression bomb never fills memory), and the recognitions at
once (``photos_at_once``: 503 with Retry-After). Recognition runs on worker threads (OpenCV and
NumPy release the interpreter while they work) ``photo_nice`` levels below the server, so the
event loop keeps serving the rooms.
The photo is never stored: it lives in memory for the request; only "play this table" stores
anything, the cards (``POST /api/rooms`` with ``start``).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from setgame.rules.cards import CARDS, CardError, card_name, parse_cards
from setgame.rules.sets import find_sets
from setgame.server.edge import BITES, BodyError, client_host, foreign_origin, read_body
from setgame.server.hashing import _nicer as nicer  # the same lower priority as the hashes
from setgame.server.limits import Limits

log = logging.getLogger(__name__)

ADDRESSES: Final = 10_000
"""Client addresses whose rate buckets are kept; beyond, the one used longest ago goes."""
BUSY_SECONDS: Final = 3
"""Retry-After of a 503 busy: about one recognition's time."""
MAX_CARDS: Final = len(CARDS)
"""The most cards ``/api/photo/sets`` judges: a whole deck."""


class Refused(Exception):
    """A request refused: its status, code, message and optional Retry-After."""

    def __init__(self, status: int, code: str, message: str, retry: int | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.retry = status, code, retry

    def response(self) -> Response:
        answer = JSONResponse({"code": self.code, "message": str(self)}, status_code=self.status)
        if self.retry is not None:
            answer.headers["retry-after"] = str(self.retry)
        if self.status in (408, 413):  # the rest of the body is never read
            answer.headers["connection"] = "close"
        return answer


@dataclass(slots=True)
class _Bucket:
    tokens: float
    stamp: float


class Rate:
    """A token bucket per client address: ``per_minute`` on average, ``burst`` at once."""

    def __init__(self, per_minute: float, burst: int) -> None:
        self.rate, self.burst = per_minute / 60, float(burst)
        self.buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def wait(self, host: str, now: float | None = None) -> float:
        """Take one token for ``host``: 0.0, or the seconds until one is there (none taken)."""
        now = time.monotonic() if now is None else now
        bucket = self.buckets.get(host)
        if bucket is None:
            bucket = self.buckets[host] = _Bucket(self.burst, now)
            while len(self.buckets) > ADDRESSES:
                self.buckets.popitem(last=False)
        self.buckets.move_to_end(host)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        if bucket.tokens < 1:
            return (1 - bucket.tokens) / self.rate
        bucket.tokens -= 1
        return 0.0


class PhotoDesk:
    """One process's photo reading: its rates, its counts, its worker threads."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.photos = Rate(limits.photos_per_minute, limits.photo_burst)
        per_minute = limits.photo_sets_per_minute
        self.judged = Rate(per_minute, max(1, int(per_minute / 2)))
        self.uploads = 0  # bodies being read or held
        self.held: dict[str, int] = {}  # ...of them, by client address
        self.reading = 0  # recognitions running
        self.pool: ThreadPoolExecutor | None = None  # made at the first photo

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)

    async def read(self, request: Request) -> dict[str, Any]:
        """The Reading of the request's photo as JSON, or :class:`Refused`."""
        why = foreign_origin(request)  # another site's page would spend its visitors' share
        if why is not None:
            raise Refused(403, "bad_origin", why)
        host = client_host(request)
        wait = self.photos.wait(host)
        if wait:
            BITES("photos_per_minute", f"{host} sends photos too fast")
            raise Refused(429, "rate_limited", "too many photos from this address: wait",
                          math.ceil(wait))
        self._admit(host)
        self.uploads += 1
        self.held[host] = self.held.get(host, 0) + 1
        try:
            data = await self._body(request)
            return await self._recognize(data)
        finally:
            self.uploads -= 1
            self.held[host] -= 1
            if not self.held[host]:
                del self.held[host]

    def _admit(self, host: str) -> None:
        """A place among the uploads held at once: ``photo_uploads`` in all, a quarter of
        them (at least one) per address, so that slow uploads from one address cannot take
        every place."""
        share = max(1, self.limits.photo_uploads // 4)
        if self.held.get(host, 0) >= share:
            BITES("photo_uploads", f"{host} holds {share} photo uploads")
            raise Refused(503, "busy", f"this address is sending its share of photos "
                          f"already ({share} at once): wait for them", BUSY_SECONDS)
        if self.uploads >= self.limits.photo_uploads:
            BITES("photo_uploads", f"{self.uploads} photo uploads at once")
            raise Refused(503, "busy", "the server is reading other photos: try again soon",
                          BUSY_SECONDS)

    async def _body(self, request: Request) -> bytes:
        limits = self.limits
        try:
            data = await read_body(request, limits, limits.photo_bytes, limits.photo_seconds)
        except BodyError as exc:
            raise Refused(exc.status, exc.code, str(exc)) from None
        if not data:
            raise Refused(400, "no_photo", "the body is empty: send the photo's bytes "
                          "(JPEG, PNG or WebP) as the body")
        check_pixels(data, limits.photo_pixels)
        return data

    async def _recognize(self, data: bytes) -> dict[str, Any]:
        if self.reading >= self.limits.photos_at_once:
            BITES("photos_at_once", f"{self.reading} photos being read")
            raise Refused(503, "busy", "the server is reading other photos: try again soon",
                          BUSY_SECONDS)
        if self.pool is None:
            self.pool = ThreadPoolExecutor(
                self.limits.photos_at_once, "photo", nicer, (self.limits.photo_nice,)
            )
        self.reading += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.pool, recognize, data, self.limits.photo_pixels)
        finally:
            self.reading -= 1


# --- the recognition's side (imported at the first photo: OpenCV is heavy) ----------------


TOO_BIG: Final = frozenset({"too_many_pixels", "too_large"})
"""The recognition's refusals that are about size (413); the others are about the file (400)."""


def check_pixels(data: bytes, max_pixels: int) -> None:
    """Refuse (:class:`Refused`) a photo that is no image this server reads, or has more than
    ``max_pixels`` pixels, from its header alone (nothing is decoded: ``setgame.photo.probe``)."""
    from setgame.photo import PhotoError, probe

    try:
        probe(data, max_pixels=max_pixels, max_bytes=len(data))
    except PhotoError as exc:
        raise _refusal(exc) from None


def recognize(data: bytes, max_pixels: int) -> dict[str, Any]:
    """Run on a worker thread: the photo's Reading as JSON, or :class:`Refused`."""
    from setgame.photo import PhotoError, read_photo

    try:
        reading = read_photo(data, max_pixels=max_pixels, max_bytes=len(data))
    except PhotoError as exc:
        raise _refusal(exc) from None
    except Exception:  # a fault of the reader's (or memory): logged, never the photo itself
        log.exception("a photo of %d bytes could not be read", len(data))
        raise Refused(500, "photo_failed", "the server failed to read this photo: "
                      "the fault is logged; try another photo") from None
    answer: dict[str, Any] = reading.to_json()
    return answer


def _refusal(exc: Any) -> Refused:
    code: str = exc.code
    return Refused(413 if code in TOO_BIG else 400, code, f"the photo cannot be read: {exc}")


# --- the routes ---------------------------------------------------------------------------


def desk(request: Request) -> PhotoDesk:
    photo: PhotoDesk = request.app.state.photo
    return photo


async def read_photo_route(request: Request) -> Response:
    """``POST /api/photo``: the body is the photo's bytes (docs/protocol.md)."""
    try:
        return JSONResponse(await desk(request).read(request))
    except Refused as exc:
        return exc.response()


async def judge_route(request: Request) -> Response:
    """``POST /api/photo/sets``: ``{"cards": [codes]}`` -> ``{"cards": [...], "sets": [...]}``,
    judged by the project's one judge (``setgame.rules.sets``)."""
    photos = desk(request)
    host = client_host(request)
    wait = photos.judged.wait(host)
    try:
        if wait:
            raise Refused(429, "rate_limited", "too many tables judged from this address: wait",
                          math.ceil(wait))
        body = await _small_body(request, photos.limits)
        return JSONResponse(judge(body))
    except Refused as exc:
        return exc.response()


async def _small_body(request: Request, limits: Limits) -> bytes:
    try:
        return await read_body(request, limits)
    except BodyError as exc:
        raise Refused(exc.status, exc.code, str(exc)) from None


_table: Final = msgspec.json.Decoder(dict[str, list[str]])


def judge(body: bytes) -> dict[str, Any]:
    """The sets among the body's cards; :class:`Refused` (400) quoting what is wrong."""
    try:
        fields = _table.decode(body)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise Refused(400, "bad_table", f'send {{"cards": ["1RSD", ...]}}: {exc}') from None
    if set(fields) != {"cards"}:
        raise Refused(400, "bad_table", f'send {{"cards": [...]}} alone, not {sorted(fields)!r}')
    codes = fields["cards"]
    if len(codes) > MAX_CARDS:
        raise Refused(400, "too_many_cards", f"{len(codes)} cards: at most {MAX_CARDS}")
    try:
        cards = parse_cards(codes)  # distinct
    except CardError as exc:
        raise Refused(400, "bad_card", str(exc)) from None
    sets = [[card_name(c) for c in group] for group in find_sets(cards)]
    return {"cards": [card_name(c) for c in cards], "sets": sets}


def routes() -> list[Route]:
    return [
        Route("/api/photo", read_photo_route, methods=["POST"]),
        Route("/api/photo/sets", judge_route, methods=["POST"]),
    ]
