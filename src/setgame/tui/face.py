"""A card's face in a box of text cells: its key and notation, its symbols, its name.

A symbol is one glyph telling shape and shading apart without color (◆ ◈ ◇,
● ◉ ○, ≋ ≈ ∿), in the card's color; on a large card each symbol is drawn as a
figure of its glyph (3 or 5 lines high) so the symbols grow with the terminal.
Every card of one size puts its symbols on the same lines: the space for the
name is the most lines any card's name takes at that width, in that language.

The variants' decks are drawn the same way, never by color alone:
4Set's fourth values are a fourth symbol (number 4), blue (and the letter B of
the notation), a checkered glyph (❖ ⊕ § ❣) and a heart (♥ ❥ ♡ ❣ by shading);
MegaSet's border frames the symbols with single, double or dotted bars
(│ ║ ┆), as its notation's fifth letter (S, D, T) and the card's name say.
A face-down card (Memory) shows its key on a hatched back.
"""

from __future__ import annotations

import textwrap
from functools import lru_cache
from typing import Final

from rich.text import Text

from setgame.rules.decks import DECKS, STANDARD, Deck
from setgame.words.i18n import card_words

#: GLYPHS[shape][shading]: shapes diamond, oval, squiggle; shadings solid, striped, open.
GLYPHS: Final = (("◆", "◈", "◇"), ("●", "◉", "○"), ("≋", "≈", "∿"))
#: GLYPHS4[shape][shading] on the 4Set decks: shapes diamond, oval, squiggle, heart;
#: shadings solid, striped, open, checkered.
GLYPHS4: Final = (
    ("◆", "◈", "◇", "❖"),
    ("●", "◉", "○", "⊕"),
    ("≋", "≈", "∿", "§"),
    ("♥", "❥", "♡", "❣"),
)
#: Symbol colors on the card's light face: red, green, purple, and 4Set's blue.
COLORS: Final = ("#d01c1c", "#087a24", "#6d28b8", "#1259c3")
#: MegaSet's borders around the symbols: single, double, dotted.
BORDER_MARKS: Final = ("│", "║", "┆")
#: FIGURES[scale][shape]: the lines of one large symbol, "x" standing for its glyph.
FIGURES: Final = {
    2: (
        (" x ", "xxx", " x "),
        ("xxx", "xxx", "xxx"),
        ("xx ", " x ", " xx"),
        ("x x", "xxx", " x "),
    ),
    3: (
        ("  x  ", " xxx ", "xxxxx", " xxx ", "  x  "),
        (" xxx ", "xxxxx", "xxxxx", "xxxxx", " xxx "),
        ("xxx  ", " xxx ", "  xxx", " xxx ", "xxx  "),
        (" x x ", "xxxxx", "xxxxx", " xxx ", "  x  "),
    ),
}


def _values(code: str, deck: Deck) -> tuple[int, ...]:
    return deck.values(deck.parse(code))


def glyph_of(shape: int, shading: int, deck: Deck = STANDARD) -> str:
    return (GLYPHS4 if deck.radix == 4 else GLYPHS)[shape][shading]


def card_glyphs(code: str, gap: int = 1, deck: Deck = STANDARD) -> tuple[str, str]:
    """The symbols of a card and their color: ``card_glyphs("2RTD") == ("◈ ◈", "#d01c1c")``.

    >>> card_glyphs("4BCH", deck=DECKS["4set"])
    ('❣ ❣ ❣ ❣', '#1259c3')
    """
    number, color, shading, shape = _values(code, deck)[:4]
    return (" " * gap).join([glyph_of(shape, shading, deck)] * (number + 1)), COLORS[color]


def symbol_lines(code: str, scale: int, deck: Deck = STANDARD) -> list[str]:
    """The symbols of a card drawn ``scale`` large (1: one line of glyphs).

    >>> print("\\n".join(symbol_lines("2RSD", 2)))
     ◆     ◆
    ◆◆◆   ◆◆◆
     ◆     ◆
    """
    if scale == 1:
        return [card_glyphs(code, 2, deck)[0]]
    number, _, shading, shape = _values(code, deck)[:4]
    glyph = glyph_of(shape, shading, deck)
    figure = FIGURES[scale][shape]
    return ["   ".join([row.replace("x", glyph)] * (number + 1)).rstrip() for row in figure]


def _symbols_width(scale: int, deck: Deck = STANDARD) -> int:
    """Cells that the most symbols of a card of ``deck`` take at ``scale`` (with the
    frame of a MegaSet border)."""
    most, frame = deck.radix, 4 if deck.width == 5 else 0
    if scale == 1:
        return 2 * most - 1 + frame
    return most * len(FIGURES[scale][0][0]) + 3 * (most - 1) + frame


@lru_cache(maxsize=256)
def label_rows(span: int, lang: str, deck: str = "standard") -> int:
    """The most lines any card's name wraps to in a ``span``-cell card, in ``lang``."""
    cards = DECKS[deck]
    return max(len(_wrap(card_words(card, cards, lang), span)) for card in cards.cards)


def _wrap(label: str, span: int) -> list[str]:
    """``label`` in lines of a ``span``-cell card, a cell free on each side of the border."""
    return textwrap.wrap(label, span - 2)


def _layout(span: int, height: int, rows: int, deck: Deck = STANDARD) -> tuple[int, bool]:
    """The symbols' scale and whether the name shows, for a ``span`` x ``height`` box whose
    cards' names take up to ``rows`` lines: the largest symbols that fit (a bigger terminal
    shows bigger symbols), then the name under them where it fits too."""
    named = span >= 12 and height >= 5 and rows > 0
    words = 1 + rows  # a blank line, then the name
    for scale in (3, 2):
        lines = 2 + len(FIGURES[scale][0])  # the code, a blank line, the symbols
        if span >= _symbols_width(scale, deck) + 4 and height >= lines + 1:  # a margin
            return scale, named and height >= lines + words + 1
    return 1, named and height >= 3 + words


def card_text(
    code: str,
    key: str,
    width: int = 0,
    height: int = 0,
    label: str = "",
    mark: str = "",
    rows: int | None = None,
    *,
    fit: tuple[int, int] | None = None,
    deck: Deck = STANDARD,
) -> Text:
    """The face of a card in a ``width`` x ``height`` box: its key and notation, its
    symbols below (larger when there is room), then ``label`` (the card in words)
    when the box holds it, all centered; ``rows``: the lines kept for the label (every
    card of the table keeps the same, so their symbols line up); ``fit``: the box size
    that decides what shows (the table's smallest card), when not this box's. ``mark``
    follows the notation: a picked card shows ✔ and a hinted one ★, neither needing color.

    >>> print(card_text("2RTD", "7", 18, 7, "two red striped diamonds").plain)
    <BLANKLINE>
          7  2RTD
           ◈  ◈
    <BLANKLINE>
     two red striped
         diamonds
    >>> print(card_text("2RTD", "7", 8, mark=" ✔").plain)  # narrow: the key hugs the code
    7 2RTD✔
      ◈ ◈
    >>> print(card_text("2RTDT", "a", 14, deck=DECKS["megaset"]).plain)  # a dotted border
       a  2RTDT
       ┆ ◈  ◈ ┆
    """
    room = fit[0] if fit else width  # the table's smallest card: every card drawn alike
    badge, rest = f" {key} ", f" {code}{mark}"
    if room and len(badge + rest) > room:
        badge, rest = key, f" {code}{mark.strip()}"
    top = badge + rest
    span = max(width, len(top))
    fit_span, fit_height = (max(fit[0], len(top)), fit[1]) if fit else (span, height)
    words = _wrap(label, fit_span) if label else []
    reserved = max(len(words), rows or 0)
    scale, named = _layout(fit_span, fit_height, reserved if words else 0, deck)
    color = card_glyphs(code, deck=deck)[1]
    gap = 2 if fit_span >= 14 else 1
    symbols, width_of = _symbol_block(code, scale, gap, deck, room)
    lines = 1 + (1 if scale > 1 else 0) + len(symbols) + (1 + reserved if named else 0)
    text = Text(no_wrap=True, overflow="crop", end="")
    text.append("\n" * max(0, (height - lines) // 2))
    text.append(" " * ((span - len(top)) // 2))
    text.append(badge, style="bold reverse")
    text.append(rest + "\n", style="bold")
    if scale > 1:
        text.append("\n")
    for i, line in enumerate(symbols):  # one left edge for every line of the figures
        text.append(
            ("\n" if i else "") + (" " * ((span - width_of) // 2) + line).rstrip(),
            style=f"bold {color}",
        )
    if named:
        text.append("\n")
        for line in words:
            text.append("\n" + line.center(span).rstrip(), style="italic #555555")
    return text


def _symbol_block(
    code: str, scale: int, gap: int, deck: Deck, span: int = 0
) -> tuple[list[str], int]:
    """The lines of a card's symbols and their common width; on MegaSet, framed by
    the card's border (one mark each side, a cell apart). One line of glyphs narrows
    its ``gap`` (then the frame's inner cells) until the most symbols of the deck fit
    ``span`` cells: a frame is never cut off nor wrapped.

    >>> _symbol_block("3RTDD", 1, 2, DECKS["megaset"], span=9)
    (['║ ◈ ◈ ◈ ║'], 9)
    >>> _symbol_block("3RTDD", 1, 2, DECKS["megaset"], span=7)
    (['║◈ ◈ ◈║'], 7)
    """
    values = _values(code, deck)
    pad = 1 if deck.width == 5 else 0
    if scale == 1:
        gap, pad = _spacing(gap, pad, deck, span)
    symbols = symbol_lines(code, scale, deck) if scale > 1 else [card_glyphs(code, gap, deck)[0]]
    width_of = max(len(line) for line in symbols)
    if scale > 1:  # the figures' whole width (a squiggle's last line ends in blanks)
        count, figure = values[0] + 1, len(FIGURES[scale][0][0])
        width_of = count * figure + (count - 1) * 3
    if deck.width == 5:
        mark, inner = BORDER_MARKS[values[4]], " " * pad
        symbols = [f"{mark}{inner}{line.ljust(width_of)}{inner}{mark}" for line in symbols]
        width_of += 2 + 2 * pad
    return symbols, width_of


def _spacing(gap: int, pad: int, deck: Deck, span: int) -> tuple[int, int]:
    """The widest gap between glyphs (at most ``gap``) and inner frame cells (at most
    ``pad``) with which the deck's most symbols fit ``span`` cells (0: any width)."""
    frame = 2 if deck.width == 5 else 0
    for g, p in ((gap, pad), (min(gap, 1), pad), (min(gap, 1), 0), (0, 0)):
        p = min(p, pad)
        if not span or deck.radix + (deck.radix - 1) * g + frame + 2 * p * bool(frame) <= span:
            return g, p
    return 0, 0


def back_text(key: str, width: int = 0, height: int = 0, mark: str = "") -> Text:
    """A face-down card (Memory): its key on a hatched back, nothing of the card.

    >>> print(back_text("3", 9, 3).plain)
    ░░░ 3 ░░░
    ░░░░░░░░░
    ░░░░░░░░░
    """
    span, rows = max(width, len(key) + 4), max(height, 1)
    badge = f" {key}{mark} "
    text = Text(no_wrap=True, overflow="crop", end="")
    left = (span - len(badge)) // 2
    text.append("░" * left, style="#8a8a8a")
    text.append(badge, style="bold reverse")
    text.append("░" * (span - left - len(badge)), style="#8a8a8a")
    for _ in range(rows - 1):
        text.append("\n" + "░" * span, style="#8a8a8a")
    return text
