"""The daily puzzle page (/puzzle, issue 10): the day's 12 cards, played as a solo room of the
variant ``puzzle`` through the real server; the test finds the sets from the cards the page
shows (``setgame.rules.sets``) and clicks them in Chromium."""

from __future__ import annotations

import datetime
import os
import re
import sqlite3
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from browser.browserkit import not_a_set, puzzle_keys, solve_puzzle, table
from setgame import card_names, find_sets, parse_cards
from setgame.rules.puzzle import daily_puzzle, daily_seed, parse_day
from setgame.server.keys import SECRET_ENV, derive

pytestmark = pytest.mark.browser

#: A card code of any deck (R02's four letters, MegaSet's five, 4Set's): none may be shared.
CODE = re.compile(r"\b[1-4][RGPB][STOC][DOSH][SDT]?\b", re.IGNORECASE)


def served_puzzle(server: Any, day: str) -> list[str]:
    """The cards the server deals on ``day``: from its secret (``SETGAME_SECRET``, else the one
    it stored in its database), never the public table of the source."""
    secret = os.environ.get(SECRET_ENV, "").strip().encode()
    if not secret:
        with sqlite3.connect(server.db) as db:
            (value,) = db.execute("SELECT value FROM server_keys WHERE name = 'server'").fetchone()
        secret = str(value).encode()
    date = parse_day(day)
    cards = card_names(daily_puzzle(date, daily_seed(date, derive(secret, "daily puzzle"))))
    assert cards != card_names(daily_puzzle(date))  # the public table is not what is dealt
    return cards


def utc_today(days: int = 0) -> str:
    now = datetime.datetime.now(datetime.UTC).date()
    return (now + datetime.timedelta(days=days)).isoformat()


def test_a_daily_puzzle_is_solved_to_the_end(live_server: str, new_page: Any) -> None:
    day = utc_today(-3)  # a past day: played like today's
    page = new_page(permissions=["clipboard-read", "clipboard-write"])
    page.goto(f"{live_server}/puzzle?date={day}")
    expect(page.locator("[data-card]")).to_have_count(12)
    codes = table(page)
    assert codes == served_puzzle(live_server, day)  # the day's cards, in order
    expect(page.locator("#puzzle-found")).to_have_attribute("data-total", "6")

    # One wrong pick: the engine refuses it, and the page shows what it cost: 10 seconds.
    for code in not_a_set(codes):
        page.click(f'[data-card="{code}"]')
    expect(page.locator("#puzzle-penalty")).to_have_attribute("data-penalty", "10")
    expect(page.locator("#puzzle-penalty")).to_contain_text("+10")
    expect(page.locator("#banner")).to_contain_text("+10")
    expect(page.locator("#puzzle-wrong")).to_have_attribute("data-wrong", "1")
    assert int(page.get_attribute("#puzzle-clock", "data-seconds") or "0") >= 10

    sets = find_sets(parse_cards(codes))
    assert len(sets) == 6
    # The first set by keyboard (keys by position, as in the room), then picking it again is
    # refused without a cost; the others by clicks.
    first = card_names(sets[0])
    for code in first:
        page.keyboard.press(puzzle_keys(codes.index(code)))
    expect(page.locator("#puzzle-found")).to_have_attribute("data-found", "1")
    for code in first:
        page.click(f'[data-card="{code}"]')
    expect(page.locator("#banner")).to_contain_text("already")
    expect(page.locator("#puzzle-penalty")).to_have_attribute("data-penalty", "10")
    solve_puzzle(page)
    expect(page.locator("main")).to_have_attribute("data-phase", "match_over")
    expect(page.locator("#found li")).to_have_count(6)
    expect(page.locator("#found [data-card]")).to_have_count(0)  # found sets are not the table

    share = page.input_value("#share")
    assert day in share and "+10" in share, share
    assert page.inner_text("#puzzle-clock") in share  # the time shown is the time shared
    assert CODE.search(share) is None, share  # no spoilers: no card in the result
    assert not any(word in share.lower() for word in ("red", "green", "purple", "oval"))
    page.click("[data-action=copy-result]")
    expect(page.locator("#copied")).not_to_be_empty()
    assert page.evaluate("navigator.clipboard.readText()") == share

    # A reload shows the finished day again (the room is kept for the day).
    page.reload()
    expect(page.locator("main")).to_have_attribute("data-phase", "match_over")
    assert page.input_value("#share") == share


def test_a_future_day_is_refused_with_a_readable_message(live_server: str, new_page: Any) -> None:
    page = new_page()
    future = utc_today(2)
    page.goto(f"{live_server}/puzzle?date={future}")
    expect(page.locator("#puzzle-error")).to_contain_text("not out yet")
    expect(page.locator("main")).to_have_attribute("data-phase", "refused")
    expect(page.locator("[data-card]")).to_have_count(0)
    # The server refuses it too, whatever a page asks.
    reply = httpx.post(
        f"{live_server}/api/rooms",
        json={"mode": "solo", "variant": "puzzle", "day": future},
        timeout=5,
    )
    assert reply.status_code == 400 and future in reply.json()["message"], reply.text
    page.goto(f"{live_server}/puzzle?date=2026-02-30&lang=de")
    expect(page.locator("#puzzle-error")).to_contain_text("2026-02-30")
    expect(page.locator("#puzzle-error")).to_contain_text("kein Datum")


def test_previous_days_are_offered_up_to_today(live_server: str, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{live_server}/puzzle")
    expect(page.locator("[data-card]")).to_have_count(12)
    today = utc_today()
    day_input = page.locator("#pick-day input[name=date]")
    expect(day_input).to_have_attribute("max", today)
    expect(page.locator("#next-day")).to_be_hidden()  # no puzzle after today's
    # Seventy old days in storage: opening another day keeps the rooms of the last 60 only.
    page.evaluate(SEED_OLD_DAYS)
    page.click("#prev-day")
    expect(page).to_have_url(re.compile(rf"date={utc_today(-1)}$"))
    expect(page.locator("[data-card]")).to_have_count(12)
    assert table(page) == served_puzzle(live_server, utc_today(-1))
    day_input.fill(utc_today(-10))
    page.click("#pick-day [type=submit]")
    expect(page).to_have_url(re.compile(rf"date={utc_today(-10)}$"))
    expect(page.locator("[data-card]")).to_have_count(12)
    kept = page.evaluate(KEPT_DAYS)
    assert len(kept["days"]) == 60 and kept["tokens"] == 60 - 3, kept
    assert f"setgame.puzzle.{utc_today(-10)}" in kept["days"]  # the newest stay
    assert "setgame.puzzle.2000-01-01" not in kept["days"]


SEED_OLD_DAYS = """() => {
  for (let i = 0; i < 70; i++) {
    const day = new Date(Date.UTC(2000, 0, 1 + i)).toISOString().slice(0, 10);
    localStorage.setItem(`setgame.puzzle.${day}`, `old${i}`);
    localStorage.setItem(`setgame.token.old${i}`, "x");
  }
}"""
KEPT_DAYS = """() => {
  const keys = Object.keys(localStorage);
  return { days: keys.filter((k) => k.startsWith("setgame.puzzle.")),
           tokens: keys.filter((k) => k.startsWith("setgame.token.old")).length };
}"""
