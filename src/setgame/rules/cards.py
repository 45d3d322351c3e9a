"""Cards, their notation (R01, R02) and decks (R16).

A card is a plain ``int`` from 0 to 80: four base-3 digits, one per attribute,
in the order number, color, shading, shape (the order the notation reads)::

    card = number * 27 + color * 9 + shading * 3 + shape

so ``parse_card("1RSD") == 0`` and ``parse_card("3POS") == 80``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

Card = int
"""A card: an int 0-80 (see the module docstring)."""

NUMBER: Final = 0
COLOR: Final = 1
SHADING: Final = 2
SHAPE: Final = 3
ATTRIBUTES: Final = (NUMBER, COLOR, SHADING, SHAPE)
ATTRIBUTE_NAMES: Final = ("number", "color", "shading", "shape")

#: The notation letter of each value, per attribute (R02).
LETTERS: Final = ("123", "RGP", "STO", "DOS")
#: English value words, per attribute, in value order.
VALUE_NAMES: Final = (
    ("one", "two", "three"),
    ("red", "green", "purple"),
    ("solid", "striped", "open"),
    ("diamond", "oval", "squiggle"),
)
_WEIGHTS: Final = (27, 9, 3, 1)

CARDS: Final = tuple(range(81))
"""The full deck in notation order (R01)."""


class CardError(ValueError):
    """A card, a list of cards or a deck given in a form that is not valid."""


def attribute(card: Card, attr: int) -> int:
    """The value (0, 1 or 2) of ``attr`` on ``card``."""
    return card // _WEIGHTS[attr] % 3


def attributes(card: Card) -> tuple[int, int, int, int]:
    """The four values of ``card``: (number, color, shading, shape), each 0-2."""
    return (card // 27, card // 9 % 3, card // 3 % 3, card % 3)


def make_card(number: int, color: int, shading: int, shape: int) -> Card:
    """The card with these attribute values (each 0-2)."""
    values = (number, color, shading, shape)
    if any(v not in (0, 1, 2) for v in values):
        raise CardError(f"attribute values must be 0, 1 or 2: {values!r}")
    return number * 27 + color * 9 + shading * 3 + shape


_BY_NAME: Final = {
    a + b + c + d: make_card(i, j, k, m)
    for i, a in enumerate(LETTERS[0])
    for j, b in enumerate(LETTERS[1])
    for k, c in enumerate(LETTERS[2])
    for m, d in enumerate(LETTERS[3])
}
_NAMES: Final = tuple(sorted(_BY_NAME, key=_BY_NAME.__getitem__))


def parse_card(text: str) -> Card:
    """Read a card in notation, case-insensitively: ``parse_card("2rtd") == 30``.

    Raises :class:`CardError` quoting the input when it is not a card.
    """
    if not isinstance(text, str):
        raise CardError(f"a card is four characters such as '2RTD', not {text!r}")
    card = _BY_NAME.get(text.strip().upper())
    if card is None:
        raise CardError(
            f"not a card: {text!r} (expected number 1-3, color R/G/P, "
            "shading S/T/O, shape D/O/S, e.g. '2RTD')"
        )
    return card


def card_name(card: Card) -> str:
    """The notation of ``card``, upper case: ``card_name(30) == "2RTD"``."""
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 81:
        raise CardError(f"not a card number (0-80): {card!r}")
    return _NAMES[card]


def describe(card: Card) -> str:
    """English words for ``card``: ``describe(30) == "two red striped diamonds"``."""
    n, c, s, h = attributes(card)
    shape = VALUE_NAMES[SHAPE][h] + ("s" if n else "")
    return f"{VALUE_NAMES[NUMBER][n]} {VALUE_NAMES[COLOR][c]} {VALUE_NAMES[SHADING][s]} {shape}"


def parse_cards(texts: Iterable[str], *, distinct: bool = True) -> list[Card]:
    """Read several cards; with ``distinct`` a repeated card is an error."""
    cards: list[Card] = []
    seen: dict[Card, str] = {}
    for text in texts:
        card = parse_card(text)
        if distinct and card in seen:
            raise CardError(f"duplicate card: {text!r} (same as {seen[card]!r})")
        seen[card] = text
        cards.append(card)
    return cards


def card_names(cards: Iterable[Card]) -> list[str]:
    """The notation of each card, in order."""
    return [card_name(c) for c in cards]


# --- decks (R01, R16) ---------------------------------------------------------


def full_deck() -> list[Card]:
    """All 81 cards (R01)."""
    return list(CARDS)


def deck_with(attr: int, value: int) -> list[Card]:
    """The 27 cards that share one value of one attribute (R16, as ``002`` generalizes)."""
    if attr not in ATTRIBUTES or value not in (0, 1, 2):
        raise CardError(f"no such attribute/value: {attr!r}/{value!r}")
    return [c for c in CARDS if attribute(c, attr) == value]


def beginner_deck() -> list[Card]:
    """The 27 solid cards: shading plays no part (R16)."""
    return deck_with(SHADING, 0)


def parse_deck(spec: str) -> list[Card]:
    """A deck by name: ``full``, ``beginner`` (the solid cards), or one attribute value
    such as ``color=R``, ``shading=S``, ``number=1``, ``shape=O`` (R16).
    """
    key = spec.strip().lower() if isinstance(spec, str) else spec
    if key == "full":
        return full_deck()
    if key == "beginner":
        return beginner_deck()
    if isinstance(key, str) and "=" in key:
        name, _, letter = key.partition("=")
        if name in ATTRIBUTE_NAMES:
            attr = ATTRIBUTE_NAMES.index(name)
            value = LETTERS[attr].find(letter.upper())
            if len(letter) == 1 and value >= 0:
                return deck_with(attr, value)
    raise CardError(
        f"not a deck: {spec!r} (expected 'full', 'beginner' or an attribute value "
        "such as 'color=R')"
    )


def format_cards(cards: Sequence[Card]) -> str:
    """Cards in notation separated by spaces."""
    return " ".join(card_names(cards))
