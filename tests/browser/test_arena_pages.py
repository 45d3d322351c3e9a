"""The arena pages (issue 23) in Chromium, against a real server process whose arena times
are scaled down (``server.arenakit``): a signed-in player creates a private arena with the
form and gets its link; two players join it from the page, are paired, follow the pairing
into the room, play the game by clicking cards, come back to the arena page and see the
standings change; both pages fit a phone held either way and are axe-clean."""

from __future__ import annotations

import asyncio
import itertools
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from browser.browserkit import a_set, table, take
from browser.test_a11y import AXE, violations
from server.arenakit import BY_HAND, Player, cookie_of, creator, free_port, new_arena, server

pytestmark = pytest.mark.browser

# A 10-minute arena lasts 120 s; a game is estimated at 36 s; the game starts 2 s after the
# pairing at the latest (or as soon as both pages are in the room).
TIMES = {**BY_HAND, "SETGAME_ARENAS_PER_CLIENT": "100"}  # every test arena: from one address
PHONES = [(320, 568), (390, 664), (750, 342), (640, 280)]


@pytest.fixture(scope="module")
def arena_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = Path(tmp_path_factory.mktemp("arena-pages")) / "arena.db"
    with server(db, free_port(), TIMES) as base:
        yield base


def join(page: Page, base: str, arena: str, name: str, *, alone: bool = True) -> None:
    """Open the arena page and join as ``name``; ``alone``: nobody to be paired with, the
    page stays and shows the row (else the pairing may take the page away at once)."""
    page.goto(f"{base}/arena/{arena}")
    expect(page.locator("#arena-conn")).to_have_class(re.compile(r"\bopen\b"))
    page.fill("[data-arena-join-form] input[name=player-name]", name)
    page.click("[data-arena-action=join]")
    if alone:
        expect(page.locator(f'[data-standing="{name}"]')).to_have_count(1)


def play_arena_game(pages: list[Page], names: list[str]) -> None:
    """Both pages in the same room: take sets by clicking cards until the game is over
    (the arena's rooms deal three more cards by themselves when no set lies); the first
    player takes two sets of every three, so that they win alone."""
    turn = 0
    while pages[0].get_attribute("main", "data-phase") == "playing":
        found = a_set(table(pages[0]))
        if found is None:
            pages[0].wait_for_timeout(100)
            continue
        who = 1 if turn % 3 == 2 else 0
        page, name = pages[who], names[who]
        try:
            take(page, name, found)
        except AssertionError:
            if page.get_attribute("main", "data-phase") != "playing":
                break
            raise
        turn += 1


def test_two_players_join_are_paired_play_and_see_the_standings(
    arena_server: str, new_page: Any
) -> None:
    base = arena_server
    arena = new_arena(base, "ArenaHost", minutes=20)  # 240 s: time for two games on a busy machine
    names = ["Ada", "Bo"]
    pages = [new_page(), new_page()]
    join(pages[0], base, arena, names[0])
    expect(pages[0].locator("[data-arena-next]")).to_have_text("Waiting for opponents…")
    join(pages[1], base, arena, names[1], alone=False)
    for page in pages:  # the pairing takes both into one room, with the way back
        expect(page).to_have_url(re.compile(rf"/room/[\w-]+\?arena={arena}$"), timeout=20_000)
        expect(page.locator("main")).to_have_attribute("data-phase", "playing", timeout=20_000)
    assert pages[0].url == pages[1].url
    for page, name in zip(pages, names, strict=True):  # seated by the pairing's token
        expect(page.locator(f'[data-player="{name}"] .badge.you')).to_have_count(1)
    expect(pages[0].locator("[data-action=again]")).to_be_hidden()

    play_arena_game(pages, names)
    for page in pages:
        expect(page.locator("main")).to_have_attribute("data-phase", "match_over")
        expect(page.locator("[data-arena-back]")).to_be_visible()
    scores = [
        int(pages[0].get_attribute(f'[data-player="{n}"]', "data-score") or -1) for n in names
    ]
    assert scores[0] > scores[1] >= 0, scores
    pages[1].click("[data-arena-stay]")  # Bo stays to look; Ada goes back by herself
    expect(pages[0]).to_have_url(f"{base}/arena/{arena}", timeout=15_000)
    ada, bo = (pages[0].locator(f'[data-standing="{n}"]') for n in names)
    expect(ada).to_have_attribute("data-games", "1", timeout=10_000)  # the standings changed
    expect(ada).to_have_attribute("data-points", "2")
    expect(ada).to_have_attribute("data-place", "1")
    expect(bo).to_have_attribute("data-games", "1")
    expect(bo).to_have_attribute("data-points", "0")
    expect(pages[0].locator("[data-arena-next]")).to_have_text("Waiting for opponents…")
    pages[1].wait_for_timeout(7_000)
    assert "/room/" in pages[1].url  # "Stay here" held
    pages[1].click("[data-arena-back] a")  # back: both wait, and are paired again
    for page in pages:
        expect(page).to_have_url(re.compile(r"/room/[\w-]+\?arena="), timeout=20_000)
    assert pages[0].url == pages[1].url


def test_a_signed_in_player_creates_an_arena_with_the_form(
    arena_server: str, new_page: Any
) -> None:
    page = new_page()
    page.goto(f"{arena_server}/account")
    page.fill("[data-account-name]", "FormHost")
    page.fill("[data-account-password]", "correct horse battery")
    page.click("[data-account-action=claim]")
    expect(page.locator("[data-account-status]")).to_have_attribute("data-name", "FormHost")
    page.goto(f"{arena_server}/arena")
    form = page.locator("[data-arena-form]")
    form.locator("select[name=variant]").select_option("ultraset")
    form.locator("input[name=minutes]").fill("20")
    form.locator("select[name=room_size]").select_option("3")
    form.locator("select[name=starts_in]").select_option("0")
    form.locator("select[name=game_minutes]").select_option("5")
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.dblclick("[data-arena-create]")  # a double click makes one arena
    share = page.locator("[data-arena-share]")
    expect(share).to_be_visible()
    # A fast server answers before a double click's second press: it must make no second arena.
    page.evaluate("document.querySelector('[data-arena-create]').click()")
    expect(page.locator("[data-arena-create]")).to_be_enabled()
    assert [url.rsplit("/", 2)[-2:] for url in posts] == [["api", "arenas"]], posts
    link = share.locator(".link").input_value()
    assert re.fullmatch(rf"{arena_server}/arena/[\w-]+", link), link
    page.click("[data-arena-open]")
    expect(page).to_have_url(link)
    expect(page.locator("[data-arena-title]")).to_have_text("Arena: UltraSet")
    expect(page.locator("[data-arena-settings]")).to_have_text(
        "Full deck (81 cards) · 3 players per game · 20 minutes · at most 5 minutes per game"
        " · Not rated · Private"
    )
    summary = httpx.get(f"{arena_server}/api/arenas/{link.rsplit('/', 1)[1]}", timeout=5).json()
    got = [summary[k] for k in ("variant", "minutes", "room_size", "game_minutes", "deck")]
    assert got == ["ultraset", 20, 3, 5, "full"]
    assert summary["private"] is True


def test_a_guest_is_asked_to_sign_in_to_create_one(arena_server: str, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{arena_server}/arena")
    expect(page.locator("[data-arena-signin]")).to_be_visible()
    expect(page.locator("[data-arena-form]")).to_be_hidden()


def test_an_unknown_arena_says_so(arena_server: str, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{arena_server}/arena/nosuch")
    expect(page.locator("[data-arena-error]")).to_have_text("This arena does not exist.")


def test_a_refused_name_is_said_in_words_and_another_one_joins(
    arena_server: str, new_page: Any
) -> None:
    arena = new_arena(arena_server, "NameHost", starts_in_seconds=3600)
    first = new_page()
    join(first, arena_server, arena, "Mira")
    page = new_page(locale="de-DE", extra_http_headers={"Accept-Language": "de"})
    page.goto(f"{arena_server}/arena/{arena}")
    expect(page.locator("#arena-conn")).to_have_class(re.compile(r"\bopen\b"))
    for name, words in [
        ("Bot 1", "Dieser Name ist Computerspielern vorbehalten"),
        ("MIRA", "Ein anderer Spieler in dieser Arena hat diesen Namen"),
    ]:
        page.fill("[data-arena-join-form] input[name=player-name]", name)
        page.click("[data-arena-action=join]")
        expect(page.locator("[data-arena-error]")).to_contain_text(words)
        expect(page.locator("main")).to_have_attribute("data-arena-me", "")
    field = page.locator("[data-arena-join-form] input[name=player-name]")
    field.fill("Milo")
    field.press("Enter")  # the keyboard alone joins, and pauses
    expect(page.locator("[data-standing=Milo]")).to_have_count(1)
    expect(page.locator("[data-arena-action=pause]")).to_be_focused()  # where the form was
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_have_attribute("data-arena-me", "paused")
    expect(page.locator("[data-arena-action=resume]")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_have_attribute("data-arena-me", "waiting")
    expect(page.locator("[data-arena-error]")).to_be_hidden()
    expect(page.locator("main")).to_have_attribute("data-arena-me", "waiting")


def _fits(page: Page, where: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    view = page.evaluate("window.innerWidth")
    assert width <= view, f"{where}: {width} px wide in a {view} px window"
    small = page.evaluate(
        """() => [...document.querySelectorAll('main button, main a.button, main select,'
              + ' main input:not([type=checkbox]), .arena-list .title')]
          .filter((e) => e.offsetParent !== null)
          .map((e) => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
          .filter(([, r]) => r.width < 44 || r.height < 44)
          .map(([html]) => html)"""
    )
    assert small == [], f"{where}: touch targets under 44 px: {small}"


@pytest.mark.parametrize(("width", "height"), PHONES)
def test_both_pages_fit_a_phone_held_either_way(
    arena_server: str, new_page: Any, width: int, height: int
) -> None:
    arena = new_arena(arena_server, f"Fit{width}", starts_in_seconds=3600)
    page = new_page(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True)
    page.goto(f"{arena_server}/arena")
    expect(page.locator("[data-arena-signin], [data-arena-form]").first).to_be_visible()
    _fits(page, f"/arena at {width}x{height}")
    join(page, arena_server, arena, "Phoebe")
    expect(page.locator("[data-arena-action=pause]")).to_be_visible()
    _fits(page, f"/arena/{arena} at {width}x{height}")
    page.click("[data-arena-action=pause]")  # out of the queue, and back
    expect(page.locator("main")).to_have_attribute("data-arena-me", "paused")
    expect(page.locator("[data-standing=Phoebe] .badge-paused")).to_have_count(1)
    page.click("[data-arena-action=resume]")
    expect(page.locator("main")).to_have_attribute("data-arena-me", "waiting")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_arena_pages_are_axe_clean(arena_server: str, new_page: Any, theme: str) -> None:
    if not AXE.is_file():
        pytest.fail(f"no {AXE}: run 'npm ci' in tests/browser (scripts/test.sh does)")
    arena = new_arena(arena_server, f"Axe{theme}", starts_in_seconds=3600)
    page = new_page(bypass_csp=True, color_scheme=theme)
    page.add_init_script(f"localStorage.setItem('setgame.theme', '{theme}')")
    page.goto(f"{arena_server}/arena")
    page.wait_for_load_state("networkidle")
    assert violations(page) == [], f"/arena ({theme})"
    join(page, arena_server, arena, f"Axel{theme}")
    page.wait_for_load_state("networkidle")
    assert violations(page) == [], f"/arena/{arena} ({theme})"


def test_a_spectator_sees_the_podium_and_the_profiles_the_arena(
    tmp_path: Path, new_page: Any
) -> None:
    """Two signed-in scripted players play a rated arena of 12 s to its end: a spectator's
    page follows the standings live, then shows the podium; the winner's profile lists the
    arena played and the placement, linking back to it."""
    fast = {**TIMES, "SETGAME_ARENA_TIME_SCALE": "0.02"}  # a 10-minute arena lasts 12 s
    with server(tmp_path / "podium.db", free_port(), fast) as base, creator(base, "Ada") as ada:
        with creator(base, "Bea") as bea:
            answer = ada.post(
                "/api/arenas",
                json={"deck": "beginner", "minutes": 10, "starts_in_seconds": 0, "rated": True},
            )
            assert answer.status_code == 201, answer.text
            arena = answer.json()["id"]
            page = new_page()
            page.goto(f"{base}/arena/{arena}")
            expect(page.locator("#arena-conn")).to_have_class(re.compile(r"\bopen\b"))
            players = [
                Player(base, arena, "x", delay, cookie=cookie_of(c))
                for delay, c in ((0.01, ada), (0.2, bea))
            ]
            # Playwright's sync API holds this thread's event loop: the players get their own
            playing = threading.Thread(target=lambda: asyncio.run(_run(players, 60)))
            playing.start()
            expect(page.locator("[data-standing]")).to_have_count(2, timeout=15_000)
            watch = page.locator("[data-arena-games] li[data-arena-game-room] a").first
            expect(watch).to_have_attribute("href", re.compile(rf"^/room/[\w-]+\?arena={arena}$"))
            playing.join()
        expect(page.locator("main")).to_have_attribute("data-arena-status", "finished")
        podium = page.locator("[data-arena-podium] li")
        expect(podium).to_have_count(2)
        expect(podium.nth(0)).to_have_attribute("data-podium-name", "Ada")
        expect(page.locator("[data-standing=Ada]")).to_have_attribute("data-place", "1")
        expect(page.locator("[data-standing=Ada] a")).to_have_attribute("href", "/player/Ada")
        expect(page.locator("[data-arena-join-form]")).to_be_hidden()
        expect(page.locator("[data-arena-games-box]")).to_be_hidden()
        page.goto(f"{base}/player/Ada")
        played = page.locator("[data-profile-arenas-played]")
        expect(played).to_have_attribute("data-profile-arenas-played", "1")
        expect(played).to_have_text("1 arena played")
        best = page.locator(f'[data-profile-arenas] li[data-profile-arena="{arena}"]')
        expect(best).to_have_attribute("data-place", "1")
        expect(best).to_contain_text("Classic — place 1 of 2, ")
        best.locator("a").click()
        expect(page).to_have_url(f"{base}/arena/{arena}")


async def _run(players: list[Player], seconds: float) -> None:
    until = time.monotonic() + seconds
    await asyncio.gather(*(p.run(until) for p in players))


SCHEDULE = """
[[arena]]
name = "ultra-tens"
every_minutes = 10
offset_minutes = 5
announce_minutes = 10080
minutes = 10
variant = "ultraset"
room_size = 3
"""


def test_the_list_shows_the_hosts_coming_arena_from_the_home_page(
    tmp_path: Path, new_page: Any
) -> None:
    schedule = tmp_path / "arenas.toml"
    schedule.write_text(SCHEDULE, encoding="utf-8")
    env = {**TIMES, "SETGAME_ARENAS_FILE": str(schedule)}
    with server(tmp_path / "list.db", free_port(), env) as base:
        page = new_page()
        page.goto(f"{base}/")
        page.click("[data-play=arena]")
        expect(page).to_have_url(f"{base}/arena")
        expect(page.locator('header a[href="/arena"]')).to_have_attribute("aria-current", "page")
        item = page.locator("[data-arena-list] li").first
        expect(item).to_have_attribute("data-status", re.compile("waiting|running"), timeout=45_000)
        expect(item.locator(".title")).to_have_text("UltraSet")
        expect(item).to_contain_text("3 players per game")
        expect(item).to_contain_text("Rated")
        expect(item.locator(".when")).to_have_text(re.compile(r"^(Starts in|\d+:\d\d left)"))
        expect(page.locator("[data-arena-none]")).to_be_hidden()
        item.locator(".title").click()
        expect(page).to_have_url(re.compile(rf"{base}/arena/[\w-]+$"))
        expect(page.locator("[data-arena-title]")).to_have_text("Arena: UltraSet")


WATCH_SAID = """() => {
  window.said = [];
  window.leads = new Set();  // every score the leader was shown with
  const region = document.querySelector('[data-arena-announce]');
  new MutationObserver(() => window.said.push([performance.now(), region.textContent]))
    .observe(region, { childList: true, characterData: true, subtree: true });
  new MutationObserver(() => window.leads.add(
      document.querySelector('[data-standing]')?.dataset.points))
    .observe(document.querySelector('[data-arena-standings] tbody'), { childList: true });
}"""


def test_standings_changes_are_said_politely_and_not_too_often(
    arena_server: str, new_page: Any
) -> None:
    """Screen readers: the countdown and the standings table are no live regions (they change
    every second); a polite live region says who leads (and this page's player's place)
    when that changed, at most once every 10 s however often the standings come."""
    arena = new_arena(arena_server, "SayHost")
    page = new_page()
    page.goto(f"{arena_server}/arena/{arena}")
    expect(page.locator("#arena-conn")).to_have_class(re.compile(r"\bopen\b"))
    region = page.locator("[data-arena-announce]")
    expect(region).to_have_attribute("aria-live", "polite")
    live = "el => !!el.closest('[aria-live], [role=status], [role=alert], [role=log]')"
    assert page.eval_on_selector("[data-arena-when]", live) is False
    assert page.eval_on_selector("[data-arena-standings]", live) is False
    page.evaluate(WATCH_SAID)
    players = [Player(arena_server, arena, n, d) for n, d in (("Quick", 0.02), ("Slow", 0.4))]
    playing = threading.Thread(target=lambda: asyncio.run(_run(players, 17)))
    playing.start()
    playing.join()
    said: list[tuple[float, str]] = page.evaluate("window.said.filter(([, text]) => text)")
    leads = page.evaluate("window.leads.size")
    assert said, f"nothing said in 17 s ({leads} leading scores shown)"
    assert leads > len(said), (leads, said)  # not every change was said
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(said)]
    assert all(gap >= 9_900 for gap in gaps), said
    assert re.fullmatch(r"Quick leads with \d+ points?\.", said[-1][1]), said
