"""Beside the table (issue 11): the last set found drawn small (whose, which cards), the game
clock in multiplayer, "Play again" saying who is in; and the home form's rated setting."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.browserkit import (
    create_room,
    ensure_set,
    more_options,
    phase,
    play_round,
    seat,
    start,
    state,
    take,
)

pytestmark = pytest.mark.browser


def last_cards(page: Page) -> list[str]:
    return page.locator("#last-set .mini [data-code]").evaluate_all(
        "cards => cards.map((c) => c.dataset.code)"
    )


def clock_seconds(page: Page) -> int:
    text = page.locator("#clock").text_content() or ""
    found = re.search(r"(\d+):(\d\d)", text)
    assert found, text
    return int(found[1]) * 60 + int(found[2])


def test_last_set_clock_and_play_again_with_who_is_in(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, public=False, deck="beginner", rounds="single")
    ann, bob, cy = pages = [new_page(), new_page(), new_page()]
    seat(pages, url, ["Ann", "Bob", "Cy"])
    for page in pages:
        expect(page.locator("#last-set")).to_be_hidden()  # nothing found yet
    start(ann)
    found = ensure_set(pages)
    take(bob, "Bob", found)
    for page in pages:  # the same cards, small, with whose they are
        expect(page.locator("#last-set")).to_be_visible()
        expect(page.locator("#last-set")).to_have_attribute("data-by", "Bob")
        assert sorted(last_cards(page)) == sorted(found)
    expect(bob.locator("[data-last-set-by]")).to_have_text("by you")
    expect(ann.locator("[data-last-set-by]")).to_have_text("by Bob")
    # a reload draws it again from the events this tab saw
    ann.reload()
    expect(ann.locator("#last-set")).to_have_attribute("data-by", "Bob")
    # the multiplayer game clock runs
    expect(ann.locator("#clock")).to_contain_text("Time")
    first = clock_seconds(ann)
    ann.wait_for_function(
        "s => { const m = /(\\d+):(\\d\\d)/.exec(document.querySelector('#clock').textContent);"
        " return m && Number(m[1]) * 60 + Number(m[2]) > s; }",
        arg=first,
    )
    # Cy leaves: "Play again" takes Ann and Bob along, and says so
    cy.click("[data-action=leave]")
    play_round([ann, bob], ["Ann", "Bob"], {"Ann": 0, "Bob": 0})
    for page in (ann, bob):
        phase(page, "match_over")
        expect(page.locator("[data-again-who]")).to_have_text("Play again with: Ann, Bob")
    bob.click("[data-action=again]")
    for page in (ann, bob):
        phase(page, "playing")
        expect(page.locator("[data-player]")).to_have_count(2)
        expect(page.locator("[data-again-who]")).to_be_hidden()
        expect(page.locator("#last-set")).to_be_hidden()  # a new game: nothing found yet
    assert [p["name"] for p in state(live_server, url)["state"]["players"]] == ["Ann", "Bob"]


def test_the_rated_setting_on_the_home_form(live_server: str, new_page: Any) -> None:
    page = new_page()
    page.goto(live_server)
    more_options(page)
    rated = page.locator("select[name=rated]")
    expect(rated).to_be_visible()  # multiplayer is the default mode
    page.select_option("select[name=mode]", "solo")
    expect(rated).to_be_hidden()  # a solo game is never rated
    page.select_option("select[name=mode]", "multi")
    page.select_option("select[name=rated]", "no")
    page.click("[data-action=create]")
    page.wait_for_url("**/room/*")
    settings = state(live_server, page.url)["settings"]
    assert settings["rated"] is False
    # "yes": a guest is refused a seat in the rated room
    page.goto(live_server)
    more_options(page)
    page.select_option("select[name=rated]", "yes")
    page.click("[data-action=create]")
    page.wait_for_url("**/room/*")
    page.fill("input[name=player-name]", "Gus")
    page.click("[data-action=join]")
    expect(page.locator("#banner")).to_contain_text("This room is rated")
    assert state(live_server, page.url)["settings"]["rated"] is True
    expect(page.locator("[data-player]")).to_have_count(0)
