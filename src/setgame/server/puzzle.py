"""``GET /api/puzzle/daily``: the day's 12 cards, the same for everyone, and the daily
puzzle's clock.

The table is :func:`setgame.rules.puzzle.daily_puzzle` of the date and the day's seed under the
server's key (:func:`setgame.rules.puzzle.daily_seed`, ``keys.py``): nobody can compute a day's
cards without the key, so a future day cannot be solved in advance. The answer is only the
date and the cards, never the sets or how many there are beyond what the puzzle promises (6).
The engine has no clock, so the server decides what "today" is: UTC, and a day after it is
refused (its puzzle is not out yet).

**The clock** (the daily board, ``players.py``): a player's time for a day is the server's,
from the moment that day's cards were first sent to them (:func:`start_clock`, for their
account and for their address, whichever came first) to their last pick. Cards go out in two
ways, and both start it: a daily-puzzle room dealing them (the rating keeper sees the deal),
and this API answering today's cards, which it does only once the clock is stored (else 503:
no card leaves without its clock). Past days are not ranked: their cards are handed out freely.

A past day's cards never change, so its answer may be cached for a long time; today's is
never stored by a cache (it starts a clock: it must reach the server). Requests are bounded
by the edge (connection rate and count per address, request-head deadline); computing an
uncached day costs under a millisecond on average (5 ms at worst, measured over 300 days),
and recent days are kept.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import logging
import sqlite3
import time
from collections.abc import Iterable
from typing import Any, Final

import sqlalchemy as sa
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from setgame.rules.cards import card_names
from setgame.rules.puzzle import PuzzleError, daily_puzzle, daily_seed, parse_day
from setgame.server import keys
from setgame.server.account_tables import puzzle_starts
from setgame.server.accounts import signed_in
from setgame.server.edge import client_host
from setgame.server.storage import Storage, StorageError

log = logging.getLogger(__name__)

PAST_MAX_AGE: Final = 365 * 86400
"""Seconds a past day's answer may be cached: it never changes."""
CACHED_DAYS: Final = 256
"""Days whose cards are kept in memory (the recent ones are what people ask for)."""
TODAY_CACHE: Final = "private, no-store"


def utc_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


@functools.lru_cache(maxsize=CACHED_DAYS)
def _cards(day: datetime.date, key: bytes) -> tuple[str, ...]:
    return tuple(card_names(daily_puzzle(day, daily_seed(day, key))))


def answer(
    query: list[str], now: datetime.datetime, key: bytes = b""
) -> tuple[int, dict[str, object], str]:
    """Status, JSON body and Cache-Control for the ``date`` values of a query at ``now``,
    the cards dealt under the server's puzzle ``key``."""
    today = now.astimezone(datetime.UTC).date()
    if len(query) > 1:
        return 400, _bad("bad_date", f"one date at most, not {len(query)}"), "no-store"
    try:
        day = parse_day(query[0]) if query else today
    except PuzzleError as exc:
        return 400, _bad("bad_date", str(exc)), "no-store"
    if day > today:
        message = f"the puzzle of {day.isoformat()} is not out yet (today is {today} UTC)"
        return 400, _bad("future_date", message), "no-store"
    body: dict[str, object] = {"date": day.isoformat(), "cards": list(_cards(day, key))}
    if day < today:
        return 200, body, f"public, max-age={PAST_MAX_AGE}, immutable"
    return 200, body, TODAY_CACHE


def _bad(code: str, message: str) -> dict[str, object]:
    return {"code": code, "message": message}


def clock_keys(account: str | None, address: str | None) -> list[str]:
    """Whose clock a sending of cards starts: the account (``a:``) and the address's keyed
    hash (``n:``), so that neither a second account nor a guest on one address sees the cards
    for free."""
    return [k for k in (account and f"a:{account}", address and f"n:{address}") if k]


async def start_clock(storage: Storage, who: Iterable[str], day: str, at: float) -> None:
    """Record that ``day``'s cards were sent to ``who`` at ``at`` (Unix time), unless they
    were earlier: the first sending stays."""
    wanted = list(who)
    if not wanted:
        return
    async with storage.reading() as conn:
        known = await conn.execute(
            sa.select(puzzle_starts.c.who).where(
                puzzle_starts.c.who.in_(wanted), puzzle_starts.c.day == day
            )
        )
        sent = {k for (k,) in known.all()}
    for key in wanted:
        if key in sent:
            continue
        with contextlib.suppress(sa.exc.IntegrityError, sqlite3.IntegrityError):  # just sent
            await storage.write((puzzle_starts.insert().values(who=key, day=day, sent=at), {}))


async def forget_clocks(storage: Storage, today: datetime.date) -> None:
    """Delete the sendings of days before yesterday: only today's board reads them (and a
    solve that began yesterday may still end today)."""
    before = (today - datetime.timedelta(days=1)).isoformat()
    await storage.write((puzzle_starts.delete().where(puzzle_starts.c.day < before), {}))


async def clock_started(conn: Any, who: Iterable[str], day: str) -> float | None:
    """When ``day``'s cards were first sent to any of ``who``; None if never recorded."""
    keys = list(who)
    if not keys:
        return None
    query = sa.select(sa.func.min(puzzle_starts.c.sent)).where(
        puzzle_starts.c.who.in_(keys), puzzle_starts.c.day == day
    )
    found = await conn.scalar(query)
    return None if found is None else float(found)


async def daily(request: Request) -> Response:
    now = utc_now()
    status, body, cache = answer(
        request.query_params.getlist("date"), now, request.app.state.rooms.puzzle_key
    )
    if status == 200 and cache == TODAY_CACHE:  # today's cards: the clock starts first
        account = await signed_in(request)
        address = keys.address_hash(request.app.state.address_key, client_host(request))
        who = clock_keys(account.id if account else None, address)
        try:
            await start_clock(request.app.state.storage, who, str(body["date"]), time.time())
        except StorageError as exc:
            log.error("the daily puzzle's clock cannot be started: %s", exc)
            refusal = _bad("storage_error", "the server cannot start your clock now: try again")
            return JSONResponse(refusal, status_code=503, headers={"Cache-Control": "no-store"})
    return JSONResponse(body, status_code=status, headers={"Cache-Control": cache})
