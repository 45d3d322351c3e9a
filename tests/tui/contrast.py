"""The contrast of what the terminal game draws, as a terminal of 16, 256 or 16 million
colours shows it (WCAG 2's contrast ratio).

The screen is rendered the way Textual writes it to a terminal (truecolor segments); a
terminal of fewer colours gets each color downgraded by Rich, as Textual's console does
(256: the xterm palette; 16: Rich's standard palette, the colours it picks from). A
``dim`` attribute is taken as the usual half-way blend towards the background.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rich._palettes import EIGHT_BIT_PALETTE, STANDARD_PALETTE
from rich.color import Color, ColorSystem, ColorType
from rich.console import Console
from rich.segment import Segment
from textual.app import App

from setgame.tui.face import BORDER_MARKS, GLYPHS, GLYPHS4

#: Text a player reads (WCAG 1.4.3, AA); a card's symbols are graphics (WCAG 1.4.11).
TEXT, GRAPHICS = 4.5, 3.0
SYSTEMS = {"16": ColorSystem.STANDARD, "256": ColorSystem.EIGHT_BIT, "true": ColorSystem.TRUECOLOR}
#: A card's symbols: told apart by shape as well as color, so held to the graphics' ratio.
SYMBOLS = frozenset("".join(g for row in (*GLYPHS, *GLYPHS4) for g in row) + "".join(BORDER_MARKS))
#: Drawn only to look like a card (its border, a face-down card's hatching): not read.
DECORATION = frozenset(chr(c) for c in range(0x2500, 0x2580)) - SYMBOLS | {"░"}

RGB = tuple[float, float, float]


def luminance(rgb: RGB) -> float:
    """WCAG 2's relative luminance of an sRGB color (0-255 channels)."""

    def channel(value: float) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = map(channel, rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: RGB, b: RGB) -> float:
    """WCAG 2's contrast ratio, 1 to 21.

    >>> round(ratio((175, 95, 95), (18, 18, 18)), 1)  # issue 21's wrong-pick red, 256 colours
    4.1
    """
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def shown(color: Color, system: ColorSystem) -> RGB:
    """What a terminal of ``system`` shows for ``color``."""
    down = color.downgrade(system)
    if down.type == ColorType.STANDARD:
        return tuple(STANDARD_PALETTE[down.number or 0])  # type: ignore[return-value]
    if down.type == ColorType.EIGHT_BIT:
        return tuple(EIGHT_BIT_PALETTE[down.number or 0])  # type: ignore[return-value]
    return tuple(down.get_truecolor())  # type: ignore[return-value]


@dataclass(frozen=True)
class Low:
    """Text drawn with too little contrast."""

    system: str
    text: str
    ratio: float
    needed: float

    def __str__(self) -> str:
        return f"{self.system} colours: {self.text!r} at {self.ratio:.2f}:1 (needs {self.needed})"


def screen_segments(app: App[object]) -> list[Segment]:
    """The whole screen (the dialogs and the screens under them) as Textual draws it."""
    update = app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens
    )
    width, height = app.size
    console = Console(width=width, height=height, color_system="truecolor", force_terminal=True)
    return list(console.render(update, console.options))


def too_low(app: App[object]) -> list[Low]:
    """Every piece of the screen whose contrast is under what it needs, in each system."""
    found: dict[tuple[str, str], Low] = {}
    for segment in screen_segments(app):
        for low in _segment_lows(segment):
            found.setdefault((low.system, low.text), low)
    return list(found.values())


def _segment_lows(segment: Segment) -> Iterator[Low]:
    style, text = segment.style, segment.text
    needed = _needed(text)
    if segment.control or style is None or needed is None:
        return
    assert style.color is not None and style.bgcolor is not None, f"unstyled text {text!r}"
    fg, bg = (style.bgcolor, style.color) if style.reverse else (style.color, style.bgcolor)
    for name, system in SYSTEMS.items():
        front, back = shown(fg, system), shown(bg, system)
        if style.dim:
            front = tuple(b + (f - b) / 2 for f, b in zip(front, back, strict=True))  # type: ignore[assignment]
        value = ratio(front, back)
        if value < needed:
            yield Low(name, text.strip(), value, needed)


def _needed(text: str) -> float | None:
    """The ratio ``text`` needs: a text's, a symbol's, or none (blank, decoration)."""
    marks = set(text) - {" ", "\u00a0"}
    if not marks or marks <= DECORATION:
        return None
    return GRAPHICS if marks <= SYMBOLS | DECORATION else TEXT
