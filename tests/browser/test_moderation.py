"""Moderation in the browser (issue 20): a player reports a chat line, a moderator deletes it
from /moderation and the players see it vanish; the moderator bans the sender, whose page says
why and until when, and who cannot sign in again while the ban lasts."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.browserkit import create_room, grant_role, seat

pytestmark = pytest.mark.browser


def claim(page: Page, base: str, name: str) -> None:
    page.goto(f"{base}/account")
    page.fill("[data-account-name]", name)
    page.fill("[data-account-password]", "correct horse")
    page.click("[data-account-action=claim]")
    expect(page.locator("[data-account-status]")).to_contain_text(name)


def lines(page: Page, name: str) -> Any:
    return page.locator(f'[data-chat-message][data-from="{name}"]')


def test_a_moderator_deletes_a_reported_line_and_bans_its_sender(
    live_server: Any, new_page: Any
) -> None:
    suffix = secrets.token_hex(2)
    mod_name, bob_name = f"Mod{suffix}", f"Rude{suffix}"
    ann, bob, mod = new_page(), new_page(), new_page()
    claim(bob, live_server, bob_name)
    claim(mod, live_server, mod_name)
    grant_role(live_server.db, mod_name)
    url = create_room(live_server, public=False)
    seat([ann, bob], url, ["Ann", bob_name])
    bob.fill("[data-chat-input]", "something vile")
    bob.click("[data-chat-send]")
    expect(lines(ann, bob_name)).to_have_count(1)
    ann.click(f'[data-chat-message][data-from="{bob_name}"] [data-chat-report]')
    dialog = ann.locator("[data-report-dialog]")
    expect(dialog).to_be_visible()
    expect(dialog.locator("[data-report-what]")).to_contain_text("something vile")
    ann.fill("[data-report-reason]", "insults")
    ann.click("[data-report-send]")
    expect(dialog).to_be_hidden()
    expect(ann.locator("[data-chat-note]")).to_have_text(
        "Reported: the moderators will read it. Thank you."
    )

    mod.goto(f"{live_server}/moderation")
    queued = mod.locator("[data-mod-report]", has_text=bob_name)  # the server is shared
    expect(queued).to_have_count(1)
    expect(queued).to_contain_text("something vile")
    expect(queued).to_contain_text("insults")
    queued.locator("[data-mod-delete]").click()
    expect(mod.locator("[data-mod-message]")).to_have_text("The line is deleted.")
    for page in (ann, bob):  # gone live, for everyone
        expect(lines(page, bob_name)).to_have_count(0)
    ann.reload()  # and from the history a page gets
    expect(ann.locator("[data-player]")).to_have_count(2)
    expect(lines(ann, bob_name)).to_have_count(0)

    mod.fill("[data-mod-who]", bob_name)
    mod.fill("[data-mod-reason]", "insults in chat")
    mod.click("[data-mod-action=ban]")
    expect(mod.locator("[data-mod-message]")).to_contain_text(f"{bob_name} is banned until")
    expect(mod.locator(f'[data-mod-ban="{bob_name}"][data-active="1"]')).to_have_count(1)
    logged = mod.locator("[data-mod-logged]")
    expect(logged.filter(has_text=mod_name).first).to_be_visible()  # the host's grant
    expect(logged.first).to_contain_text(f"banned {bob_name}")

    # the banned player's page says why and until when; back, it only watches
    expect(bob.locator("#banner")).to_contain_text("You are banned until")
    expect(bob.locator("#banner")).to_contain_text("insults in chat")
    expect(bob.locator("[data-action=join]")).to_be_visible()  # reconnected, as a spectator
    bob.fill("[data-chat-input]", "let me speak")
    bob.click("[data-chat-send]")
    expect(bob.locator("[data-chat-note]")).to_contain_text("You are banned until")
    expect(lines(ann, bob_name)).to_have_count(0)

    bob.goto(f"{live_server}/account")  # signed out and back: refused, told why
    bob.click("[data-account-action=signout]")
    bob.fill("[data-account-name]", bob_name)
    bob.fill("[data-account-password]", "correct horse")
    bob.click("[data-account-action=signin]")
    expect(bob.locator("[data-account-message]")).to_contain_text("insults in chat")
    expect(bob.locator("[data-account-message]")).to_contain_text("You are banned until")


def test_the_moderation_page_turns_away_anyone_without_a_role(
    live_server: Any, new_page: Any
) -> None:
    page = new_page()
    page.goto(f"{live_server}/moderation?lang=de")
    expect(page.locator("[data-mod-status]")).to_have_text(
        "Nur für Moderatoren: Melde dich als einer an."
    )
    expect(page.locator("[data-mod-panel]")).to_be_hidden()


def test_a_moderator_in_the_room_deletes_a_line_with_its_button(
    live_server: Any, new_page: Any
) -> None:
    """Issue 20's leftover: a moderator who is in the room (seated or watching) deletes a
    line from the chat itself; it vanishes for everyone. Others get no such button."""
    suffix = secrets.token_hex(2)
    mod_name = f"Mod{suffix}"
    ann, bob, mod = new_page(), new_page(), new_page()
    claim(mod, live_server, mod_name)
    grant_role(live_server.db, mod_name)
    url = create_room(live_server, public=False)
    seat([ann, bob], url, ["Ann", "Bob"])
    mod.goto(url)  # watching
    bob.fill("[data-chat-input]", "something vile")
    bob.click("[data-chat-send]")
    for page in (ann, mod):
        expect(lines(page, "Bob")).to_have_count(1)
    expect(ann.locator("[data-chat-delete]")).to_have_count(0)  # players have none
    button = lines(mod, "Bob").locator("[data-chat-delete]")
    expect(button).to_have_attribute("aria-label", "Delete Bob's line for everyone (moderator)")
    button.click()
    expect(mod.locator("[data-chat-note]")).to_have_text("The line is deleted.")
    for page in (ann, bob, mod):
        expect(lines(page, "Bob")).to_have_count(0)
