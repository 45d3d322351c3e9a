"""When another player (a person or a computer player: the page reads the same state) says
there is no set, the room page asks this player to agree: the banner names who said so and
the key (as the player's layout labels it) or, on a touch screen, the No set button (R11)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from browser.browserkit import create_room, seat, start

pytestmark = pytest.mark.browser


def test_r11_the_page_asks_to_agree_when_another_player_says_no_set(
    live_server: str, new_page: Any
) -> None:
    url = create_room(live_server, public=False, no_set="vote")
    ann, bob = (
        new_page(),
        new_page(has_touch=True, is_mobile=True, viewport={"width": 390, "height": 664}),
    )
    seat([ann, bob], url, ["Ann", "Bob"])
    start(ann)
    expect(bob.locator("main")).to_have_attribute("data-phase", "playing")
    expect(ann.locator("#banner")).not_to_contain_text("agree")
    bob.click("[data-action=no-set]")
    expect(ann.locator("#banner")).to_have_text(
        "No set, say: Bob. If you agree, press N or No set."
    )
    expect(bob.locator("#banner")).not_to_contain_text("agree")  # Bob has said it
    ann.click("[data-action=no-set]")
    expect(ann.locator("[data-card]")).to_have_count(15)
    expect(ann.locator("#banner")).not_to_contain_text("agree")
    # The other way round, on the touch screen: no key named, the button is.
    ann.keyboard.press("n")
    expect(bob.locator("#banner")).to_have_text("No set, say: Ann. If you agree, tap No set.")


def test_r11_the_ask_follows_the_page_language_and_layout(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, public=False, no_set="vote")
    ann, bob = new_page(), new_page(locale="ru-RU", extra_http_headers={"Accept-Language": "ru"})
    seat([ann, bob], url, ["Ann", "Bob"])
    start(ann)
    expect(bob.locator("html")).to_have_attribute("lang", "ru")
    bob.select_option("select[name=keys]", "jcuken")
    ann.click("[data-action=no-set]")
    expect(bob.locator("#banner")).to_have_text(
        "«Сета нет» говорят: Ann. Согласны — нажмите Т или «Сета нет»."
    )
