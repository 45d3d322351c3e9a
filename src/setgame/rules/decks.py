"""The decks of the variants: which attributes a card has, and their notation.

A card of any deck stays a plain ``int``: the values of its attributes, read in
the order of the notation, are the digits of the int in base ``radix`` (3, or 4
for the 4Set decks), most significant first. The standard deck is exactly
:mod:`setgame.rules.cards` (``2RTD`` is 30 in both), and Junior is its 27 solid
cards, the beginner deck of R16. MegaSet appends a fifth digit, the border, so
``2RTDS`` (single border) is ``30 * 3 + 0``. A Junior deck is its full deck
with one attribute (shading) held at its first value: the same ints, the same
notation, fewer cards.

The letters are documented in ``docs/variants.md``; the standard ones (R02) do
not change, and each new letter differs from the others of its attribute.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Final

from setgame.rules.cards import LETTERS, VALUE_NAMES, CardError


@dataclass(frozen=True, slots=True)
class Attribute:
    """One attribute of a card: its English name, one notation letter per value
    and the English word for each value (catalog keys later, not display text)."""

    name: str
    letters: str
    values: tuple[str, ...]


NUMBER: Final = Attribute("number", LETTERS[0], VALUE_NAMES[0])
COLOR: Final = Attribute("color", LETTERS[1], VALUE_NAMES[1])
SHADING: Final = Attribute("shading", LETTERS[2], VALUE_NAMES[2])
SHAPE: Final = Attribute("shape", LETTERS[3], VALUE_NAMES[3])
BORDER: Final = Attribute("border", "SDT", ("single", "double", "dotted"))
NUMBER4: Final = Attribute("number", "1234", (*VALUE_NAMES[0], "four"))
COLOR4: Final = Attribute("color", "RGPB", (*VALUE_NAMES[1], "blue"))
SHADING4: Final = Attribute("shading", "STOC", (*VALUE_NAMES[2], "checkered"))
SHAPE4: Final = Attribute("shape", "DOSH", (*VALUE_NAMES[3], "heart"))

#: The longest text :meth:`Deck.parse` reads before giving up (hostile input).
MAX_TEXT: Final = 32


@dataclass(frozen=True)
class Deck:
    """A deck: its attributes (all with ``radix`` values) and, for a Junior deck,
    the attribute held fixed (``fixed`` is (attribute index, value))."""

    name: str
    attributes: tuple[Attribute, ...]
    fixed: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        radices = {len(a.letters) for a in self.attributes}
        if len(radices) != 1 or any(len(a.values) != len(a.letters) for a in self.attributes):
            raise ValueError(f"every attribute of {self.name!r} needs as many values")
        if any(len(set(a.letters)) != len(a.letters) for a in self.attributes):
            raise ValueError(f"two values of one attribute of {self.name!r} share a letter")

    @property
    def radix(self) -> int:
        """How many values each attribute has (3, or 4 for the 4Set decks)."""
        return len(self.attributes[0].letters)

    @property
    def width(self) -> int:
        """How many attributes a card has (the length of its notation)."""
        return len(self.attributes)

    @property
    def space(self) -> int:
        """How many ints the encoding spans: radix ** width (the full deck's size)."""
        return int(self.radix**self.width)

    @cached_property
    def cards(self) -> tuple[int, ...]:
        """The cards of the deck in notation order."""
        return tuple(c for c in range(self.space) if self._in_deck(c))

    @cached_property
    def card_set(self) -> frozenset[int]:
        return frozenset(self.cards)

    @cached_property
    def _by_text(self) -> dict[str, int]:
        """Each card by its notation, made on the first :meth:`parse` (so that making the
        decks costs nothing at import)."""
        return {self.name_of(card): card for card in self.cards}

    def __len__(self) -> int:
        return len(self.cards)

    def _in_deck(self, card: int) -> bool:
        if self.fixed is None:
            return True
        attr, value = self.fixed
        return self._digits(card)[attr] == value

    def values(self, card: int) -> tuple[int, ...]:
        """The value (0 to radix - 1) of each attribute of ``card``, in notation order."""
        return self._digits(self.check(card))

    def _digits(self, card: int) -> tuple[int, ...]:
        out = []
        for _ in range(self.width):
            card, digit = divmod(card, self.radix)
            out.append(digit)
        return tuple(reversed(out))

    def card(self, values: Sequence[int]) -> int:
        """The card with these attribute values (in notation order)."""
        if len(values) != self.width or any(
            isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < self.radix
            for v in values
        ):
            raise CardError(f"not a card of {self.name}: values {tuple(values)!r}")
        card = 0
        for value in values:
            card = card * self.radix + value
        return self.check(card)

    def check(self, card: object) -> int:
        """``card`` itself when it is a card of this deck, else :class:`CardError`."""
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < self.space:
            raise CardError(f"not a card number of {self.name} (0-{self.space - 1}): {card!r}")
        if self.fixed is not None and card not in self.card_set:
            raise CardError(f"not a card of {self.name}: {card!r}")
        return card

    def name_of(self, card: int) -> str:
        """The notation of ``card``, upper case."""
        values = self.values(card)
        return "".join(a.letters[v] for a, v in zip(self.attributes, values, strict=True))

    def parse(self, text: object) -> int:
        """Read a card of this deck in notation, case-insensitively.

        Raises :class:`CardError` quoting the input when it is not one.
        """
        if isinstance(text, str) and len(text) <= MAX_TEXT:
            card = self._by_text.get(text.strip().upper())
            if card is not None:
                return card
        shown = text[:MAX_TEXT] + "..." if isinstance(text, str) and len(text) > MAX_TEXT else text
        raise CardError(f"not a card of {self.name}: {shown!r} (expected {self.hint()})")

    def hint(self) -> str:
        """What a card of this deck looks like, for error messages."""
        parts = ", ".join(f"{a.name} {'/'.join(a.letters)}" for a in self.attributes)
        example = self.name_of(self.cards[len(self.cards) // 2])
        return f"{self.width} characters: {parts}, e.g. {example!r}"

    def parse_many(self, texts: Iterable[object], *, distinct: bool = True) -> list[int]:
        """Read several cards; with ``distinct`` a repeated card is an error."""
        cards: list[int] = []
        for text in texts:
            card = self.parse(text)
            if distinct and card in cards:
                raise CardError(f"duplicate card: {text!r}")
            cards.append(card)
        return cards

    def names(self, cards: Iterable[int]) -> list[str]:
        return [self.name_of(c) for c in cards]


STANDARD: Final = Deck("standard", (NUMBER, COLOR, SHADING, SHAPE))
JUNIOR: Final = Deck("junior", STANDARD.attributes, fixed=(2, 0))
MEGASET: Final = Deck("megaset", (*STANDARD.attributes, BORDER))
FOURSET: Final = Deck("4set", (NUMBER4, COLOR4, SHADING4, SHAPE4))
FOURSET_JUNIOR: Final = Deck("4set-junior", FOURSET.attributes, fixed=(2, 0))

DECKS: Final = {d.name: d for d in (STANDARD, JUNIOR, MEGASET, FOURSET, FOURSET_JUNIOR)}
