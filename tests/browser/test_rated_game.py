"""Issue 11 end to end: two players claim their names on /account (two browser contexts),
chat, play a rated game to the end, and then both profiles and the leaderboard show it."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from playwright.sync_api import Page, expect

from browser.browserkit import create_room, phase, play_round, seat, start
from setgame.analysis import ratings as rating

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Bob")
#: The fair-play rules relaxed (tests/server/test_fair_play.py tests them): a browser game on
#: the beginner deck lasts under 2 minutes, and both accounts play from one address.
LENIENT = {
    "SETGAME_RATED_MIN_SECONDS": "0", "SETGAME_RATED_MIN_SETS": "0",
    "SETGAME_RATED_ADDRESS_DAILY": "100",
}


def claim(page: Page, base: str, name: str) -> None:
    page.goto(f"{base}/account")
    page.fill("[data-account-name]", name)
    page.fill("[data-account-password]", "correct horse")
    page.click("[data-account-action=claim]")
    expect(page.locator("[data-account-status]")).to_contain_text(name)


def give_rated_games(db: Path, games: int) -> None:
    """Both accounts played ``games`` rated games before (one short of established), so that
    this one game brings them onto the leaderboard: the board's change is this game's."""
    from setgame.server.account_tables import accounts, ratings
    from setgame.server.storage import Storage

    async def write() -> None:
        storage = Storage(str(db))
        await storage.open()
        try:
            async with storage.reading() as conn:
                rows = (await conn.execute(sa.select(accounts.c.id, accounts.c.name))).all()
            await storage.write(*[
                (ratings.insert().values(account=r.id, family="set", mu=25.0, sigma=3.0,
                                         games=games), {})
                for r in rows if r.name in NAMES
            ])
        finally:
            await storage.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright holds this thread's loop
        pool.submit(asyncio.run, write()).result(timeout=60)


def board(base: str) -> list[dict[str, Any]]:
    answer = httpx.get(f"{base}/api/leaderboard?board=set", timeout=5, trust_env=False)
    assert answer.status_code == 200, answer.text
    rows: list[dict[str, Any]] = answer.json()
    return rows


def test_two_signed_in_players_chat_play_rated_and_the_profiles_and_board_change(
    server_factory: Any, new_page: Any, tmp_path: Path
) -> None:
    db = tmp_path / "rated.db"
    base = server_factory(db=db, env=LENIENT)
    ann, bob = pages = [new_page(), new_page()]
    for page, name in zip(pages, NAMES, strict=True):
        claim(page, base, name)
    give_rated_games(db, rating.BOARD_GAMES - 1)
    assert board(base) == []  # provisional both: not on the board yet
    url = create_room(base, public=False, rated=True, deck="beginner", rounds="single")
    seat(pages, url, list(NAMES))
    for page in pages:  # signed in: their seats say so, and the room that the game is rated
        for name in NAMES:
            expect(page.locator(f'[data-player="{name}"] .badge.member')).to_have_count(1)
        expect(page.locator("#rated")).to_have_attribute("data-rated", "true")
        expect(page.locator("#rated a")).to_have_text("Rated game")
    ann.fill("[data-chat-input]", "good luck Bob")
    ann.click("[data-chat-send]")
    expect(bob.locator('[data-chat-message][data-from="Ann"] .text')).to_have_text("good luck Bob")
    start(ann)
    taken = {name: 0 for name in NAMES}
    play_round(pages, list(NAMES), taken)
    for page in pages:
        phase(page, "match_over")
    for page in pages:  # the end screen shows each player's new rating and its change
        for name in NAMES:
            expect(page.locator(f'#standings [data-rating="{name}"]')).to_have_text(
                re.compile(r"^Rating \d+ \(([+−]\d+|±0)\)$")
            )
    # the record is written once the game is over: wait for it through the API
    figures: dict[str, dict[str, Any]] = {}
    for name in NAMES:
        ann.wait_for_function(
            "url => fetch(url).then((r) => r.json()).then((p) => p.games === 1)",
            arg=f"/api/players/{name}",
            polling=200,
        )
        figures[name] = httpx.get(f"{base}/api/players/{name}", timeout=5).json()
    ann_won = taken["Ann"] >= taken["Bob"]
    bob_won = taken["Bob"] >= taken["Ann"]
    for name, won in (("Ann", ann_won), ("Bob", bob_won)):
        mine = figures[name]
        assert mine["wins"] == int(won)
        assert mine["sets"] == taken[name]
        assert mine["ratings"]["set"]["games"] == rating.BOARD_GAMES
        assert mine["provisional"] is False
        assert mine["recent"][0]["family"] == "set"
    if ann_won != bob_won:  # the winner's rating rose above the loser's
        winner, loser = ("Ann", "Bob") if ann_won else ("Bob", "Ann")
        assert figures[winner]["rating"] > figures[loser]["rating"]
    # each profile page shows the game; the leaderboard now lists both, the better first
    for page, name in zip(pages, NAMES, strict=True):
        page.goto(f"{base}/player/{name}")
        expect(page.locator("[data-profile-games]")).to_have_text("1")
        expect(page.locator("[data-profile-sets]")).to_have_text(str(taken[name]))
        expect(page.locator("[data-profile-recent] li")).to_have_count(1)
        expect(page.locator("[data-profile-provisional]")).to_be_hidden()
        expect(page.locator("[data-profile-provisional-why]")).to_be_hidden()
        # styled (issue 21): the rating over time drawn with a dot per rated game, and the
        # figures as tiles that fit a small phone without a sideways scroll
        expect(page.locator('[data-profile-plot="set"] svg circle')).to_have_count(1)
        page.set_viewport_size({"width": 360, "height": 640})
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        tiles = page.locator(".figures > div")
        expect(tiles).to_have_count(8)
        assert (tiles.first.bounding_box() or {"width": 999})["width"] < 360 / 2
    listed = board(base)
    assert sorted(r["name"] for r in listed) == sorted(NAMES)
    assert listed[0]["rating"] >= listed[1]["rating"]
    bob.goto(f"{base}/leaderboard")
    expect(bob.locator("[data-board-list] li")).to_have_count(2)
