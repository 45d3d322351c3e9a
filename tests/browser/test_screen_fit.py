"""A table for every screen (issue 21): at the sizes of real phones, upright and sideways, and
of desktops, every card of the table (12, 15, 18, 21; MegaSet's 16), the SET and No-set
buttons, every player's score and the clock are inside the viewport together, without
scrolling and with no horizontal scroll; cards and buttons are touch targets of 44 CSS px at
least. The same for the daily puzzle and a replay. On a touch-only device no key badge shows.

One browser, two players per table (a phone and a desktop), their pages resized in turn.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.browserkit import create_room, finish_solo_game, join, seat, start

pytestmark = pytest.mark.browser

PHONES = {
    "iPhone 13": (390, 664),
    "Pixel 5": (393, 727),
    "Galaxy S5": (360, 640),
    "small phone": (320, 568),
    "iPhone 13 sideways": (750, 342),
    "Pixel 5 sideways": (802, 293),
    "small phone sideways": (640, 280),
}
DESKTOPS = {"laptop": (1366, 768), "full HD": (1920, 1080)}
TOUCH = 44  # CSS px: the smallest touch target
SHOTS = os.environ.get("SETGAME_FIT_SHOTS")  # a folder: keep a screenshot of every screen

# What lies outside the viewport or is too small to tap; [] when the screen is right.
OFFENDERS = """([selectors, minimum]) => {
  const out = [];
  const vw = innerWidth, vh = innerHeight;
  if (document.documentElement.scrollWidth > vw) out.push(`horizontal scroll ${document.documentElement.scrollWidth} > ${vw}`);
  if (scrollY !== 0) out.push(`scrolled to ${scrollY}`);
  for (const [what, sel] of selectors) {
    const nodes = [...document.querySelectorAll(sel)];
    if (!nodes.length) out.push(`${what}: none`);
    for (const node of nodes) {
      const r = node.getBoundingClientRect();
      const where = `${what} ${node.dataset.card || node.dataset.player || ''} at ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`;
      if (r.width === 0 || r.left < 0 || r.top < 0 || r.right > vw + 0.5 || r.bottom > vh + 0.5) out.push(`${where} is outside ${vw}x${vh}`);
      else if (minimum[what] && (r.width < minimum[what] - 0.5 || r.height < minimum[what] - 0.5)) out.push(`${where} is smaller than ${minimum[what]} px`);
    }
  }
  return out;
}"""

ROOM = [
    ("card", "#table [data-card]"),
    ("SET", "[data-action=call-set]"),
    ("no set", "[data-action=no-set]"),
    ("score", "[data-player]"),
    ("clock", "#clock"),
]
ROOM_MIN = {"card": TOUCH, "SET": TOUCH, "no set": TOUCH}


def offenders(page: Page, selectors: list[tuple[str, str]], minimum: dict[str, int]) -> list[str]:
    found: list[str] = page.evaluate(OFFENDERS, [selectors, minimum])
    return found


def assert_fits(page: Page, size: tuple[int, int], what: str, selectors: list[tuple[str, str]],
                minimum: dict[str, int]) -> None:
    """Resize ``page`` to ``size`` and wait (up to 3 s) until nothing is out of view."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.evaluate("scrollTo(0, 0)")
    found: list[str] = []
    for _ in range(30):
        page.wait_for_timeout(100)
        found = offenders(page, selectors, minimum)
        if not found:
            if SHOTS:
                page.screenshot(path=f"{SHOTS}/{what}-{size[0]}x{size[1]}.png".replace(" ", "-"))
            return
    page.screenshot(path=f"/tmp/setgame-fit-{what}-{size[0]}x{size[1]}.png".replace(" ", "-"))
    raise AssertionError(f"{what} at {size[0]}x{size[1]}: {found[:6]}")


@pytest.fixture(scope="module")
def players(browser: Any) -> Iterator[tuple[Page, Page]]:
    """A phone (touch, no hover) and a desktop browser, each a player of its own."""
    phone = browser.new_context(viewport={"width": 390, "height": 664}, is_mobile=True,
                                has_touch=True, device_scale_factor=2)
    desk = browser.new_context(viewport={"width": 1366, "height": 768})
    for context in (phone, desk):
        context.set_default_timeout(10_000)
    yield phone.new_page(), desk.new_page()
    phone.close()
    desk.close()


def deal_to(pages: tuple[Page, Page], count: int) -> None:
    """Both players declare no set until ``count`` cards lie on the table (R11)."""
    while (now := pages[0].locator("[data-card]").count()) < count:
        for page in pages:
            page.click("[data-action=no-set]")
        for page in pages:
            expect(page.locator("[data-card]")).to_have_count(now + 3)
    pages[0].wait_for_timeout(400)  # the deal's animation


@pytest.mark.parametrize(("variant", "count"), [
    ("classic", 12), ("classic", 15), ("classic", 18), ("classic", 21), ("megaset", 16)])
def test_the_whole_table_scores_clock_and_buttons_fit_every_screen(
    live_server: str, players: tuple[Page, Page], variant: str, count: int
) -> None:
    phone, desk = players
    url = create_room(live_server, variant=variant, public=False)
    seat([phone, desk], url, ["Ann", "Bob"])
    start(phone)
    expect(desk.locator("main")).to_have_attribute("data-phase", "playing")
    deal_to(players, count)
    expect(phone.locator("#table [data-card]")).to_have_count(count)
    for name, size in PHONES.items():
        assert_fits(phone, size, f"{name}, {count} {variant} cards", ROOM, ROOM_MIN)
    for name, size in DESKTOPS.items():
        assert_fits(desk, size, f"{name}, {count} {variant} cards", ROOM, ROOM_MIN)


def test_no_key_badges_on_a_touch_screen_and_no_zoom_on_double_tap(
    live_server: str, players: tuple[Page, Page]
) -> None:
    phone, desk = players
    phone.set_viewport_size({"width": 390, "height": 664})
    join(phone, create_room(live_server, mode="solo", public=False), "Sol")
    start(phone)
    assert phone.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches")
    expect(phone.locator(".card .key").first).to_be_hidden()
    expect(phone.locator("kbd[data-key]").first).to_be_hidden()
    banner = phone.locator("#banner").inner_text()
    assert "Space" not in banner, banner
    touch = phone.eval_on_selector("[data-card]", "e => getComputedStyle(e).touchAction")
    assert touch == "manipulation"
    desk.set_viewport_size({"width": 1366, "height": 768})
    join(desk, create_room(live_server, mode="solo", public=False), "Sol")
    start(desk)
    expect(desk.locator(".card .key").first).to_be_visible()  # a keyboard: the keys show
    expect(desk.locator("[data-action=no-set] kbd")).to_be_visible()


def test_the_daily_puzzle_fits_every_screen(live_server: str, players: tuple[Page, Page]) -> None:
    phone, desk = players
    for page, sizes in ((phone, PHONES), (desk, DESKTOPS)):
        page.goto(f"{live_server}/puzzle")
        expect(page.locator("main")).to_have_attribute("data-phase", "playing")
        expect(page.locator("#table [data-card]")).to_have_count(12)
        for name, size in sizes.items():
            assert_fits(page, size, f"puzzle, {name}",
                        [("card", "#table [data-card]"), ("clock", "#puzzle-clock"),
                         ("found", "#puzzle-found")], {"card": TOUCH})


def test_a_replay_fits_every_screen(live_server: str, players: tuple[Page, Page]) -> None:
    phone, desk = players
    desk.set_viewport_size({"width": 1366, "height": 768})
    join(desk, create_room(live_server, mode="solo", deck="color=R", public=False), "Rita")
    start(desk)
    finish_solo_game(desk)
    replay = desk.get_attribute("#replay-link", "href")
    assert replay
    for page, sizes in ((phone, PHONES), (desk, DESKTOPS)):
        page.goto(f"{live_server}{replay}")
        expect(page.locator("#rtable [data-code]").first).to_be_visible()
        for name, size in sizes.items():
            assert_fits(page, size, f"replay, {name}",
                        [("card", "#rtable [data-code]"), ("score", "#rscores li"),
                         ("time", "#rtime"), ("step", "[data-step=next]")],
                        {"step": TOUCH})  # its cards are pictures, not buttons
