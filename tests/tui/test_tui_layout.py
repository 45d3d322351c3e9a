"""The table's layout at every size (issue 21): MegaSet's 16 cards lie in 4 rows of 4 (as
on the web) and grow by columns with balanced rows; a card's symbols and MegaSet's frame
around them stay on one line; the symbols grow with the terminal.

What is checked is what the screen shows: each card's lines as drawn in its region.
"""

from __future__ import annotations

from collections import Counter

import pytest
from textual.geometry import Region

from setgame.rules.cards import parse_card
from setgame.rules.decks import STANDARD
from setgame.tui.app import SetApp
from setgame.tui.face import BORDER_MARKS, GLYPHS4
from setgame.tui.widgets import CardView
from setgame.words.i18n import card_words
from tui.tuikit import FakeClock, make_app

SYMBOL_GLYPHS = frozenset("".join(g for row in GLYPHS4 for g in row))


def drawn_lines(card: CardView) -> list[str]:
    """The card's lines as the screen draws them (its border included)."""
    lines = card.render_lines(Region(0, 0, *card.outer_size))
    return [strip.text for strip in lines]


def cards_on_screen(app: SetApp) -> list[CardView]:
    return [app.query_one(f"#card-{i}", CardView) for i in range(len(app.view["table"]))]


def assert_faces_whole(app: SetApp) -> None:
    """Every card of the table is on screen, its code shown, its symbols (and MegaSet's
    frame) all on one line: as many glyphs as its number says, a mark on each side."""
    screen = app.screen.region
    for card in cards_on_screen(app):
        assert card.code is not None and screen.contains_region(card.region), card.code
        lines = drawn_lines(card)
        assert any(card.code in line for line in lines), (card.code, lines)
        with_symbols = [line for line in lines if SYMBOL_GLYPHS & set(line)]
        assert len(with_symbols) == 1, (card.code, lines)  # scale 1 at this size
        line = with_symbols[0]
        number = int(card.code[0])
        assert sum(line.count(g) for g in SYMBOL_GLYPHS) == number, (card.code, lines)
        if len(card.code) == 5:  # MegaSet: the border's mark both sides of the symbols
            mark = BORDER_MARKS["SDT".index(card.code[4])]
            inner = line[1:-1].strip()  # inside the card's own border
            assert inner.startswith(mark) and inner.endswith(mark), (card.code, lines)


def row_counts(app: SetApp) -> list[int]:
    """How many cards each row of the table holds, top to bottom."""
    rows = Counter(card.region.y for card in cards_on_screen(app))
    return [rows[y] for y in sorted(rows)]


@pytest.mark.parametrize(
    ("more", "rows"), [(0, [4, 4, 4, 4]), (1, [5, 5, 5, 4]), (2, [6, 6, 5, 5])]
)
@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 48)])
async def test_megaset_lies_in_four_balanced_rows(
    clock: FakeClock, more: int, rows: list[int], size: tuple[int, int]
) -> None:
    """16 cards in 4 rows of 4; 19 and 22 cards: a new column per four cards, the rows
    differing by one card at most; every frame whole on its line, at 80x24 too."""
    app = make_app(clock, "solo", deck="full", seed=3, variant="megaset")
    async with app.run_test(size=size) as pilot:
        await pilot.press(*["n"] * more)
        await pilot.pause()
        assert len(app.view["table"]) == 16 + 3 * more
        assert row_counts(app) == rows
        if size == (80, 24):
            assert_faces_whole(app)


@pytest.mark.parametrize("variant", ["classic", "4set", "ultraset"])
async def test_other_tables_keep_three_rows(clock: FakeClock, variant: str) -> None:
    app = make_app(clock, "solo", deck="full", seed=3, variant=variant)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "n")
        await pilot.pause()
        assert len(row_counts(app)) == 3
        assert max(row_counts(app)) - min(row_counts(app)) <= 1
        assert_faces_whole(app)


@pytest.mark.parametrize(
    ("size", "symbol_lines", "named"),
    [((80, 24), 1, False), ((100, 30), 3, False), ((120, 36), 5, False), ((160, 48), 5, True)],
)
async def test_bigger_terminals_show_bigger_symbols(
    clock: FakeClock, size: tuple[int, int], symbol_lines: int, named: bool
) -> None:
    """Issue 21, as docs/terminal.md says: the symbols grow with the terminal (one line of
    glyphs, figures 3 then 5 lines high), and the card's name shows where it fits too."""
    app = make_app(clock, "solo", deck="full", seed=3)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for card in cards_on_screen(app):
            lines = drawn_lines(card)
            assert sum(1 for line in lines if SYMBOL_GLYPHS & set(line)) == symbol_lines, lines
            name = card_words(parse_card(card.code or ""), STANDARD, "en")
            assert (name in " ".join(" ".join(lines).replace("│", " ").split())) == named
