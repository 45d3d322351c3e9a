"""Helpers for the browser tests: rooms, seats and playing through the page's hooks.

Everything here goes through the stable hooks of docs/web.md (``data-card``,
``data-player``/``data-score``, ``data-deck``, ``data-action``) plus the room
page's ``main[data-phase]`` / ``main[data-holder]``.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from setgame import card_names, find_sets, is_set, parse_cards

TIMEOUT_MS = 10_000


def create_room(base: str, **settings: Any) -> str:
    """A new room on the server at ``base``; answers the room page's absolute URL."""
    reply = httpx.post(f"{base}/api/rooms", json=settings, timeout=5)
    assert reply.status_code == 201, reply.text
    return f"{base}{reply.json()['url']}"


def more_options(page: Page) -> None:
    """Open the home page's full settings form ("More options": issue 21 put it behind one
    tap, the quick buttons first)."""
    page.click("[data-more] > summary")
    expect(page.locator("#create")).to_be_visible()


def join(page: Page, url: str, name: str) -> None:
    """Open the room and take a seat as ``name`` (a signed-in page finds its account's
    name filled in, not to be changed)."""
    page.goto(url)
    field = page.locator("input[name=player-name]")
    expect(page.locator("#conn")).to_have_class(re.compile(r"\bopen\b"))  # account known
    if field.get_attribute("readonly") is None:
        field.fill(name)
    else:
        expect(field).to_have_value(name)
    page.click("[data-action=join]")
    expect(page.locator(f'[data-player="{name}"]')).to_have_count(1)
    expect(page.locator("[data-action=join]")).to_be_hidden()


def seat(pages: list[Page], url: str, names: list[str]) -> None:
    for page, name in zip(pages, names, strict=True):
        join(page, url, name)
    for page in pages:
        expect(page.locator("[data-player]")).to_have_count(len(names))


def start(page: Page) -> None:
    page.click("[data-action=start]")
    phase(page, "playing")


def phase(page: Page, name: str) -> None:
    expect(page.locator("main")).to_have_attribute("data-phase", name)


def table(page: Page) -> list[str]:
    """The codes of the face-up cards, in table order."""
    codes: list[str] = page.eval_on_selector_all(
        "[data-card]", "els => els.map(e => e.dataset.card)"
    )
    return codes


def wait_table(page: Page, codes: list[str]) -> None:
    """Wait until ``page`` shows exactly ``codes`` on its table."""
    page.wait_for_function(
        "codes => JSON.stringify([...document.querySelectorAll('[data-card]')]"
        ".map(e => e.dataset.card)) === JSON.stringify(codes)",
        arg=codes,
    )


def at_rest(page: Page) -> None:
    """Wait until no card is moving (the deal and take motions of docs/web.md "Motion" are
    over): places measured now are where the cards lie, not where they are drawn passing."""
    page.wait_for_function("() => !document.getAnimations().some((a) => a.playState === 'running')")


def wait_gone(page: Page, code: str) -> None:
    """Wait until ``code`` has left the table (or the round has ended)."""
    page.wait_for_function(
        "code => !document.querySelector(`[data-card='${code}']`)"
        " || document.querySelector('main').dataset.phase !== 'playing'",
        arg=code,
    )


def a_set(codes: list[str]) -> list[str] | None:
    sets = find_sets(parse_cards(codes))
    return card_names(sets[0]) if sets else None


def ensure_set(pages: list[Page]) -> list[str]:
    """A set on the table, after voting "no set" (R11) as often as needed; every page in
    ``pages`` must be a seated player."""
    while (found := a_set(table(pages[0]))) is None:
        count = len(table(pages[0]))
        for page in pages:
            page.click("[data-action=no-set]")
        for page in pages:
            expect(page.locator("[data-card]")).to_have_count(count + 3)
    return found


def not_a_set(codes: list[str]) -> list[str]:
    for triple in itertools.combinations(codes, 3):
        if not is_set(*parse_cards(triple)):
            return list(triple)
    raise AssertionError(f"every triple is a set: {codes!r}")


def finish_solo_game(page: Page) -> None:
    """Play a started solo game to its end: take a set, or ask for more cards when none."""
    while page.get_attribute("main", "data-phase") == "playing":
        version = page.get_attribute("main", "data-version")
        found = a_set(table(page))
        if found is None:
            page.click("[data-action=no-set]")
        else:
            pick(page, found)
        page.wait_for_function(
            "v => document.querySelector('main').dataset.version !== v", arg=version
        )
    phase(page, "match_over")


def play_round(pages: list[Page], names: list[str], taken: dict[str, int]) -> None:
    """Take sets in turn until the round ends; vote "no set" when there is none."""
    turn = 0
    while pages[0].get_attribute("main", "data-phase") == "playing":
        codes = table(pages[0])
        found = a_set(codes)
        if found is None:
            for page in pages:
                page.click("[data-action=no-set]")
            pages[0].wait_for_function(
                "n => document.querySelectorAll('[data-card]').length !== n"
                " || document.querySelector('main').dataset.phase !== 'playing'",
                arg=len(codes),
            )
            continue
        page, name = pages[turn % 2], names[turn % 2]
        take(page, name, found)
        taken[name] += 1
        for other in pages:
            wait_gone(other, found[0])
        turn += 1


def call(page: Page, name: str) -> None:
    page.click("[data-action=call-set]")
    expect(page.locator("main")).to_have_attribute("data-holder", name)


def pick(page: Page, cards: list[str]) -> None:
    for code in cards:
        page.click(f'[data-card="{code}"]')


def take(page: Page, name: str, cards: list[str]) -> None:
    """Call SET with the button and pick ``cards``; wait until the pick is resolved."""
    call(page, name)
    pick(page, cards)
    expect(page.locator("main")).not_to_have_attribute("data-holder", name)


def score(page: Page, name: str) -> int:
    return int(page.get_attribute(f'[data-player="{name}"]', "data-score") or "nan")


def wait_score(page: Page, name: str, value: int) -> None:
    expect(page.locator(f'[data-player="{name}"]')).to_have_attribute("data-score", str(value))


def deck(page: Page) -> int:
    return int(page.get_attribute("[data-deck]", "data-deck") or "nan")


def state(base: str, url: str) -> dict[str, Any]:
    """The room's public state from ``GET /api/rooms/<id>``."""
    room = url.rsplit("/", 1)[1]
    data: dict[str, Any] = httpx.get(f"{base}/api/rooms/{room}", timeout=5).json()
    return data


def dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# --- the daily puzzle page (/puzzle) ----------------------------------------------

_KEY_ROWS = ("Digit", "Key", "Key")
_KEY_NAMES = ("1234567", "QWERTYU", "ASDFGJK")


def puzzle_keys(index: int) -> str:
    """The key (``KeyboardEvent.code``) of table position ``index``, as ``keys.js`` lays
    them out: the top row of cards is the digit row, the middle row Q-U, the bottom A-K."""
    row, col = index % 3, index // 3
    return f"{_KEY_ROWS[row]}{_KEY_NAMES[row][col]}"


def found_sets(page: Page) -> list[list[str]]:
    """The sets the puzzle page lists as found (their cards carry ``data-code``)."""
    found: list[list[str]] = page.eval_on_selector_all(
        "#found li",
        "lis => lis.map(li => [...li.querySelectorAll('[data-code]')].map(e => e.dataset.code))",
    )
    return found


def solve_puzzle(page: Page) -> None:
    """Find every set of the puzzle on the page's table that is not found yet, by clicks."""
    codes = table(page)
    done = {frozenset(cards) for cards in found_sets(page)}
    for cards in find_sets(parse_cards(codes)):
        names = card_names(cards)
        if frozenset(names) in done:
            continue
        count = len(found_sets(page))
        pick(page, names)
        expect(page.locator("#found li")).to_have_count(count + 1)


def grant_role(db: Any, name: str, role: str = "moderator") -> None:
    """The host's own ``setgame admin grant NAME ROLE --db DB``, on a running server's
    database (roles are read at each request: the server sees it at once)."""
    import subprocess
    import sys

    command = [sys.executable, "-m", "setgame", "admin", "grant", name, role, "--db", str(db)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
