"""The home page as a front door (issue 21): one tap to play against the computer, solo, in
a room for friends or the daily puzzle; the full settings behind "More options"; the public
rooms with how many people are online; the leaderboard in the site header."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from browser.browserkit import create_room, join, more_options, phase, play_round, start

pytestmark = pytest.mark.browser

ROOM = re.compile(r"/room/[\w-]+$")


def settings(base: str, page: Page) -> dict[str, Any]:
    room = page.url.rsplit("/", 1)[1]
    answer = httpx.get(f"{base}/api/rooms/{room}", timeout=5, trust_env=False)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_one_tap_plays_against_the_computer_solo_or_with_friends(
    live_server: str, new_page: Any
) -> None:
    page = new_page()
    page.goto(f"{live_server}/")
    expect(page.locator("#create")).to_be_hidden()  # the form waits behind "More options"
    page.click("[data-play=bots]")
    page.wait_for_url(ROOM)
    room = settings(live_server, page)
    assert (room["mode"], room["settings"]["bots"], room["settings"]["public"]) == (
        "multi", 2, False
    )
    expect(page.locator("[data-player] .badge.bot")).to_have_count(2)
    page.goto(f"{live_server}/")
    page.click("[data-play=solo]")
    page.wait_for_url(ROOM)
    assert settings(live_server, page)["mode"] == "solo"
    expect(page.locator("#chat")).to_be_hidden()  # a game of one: no chat, no share link
    page.goto(f"{live_server}/")
    page.click("[data-play=friends]")
    page.wait_for_url(ROOM)
    room = settings(live_server, page)
    assert (room["mode"], room["settings"]["bots"], room["settings"]["public"]) == (
        "multi", 0, False
    )
    expect(page.locator(".share .link")).to_be_visible()
    page.goto(f"{live_server}/")
    page.click("[data-play=puzzle]")
    page.wait_for_url(re.compile(r"/puzzle$"))


def test_a_tap_before_the_page_has_its_words_still_plays(live_server: str, new_page: Any) -> None:
    """On a slow phone the play buttons are on screen before the page's words arrive; a tap
    then waits for them and plays (it was lost: the buttons listened only once the words were
    in, and CI once clicked in that gap). A double tap makes one room, not two (a second
    would count against the address's cap of open rooms)."""
    page = new_page()
    held: list[Any] = []
    page.route("**/i18n/*.json", lambda route: held.append(route))
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.goto(f"{live_server}/")
    while not held:
        page.wait_for_timeout(20)
    page.dblclick("[data-play=friends]")
    page.wait_for_timeout(300)
    assert not ROOM.search(page.url)  # nothing to play with yet: the taps wait
    for route in held:
        route.continue_()
    page.wait_for_url(ROOM)
    assert [url.rsplit("/", 2)[-2:] for url in posts] == [["api", "rooms"]], posts


def test_the_settings_form_sent_before_the_page_has_its_words_makes_the_room(
    live_server: str, new_page: Any
) -> None:
    """"More options" opens without script (a <details>), so its form could be sent before
    the page listened: the browser loaded the page again with the settings in its address
    and no room was made (a test once did so under load)."""
    page = new_page()
    held: list[Any] = []
    page.route("**/i18n/*.json", lambda route: held.append(route))
    page.goto(f"{live_server}/")
    while not held:
        page.wait_for_timeout(20)
    more_options(page)
    page.select_option("select[name=mode]", "solo")
    page.click("[data-action=create]")
    page.wait_for_timeout(300)
    assert page.url == f"{live_server}/"  # neither sent as a page load nor made yet
    for route in held:
        route.continue_()
    page.wait_for_url(ROOM)
    assert settings(live_server, page)["mode"] == "solo"


def test_home_shows_who_is_online_and_the_header_links_the_leaderboard(
    live_server: str, new_page: Any
) -> None:
    join(new_page(), create_room(live_server, public=True), "Ann")  # someone has a room open
    page = new_page()
    page.goto(f"{live_server}/")
    online = page.locator("[data-online]")
    expect(online).to_be_visible()
    expect(online).to_have_text(re.compile(r"^\d+ players? online$"))
    # counted at most every 5 s, the list refreshed every 5 s: Ann shows within 12 s
    expect(online).to_have_attribute("data-online", re.compile(r"^[1-9]\d*$"), timeout=12_000)
    page.click("header.top a[href='/leaderboard']")
    page.wait_for_url(re.compile(r"/leaderboard$"))
    current = page.locator("header.top a[aria-current=page]")
    expect(current).to_have_attribute("href", "/leaderboard")


def test_on_a_1366x768_desktop_the_chat_input_and_the_final_results_are_in_view(
    live_server: str, new_page: Any
) -> None:
    """Issue 21: the sidebar no longer pushes the chat input below the fold, and the end
    of a game brings the results into view."""
    page = new_page(viewport={"width": 1366, "height": 768})
    url = create_room(live_server, deck="color=R", rounds="single", public=False)
    join(page, url, "Ann")
    for n in range(40):  # a long game's worth of lines in the events list and the chat
        page.evaluate(
            "n => ['#log', '[data-chat-lines]'].forEach((list) => document.querySelector(list)"
            ".prepend(Object.assign(document.createElement('li'), {textContent: `line ${n}`})))",
            n,
        )
    expect(page.locator("[data-chat-input]")).to_be_in_viewport()
    start(page)
    play_round([page, page], ["Ann", "Ann"], {"Ann": 0})
    phase(page, "match_over")
    expect(page.locator("#results")).to_be_in_viewport()
    expect(page.locator("[data-chat-input]")).to_be_in_viewport()


def test_a_refusal_over_the_rooms_cap_links_only_the_players_own_rooms(
    server_factory: Any, new_page: Any
) -> None:
    """Issue 21: people behind one address (here three browsers on loopback) reach its cap
    of open rooms; each is shown links to their own rooms (their seat tokens), and only how
    many others count, never which (their ids would open strangers' private rooms)."""
    server = str(server_factory(env={"SETGAME_ROOMS_PER_CLIENT": "2"}))
    ann, bob, cy = new_page(), new_page(), new_page()
    rooms = []
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        page.goto(f"{server}/")
        page.click("[data-play=friends]")
        page.wait_for_url(ROOM)
        join(page, page.url, name)
        rooms.append(page.url.rsplit("/", 1)[1])
    ann.goto(f"{server}/")
    ann.click("[data-play=friends]")
    error = ann.locator("#play-error")
    expect(error).to_contain_text("Play in one of them, or leave one")
    expect(error.locator("a")).to_have_count(1)
    expect(error.locator("a")).to_have_attribute("href", f"/room/{rooms[0]}")
    expect(error).to_contain_text("Also counted: 1 room of someone else on your network.")
    assert rooms[1] not in error.inner_html()
    cy.goto(f"{server}/")
    cy.click("[data-play=friends]")
    expect(cy.locator("#play-error")).to_contain_text("all of them other people's")
    expect(cy.locator("#play-error a")).to_have_count(0)
    assert not any(room in cy.locator("#play-error").inner_html() for room in rooms)
