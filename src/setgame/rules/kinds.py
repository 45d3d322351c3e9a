"""What counts as a set: the four kinds of the variants.

Each kind answers ``is_group`` (the cards form one), ``find`` (every one among
a table, each once, its cards in table order), ``count``, ``has`` and
``explain`` (the structured flaws of a wrong pick; empty when it is right).

- *set*: three cards, every attribute all same or all different (R03), on any
  three-valued deck (four attributes, or five on MegaSet);
- *UltraSet*: four cards that split into two pairs completed by the same card;
- *GhostSet*: six cards whose values (0-2) sum to 0 mod 3 in every attribute;
- *4Set*: four cards of a four-valued deck whose values XOR to 0 in every
  attribute (all same, all different, or two pairs).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

import setgame.rules.decks as decks
from setgame.rules.algebra import digits, encode
from setgame.rules.decks import Deck
from setgame.rules.flaws import CountFlaw, Flaw, PairingFlaw
from setgame.rules.kind import Group, Kind, KindError
from setgame.rules.sets import SET, SetKind, third_table


def _pairs(
    cards: Group, key: bytes | None = None, span: int = 0
) -> dict[int, list[tuple[int, int]]]:
    """The index pairs (i < j) of ``cards``, grouped by what completes them:
    ``key[a * span + b]`` on a three-valued deck, ``a ^ b`` without a key."""
    groups: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for i, j in itertools.combinations(range(len(cards)), 2):
        a, b = cards[i], cards[j]
        groups[key[a * span + b] if key is not None else a ^ b].append((i, j))
    return groups


class UltraKind(Kind):
    """Four cards that split into two pairs whose completing cards are the same
    card (on the table or not). Two pairs with one completion never share a card,
    and four cards split that way in at most one manner."""

    name = "ultraset"
    size = 4

    def completion(self, cards: Iterable[int], deck: Deck | None = None) -> int | None:
        """The card completing both pairs of an UltraSet, or None when not one."""
        deck = deck or self.deck
        picked = self._cards(cards, deck)
        if len(picked) != 4 or len(set(picked)) != 4:
            return None
        table, span = third_table(deck.width), deck.space
        for (a, b), (c, d) in _pairings(picked):
            if table[a * span + b] == table[c * span + d]:
                return table[a * span + b]
        return None

    def _is(self, cards: Group, deck: Deck) -> bool:
        return self.completion(cards, deck) is not None

    def _find(self, cards: Group, deck: Deck) -> list[Group]:
        found = []
        for pairs in _pairs(cards, third_table(deck.width), deck.space).values():
            for (i, j), (k, m) in itertools.combinations(pairs, 2):
                found.append(tuple(sorted((i, j, k, m))))
        return [tuple(cards[x] for x in group) for group in sorted(found)]

    def count(self, table: Iterable[int], deck: Deck | None = None) -> int:
        """Without listing them: each two pairs with one completion are one UltraSet."""
        deck = deck or self.deck
        cards = self._table(table, deck)
        groups = _pairs(cards, third_table(deck.width), deck.space).values()
        return sum(len(p) * (len(p) - 1) // 2 for p in groups)

    def _explain(self, cards: Group, deck: Deck) -> list[Flaw]:
        if self._is(cards, deck):
            return []
        table, span = third_table(deck.width), deck.space
        flaws: list[Flaw] = []
        for (a, b), (c, d) in _pairings(cards):
            x, y = table[a * span + b], table[c * span + d]
            differ = tuple(
                i for i, (u, v) in enumerate(zip(deck.values(x), deck.values(y), strict=True))
                if u != v
            )
            flaws.append(PairingFlaw(((a, b), (c, d)), (x, y), differ))
        return flaws


def _pairings(cards: Group) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    a, b, c, d = cards
    return (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))


@cache
def _triples(n: int) -> npt.NDArray[np.intp]:
    return np.array(list(itertools.combinations(range(n), 3)), dtype=np.intp).reshape(-1, 3)


class GhostKind(Kind):
    """Six cards whose values sum to 0 mod 3 in every attribute: then any split
    into two triples has opposite sums, which is how :meth:`find` meets them (each
    GhostSet is met once per split and kept once)."""

    name = "ghostset"
    size = 6
    # Listing grows as n**6: 30 cards take a quarter of a second and hold thousands
    # of GhostSets, while 12 cards almost always hold one (tables never get near 30).
    max_table = 30

    def _is(self, cards: Group, deck: Deck) -> bool:
        return not (digits(3, deck.width)[list(cards)].sum(axis=0) % 3).any()

    def _find(self, cards: Group, deck: Deck) -> list[Group]:
        triples = _triples(len(cards))
        sums = digits(3, deck.width)[np.array(cards)][triples].sum(axis=1, dtype=np.int64) % 3
        codes, opposite = encode(sums, 3).tolist(), encode(-sums % 3, 3).tolist()
        masks = (1 << triples).sum(axis=1).tolist()
        by_code: dict[int, list[int]] = defaultdict(list)
        for t, code in enumerate(codes):
            by_code[code].append(t)
        seen: set[int] = set()
        for t, want in enumerate(opposite):
            for u in by_code.get(want, ()):
                if u > t and not masks[t] & masks[u]:
                    seen.add(masks[t] | masks[u])
        return [tuple(cards[k] for k in _order(mask)) for mask in sorted(seen, key=_order)]

    def _explain(self, cards: Group, deck: Deck) -> list[Flaw]:
        return _count_flaws(cards, deck, lambda values: sum(values) % 3 == 0)


def _order(mask: int) -> list[int]:
    return [k for k in range(mask.bit_length()) if mask >> k & 1]


class FourKind(Kind):
    """Four cards of a four-valued deck whose values XOR to 0 in every attribute.
    Then all three ways of splitting them into pairs have equal XORs; :meth:`find`
    keeps the split of the first two cards from the last two."""

    name = "4set"
    size = 4
    radix = 4
    deck = decks.FOURSET

    def _is(self, cards: Group, deck: Deck) -> bool:
        a, b, c, d = cards
        return a ^ b ^ c ^ d == 0

    def _find(self, cards: Group, deck: Deck) -> list[Group]:
        found = []
        for pairs in _pairs(cards).values():
            for (i, j), (k, m) in itertools.combinations(pairs, 2):
                if j < k:
                    found.append((i, j, k, m))
        return [tuple(cards[x] for x in group) for group in sorted(found)]

    def count(self, table: Iterable[int], deck: Deck | None = None) -> int:
        """Without listing them: each 4Set is two pairs with one XOR in three ways."""
        cards = self._table(table, deck or self.deck)
        return sum(len(p) * (len(p) - 1) // 2 for p in _pairs(cards).values()) // 3

    def _explain(self, cards: Group, deck: Deck) -> list[Flaw]:
        def xor_zero(values: Sequence[int]) -> bool:
            a, b, c, d = values
            return a ^ b ^ c ^ d == 0

        return _count_flaws(cards, deck, xor_zero)


def _count_flaws(
    cards: Group, deck: Deck, fine: Callable[[Sequence[int]], bool]
) -> list[Flaw]:
    flaws: list[Flaw] = []
    for attr, values in enumerate(zip(*(deck.values(c) for c in cards), strict=True)):
        if not fine(values):
            counts = tuple(values.count(v) for v in range(deck.radix))
            flaws.append(CountFlaw(attr, counts))
    return flaws


ULTRASET: Final = UltraKind()
GHOSTSET: Final = GhostKind()
FOURSET: Final = FourKind()
KINDS: Final = {k.name: k for k in (SET, ULTRASET, GHOSTSET, FOURSET)}


def is_set(cards: Iterable[int], deck: Deck | None = None) -> bool:
    """Three cards of a three-valued deck forming a set (R03; five attributes on MegaSet)."""
    return SET.is_group(cards, deck)


def is_ultraset(cards: Iterable[int], deck: Deck | None = None) -> bool:
    return ULTRASET.is_group(cards, deck)


def is_ghostset(cards: Iterable[int], deck: Deck | None = None) -> bool:
    return GHOSTSET.is_group(cards, deck)


def is_fourset(cards: Iterable[int], deck: Deck | None = None) -> bool:
    return FOURSET.is_group(cards, deck)


__all__ = [
    "FOURSET",
    "GHOSTSET",
    "KINDS",
    "SET",
    "ULTRASET",
    "FourKind",
    "GhostKind",
    "Group",
    "Kind",
    "KindError",
    "SetKind",
    "UltraKind",
    "is_fourset",
    "is_ghostset",
    "is_set",
    "is_ultraset",
]
