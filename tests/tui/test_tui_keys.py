"""Keys under other keyboard layouts (issue 21): a terminal reports the character typed, so
ЙЦУКЕН's й is the key q, AZERTY's & the key 1; Caps Lock's capitals are the letters."""

from __future__ import annotations

import pytest

from setgame.tui.app import QuitScreen
from setgame.tui.helpscreen import HelpScreen
from setgame.tui.layouts import latin_key
from setgame.tui.widgets import KEYS
from tui.tuikit import FakeClock, make_app, table


@pytest.mark.parametrize(
    ("typed", "key"),
    [("й", "q"), ("Й", "q"), ("т", "n"), ("р", "h"), ("н", "y"), ("ф", "a"), ("і", "s"),
     ("ї", "]"), ("ў", "o"), ("ς", "w"), ("α", "a"), ("&", "1"), ("à", "0"), ("Q", "q")],
)  # fmt: skip
def test_characters_of_other_layouts_are_the_latin_keys(typed: str, key: str) -> None:
    if key.isalnum():
        assert latin_key(typed) == key
    else:
        assert latin_key(typed) is None  # not a letter there: not a key of the game


def test_the_games_own_keys_stay_as_they_are() -> None:
    assert all(latin_key(key) is None for key in KEYS + " nhqy?")


async def test_russian_layout_quits_with_й_and_н(clock: FakeClock) -> None:
    app = make_app(clock, "solo", deck="full", seed=3, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("й")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("н")  # y
    assert app.return_code == 0 and not app.is_running


async def test_russian_layout_picks_cards_and_asks_for_more(clock: FakeClock) -> None:
    app = make_app(clock, "practice", deck="full", seed=3, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ф")  # a: the eleventh card
        assert app.selected == [table(app)[KEYS.index("a")]]
        await pilot.press("р")  # h: a hint
        assert app.hinted
        await pilot.press("т")  # n: three more cards
        assert len(table(app)) == 15


async def test_azerty_digits_and_caps_lock(clock: FakeClock) -> None:
    app = make_app(clock, "solo", deck="full", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("&", "é")  # 1 and 2 without Shift
        assert app.selected == table(app)[:2]
        await pilot.press("?")  # the help, on every layout
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape", "Q")
        assert isinstance(app.screen, QuitScreen)
