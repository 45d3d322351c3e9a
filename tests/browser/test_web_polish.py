"""What newcomers tripped over in the web game (issue 13): a table that never moves, keys
by physical position under any layout, a log that survives a reload, the replay's keys and
times, and the share link's reach."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.browserkit import (
    call,
    create_room,
    ensure_set,
    finish_solo_game,
    join,
    more_options,
    pick,
    seat,
    start,
    table,
    take,
    wait_score,
)
from setgame import explain, is_set, parse_cards
from setgame.words.i18n import LANGUAGES

pytestmark = pytest.mark.browser


def table_top(page: Page) -> float:
    """The table's top in the page (a click that scrolls the page does not count)."""
    top: float = page.eval_on_selector(
        "#table", "t => t.getBoundingClientRect().top + window.scrollY"
    )
    return top


def most_flawed(codes: list[str]) -> list[str]:
    """The triple on the table that is not a set in the most attributes (the longest
    explanation of a wrong pick)."""
    triples = [t for t in itertools.combinations(codes, 3) if not is_set(*parse_cards(t))]
    return list(max(triples, key=lambda t: len(explain(*parse_cards(t)))))


class TopWatch:
    """Records the table's top on every page after each step, with the banner shown."""

    def __init__(self, pages: list[Page]) -> None:
        self.pages = pages
        self.first = [table_top(p) for p in pages]
        self.seen: list[tuple[str, str, list[float]]] = []

    def check(self, step: str) -> None:
        tops = [table_top(p) for p in self.pages]
        self.seen.append((step, self.pages[0].text_content("#banner") or "", tops))
        assert tops == self.first, f"the table moved at {step!r}: {self.seen}"


@pytest.mark.parametrize("width", [900, 390])  # a desktop window and a phone
def test_the_table_never_moves_whatever_the_messages(
    live_server: str, new_page: Any, width: int
) -> None:
    url = create_room(live_server, public=False, penalty="both", pick_seconds=1.5) + "?lang=ru"
    ann, bob = pages = [new_page(viewport={"width": width, "height": 844}) for _ in range(2)]
    seat(pages, url, ["Ann", "Bob"])
    start(ann)
    watch = TopWatch(pages)
    found = ensure_set(pages)  # perhaps "no set" declarations and three more cards
    watch.check("deal")
    call(ann, "Ann")
    watch.check("holds the board, countdown")
    pick(ann, found)
    wait_score(bob, "Ann", 1)
    watch.check("set found")
    wrong = most_flawed(table(ann))
    assert len(explain(*parse_cards(wrong))) >= 2
    take(ann, "Ann", wrong)
    expect(bob.locator("#banner")).to_contain_text("Ann")
    expect(bob.locator("#log li.bad")).to_have_count(1)
    watch.check("wrong pick explained, point lost and locked out")
    banner = ann.text_content("#banner") or ""
    call(bob, "Bob")  # Bob lets the pick window run out: a wrong call by timeout
    expect(ann.locator("#log li.bad")).to_have_count(2, timeout=8000)
    # Bob had no set to give back: the message says why he lost no point
    expect(ann.locator("#log li.bad").first).to_contain_text(re.compile("очко не потеряно", re.I))
    watch.check("too late; lockouts lifted")
    ann.keyboard.press("Space")
    expect(bob.locator("main")).to_have_attribute("data-holder", "Ann")
    watch.check("called again")
    assert len(watch.seen) == 6
    assert any(len(text) > 80 for _, text, _ in watch.seen) or len(banner) > 80, watch.seen


RUSSIAN_Q = "e => document.dispatchEvent(new KeyboardEvent('keydown', e))"


def test_card_selected_by_its_physical_key_under_a_russian_layout(
    live_server: str, new_page: Any
) -> None:
    url = create_room(live_server, mode="solo", public=False)
    page = new_page()
    join(page, url, "Ива")
    start(page)
    second = table(page)[1]  # table position 1: the middle row's first key (Q on QWERTY)
    page.evaluate(RUSSIAN_Q, {"code": "KeyQ", "key": "й", "bubbles": True})
    expect(page.locator(f'[data-card="{second}"]')).to_have_attribute("aria-pressed", "true")
    page.evaluate(RUSSIAN_Q, {"code": "KeyQ", "key": "й", "bubbles": True})
    expect(page.locator(f'[data-card="{second}"]')).to_have_attribute("aria-pressed", "false")
    # the labels follow the chosen layout, remembered by the browser
    page.select_option("select[name=keys]", "jcuken")
    expect(page.locator(f'[data-card="{second}"] .key')).to_have_text("й")
    expect(page.locator("[data-action=no-set] kbd")).to_have_text("Т")
    page.reload()
    expect(page.locator(f'[data-card="{second}"] .key')).to_have_text("й")
    expect(page.locator("select[name=keys]")).to_have_value("jcuken")
    page.select_option("select[name=keys]", "dvorak")
    expect(page.locator(f'[data-card="{second}"] .key')).to_have_text("'")
    # N by its position too: "т" under ЙЦУКЕН deals three more cards in solo
    count = len(table(page))
    page.evaluate(RUSSIAN_Q, {"code": "KeyN", "key": "т", "bubbles": True})
    expect(page.locator("[data-card]")).to_have_count(count + 3)


def test_a_reload_keeps_what_happened(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, public=False)
    ann, bob = pages = [new_page(), new_page()]
    seat(pages, url, ["Ann", "Bob"])
    start(ann)
    found = ensure_set(pages)
    take(bob, "Bob", found)
    wait_score(ann, "Bob", 1)
    before = ann.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
    assert any("Bob" in line for line in before)
    ann.reload()
    expect(ann.locator("main")).to_have_attribute("data-phase", "playing")
    expect(ann.locator("#log li")).to_have_count(len(before))
    # what happened while the page was away comes too (the server's missed events)
    ann.goto("about:blank")
    call(bob, "Bob")
    ann.goto(url)  # the same tab: its sessionStorage kept the list and the version seen
    expect(ann.locator("#log li").first).to_contain_text("Bob")
    after = ann.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
    assert len(after) > len(before) and after[-len(before) :] == before, (before, after)


def test_replay_opens_on_the_deal_with_times_and_home_end_keys(
    live_server: str, new_page: Any
) -> None:
    url = create_room(live_server, mode="solo", deck="color=R", public=False)
    page = new_page()
    join(page, url, "Sol")
    start(page)
    finish_solo_game(page)
    page.click("#replay-link")
    page.wait_for_url(re.compile(r"/replay/"))
    expect(page.locator("#stepno")).to_contain_text("1 /")
    expect(page.locator("#rtable [data-code]")).to_have_count(12)  # step 1 is the deal
    expect(page.locator("#rdeck")).to_have_text(re.compile(r"\b15\b"))  # 27 red cards - 12
    expect(page.locator("#revents")).to_contain_text("Sol")  # who sat down, before the deal
    expect(page.locator("#rtime")).to_have_text("0:00")
    total = (page.text_content("#stepno") or "").split("/")[1].strip()
    page.keyboard.press("End")
    expect(page.locator("#stepno")).to_have_text(f"{total} / {total}")
    assert re.fullmatch(r"\d+:\d\d", page.text_content("#rtime") or "")
    page.keyboard.press("Home")
    expect(page.locator("#stepno")).to_have_text(f"1 / {total}")


def test_room_page_says_how_friends_elsewhere_can_join(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, public=False)
    page = new_page()
    page.goto(url)
    # the test server listens on 127.0.0.1 only: the page says how to open it to others
    expect(page.locator("#lan-note")).to_contain_text("--host 0.0.0.0")
    expect(page.locator(".share .link")).to_have_value(url)
    expect(page.locator("h1")).to_have_count(1)


def test_players_see_how_many_watch(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, public=False)
    ann = new_page()
    join(ann, url, "Ann")
    expect(ann.locator("#watchers")).to_be_empty()
    viewers = [new_page(), new_page()]
    for viewer in viewers:
        viewer.goto(url)
    expect(ann.locator("#watchers")).to_contain_text("2")
    viewers[0].close()
    expect(ann.locator("#watchers")).to_contain_text("1")


# The names of the form's selects whose longest option is wider than the select shows.
CUT_SELECTS = """() => [...document.querySelectorAll("#create select")].filter((s) => {
  const probe = document.createElement("span");
  probe.style.cssText = "position:absolute;white-space:nowrap;font:inherit";
  s.parentElement.append(probe);
  const widest = Math.max(...[...s.options].map((o) => {
    probe.textContent = o.text;
    return probe.getBoundingClientRect().width;
  }));
  probe.remove();
  return widest + 40 > s.getBoundingClientRect().width;
}).map((s) => s.name)"""


def test_home_form_offers_single_attribute_decks_and_no_penalty_in_practice(
    live_server: str, new_page: Any
) -> None:
    page = new_page(viewport={"width": 1440, "height": 900})
    # every select shows its longest option whole in every language (nothing cut at
    # 1440 px); a lockout penalty shows the lockout_lift select too (hidden, it measures 0)
    for lang in LANGUAGES:
        page.goto(f"{live_server}/?lang={lang}")
        more_options(page)
        expect(page.locator("select[name=deck] option")).to_have_count(2 + 12)
        page.select_option("select[name=penalty]", "lockout")
        expect(page.locator("select[name=lockout_lift]")).to_be_visible()
        assert page.evaluate(CUT_SELECTS) == [], lang
    page.goto(f"{live_server}/?lang=de")
    more_options(page)
    deck = page.locator("select[name=deck]")
    expect(deck.locator("option[value='color=P']")).to_have_text("Farbe: nur lila (27 Karten)")
    expect(deck.locator("option")).to_have_count(2 + 12)
    page.select_option("select[name=mode]", "practice")
    expect(page.locator("select[name=penalty]")).to_be_hidden()
    page.select_option("select[name=mode]", "solo")
    expect(page.locator("select[name=penalty]")).to_be_visible()
    page.select_option("select[name=deck]", "color=P")
    page.click("[data-action=create]")
    page.wait_for_url(re.compile(r"/room/[\w-]+$"))
    expect(page.locator("#settings")).to_contain_text("Farbe: nur lila")


def test_rules_sections_stand_above_their_subsections(live_server: str, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{live_server}/rules")
    sizes = page.evaluate(
        """() => ["h2", "h3"].map((h) =>
          parseFloat(getComputedStyle(document.querySelector(`main ${h}`)).fontSize))"""
    )
    assert sizes[0] > sizes[1], sizes


def test_hover_styles_only_where_pointers_hover() -> None:
    """A tapped card keeps no hover outline on a touch screen: every :hover rule of the
    stylesheet sits inside @media (hover: hover)."""
    from setgame.server.app import WEB

    css = (WEB / "static" / "css" / "app.css").read_text()
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    outside, depth, guarded_at = [], 0, None
    for match in re.finditer(r"@media[^{]*\{|\{|\}|[^{}@]+|@", css):
        token = match.group(0)
        if token.startswith("@media"):
            if "hover: hover" in token and guarded_at is None:
                guarded_at = depth
            depth += 1
        elif token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if guarded_at is not None and depth == guarded_at:
                guarded_at = None
        elif ":hover" in token and guarded_at is None:
            outside.append(token.strip())
    assert outside == []
    assert "@media (hover: hover)" in css
