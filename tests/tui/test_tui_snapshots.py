"""Snapshots of the main screen (fixed seeds, a clock that does not move).

Regenerate after an intended change of the look with
``pytest tests/tui/test_tui_snapshots.py --snapshot-update`` and review the SVGs.
"""

from __future__ import annotations

from typing import Any

import pytest

from tui.tuikit import (
    FakeClock,
    a_set,
    flawed_in_every,
    keys_for,
    make_app,
    message,
    not_a_set,
    wait_shown_whole,
)


def test_solo_main_screen(snap_compare: Any) -> None:
    clock = FakeClock()
    app = make_app(clock, "solo", deck="full", seed=3)

    async def play_a_while(pilot: Any) -> None:
        clock.now = 83.0
        await pilot.press("1", "6")

    assert snap_compare(app, run_before=play_a_while, terminal_size=(80, 24))


def test_solo_table_of_21_cards_in_80x24(snap_compare: Any) -> None:
    app = make_app(FakeClock(), "solo", deck="full", seed=3)
    assert snap_compare(app, press=["n", "n", "n"], terminal_size=(80, 24))


def test_holding_the_board_against_bots(snap_compare: Any) -> None:
    clock = FakeClock()
    app = make_app(clock, "bots", bots=3, level=1, deck="full", seed=3)

    async def call_after_a_while(pilot: Any) -> None:
        clock.now = 1.5  # the bots are still thinking
        await pilot.press("space", "2")
        clock.now = 3.0
        app.refresh_game()

    assert snap_compare(app, run_before=call_after_a_while, terminal_size=(80, 24))


def test_wrong_pick_in_german_on_a_large_terminal(snap_compare: Any) -> None:
    app = make_app(FakeClock(), "solo", deck="beginner", seed=3, lang="de")

    async def pick_wrong(pilot: Any) -> None:
        await pilot.press(*keys_for(app, not_a_set(app)))

    assert snap_compare(app, run_before=pick_wrong, terminal_size=(120, 36))


def test_quit_dialog(snap_compare: Any) -> None:
    app = make_app(FakeClock(), "practice", deck="beginner", seed=3, lang="ru")
    assert snap_compare(app, press=["q"], terminal_size=(80, 24))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_wrong_pick_in_three_attributes_and_its_penalty_in_80x24(
    snap_compare: Any, lang: str
) -> None:
    """Issue 13 (7): the whole explanation and the penalty line, on the smallest terminal.

    The penalty line ends with the fair-call wait (this project's own rule, DECISIONS 1): the
    bot could still call, so the first call without a set waits ``pick_seconds`` (5 s)."""
    clock = FakeClock()
    app = make_app(clock, "bots", bots=1, level=1, deck="full", seed=3, lang=lang)

    async def find_a_set_then_pick_wrong(pilot: Any) -> None:
        await pilot.press("space", *keys_for(app, a_set(app)))  # a point to lose
        clock.now = 0.5  # the bot is still thinking
        await pilot.press("space", *keys_for(app, flawed_in_every(app, 3)))
        await pilot.pause()
        penalty = {
            "en": "You lose a point. You may call again in 5.0 s.",
            "ru": "Вы теряете очко. Снова объявить сет можно через 5,0 с.",
        }[lang]
        assert message(app).count(";") == 2 and message(app).splitlines()[-1] == penalty
        assert await wait_shown_whole(app, pilot)

    assert snap_compare(app, run_before=find_a_set_then_pick_wrong, terminal_size=(80, 24))


def test_megaset_with_19_cards_in_80x24(snap_compare: Any) -> None:
    """Issue 21: MegaSet's table in 4 rows (5/5/5/4 cards), every frame whole on its line."""
    app = make_app(FakeClock(), "solo", deck="full", seed=3, variant="megaset")

    async def three_more(pilot: Any) -> None:
        await pilot.press("n")
        assert len(app.view["table"]) == 19

    assert snap_compare(app, run_before=three_more, terminal_size=(80, 24))


def test_the_help_of_4set_in_german_in_80x24(snap_compare: Any) -> None:
    """Issue 21: ? shows the variant's rule, the keys and the legend of codes and glyphs."""
    app = make_app(FakeClock(), "solo", deck="full", seed=3, variant="4set", lang="de")
    assert snap_compare(app, press=["question_mark"], terminal_size=(80, 24))
