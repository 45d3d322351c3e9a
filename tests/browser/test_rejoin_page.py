"""Leaving a room in the browser is no way out of a penalty (R10, R14): the page keeps its seat
token, so joining the same match again, even after a reload and under another name, takes the
same seat back, lockout and all."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from browser.browserkit import (
    call,
    create_room,
    ensure_set,
    join,
    not_a_set,
    pick,
    seat,
    start,
    table,
)
from browser.browserkit import state as room_state

pytestmark = pytest.mark.browser


def test_r10_a_lockout_survives_leave_reload_and_a_new_name(
    live_server: str, new_page: Any
) -> None:
    url = create_room(live_server, public=False, penalty="lockout")
    ann, bob, cy = pages = [new_page(), new_page(), new_page()]
    seat(pages, url, ["Ann", "Bob", "Cy"])
    start(cy)
    ensure_set(pages)
    call(ann, "Ann")
    pick(ann, not_a_set(table(ann)))
    expect(bob.locator('[data-player="Ann"] .badge.locked')).to_be_visible()
    seat_id = next(p["id"] for p in room_state(live_server, url)["state"]["players"]
                   if p["name"] == "Ann")  # fmt: skip
    ann.click("[data-action=leave]")
    expect(ann.locator("[data-action=join]")).to_be_visible()
    ann.reload()
    join(ann, url, "Annie")  # another name, the same browser: the same seat
    for page in (ann, bob):
        expect(page.locator('[data-player="Annie"] .badge.locked')).to_be_visible()
    expect(ann.locator("[data-action=call-set]")).to_be_disabled()
    players = room_state(live_server, url)["state"]["players"]
    first = players[0]
    assert (first["id"], first["name"], first["locked"]) == (seat_id, "Annie", True)
    assert len(players) == 3 and room_state(live_server, url)["state"]["rounds"] == 3
