"""The account page (``/account``): claim a name, sign out and in, wrong passwords worded in
the page language; a claimed name refused to a guest in a room; a signed-in player seated
under it."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from playwright.sync_api import expect

from browser.browserkit import create_room
from setgame import catalog

pytestmark = pytest.mark.browser


def words(lang: str) -> dict[str, str]:
    messages: dict[str, str] = catalog.web_messages(lang)["messages"]  # type: ignore[assignment]
    return messages


def _fill(page: Any, name: str, password: str) -> None:
    page.fill("[data-account-name]", name)
    page.fill("[data-account-password]", password)


def test_claim_sign_out_and_in_then_sit_under_the_name(live_server: str, new_page: Any) -> None:
    w = words("de")
    name = "Ann" + uuid.uuid4().hex[:6]
    page = new_page()
    page.goto(f"{live_server}/account?lang=de")
    status = page.locator("[data-account-status]")
    expect(status).to_have_text(w["acc.status.guest"])
    _fill(page, name, "correct horse")
    page.click("[data-account-action=claim]")
    expect(status).to_have_text(w["acc.status.member"].replace("{name}", name))
    page.reload()  # the session cookie keeps it
    expect(status).to_have_text(w["acc.status.member"].replace("{name}", name))
    page.click("[data-account-action=signout]")
    expect(status).to_have_text(w["acc.status.guest"])
    _fill(page, name, "not the password")
    page.click("[data-account-action=signin]")
    expect(page.locator("[data-account-message]")).to_have_text(w["acc.err.bad_credentials"])
    _fill(page, name.upper(), "correct horse")
    page.click("[data-account-action=signin]")
    expect(status).to_have_text(w["acc.status.member"].replace("{name}", name))

    url = create_room(live_server, public=False)
    guest = new_page()  # another browser: a guest
    guest.goto(url + "?lang=de")
    guest.fill("input[name=player-name]", name.lower())
    guest.click("[data-action=join]")
    expect(guest.locator("#banner")).to_have_text(w["err.name_claimed"])
    page.goto(url)
    page.fill("input[name=player-name]", name.lower())
    page.click("[data-action=join]")
    expect(page.locator(f'[data-player="{name}"]')).to_have_count(1)  # the account's spelling


def test_a_profile_page_shows_the_figures_or_says_nobody_has_the_name(
    live_server: str, new_page: Any
) -> None:
    import httpx

    w = words("pl")
    name = "Zoe" + uuid.uuid4().hex[:6]
    answer = httpx.post(
        f"{live_server}/api/account/claim",
        json={"name": name, "password": "correct horse"},
        trust_env=False,
    )
    assert answer.status_code == 201
    page = new_page()
    page.goto(f"{live_server}/player/{name.lower()}?lang=pl")
    expect(page.locator("[data-profile-name]")).to_have_text(name)
    expect(page.locator("[data-profile-rating]")).to_have_text("1000")
    expect(page.locator("[data-profile-provisional]")).to_have_text(w["prof.provisional"])
    expect(page.locator("[data-profile-games]")).to_have_text("0")
    expect(page.locator("[data-profile-none]")).to_be_visible()
    page.goto(f"{live_server}/player/%3Cb%3ENobody")
    expect(page.locator("[data-profile-unknown]")).to_have_text(
        w["prof.unknown"].replace("{name}", "<b>Nobody")
    )
    assert page.locator("main b").count() == 0  # the name is text, never markup
