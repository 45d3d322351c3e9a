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

from browser.browserkit import (
    create_room,
    finish_solo_game,
    join,
    not_a_set,
    pick,
    seat,
    start,
    table,
)

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
  const wide = document.documentElement.scrollWidth;
  if (wide > vw) out.push(`horizontal scroll ${wide} > ${vw}`);
  if (scrollY !== 0) out.push(`scrolled to ${scrollY}`);
  const px = Math.round;
  for (const [what, sel] of selectors) {
    const nodes = [...document.querySelectorAll(sel)];
    if (!nodes.length) out.push(`${what}: none`);
    for (const node of nodes) {
      const r = node.getBoundingClientRect();
      const name = node.dataset.card || node.dataset.player || "";
      const where = `${what} ${name} at ${px(r.left)},${px(r.top)} ${px(r.width)}x${px(r.height)}`;
      const least = minimum[what] || 0;
      if (!r.width || r.left < 0 || r.top < 0 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
        out.push(`${where} is outside ${vw}x${vh}`);
      } else if (r.width < least - 0.5 || r.height < least - 0.5) {
        out.push(`${where} is smaller than ${least} px`);
      }
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


def assert_fits(
    page: Page,
    size: tuple[int, int],
    what: str,
    selectors: list[tuple[str, str]],
    minimum: dict[str, int],
) -> None:
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
    phone = browser.new_context(
        viewport={"width": 390, "height": 664},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
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


@pytest.mark.parametrize(
    ("variant", "count"),
    [("classic", 12), ("classic", 15), ("classic", 18), ("classic", 21), ("megaset", 16)],
)
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
    desk.set_viewport_size({"width": 1366, "height": 768})
    seat([phone, desk], create_room(live_server, public=False), ["Ann", "Bob"])
    start(phone)
    expect(desk.locator("main")).to_have_attribute("data-phase", "playing")
    assert phone.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches")
    expect(phone.locator(".card .key").first).to_be_hidden()
    expect(phone.locator("kbd[data-key]").first).to_be_hidden()
    expect(phone.locator(".keys-choice")).to_be_hidden()
    expect(phone.locator("#banner")).to_contain_text("Tap SET! or a card")
    expect(phone.locator("#banner")).not_to_contain_text("Space")
    for node in ("[data-card]", "[data-action=call-set]", "html"):
        touch = phone.eval_on_selector(node, "e => getComputedStyle(e).touchAction")
        assert touch == "manipulation", node
    # A keyboard and a mouse: the keys show and the banner names Space.
    expect(desk.locator(".card .key").first).to_be_visible()
    expect(desk.locator("[data-action=no-set] kbd")).to_be_visible()
    expect(desk.locator("#banner")).to_contain_text("Space")
    expect(desk.locator("[data-control=vibrate]")).to_be_hidden()


def test_the_daily_puzzle_fits_every_screen(live_server: str, players: tuple[Page, Page]) -> None:
    phone, desk = players
    for page, sizes in ((phone, PHONES), (desk, DESKTOPS)):
        page.goto(f"{live_server}/puzzle")
        expect(page.locator("main")).to_have_attribute("data-phase", "playing")
        expect(page.locator("#table [data-card]")).to_have_count(12)
        for name, size in sizes.items():
            assert_fits(
                page,
                size,
                f"puzzle, {name}",
                [
                    ("card", "#table [data-card]"),
                    ("clock", "#puzzle-clock"),
                    ("found", "#puzzle-found"),
                ],
                {"card": TOUCH},
            )


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
            assert_fits(
                page,
                size,
                f"replay, {name}",
                [
                    ("card", "#rtable [data-code]"),
                    ("score", "#rscores li"),
                    ("time", "#rtime"),
                    ("step", "[data-step=next]"),
                ],
                {"step": TOUCH},
            )  # its cards are pictures, not buttons


def test_a_wrong_call_vibrates_unless_turned_off(live_server: str, browser: Any) -> None:
    """Headless Chromium cannot be felt: the page's calls to navigator.vibrate are recorded."""
    context = browser.new_context(
        viewport={"width": 390, "height": 664}, is_mobile=True, has_touch=True
    )
    context.add_init_script("""navigator.vibrate = (ms) => {
      const seen = JSON.parse(sessionStorage.getItem('buzz') || '[]');
      sessionStorage.setItem('buzz', JSON.stringify([...seen, ms]));
      return true;
    };""")
    page = context.new_page()
    try:
        url = create_room(live_server, mode="solo", public=False)
        join(page, url, "Vi")
        start(page)
        wrong_pick(page)
        page.wait_for_function("JSON.parse(sessionStorage.getItem('buzz') || '[]').length === 1")
        page.goto(f"{live_server}/rules")  # the header's toggle (shown on a touch device)
        toggle = page.locator("[data-control=vibrate]")
        expect(toggle).to_have_attribute("aria-pressed", "true")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "false")
        page.goto(url)
        expect(page.locator("main")).to_have_attribute("data-phase", "playing")
        wrong_pick(page)
        page.wait_for_timeout(500)
        assert page.evaluate("JSON.parse(sessionStorage.getItem('buzz'))") == [120]
    finally:
        context.close()


def wrong_pick(page: Page) -> None:
    version = page.get_attribute("main", "data-version")
    pick(page, not_a_set(table(page)))
    page.wait_for_function("v => document.querySelector('main').dataset.version !== v", arg=version)


# The pages around the table (issue 21's leftovers), under a finger: no page is wider than
# the phone in any language (a long Russian option or a rules drawing once widened the whole
# page: a phone then shows it zoomed out), and the site header's links and buttons, form
# fields, buttons and lone links are 44 CSS px touch targets.
PAGES = ["/", "/rules", "/puzzle", "/photo", "/leaderboard", "/account", "/arena", "/offline",
         "/player/Nobody"]  # fmt: skip
TARGETS = """() => [...document.querySelectorAll(
    'header a, header button, header select, main button, main select, summary, main a.button,'
    + ' main a.way, main input:not([type=checkbox], [type=radio], [type=file], [type=hidden])')]
  .filter((e) => e.getClientRects().length && !e.closest('details:not([open]) > :not(summary)'))
  .map((e) => [e.outerHTML.slice(0, 70), e.getBoundingClientRect()])
  .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
  .map(([html, r]) => `${html} ${Math.round(r.width)}x${Math.round(r.height)}`)"""


@pytest.fixture(scope="module")
def phone_pages(browser: Any, live_server: str) -> Iterator[Page]:
    """A signed-in player's phone (the arena list then shows its creation form)."""
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    answer = context.request.post(
        f"{live_server}/api/account/claim", data={"name": "Phoebe", "password": "correct horse"}
    )
    assert answer.status == 201, answer.text()
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("lang", ["en", "ru", "pl", "it", "de"])
def test_every_page_fits_a_phone_in_every_language(
    live_server: str, phone_pages: Page, lang: str
) -> None:
    page = phone_pages
    for size in [(360, 640), (640, 280)]:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        for path in PAGES:
            page.goto(f"{live_server}{path}?lang={lang}")
            expect(page.locator("html")).to_have_attribute("lang", lang)
            page.wait_for_load_state("networkidle")
            where = f"{path} ({lang}) at {size[0]}x{size[1]}"
            # on a phone the layout viewport grows to the widest content: innerWidth says it
            wide = page.evaluate("[innerWidth, document.documentElement.scrollWidth]")
            assert wide == [size[0], size[0]], f"{where} is {wide} px wide"
            small: list[str] = page.evaluate(TARGETS)
            assert small == [], f"{where}: touch targets under 44 px: {small}"
