"""Widgets of the terminal game. They hold no game state: each renders what it is given.

A card (:mod:`setgame.tui.face`) shows its key and its notation (``2RTD``) beside
symbols whose glyphs tell shape and shading apart, so a monochrome terminal loses nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from setgame.rules.decks import STANDARD, Deck
from setgame.rules.variants import Variant
from setgame.tui.arenaboard import ARENA_PHASE_LINES
from setgame.tui.face import COLORS, GLYPHS, back_text, card_glyphs, card_text, label_rows
from setgame.tui.strings import (
    MODE_NAMES,
    PHASE_LINES,
    PREVIOUS_KEYS,
    format_clock,
    help_line,
    holding_line,
    player_name,
    seconds_text,
    tr,
)
from setgame.words.catalog import ngettext, pgettext
from setgame.words.i18n import card_words

#: The key of each table position, in table order: digits, then letters that
#: leave Space, h, n, q, y and the previous set's keys to the commands.
KEYS: Final = "1234567890abcdefgijklstuvwx"
__all__ = ["COLORS", "GLYPHS", "KEYS", "PREVIOUS_KEYS", "card_glyphs", "card_text"]
ROWS: Final = 3
BASE_COLUMNS: Final = 4


class CardView(Widget):
    """One place on the table: a card, a face-down card (Memory), or empty. It draws to
    fit its size. ``keys``: the keys of the places it may show (the table's, or the
    previous claim's)."""

    def __init__(self, position: int, lang: str = "en", *, keys: str = KEYS) -> None:
        prefix = "card" if keys == KEYS else "previous"
        super().__init__(id=f"{prefix}-{position}", classes="card empty")
        self.position = position
        self.lang = lang
        self.keys = keys
        self.deck: Deck = STANDARD
        self.code: str | None = None
        self.face_down = False
        self.mark = ""
        self._drawn: tuple[Any, ...] = ()

    def show(
        self,
        code: str | None,
        *,
        selected: bool = False,
        hinted: bool = False,
        face_down: bool = False,
        deck: Deck = STANDARD,
        focused: bool = False,
    ) -> None:
        """Draw ``code`` (``None``: an empty place, or a card lying face down), marked as
        picked or hinted, a card of ``deck``; ``focused``: the arrows' card (◂)."""
        mark = (" ✔" if selected else " ★" if hinted else "") + (" ◂" if focused else "")
        drawn = (code, mark, self.position, face_down, deck.name)
        if drawn != self._drawn:
            self.code, self.mark, self.face_down, self.deck = code, mark, face_down, deck
            self._drawn = drawn
            self.refresh()
        self.set_class(code is None and not face_down, "empty")
        self.set_class(face_down, "face-down")
        self.set_class(selected, "selected")
        self.set_class(hinted, "hinted")
        self.set_class(focused, "focused")

    @property
    def key(self) -> str:
        return self.keys[self.position]

    def render(self) -> Text:
        width, height = self.content_size
        if self.face_down:
            return back_text(self.key, width, height, self.mark.strip())
        if self.code is None:
            return Text("")
        label = card_words(self.deck.parse(self.code), self.deck, self.lang)
        fit = self._smallest_face()
        rows = label_rows(fit[0], self.lang, self.deck.name) if fit[0] >= 12 else 0
        return card_text(
            self.code, self.key, width, height, label, self.mark, rows, fit=fit, deck=self.deck
        )

    def _smallest_face(self) -> tuple[int, int]:
        """The smallest card of the table: every card is drawn as if it were that size
        (rows may differ by a line), so symbols are the same size and on the same lines."""
        sizes = [self.content_size]
        table = next((a for a in self.ancestors if isinstance(a, TableGrid)), None)
        if table is not None:
            sizes += [v.content_size for v in table.query(CardView) if v.code and v.parent_shown]
        return min(s.width for s in sizes), min(s.height for s in sizes)

    @property
    def parent_shown(self) -> bool:
        return self.parent is not None and bool(self.parent.display)


def table_rows(variant: Variant) -> int:
    """The rows of a variant's table: a 16-card table (MegaSet) lies in 4 rows of 4, as on
    the web; every other in 3 rows (R06)."""
    return 4 if variant.table_size == 4 * BASE_COLUMNS else ROWS


def slot_position(column: int, row: int, base: int = BASE_COLUMNS, rows: int = ROWS) -> int:
    """The table position shown at ``(column, row)``: the first twelve read row by row,
    3 rows of 4 (R06); each three cards more make a new column to the right (R11).
    Fewer than twelve cards (the deck is out) read row by row in ``base`` columns.
    A table of ``rows`` rows (MegaSet: 4) grows by columns of ``rows``.

    >>> [slot_position(c, 0) for c in range(7)], [slot_position(4, r) for r in range(3)]
    ([0, 1, 2, 3, 12, 15, 18], [12, 13, 14])
    >>> [slot_position(c, r, 3) for r in range(3) for c in range(3)]
    [0, 1, 2, 3, 4, 5, 6, 7, 8]
    >>> [slot_position(c, 3, rows=4) for c in range(6)]
    [12, 13, 14, 15, 19, 23]
    """
    if column < base:
        return row * base + column
    return base * rows + (column - base) * rows + row


def base_columns(cards: int, rows: int = ROWS) -> int:
    """Columns read row by row: four, fewer for fewer than a full table (nine: 3 x 3)."""
    return max(1, min(BASE_COLUMNS, -(-cards // rows)))


def columns_needed(cards: int, rows: int = ROWS) -> int:
    """Columns for ``cards`` cards: four (fewer below a full table), one more per ``rows``
    cards past it.

    >>> columns_needed(19), columns_needed(19, rows=4), columns_needed(16, rows=4)
    (7, 5, 4)
    """
    if cards <= BASE_COLUMNS * rows:
        return base_columns(cards, rows)
    return BASE_COLUMNS + -(-(cards - BASE_COLUMNS * rows) // rows)


class TableGrid(Horizontal):
    """The table: three rows of four (MegaSet: four of four), widening column by column
    up to as many cards as there are keys."""

    def __init__(self, lang: str = "en") -> None:
        super().__init__(id="table")
        self.lang = lang
        self.rows = ROWS

    def compose(self) -> ComposeResult:
        for column in range(-(-len(KEYS) // self.rows)):
            with Vertical(classes="column", id=f"column-{column}"):
                for row in range(self.rows):
                    position = slot_position(column, row, rows=self.rows)
                    if position < len(KEYS):
                        yield CardView(position, self.lang)

    async def lay_out(self, rows: int) -> None:
        """Make the table ``rows`` rows high (the places are made anew: their ids are
        their positions)."""
        if rows != self.rows:
            self.rows = rows
            await self.recompose()

    def show(
        self,
        table: Sequence[str | None],
        selected: set[int],
        hinted: set[str],
        deck: Deck = STANDARD,
        focused: int | None = None,
    ) -> None:
        """Lay out ``table`` (codes in table order, None for a face-down card), marking
        picked places, hinted cards and the focused place (the arrows')."""
        rows = self.rows
        shown, base = columns_needed(len(table), rows), base_columns(len(table), rows)
        for column in self.query(".column"):
            number = int(str(column.id).rsplit("-", 1)[1])
            column.display = number < shown
            for row, view in enumerate(column.query(CardView)):
                view.position = slot_position(number, row, base, rows)
                on_table = view.position < len(table)
                code = table[view.position] if on_table else None
                view.show(
                    code,
                    selected=view.position in selected,
                    hinted=code is not None and code in hinted,
                    face_down=on_table and code is None,
                    deck=deck,
                    focused=view.position == focused,
                )


class PreviousRow(Horizontal):
    """A chain variant's previous claim, apart from the table: its cards may be picked
    (keys m o p r) as a claim must reuse some of them."""

    def __init__(self, lang: str = "en") -> None:
        super().__init__(id="previous")
        self.lang = lang
        self.title = Static(id="previous-title")

    def compose(self) -> ComposeResult:
        yield self.title
        for i in range(len(PREVIOUS_KEYS)):
            yield CardView(i, self.lang, keys=PREVIOUS_KEYS)

    def show(
        self,
        previous: Sequence[str] | None,
        links: int,
        selected: Sequence[str],
        hinted: set[str],
        deck: Deck = STANDARD,
    ) -> None:
        """Show ``previous`` (None: not a chain variant, or no claim yet this round)."""
        self.display = previous is not None
        if previous is None:
            return
        self.title.update(
            Text(
                ngettext(
                    self.lang,
                    "Previous group: use exactly {n} of its cards",
                    "Previous group: use exactly {n} of its cards",
                    links,
                ),
                style="bold",
            )
        )
        for view in self.query(CardView):
            code = previous[view.position] if view.position < len(previous) else None
            view.display = code is not None
            view.show(code, selected=code in selected, hinted=code in hinted, deck=deck)


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
    gone = player.get("present") is False
    offline = not gone and (player.get("connected") is False or player.get("away") is True)
    if gone or offline:
        style = "dim strike" if gone else "dim"
    parts = [(mark + tr("{name}: {score}", lang, name=name, score=player.get("score", 0)), style)]
    if gone:  # said in words too: dim and strike do not show on every terminal
        parts.append((" [" + pgettext(lang, "player status", "left") + "]", "italic"))
    elif offline:
        parts.append((" [" + pgettext(lang, "player status", "offline") + "]", "italic"))
    if round_ > 1 and "total" in player:
        parts.append((f" (Σ {player['total']})", ""))
    if player.get("locked"):
        parts.append((" [" + tr("locked out", lang) + "]", "italic"))
    if player.get("declared"):
        parts.append((" [" + tr("no set?", lang) + "]", "italic"))
    return parts


class FoundBar(Static):
    """Puzzle: how many groups the table holds, and those found so far."""

    def show(self, view: Mapping[str, Any], lang: str) -> None:
        found, groups = view.get("found"), view.get("groups")
        self.display = found is not None
        if found is None:
            return
        total = int(groups or 0)
        text = Text(
            ngettext(
                lang,
                "Found {found} of {n} group",
                "Found {found} of {n} groups",
                total,
                found=len(found),
            ),
            style="bold",
        )
        for group in found:
            text.append("   " + " ".join(group))
        self.update(text)


class StatusBar(Static):
    """Mode and variant, cards left in the deck, the clock (and a puzzle's penalty
    time) and the round."""

    def show(self, view: Mapping[str, Any], lang: str) -> None:
        if view.get("phase") == "arena":  # between an arena's games: no deck, no clock
            self.update(Text(tr("SET", lang) + "  │  " + tr("?: help", lang), no_wrap=True))
            return
        mode = MODE_NAMES.get(str(view.get("mode")), MODE_NAMES["solo"])
        parts = [tr("SET", lang) + " · " + tr(mode, lang)]
        variant = view.get("variant") or {}
        if variant.get("name", "classic") != "classic":
            parts[0] += " · " + str(variant.get("title"))  # a proper name in every language
        parts.append(tr("Deck: {count}", lang, count=view.get("deck", 0)))
        parts.append(tr("Time: {clock}", lang, clock=format_clock(float(view.get("clock") or 0.0))))
        players = view.get("players") or ()
        you: Mapping[str, Any] = next((p for p in players if p.get("id") == view.get("you")), {})
        penalty = you.get("penalty_seconds", view.get("penalty_seconds"))
        if isinstance(penalty, int | float) and penalty > 0:  # Puzzle: wrong picks cost time
            seconds = seconds_text(float(penalty), lang)
            parts.append(tr("Penalty: +{seconds}", lang, seconds=seconds))
        if view.get("rounds", 1) > 1:
            parts.append(
                tr(
                    "Round {round}/{rounds}",
                    lang,
                    round=view.get("round", 1),
                    rounds=view["rounds"],
                )
            )
        parts.append(tr("?: help", lang))  # the rule and the legend of the cards
        self.update(Text("  │  ".join(parts), no_wrap=True, overflow="ellipsis"))


class HolderBar(Static):
    """Who holds the board, with the countdown; else the keys to press."""

    def show(self, view: Mapping[str, Any], lang: str) -> None:
        holder, deadline = view.get("holder"), view.get("deadline_in")
        phase = view.get("phase", "playing")
        if phase != "playing":
            self.set_class(False, "holding")
            lines = {**PHASE_LINES, **ARENA_PHASE_LINES} if "arena" in view else PHASE_LINES
            text = tr(lines.get(phase, PHASE_LINES["lobby"]), lang)
            if phase == "lobby" and view.get("link") and "arena" not in view:  # how others come in
                text += "\n" + tr("Others join with this link: {link}", lang, link=view["link"])
            self.update(Text(text))  # wrapped, not cut: the link must be whole
            return
        if holder is None or deadline is None:
            self.set_class(False, "holding")
            self.update(Text(help_line(view, lang), no_wrap=True, overflow="ellipsis"))
            return
        self.set_class(True, "holding")
        if holder == view.get("you"):
            line = holding_line(view, seconds_text(float(deadline), lang), lang)
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


#: Messages of one moment shown together, the latest last.
MESSAGES_KEPT: Final = 3


class MessageBar(Static):
    """What just happened: a set found, why a pick was no set and its penalty. It grows
    to hold every word of it (the table gives up the lines), one message a paragraph."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.said: list[str] = []

    def say(self, message: str, *, warning: bool = False, keep: bool = False) -> None:
        """Show ``message``; ``keep``: below the messages already shown, not instead."""
        # a burst (a reconnection's missed events) keeps its latest few: the table stays
        self.said = [*self.said, message][-MESSAGES_KEPT:] if keep else [message]
        self.set_class(warning or (keep and self.has_class("warning")), "warning")
        self.update(Content("\n".join(self.said)))  # Content: wrapped to the bar's own width

    def clear(self) -> None:
        self.said = []
        self.set_class(False, "warning")
        self.update("")
