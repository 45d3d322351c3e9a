"""Memory (issue 21): the engine turns a miss's cards face down at once; the screen keeps
them up for REVEAL_SECONDS, or until the player's next key, so they can be remembered."""

from __future__ import annotations

import itertools

from setgame.rules.cards import parse_card
from setgame.rules.sets import is_set
from setgame.tui.app import REVEAL_SECONDS, SetApp
from setgame.tui.widgets import KEYS, CardView
from tui.tuikit import FakeClock, make_app, message


def a_miss(app: SetApp) -> tuple[int, int, int]:
    """Three positions of the face-down table that hold no set (the test peeks at the
    engine's table to choose them: the player could not)."""
    cards = app.session.game.table  # type: ignore[attr-defined]
    names = [str(card) for card in app.session.game.variant.deck.names(cards)]  # type: ignore[attr-defined]
    for trio in itertools.combinations(range(len(names)), 3):
        if not is_set(*(parse_card(names[i]) for i in trio)):
            return trio  # type: ignore[return-value]
    raise AssertionError("every three cards are a set")


def shown_up(app: SetApp, positions: tuple[int, ...]) -> list[str | None]:
    """The codes the screen shows at ``positions`` (None: face down)."""
    views = [app.query_one(f"#card-{i}", CardView) for i in positions]
    return [None if view.face_down else view.code for view in views]


async def test_a_miss_stays_up_long_enough_to_remember(clock: FakeClock) -> None:
    app = make_app(clock, "solo", deck="full", seed=2, variant="memory")
    async with app.run_test(size=(100, 32)) as pilot:
        trio = a_miss(app)
        for i, position in enumerate(trio):
            clock.now = 0.5 * i
            await pilot.press(KEYS[position])
        codes = shown_up(app, trio)
        assert None not in codes and "The cards turn face down again." in message(app)
        assert [app.view["table"][i] for i in trio] == [None, None, None]  # down in the game
        clock.now += REVEAL_SECONDS - 0.1
        app.refresh_game()
        await pilot.pause()
        assert shown_up(app, trio) == codes  # still up on screen
        clock.now += 0.2
        app.refresh_game()
        await pilot.pause()
        assert shown_up(app, trio) == [None, None, None]


async def test_the_next_key_turns_a_miss_down(clock: FakeClock) -> None:
    app = make_app(clock, "solo", deck="full", seed=2, variant="memory")
    async with app.run_test(size=(100, 32)) as pilot:
        trio = a_miss(app)
        await pilot.press(*(KEYS[i] for i in trio))
        assert None not in shown_up(app, trio)
        other = next(i for i in range(len(app.view["table"])) if i not in trio)
        await pilot.press(KEYS[other])  # the first card of the next try
        assert shown_up(app, trio) == [None, None, None]
        assert app.view["turned"] == [other] and shown_up(app, (other,)) != [None]


async def test_a_bots_miss_is_shown_too(clock: FakeClock) -> None:
    """A bot's turns are seen as they happen, and its miss stays up as the player's does."""
    app = make_app(clock, "bots", bots=1, level=1, deck="full", seed=2, variant="memory")
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(2000):  # until the bot misses (the clock moves 50 ms a step)
            clock.now += 0.05
            app.refresh_game()
            if app.revealed:
                break
        assert app.revealed, "the bot never missed"
        await pilot.pause()
        positions = tuple(app.revealed)
        assert shown_up(app, positions) == list(app.revealed.values())
        assert all(app.view["table"][i] is None for i in positions)
