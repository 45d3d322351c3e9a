"""``GET /api/puzzle/daily``: the day's 12 cards, the same for everyone.

The table is :func:`setgame.rules.puzzle.daily_puzzle` of the date; the answer is only the date
and the cards, never the sets or how many there are beyond what the puzzle promises (6).
The engine has no clock, so the server decides what "today" is: UTC, and a day after it
is refused (its puzzle is not out yet).

A past day's cards never change (the puzzle is a pure function of the date), so its
answer may be cached for a long time; today's is cacheable only until midnight UTC, when
"no date" starts to mean another day. Requests are bounded by the edge (connection rate
and count per address, request-head deadline); computing an uncached day costs under a
millisecond on average (5 ms at worst, measured over 300 days), and recent days are kept.
"""

from __future__ import annotations

import datetime
import functools
from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from setgame.rules.cards import card_names
from setgame.rules.puzzle import PuzzleError, daily_puzzle, parse_day

PAST_MAX_AGE: Final = 365 * 86400
"""Seconds a past day's answer may be cached: it never changes."""
CACHED_DAYS: Final = 256
"""Days whose cards are kept in memory (the recent ones are what people ask for)."""


def utc_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


@functools.lru_cache(maxsize=CACHED_DAYS)
def _cards(day: datetime.date) -> tuple[str, ...]:
    return tuple(card_names(daily_puzzle(day)))


def answer(query: list[str], now: datetime.datetime) -> tuple[int, dict[str, object], str]:
    """Status, JSON body and Cache-Control for the ``date`` values of a query at ``now``."""
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
    body: dict[str, object] = {"date": day.isoformat(), "cards": list(_cards(day))}
    if day < today:
        return 200, body, f"public, max-age={PAST_MAX_AGE}, immutable"
    midnight = datetime.datetime.combine(today + datetime.timedelta(days=1),
                                         datetime.time(), datetime.UTC)
    left = max(1, int((midnight - now).total_seconds()))
    return 200, body, f"public, max-age={left}"


def _bad(code: str, message: str) -> dict[str, object]:
    return {"code": code, "message": message}


async def daily(request: Request) -> Response:
    status, body, cache = answer(request.query_params.getlist("date"), utc_now())
    return JSONResponse(body, status_code=status, headers={"Cache-Control": cache})
