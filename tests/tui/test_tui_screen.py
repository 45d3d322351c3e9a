"""The screen: layout in 80x24 and larger, resizing, the strings of every language."""

from __future__ import annotations

import re

import pytest

from setgame.rules.cards import parse_card
from setgame.tui import build_app
from setgame.tui.strings import tr
from setgame.tui.widgets import (
    GLYPHS,
    KEYS,
    PREVIOUS_KEYS,
    card_glyphs,
    card_text,
)
from setgame.words.i18n import card_label
from tui.tuikit import FakeClock, make_app, table


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="'xx'"):
        tr("Deck: {count}", "xx", count=1)


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "Deck: 12"),
        ("ru", "Колода: 12"),
        ("pl", "Talia: 12"),
        ("it", "Mazzo: 12"),
        ("de", "Stapel: 12"),
    ],
)
def test_screen_words_come_from_the_catalog(lang: str, line: str) -> None:
    assert tr("Deck: {count}", lang, count=12) == line


def test_keys_leave_the_command_keys_free() -> None:
    """27 places (a MegaSet table grows past 21 cards), the previous group's keys apart."""
    assert len(KEYS) == len(set(KEYS)) == 27
    assert len(set(PREVIOUS_KEYS)) == 4
    assert not set(KEYS) & set(" hnqy" + PREVIOUS_KEYS)


def test_glyphs_tell_shape_and_shading_apart_without_color() -> None:
    glyphs = [g for row in GLYPHS for g in row]
    assert len(set(glyphs)) == 9
    assert card_glyphs("3GOS") == ("∿ ∿ ∿", "#087a24")
    face = card_text("1PTO", "a").plain
    assert "1PTO" in face and " a " in face and "◉" in face


async def test_table_fits_80x24_and_redraws_when_resized(clock: FakeClock) -> None:
    app = make_app(clock, "solo", deck="full", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "n", "n")
        assert len(table(app)) == 21
        screen = app.screen.region
        cards = [app.query_one(f"#card-{i}") for i in range(21)]
        for card in cards:
            assert screen.contains_region(card.region), card.id
            assert card.region.width >= 10 and card.region.height >= 4
            assert card.code in str(card.render())
        assert "Deck: 60" in str(app.status_bar.content)
        small, first = cards[0].region, table(app)[0]
        label = card_label(parse_card(first), "en")
        assert label not in _face(app, first)  # no room for words in 80x24
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert cards[0].region.width > small.width and cards[0].region.height > small.height
        assert label in _face(app, first)


def _face(app: object, code: str) -> str:
    current = table(app)  # type: ignore[arg-type]
    card = app.query_one(f"#card-{current.index(code)}")  # type: ignore[attr-defined]
    return re.sub(r"\s+", " ", str(card.render()))


async def test_large_cards_name_the_card_in_the_chosen_language(clock: FakeClock) -> None:
    app = make_app(clock, "solo", deck="full", seed=3, lang="it")
    async with app.run_test(size=(160, 50)):
        code = table(app)[0]
        assert card_label(parse_card(code), "it") in _face(app, code)


def test_bad_options_are_refused_quoting_them() -> None:
    with pytest.raises(ValueError, match="'xx'"):
        build_app("solo", lang="xx")
    with pytest.raises(ValueError, match="'duel'"):
        build_app("duel")
    with pytest.raises(ValueError, match="'odd'"):
        build_app("solo", deck="odd")
    with pytest.raises(ValueError, match="9"):
        build_app("bots", bots=9)
    with pytest.raises(ValueError, match="'ftp://x/room/1'"):
        build_app(connect="ftp://x/room/1")
