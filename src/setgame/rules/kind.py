"""What every kind of set answers: the interface the engine and every tool judge through.

A kind says whether cards are one group of it (``is_group``), lists the groups among a
table (``find``, each once, its cards in table order), counts them, tells whether there
is one (``has``) and explains a wrong pick (``explain``: structured flaws, empty when it
is right), all on a deck of its radix. The set kind (R03-R05) is in
:mod:`setgame.rules.sets`, the variants' other kinds in :mod:`setgame.rules.kinds`.
Hostile input is bounded here, once for every kind: no more cards are read than the
deck holds.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import ClassVar

from setgame.rules.cards import CardError
from setgame.rules.decks import STANDARD, Deck
from setgame.rules.flaws import Flaw

Group = tuple[int, ...]


class KindError(ValueError):
    """A kind of set asked about a deck it does not apply to."""


class Kind:
    """The base: each kind states its name, its size and the radix of its decks,
    and the three rules ``_is``, ``_find`` and ``_explain``."""

    name: ClassVar[str] = ""
    size: ClassVar[int] = 3
    radix: ClassVar[int] = 3
    #: The most cards ``find`` lists groups among (None: the whole deck).
    max_table: ClassVar[int | None] = None
    #: The deck used when none is given.
    deck: ClassVar[Deck] = STANDARD

    def __repr__(self) -> str:
        return f"<kind {self.name}>"

    def is_group(self, cards: Iterable[int], deck: Deck | None = None) -> bool:
        """Whether ``cards`` are one group of this kind (wrong count or repeats: no)."""
        deck = deck or self.deck
        picked = self._cards(cards, deck)
        return len(picked) == self.size == len(set(picked)) and self._is(picked, deck)

    def find(self, table: Iterable[int], deck: Deck | None = None) -> list[Group]:
        """Every group of this kind among ``table`` (distinct cards of ``deck``)."""
        deck = deck or self.deck
        cards = self._table(table, deck)
        return self._find(cards, deck) if len(cards) >= self.size else []

    def count(self, table: Iterable[int], deck: Deck | None = None) -> int:
        return len(self.find(table, deck))

    def has(self, table: Iterable[int], deck: Deck | None = None) -> bool:
        return bool(self.find(table, deck))

    def explain(self, cards: Iterable[int], deck: Deck | None = None) -> list[Flaw]:
        """Why ``cards`` are not a group of this kind; empty when they are."""
        deck = deck or self.deck
        picked = self._cards(cards, deck)
        if len(picked) != self.size or len(set(picked)) != self.size:
            raise CardError(
                f"a {self.name} is {self.size} different cards, got {deck.names(picked)!r}"
            )
        return self._explain(picked, deck)

    def _table(self, table: Iterable[int], deck: Deck) -> Group:
        cards = self._cards(table, deck)
        if len(set(cards)) != len(cards):
            raise CardError(f"a table holds each card once, got {deck.names(cards)!r}")
        if self.max_table is not None and len(cards) > self.max_table:
            raise KindError(
                f"{len(cards)} cards are too many to list {self.name}s among "
                f"(at most {self.max_table})"
            )
        return cards

    def _cards(self, cards: Iterable[int], deck: Deck) -> Group:
        if deck.radix != self.radix:
            raise KindError(f"a {self.name} needs a deck of {self.radix} values, not {deck.name}")
        # Read no more than the deck holds (plus one, to tell): hostile input is bounded.
        picked = tuple(itertools.islice(cards, len(deck) + 1))
        if not deck.card_set.issuperset(picked) or any(type(c) is not int for c in picked):
            for card in picked:
                deck.check(card)  # raises, quoting the first card that is not one
        if len(picked) > len(deck):
            raise CardError(f"more cards than the {deck.name} deck holds ({len(deck)})")
        return picked

    def _is(self, cards: Group, deck: Deck) -> bool:
        raise NotImplementedError

    def _find(self, cards: Group, deck: Deck) -> list[Group]:
        raise NotImplementedError

    def _explain(self, cards: Group, deck: Deck) -> list[Flaw]:
        raise NotImplementedError
