"""The daily puzzle page's route (``GET /puzzle``): today's date from the server's clock, the
asked date quoted back escaped and bounded (the page itself is tested in tests/browser)."""

from __future__ import annotations

import datetime
import re

import httpx


def attribute(text: str, name: str) -> str:
    match = re.search(rf'{name}="([^"]*)"', text)
    assert match, name
    return match.group(1)


def test_the_puzzle_page_knows_today_in_utc(live_server: str) -> None:
    before = datetime.datetime.now(datetime.UTC).date().isoformat()
    response = httpx.get(f"{live_server}/puzzle?lang=pl", timeout=5)
    after = datetime.datetime.now(datetime.UTC).date().isoformat()
    assert response.status_code == 200
    assert "{{" not in response.text and 'lang="pl"' in response.text
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert attribute(response.text, "data-today") in (before, after)
    assert attribute(response.text, "data-day") == ""  # no date asked: the page plays today


def test_the_asked_date_is_escaped_and_bounded(live_server: str) -> None:
    hostile = '"><script>alert(1)</script>' + "x" * 5000
    response = httpx.get(f"{live_server}/puzzle", params={"date": hostile}, timeout=5)
    assert response.status_code == 200
    assert "<script>alert" not in response.text
    day = attribute(response.text, "data-day")
    assert day.startswith("&quot;&gt;&lt;script&gt;") and len(day) < 100
    asked = httpx.get(f"{live_server}/puzzle?date=2026-01-15", timeout=5)
    assert attribute(asked.text, "data-day") == "2026-01-15"
