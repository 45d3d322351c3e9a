"""Helpers for driving the terminal game: a clock the test moves, keys for sets."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual.geometry import Region

from setgame.rules.cards import parse_card
from setgame.rules.sets import explain, find_sets, is_set
from setgame.tui.app import SetApp
from setgame.tui.local import LocalSession
from setgame.tui.widgets import KEYS


@dataclass
class FakeClock:
    """The app's clock, moved by the test: ``clock.now += 1.5``."""

    now: float = 0.0

    def __call__(self) -> float:
        return self.now


def make_app(
    clock: FakeClock, mode: str = "solo", *, lang: str = "en", **options: object
) -> SetApp:
    options.setdefault("deck", "beginner")
    options.setdefault("seed", 3)
    session = LocalSession(mode, **options)  # type: ignore[arg-type]
    # a long poll interval: the test decides when time passes and redraws
    return SetApp(session, lang=lang, clock=clock, poll_seconds=3600)


def table(app: SetApp) -> list[str]:
    return list(app.view["table"])


def keys_for(app: SetApp, codes: tuple[str, ...]) -> list[str]:
    """The keys that pick ``codes`` on the app's table."""
    current = table(app)
    return [KEYS[current.index(code)] for code in codes]


def a_set(app: SetApp) -> tuple[str, str, str] | None:
    current = table(app)
    sets = find_sets([parse_card(code) for code in current])
    if not sets:
        return None
    return tuple(current[[parse_card(c) for c in current].index(card)] for card in sets[0])  # type: ignore[return-value]


def not_a_set(app: SetApp) -> tuple[str, str, str]:
    current = table(app)
    for i in range(len(current)):
        for j in range(i + 1, len(current)):
            for k in range(j + 1, len(current)):
                triple = (current[i], current[j], current[k])
                if not is_set(*(parse_card(c) for c in triple)):
                    return triple
    raise AssertionError("every triple on the table is a set")


def flawed_in_every(app: SetApp, attributes: int) -> tuple[str, str, str]:
    """Three cards of the table that break the rule in exactly ``attributes`` attributes."""
    current = table(app)
    for i in range(len(current)):
        for j in range(i + 1, len(current)):
            for k in range(j + 1, len(current)):
                triple = (current[i], current[j], current[k])
                if len(explain(*(parse_card(c) for c in triple))) == attributes:
                    return triple
    raise AssertionError(f"no triple on the table breaks {attributes} attributes")


def message(app: SetApp) -> str:
    return str(app.message_bar.content)


def me(app: SetApp) -> dict[str, object]:
    return next(p for p in app.view["players"] if p["id"] == app.view["you"])


def scores(app: SetApp) -> str:
    """The scoreboard's text, its non-breaking spaces read as spaces."""
    return str(app.scoreboard.content).replace("\u00a0", " ")


def shown_whole(app: SetApp) -> bool:
    """Every word of the message is on the screen (none cut off by the bar's size)."""
    bar = app.message_bar
    if not app.screen.region.contains_region(bar.region):
        return False
    lines = bar.render_lines(Region(0, 0, *bar.outer_size))
    shown = " ".join(strip.text for strip in lines).split()
    return shown == message(app).split()


async def wait_shown_whole(app: SetApp, pilot: Any, seconds: float = 3.0) -> bool:
    """Let the screen lay out the latest message (a growing bar needs a layout pass)."""
    for _ in range(int(seconds / 0.02)):
        if shown_whole(app):
            return True
        await pilot.pause(0.02)
    return shown_whole(app)


async def until(
    app: SetApp, clock: FakeClock, done: Callable[[], bool], timeout: float = 10
) -> None:
    """Redraw from an online session until ``done()``; the fake clock follows real time."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while loop.time() < give_up:
        clock.now += 0.05
        app.refresh_game()
        if done():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out; view: {app.view!r}")
