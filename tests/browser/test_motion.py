"""Motion (issue 21): cards are dealt and taken with short animations, never under
``prefers-reduced-motion: reduce``; a card still arriving takes clicks; the cards that stay do
not move.

The page is watched from the inside: a MutationObserver sees each card the moment the page puts
it on the table (the animations start in the same task, so they are running then) and records
its animations, whether a click at its centre lands on it, and every taken card's picture
(``.ghost``) laid over the page.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.browserkit import (
    a_set,
    at_rest,
    create_room,
    finish_solo_game,
    join,
    pick,
    start,
    table,
)

pytestmark = pytest.mark.browser

WATCH = """() => {
  window.motion = { dealt: [], ghosts: [] };
  const seen = (node) => {
    if (node.nodeType !== 1) return;
    if (node.dataset.card) {
      const r = node.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      window.motion.dealt.push({
        code: node.dataset.card,
        animations: node.getAnimations().length,
        ms: Math.max(0, ...node.getAnimations().map((a) => a.effect.getComputedTiming().endTime)),
        hit: hit?.closest('[data-card]') === node,
      });
    } else if (node.classList.contains('ghost')) {
      window.motion.ghosts.push({
        animations: node.getAnimations().length,
        hook: node.matches('[data-card], [data-pos]') || !!node.querySelector('[data-card]'),
      });
    }
  };
  new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach(seen)))
    .observe(document.body, { childList: true, subtree: true });
}"""

PLACES = """() => Object.fromEntries([...document.querySelectorAll('#table [data-card]')]
  .map((e) => {
    const r = e.getBoundingClientRect();
    return [e.dataset.card, [r.left, r.top, r.width]];
  }))"""


def take_a_set(page: Page) -> tuple[list[str], list[str]]:
    """Pick a set on the solo table (asking for more cards while there is none); answers the
    set and the table before it."""
    while (found := a_set(codes := table(page))) is None:
        page.click("[data-action=no-set]")
        expect(page.locator("[data-card]")).to_have_count(len(codes) + 3)
    version = page.get_attribute("main", "data-version")
    at_rest(page)  # the deal's motion over: the places below are where the cards lie
    before = page.evaluate(PLACES)
    page.evaluate(WATCH)
    pick(page, found)
    page.wait_for_function("v => document.querySelector('main').dataset.version !== v", arg=version)
    at_rest(page)
    after = page.evaluate(PLACES)
    stayed = [code for code in codes if code not in found and code in after]
    assert stayed, codes
    if len(codes) == 12:  # replaced in place: the cards that stay have not moved
        assert all(after[c] == before[c] for c in stayed), (before, after)
    return found, codes


def solo_page(new_page: Any, server: str, **options: Any) -> Page:
    page: Page = new_page(**options)
    join(page, create_room(server, mode="solo", public=False), "Mo")
    start(page)
    return page


def test_new_cards_are_dealt_and_taken_ones_leave_with_motion(
    live_server: str, new_page: Any
) -> None:
    page = solo_page(new_page, live_server)
    for _ in range(6):  # a set taken from 12 cards (from 15, none are dealt in its place)
        found, codes = take_a_set(page)
        if len(codes) == 12:
            break
    assert len(codes) == 12, codes
    motion = page.evaluate("window.motion")
    dealt = [d for d in motion["dealt"] if d["code"] not in found]
    assert len(dealt) == 3, motion
    for card in dealt:
        assert card["animations"] >= 1, card
        assert 150 <= card["ms"] <= 400, card  # short: 200 ms and a stagger
        assert card["hit"], card  # a click on a card still arriving lands on it
    assert len(motion["ghosts"]) == 3, motion  # the three taken cards leave
    assert all(g["animations"] == 1 and not g["hook"] for g in motion["ghosts"]), motion
    page.wait_for_timeout(400)
    expect(page.locator(".ghost")).to_have_count(0)  # gone once they have left


def test_a_card_clicked_while_it_arrives_is_selected(live_server: str, new_page: Any) -> None:
    page = solo_page(new_page, live_server)
    codes = table(page)
    page.evaluate(WATCH)
    # The page itself clicks each new card the moment it is put down (mid-deal), as a
    # quick thumb would; the click must select it at once.
    page.evaluate("""() => new MutationObserver((rs) => rs.forEach((r) => r.addedNodes.forEach(
      (n) => {
        if (n.nodeType !== 1 || !n.dataset.card || window.clicked) return;
        window.clicked = n.dataset.card;
        n.click();
      }))).observe(document.querySelector('#table'), { childList: true })""")
    found = a_set(codes)
    if found:  # three new cards take the set's places
        pick(page, found)
    else:  # three more cards
        page.click("[data-action=no-set]")
    page.wait_for_function("() => window.clicked")
    clicked = page.evaluate("window.clicked")
    assert page.evaluate("window.motion.dealt")[0]["animations"] >= 1
    expect(page.locator(f'[data-card="{clicked}"]')).to_have_attribute("aria-pressed", "true")


def test_no_motion_when_the_player_asks_for_less(live_server: str, new_page: Any) -> None:
    page = solo_page(new_page, live_server, reduced_motion="reduce")
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    found, _ = take_a_set(page)
    # with no motion to wait for (at_rest returns at once), the last of the three new cards
    # may be put down after the version changed: wait for it (a page that deals fewer fails)
    page.wait_for_function(
        "f => window.motion.dealt.filter((d) => !f.includes(d.code)).length >= 3", arg=found
    )
    motion = page.evaluate("window.motion")
    dealt = [d for d in motion["dealt"] if d["code"] not in found]
    assert len(dealt) == 3, motion
    assert all(d["animations"] == 0 for d in dealt), motion
    assert motion["ghosts"] == [], motion
    assert page.evaluate("document.getAnimations().length") == 0


def test_a_replay_step_deals_its_cards(live_server: str, new_page: Any) -> None:
    """A replay's table changes with motion as it steps through the game (and not at all
    under reduced motion)."""
    page = solo_page(new_page, live_server)
    finish_solo_game(page)
    replay = page.get_attribute("#replay-link", "href")
    for options, moves in (({}, True), ({"reduced_motion": "reduce"}, False)):
        viewer: Page = new_page(**options)
        viewer.goto(f"{live_server}{replay}")
        expect(viewer.locator("#rtable [data-code]").first).to_be_visible()
        changed = """() => new Promise((done) => {
          const box = document.querySelector('#rtable');
          new MutationObserver((rs, me) => {
            me.disconnect();
            const added = rs.flatMap((r) => [...r.addedNodes]);
            done(added.map((n) => n.getAnimations().length));
          }).observe(box, { childList: true });
          const next = document.querySelector('[data-step=next]');
          for (let i = 0; i < 40; i++) setTimeout(() => next.click(), i * 30);
        })"""
        counts = viewer.evaluate(changed)
        assert counts, "no card changed"
        assert all(n >= 1 for n in counts) if moves else all(n == 0 for n in counts), counts
