"""Widgets of the terminal game. They hold no game state: each renders what it is given.

A card is drawn with one glyph per symbol, the glyph telling shape and shading
apart without color (◆ ◈ ◇, ● ◉ ○, ≋ ≈ ∿), in the card's color, with its key
and its notation (``2RTD``) so a monochrome terminal loses nothing.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any, Final

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Static

from setgame.cards import attributes, parse_card
from setgame.i18n import card_label
from setgame.tui.strings import (
    HELP_LINES,
    MODE_NAMES,
    PHASE_LINES,
    format_clock,
    player_name,
    seconds_text,
    tr,
)

#: GLYPHS[shape][shading]: shapes diamond, oval, squiggle; shadings solid, striped, open.
GLYPHS: Final = (("◆", "◈", "◇"), ("●", "◉", "○"), ("≋", "≈", "∿"))
#: Symbol colors on the card's light face: red, green, purple.
COLORS: Final = ("#d01c1c", "#0a8a2a", "#6d28b8")
#: The key of each table position, in table order: digits, then letters that
#: leave Space, h, n, q and y to the commands.
KEYS: Final = "1234567890abcdefgijkl"
ROWS: Final = 3
BASE_COLUMNS: Final = 4
MAX_COLUMNS: Final = 7


def card_glyphs(code: str, gap: int = 1) -> tuple[str, str]:
    """The symbols of a card and their color: ``card_glyphs("2RTD") == ("◈ ◈", "#d01c1c")``."""
    number, color, shading, shape = attributes(parse_card(code))
    return (" " * gap).join([GLYPHS[shape][shading]] * (number + 1)), COLORS[color]


def card_text(
    code: str, key: str, width: int = 0, height: int = 0, label: str = "", mark: str = ""
) -> Text:
    """The face of a card in a ``width`` x ``height`` box: its key and notation, its
    symbols below (spaced out when there is room), then ``label`` (the card in words)
    when the box holds it, all centered. ``mark`` follows the notation: a picked card
    shows ✔ and a hinted one ★, so neither depends on color.

    >>> print(card_text("2RTD", "7", 16, 7, "two red striped diamonds").plain)
    <BLANKLINE>
         7  2RTD
          ◈  ◈
    <BLANKLINE>
    two red striped
        diamonds
    >>> print(card_text("2RTD", "7", 8, mark=" ✔").plain)  # narrow: the key hugs the code
    7 2RTD✔
      ◈ ◈
    """
    badge, rest = f" {key} ", f" {code}{mark}"
    if width and len(badge + rest) > width:
        badge, rest = key, f" {code}{mark.strip()}"
    top = badge + rest
    span = max(width, len(top))
    symbols, color = card_glyphs(code, gap=2 if span >= 14 else 1)
    words = textwrap.wrap(label, span) if label and span >= 12 else []
    if height < 5 or len(words) > height - 4:
        words = []
    lines = 2 + (1 + len(words) if words else 0)
    text = Text(no_wrap=True, overflow="crop", end="")
    text.append("\n" * max(0, (height - lines) // 2))
    left = (span - len(top)) // 2
    text.append(" " * left)
    text.append(badge, style="bold reverse")
    text.append(rest + "\n", style="bold")
    text.append(symbols.center(span).rstrip(), style=f"bold {color}")
    if words:
        text.append("\n")
        for line in words:
            text.append("\n" + line.center(span).rstrip(), style="italic #555555")
    return text


class CardView(Widget):
    """One place on the table: a card, or empty. It draws to fit its size."""

    def __init__(self, position: int, lang: str = "en") -> None:
        super().__init__(id=f"card-{position}", classes="card empty")
        self.position = position
        self.lang = lang
        self.code: str | None = None
        self.mark = ""

    def show(self, code: str | None, *, selected: bool = False, hinted: bool = False) -> None:
        """Draw ``code`` (``None``: an empty place), marked as picked or hinted."""
        mark = " ✔" if selected else " ★" if hinted else ""
        if (code, mark) != (self.code, self.mark):
            self.code, self.mark = code, mark
            self.refresh()
        self.set_class(code is None, "empty")
        self.set_class(selected, "selected")
        self.set_class(hinted, "hinted")

    def render(self) -> Text:
        if self.code is None:
            return Text("")
        width, height = self.content_size
        label = card_label(parse_card(self.code), self.lang)
        return card_text(self.code, KEYS[self.position], width, height, label, self.mark)


def slot_position(column: int, row: int) -> int:
    """The table position shown at ``(column, row)``: the first twelve read row by row,
    3 rows of 4 (R06); each three cards more make a new column to the right (R11).

    >>> [slot_position(c, 0) for c in range(7)], [slot_position(4, r) for r in range(3)]
    ([0, 1, 2, 3, 12, 15, 18], [12, 13, 14])
    """
    if column < BASE_COLUMNS:
        return row * BASE_COLUMNS + column
    return BASE_COLUMNS * ROWS + (column - BASE_COLUMNS) * ROWS + row


def columns_needed(cards: int) -> int:
    """Columns for ``cards`` cards: four, and one more for each three past twelve."""
    return BASE_COLUMNS + max(0, -(-(cards - BASE_COLUMNS * ROWS) // ROWS))


class TableGrid(Horizontal):
    """The table: three rows of four, widening column by column up to 21 cards."""

    def __init__(self, lang: str = "en") -> None:
        super().__init__(id="table")
        self.lang = lang

    def compose(self) -> ComposeResult:
        for column in range(MAX_COLUMNS):
            with Vertical(classes="column", id=f"column-{column}"):
                for row in range(ROWS):
                    yield CardView(slot_position(column, row), self.lang)

    def show(self, table: Sequence[str | None], selected: set[int], hinted: set[str]) -> None:
        """Lay out ``table`` (codes in table order), marking picked places and hinted cards."""
        shown = columns_needed(len(table))
        for column in self.query(".column"):
            column.display = int(str(column.id).rsplit("-", 1)[1]) < shown
        for view in self.query(CardView):
            code = table[view.position] if view.position < len(table) else None
            view.show(code, selected=view.position in selected, hinted=code in hinted)


class Scoreboard(Static):
    """Every player's score, the board holder marked, lockouts and no-set votes shown.

    Each player's entry stays on one line (spaces inside it do not break); the match
    total shows from the second round on, when it differs from the round's score.
    """

    def show(self, view: Mapping[str, Any], lang: str) -> None:
        text = Text(no_wrap=False)
        you, holder = view.get("you"), view.get("holder")
        for i, player in enumerate(view.get("players", [])):
            if i:
                text.append("   ")
            for part, style in _score_entry(player, you, holder, int(view.get("round") or 1), lang):
                text.append(part.replace(" ", NBSP), style)
        self.update(text)


NBSP: Final = "\u00a0"


def _score_entry(
    player: Mapping[str, Any], you: str | None, holder: str | None, round_: int, lang: str
) -> list[tuple[str, str]]:
    pid = player.get("id")
    mark = "▶ " if pid == holder else ""
    name = player_name(player, you, lang)
    style = "bold reverse" if pid == you else "bold"
    if player.get("present") is False:
        style = "dim strike"
    parts = [(mark + tr("{name}: {score}", lang, name=name, score=player.get("score", 0)), style)]
    if round_ > 1 and "total" in player:
        parts.append((f" (Σ {player['total']})", ""))
    if player.get("locked"):
        parts.append((" [" + tr("locked out", lang) + "]", "italic"))
    if player.get("declared"):
        parts.append((" [" + tr("no set?", lang) + "]", "italic"))
    return parts


class StatusBar(Static):
    """Mode, cards left in the deck, the clock and the round."""

    def show(self, view: Mapping[str, Any], lang: str) -> None:
        mode = MODE_NAMES.get(str(view.get("mode")), MODE_NAMES["solo"])
        parts = [tr("SET", lang) + " · " + tr(mode, lang)]
        parts.append(tr("Deck: {count}", lang, count=view.get("deck", 0)))
        parts.append(tr("Time: {clock}", lang, clock=format_clock(float(view.get("clock") or 0.0))))
        if view.get("rounds", 1) > 1:
            parts.append(
                tr(
                    "Round {round}/{rounds}",
                    lang,
                    round=view.get("round", 1),
                    rounds=view["rounds"],
                )
            )
        self.update(Text("  │  ".join(parts), no_wrap=True, overflow="ellipsis"))


class HolderBar(Static):
    """Who holds the board, with the countdown; else the keys to press."""

    def show(self, view: Mapping[str, Any], lang: str) -> None:
        holder, deadline = view.get("holder"), view.get("deadline_in")
        phase = view.get("phase", "playing")
        if phase != "playing":
            self.set_class(False, "holding")
            line = PHASE_LINES.get(phase, PHASE_LINES["lobby"])
            self.update(Text(tr(line, lang), no_wrap=True))
            return
        if holder is None or deadline is None:
            keys = HELP_LINES.get(view.get("mode", "solo"), HELP_LINES["solo"])
            self.set_class(False, "holding")
            self.update(
                Text(
                    tr(keys, lang),
                    no_wrap=True,
                    overflow="ellipsis",
                )
            )
            return
        self.set_class(True, "holding")
        if holder == view.get("you"):
            line = tr(
                "You hold the board: pick three cards within {seconds}",
                lang,
                seconds=seconds_text(float(deadline), lang),
            )
        else:
            players = {p.get("id"): p for p in view.get("players", [])}
            name = player_name(players.get(holder, {"id": holder}), view.get("you"), lang)
            line = tr(
                "{name} holds the board: {seconds}",
                lang,
                name=name,
                seconds=seconds_text(float(deadline), lang),
            )
        self.update(Text(line, style="bold", no_wrap=True, overflow="ellipsis"))


class MessageBar(Static):
    """The last thing that happened: a set found, why a pick was no set, a penalty."""

    def say(self, message: str, *, warning: bool = False) -> None:
        self.set_class(warning, "warning")
        self.update(Text(message))
