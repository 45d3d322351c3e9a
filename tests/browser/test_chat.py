"""Room chat in the browser (chat.js, issue 11): two players talk, HTML stays text, a muted
player's lines are hidden (and stay hidden after a reload), a set found is a chat line."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.browserkit import (
    call,
    create_room,
    ensure_set,
    join,
    more_options,
    not_a_set,
    phase,
    pick,
    play_round,
    seat,
    start,
    table,
    take,
)

pytestmark = pytest.mark.browser

HTML = '<img src=x onerror="document.body.dataset.owned=1"><b>bold</b>'


def say(page: Page, text: str) -> None:
    page.fill("[data-chat-input]", text)
    page.click("[data-chat-send]")


def lines(page: Page, name: str) -> Any:
    return page.locator(f'[data-chat-message][data-from="{name}"]')


def test_two_players_chat_html_is_text_and_mute_hides(live_server: str, new_page: Any) -> None:
    url = create_room(live_server, public=False)
    ann, bob = pages = [new_page(), new_page()]
    seat(pages, url, ["Ann", "Bob"])
    say(ann, "hello Bob")
    expect(lines(bob, "Ann")).to_have_count(1)
    expect(lines(bob, "Ann").locator(".text")).to_have_text("hello Bob")
    expect(ann.locator("[data-chat-input]")).to_have_value("")
    say(bob, HTML)
    for page in pages:  # shown as typed: no element made of it, nothing run
        expect(lines(page, "Bob").locator(".text")).to_have_text(HTML)
        assert lines(page, "Bob").locator(".text *").count() == 0
        assert page.evaluate("document.body.dataset.owned") is None
    # Ann mutes Bob: his lines disappear for her only, and stay hidden after a reload
    ann.click('[data-chat-message][data-from="Bob"] [data-chat-mute]')
    expect(lines(ann, "Bob")).to_be_hidden()
    say(bob, "can you hear me")
    expect(lines(bob, "Bob")).to_have_count(2)
    expect(lines(bob, "Bob").last).to_be_visible()
    expect(lines(ann, "Bob")).to_have_count(2)
    for i in range(2):
        expect(lines(ann, "Bob").nth(i)).to_be_hidden()
    ann.reload()
    expect(lines(ann, "Ann")).to_have_count(1)  # the history came back after welcome
    expect(lines(ann, "Bob")).to_have_count(2)
    for i in range(2):
        expect(lines(ann, "Bob").nth(i)).to_be_hidden()
    ann.click("[data-chat-unmute]")
    expect(lines(ann, "Bob").last).to_be_visible()
    # too long for the server (the input stops at 200): the refusal is said under the input
    ann.evaluate("document.querySelector('[data-chat-input]').removeAttribute('maxlength')")
    say(ann, "x" * 250)
    expect(ann.locator("[data-chat-note]")).to_have_text("At most 200 characters a message")
    # sets found and wrong calls go to the events list, never into what people say (issue 21)
    start(ann)
    found = ensure_set(pages)
    take(bob, "Bob", found)
    expect(ann.locator("#log li.good").first).to_contain_text("Bob")
    expect(bob.locator("#log li.good").first).to_be_attached()  # worded to Bob: "A set! ..."
    call(ann, "Ann")
    pick(ann, not_a_set(table(ann)))
    for page in pages:
        expect(page.locator("#log li.bad")).to_have_count(1)
        expect(page.locator("[data-chat-lines] li")).to_have_count(3)  # what people said
        expect(page.locator("[data-chat-lines] li:not([data-chat-message])")).to_have_count(0)


def test_the_create_form_makes_a_players_only_room(live_server: str, new_page: Any) -> None:
    page = new_page()
    page.goto(live_server)
    more_options(page)
    page.select_option("select[name=chat]", "players")
    page.click("[data-action=create]")
    page.wait_for_url("**/room/*")
    watcher = new_page()
    watcher.goto(page.url)
    chat_input = watcher.locator("[data-chat-input]")
    expect(chat_input).to_be_disabled()  # a spectator, in a players-only room
    expect(chat_input).to_have_attribute("placeholder", "In this room only the players may chat")
    # the setting comes over HTTP, the socket may open later (a busy machine): sent before,
    # the line is not sent at all ("offline"), and the server has nothing to refuse
    expect(watcher.locator("#conn")).to_have_attribute("data-conn", "open")
    # the server refuses it anyway (a page that did not know the setting)
    # enabled, filled and sent in one go: a render in between (an update of the room)
    # disables the fields again, as it should
    watcher.evaluate(
        """(text) => {
          document.querySelectorAll('[data-chat-input], [data-chat-send]')
            .forEach((e) => { e.disabled = false; });
          document.querySelector('[data-chat-input]').value = text;
          document.querySelector('[data-chat-send]').click();
        }""",
        "let me in",
    )
    expect(watcher.locator("[data-chat-note]")).to_have_text(
        "In this room only the players may chat"
    )
    expect(chat_input).to_be_disabled()
    watcher.fill("input[name=player-name]", "Wat")
    watcher.click("[data-action=join]")
    expect(chat_input).to_be_enabled()  # seated: may speak
    say(watcher, "now I may")
    expect(lines(page, "Wat")).to_have_count(1)


def test_the_replay_shows_the_chat(live_server: str, new_page: Any) -> None:
    page = new_page()
    # a room of one's own (a solo room has no chat: issue 21), the one player takes each set
    url = create_room(live_server, deck="color=R", rounds="single", public=False)
    join(page, url, "Sol")
    say(page, "<i>first</i> try")
    expect(lines(page, "Sol")).to_have_count(1)
    start(page)
    play_round([page, page], ["Sol", "Sol"], {"Sol": 0})
    phase(page, "match_over")
    page.click("#replay-link")
    page.wait_for_url("**/replay/*")
    page.keyboard.press("End")
    expect(lines(page, "Sol").locator(".text")).to_have_text("<i>first</i> try")
    assert lines(page, "Sol").locator("[data-chat-mute]").count() == 0
