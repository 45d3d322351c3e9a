"""``GET /api/puzzle/daily`` over real HTTP (uvicorn on loopback), and its answers at
chosen instants (the server's clock cannot be set from outside)."""

from __future__ import annotations

import datetime
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from setgame.rules.cards import parse_card
from setgame.rules.sets import find_sets
from setgame.server.puzzle import PAST_MAX_AGE, answer

UTC = datetime.UTC


@pytest.fixture
async def http(live_server: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=str(live_server), trust_env=False) as client:
        yield client


def today() -> datetime.date:
    return datetime.datetime.now(UTC).date()


async def daily(http: httpx.AsyncClient, **params: str) -> httpx.Response:
    return await http.get("/api/puzzle/daily", params=params)


async def test_same_date_gives_the_same_twelve_cards_holding_six_sets(
    http: httpx.AsyncClient,
) -> None:
    first, second = await daily(http, date="2026-03-14"), await daily(http, date="2026-03-14")
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    cards = first.json()["cards"]
    assert len(cards) == len(set(cards)) == 12
    assert len(find_sets([parse_card(c) for c in cards])) == 6


async def test_different_dates_give_different_cards(http: httpx.AsyncClient) -> None:
    days = ["2026-03-14", "2026-03-15", "2025-12-31", "2001-01-01"]
    tables = [frozenset((await daily(http, date=d)).json()["cards"]) for d in days]
    assert len(set(tables)) == len(days)


async def test_the_answer_reveals_no_set_nor_count(http: httpx.AsyncClient) -> None:
    body = (await daily(http, date="2026-03-14")).json()
    assert set(body) == {"date", "cards"}
    assert body["date"] == "2026-03-14"
    assert all(isinstance(c, str) and len(c) == 4 for c in body["cards"])


async def test_no_date_means_today_in_utc(http: httpx.AsyncClient) -> None:
    before = today()
    response = await daily(http)
    assert response.status_code == 200
    assert response.json()["date"] in {before.isoformat(), today().isoformat()}
    # today's cards start the caller's clock (the daily board): never from a cache
    assert response.headers["cache-control"] == "private, no-store"


async def test_a_past_day_is_cacheable(http: httpx.AsyncClient) -> None:
    response = await daily(http, date="2020-02-29")
    assert response.status_code == 200
    assert response.headers["cache-control"] == f"public, max-age={PAST_MAX_AGE}, immutable"


async def test_a_future_day_is_refused(http: httpx.AsyncClient) -> None:
    for day in (today() + datetime.timedelta(days=2), datetime.date(9999, 12, 31)):
        response = await daily(http, date=day.isoformat())
        assert response.status_code == 400
        assert response.json()["code"] == "future_date"
        assert day.isoformat() in response.json()["message"]
        assert response.headers["cache-control"] == "no-store"


@pytest.mark.parametrize(
    "date",
    [
        "",
        "yesterday",
        "2026-13-01",
        "2026-02-30",
        "0000-01-01",
        "2026-1-1",
        " 2026-01-01",
        "+2026-01-01",
        "2026-01-01T00:00",
        "２０２６-01-01",  # full-width digits: \d would take them, the format does not
        "'; DROP TABLE games; --",
        "<script>alert(1)</script>",
    ],
)
async def test_a_bad_date_is_refused_quoting_it(http: httpx.AsyncClient, date: str) -> None:
    response = await daily(http, date=date)
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "bad_date"
    assert repr(date)[:21] in response.json()["message"]  # quoted, cut after 20 characters


async def test_a_huge_date_is_quoted_cut_short(http: httpx.AsyncClient) -> None:
    response = await daily(http, date="9" * 6000)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_date"
    assert "9999" in body["message"] and len(body["message"]) < 200


async def test_two_dates_are_refused(http: httpx.AsyncClient) -> None:
    response = await http.get("/api/puzzle/daily?date=2026-01-01&date=2026-01-02")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_date"


async def test_the_server_still_serves_after_hostile_queries(http: httpx.AsyncClient) -> None:
    queries = ("date=%00", "date=%ff%fe", "date=" + "%" * 300, "date[]=1", "date=2026-01-01&x=1")
    for query in queries:
        response = await http.get(f"/api/puzzle/daily?{query}")
        assert response.status_code in (200, 400), (query, response.text)
    assert (await daily(http, date="2026-03-14")).status_code == 200


# --- at chosen instants ---------------------------------------------------------------------


def test_the_day_turns_at_midnight_utc() -> None:
    late = datetime.datetime(2026, 11, 22, 23, 59, 59, tzinfo=UTC)
    status, body, _ = answer(["2026-11-23"], late)
    assert (status, body["code"]) == (400, "future_date")
    status, body, cache = answer([], late)
    assert (status, body["date"], cache) == (200, "2026-11-22", "private, no-store")
    status, body, cache = answer(["2026-11-23"], late + datetime.timedelta(seconds=1))
    assert (status, body["date"], cache) == (200, "2026-11-23", "private, no-store")
    status, body, cache = answer(["2026-11-22"], late + datetime.timedelta(seconds=1))
    assert (status, cache) == (200, f"public, max-age={PAST_MAX_AGE}, immutable")


def test_today_is_the_utc_day_whatever_the_clock_zone() -> None:
    kiribati = datetime.timezone(datetime.timedelta(hours=14))
    now = datetime.datetime(2026, 11, 23, 9, 0, tzinfo=kiribati)  # 19:00 on the 22nd, UTC
    status, body, cache = answer([], now)
    assert (status, body["date"], cache) == (200, "2026-11-22", "private, no-store")
    assert answer(["2026-11-23"], now)[1]["code"] == "future_date"
