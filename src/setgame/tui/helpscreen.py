"""The ``?`` help: the variant's rule, the keys, and a legend of the cards' codes and
glyphs, in the player's language (:mod:`setgame.words.legend`).

The help is drawn on a card's light face, so that the symbols keep their colors and
every color keeps its contrast (the face's colors are measured in the tests).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from setgame.rules.decks import Deck
from setgame.tui.face import BORDER_MARKS, COLORS, glyph_of
from setgame.tui.strings import help_line, variant_of
from setgame.words.catalog import gettext
from setgame.words.i18n import card_words
from setgame.words.legend import notation, variant_rules

#: The attributes' places in a card's values.
_COLOR, _SHADING, _SHAPE, _BORDER = 1, 2, 3, 4
#: The values of the example card: two, red, striped, diamonds, double border.
_EXAMPLE = (1, 0, 1, 0, 1)


class HelpScreen(ModalScreen[None]):
    """The rules and the legend over the table; ``?``, Escape, Enter or ``q`` close it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,escape,enter,q,space", "close", "close"),
    ]

    def __init__(self, view: Mapping[str, Any], lang: str) -> None:
        super().__init__()
        self.game_view, self.lang = view, lang

    def compose(self) -> ComposeResult:
        variant = variant_of(self.game_view)
        with VerticalScroll(id="help-box") as box:
            box.border_title = gettext(self.lang, "How to play {variant}", variant=variant.title)
            box.border_subtitle = gettext(self.lang, "? or Esc: back to the game")
            yield Static(help_body(self.game_view, self.lang), id="help-text")

    def action_close(self) -> None:
        self.dismiss(None)


def help_body(view: Mapping[str, Any], lang: str) -> RenderableType:
    """The rule, the keys of this game, and the legend of the variant's cards."""
    variant = variant_of(view)
    deck = variant.deck
    parts: list[RenderableType] = [Text(line) for line in variant_rules(variant, lang)]
    parts.append(Text(help_line(view, lang), style="bold"))
    code = "".join(
        attribute.letters[_example_value(deck, a)] for a, attribute in enumerate(deck.attributes)
    )
    words = card_words(deck.parse(code), deck, lang)
    parts.append(Text(gettext(lang, "A card's code: {code} is {words}", code=code, words=words)))
    parts.append(_values_table(deck, lang))
    parts.append(_glyph_table(deck, lang))
    return Group(*parts)


def _example_value(deck: Deck, attribute: int) -> int:
    """The example card's value of ``attribute`` (a Junior deck's fixed value where fixed)."""
    if deck.fixed is not None and deck.fixed[0] == attribute:
        return deck.fixed[1]
    return _EXAMPLE[attribute]


def _values_table(deck: Deck, lang: str) -> Table:
    """Per attribute: each value's letter and word; a color with a symbol in it, a
    border with its mark (the words stay the text's color: contrast)."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    for a, (name, values) in enumerate(notation(deck, lang)):
        row = Text()
        for i, (letter, word) in enumerate(values):
            row.append(" · " if i else "")
            row.append(letter, style="bold")
            row.append(f" {word}")
            if a == _COLOR:
                row.append(" ●", style=f"bold {COLORS['RGPB'.index(letter)]}")
            elif a == _BORDER:
                row.append(f" {BORDER_MARKS['SDT'.index(letter)]}", style="bold")
        table.add_row(name, row)
    return table


def _glyph_table(deck: Deck, lang: str) -> Table:
    """The glyph of each shape (a row) in each shading (a column)."""
    values = [values for _, values in notation(deck, lang)]
    shadings, shapes = values[_SHADING], values[_SHAPE]
    shading_letters = deck.attributes[_SHADING].letters
    shape_letters = deck.attributes[_SHAPE].letters
    table = Table(box=None, padding=(0, 2), show_edge=False, pad_edge=False)
    table.add_column("", style="bold")
    for _, word in shadings:
        table.add_column(word, justify="center", header_style="italic")
    for letter, word in shapes:
        shape = shape_letters.index(letter)
        glyphs = [glyph_of(shape, shading_letters.index(s), deck) for s, _ in shadings]
        table.add_row(word, *glyphs)
    return table
