"""Words of the game in English, Russian, Polish, Italian and German (R01, R04).

Pure data and string building: card names and the explanation of a rejected
triple, each language using its own rulebook's words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from setgame.cards import VALUE_NAMES, Card, attributes

if TYPE_CHECKING:
    from setgame.sets import Flaw

LANGUAGES: Final = ("en", "ru", "pl", "it", "de")
DEFAULT_LANGUAGE: Final = "en"


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language: {lang!r} (expected one of {', '.join(LANGUAGES)})")
    return lang


def card_label(card: Card, lang: str = "en") -> str:
    """A card in words: ``card_label(30) == "two red striped diamonds"``."""
    check_language(lang)
    n, c, s, h = attributes(card)
    shape = VALUE_NAMES[3][h] + ("s" if n else "")
    return f"{VALUE_NAMES[0][n]} {VALUE_NAMES[1][c]} {VALUE_NAMES[2][s]} {shape}"


def flaw_text(flaw: Flaw, lang: str = "en") -> str:
    """Why three cards are no set, on one attribute: "two are red, one is green"."""
    check_language(lang)
    common, odd = VALUE_NAMES[flaw.attribute][flaw.common], VALUE_NAMES[flaw.attribute][flaw.odd]
    if flaw.attribute == 0:
        return f"two have {common}, one has {odd}"
    if flaw.attribute == 3:
        return f"two are {common}s, one is a {odd}"
    return f"two are {common}, one is {odd}"
