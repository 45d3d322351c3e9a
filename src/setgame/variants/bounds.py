"""Any 10 cards of the standard deck hold an UltraSet: an exhaustive proof.

Four cards a, b, c, d are an UltraSet when a + b = c + d (cards as vectors over
Z/3, the completing card being -(a + b)). Two different pairs with the same sum
never share a card, so a collection holds no UltraSet exactly when all the sums
of its pairs differ.

The search only needs to look at collections of one shape, because a map
x -> Ax + t (A invertible) keeps sums of pairs equal or different. Take a
10-card collection without an UltraSet and translate it so that it holds the
card 0 (1RSD). If its other cards lay in a 3-dimensional subspace (27 cards),
so would its 45 pair sums: two would be equal. So they span the whole space
and hold a basis, which a linear map sends to the four unit cards (2RSD, 1GSD,
1RTD, 1RSO). :func:`ultra_free` then searches every way of adding cards to
those five; it finds the largest collections without an UltraSet (9 cards) and
none of 10.
"""

from __future__ import annotations

from typing import Final

from setgame.sets import THIRD

BASE: Final = (0, 27, 9, 3, 1)
"""The card 0 and the four unit cards: every UltraSet-free collection of 10 or
more cards maps onto one holding these (see the module docstring)."""


def _plus(a: int, b: int) -> int:
    # THIRD[x] is third(0, x) = -x, and THIRD[a * 81 + b] is -(a + b).
    return THIRD[THIRD[a * 81 + b]]


def ultra_free(size: int, base: tuple[int, ...] = BASE) -> list[tuple[int, ...]]:
    """Every UltraSet-free collection of ``size`` cards that holds ``base`` (itself
    UltraSet-free), the added cards in increasing order."""
    sums = {_plus(a, b) for i, a in enumerate(base) for b in base[i + 1 :]}
    if len(sums) != len(base) * (len(base) - 1) // 2:
        raise ValueError(f"the base holds an UltraSet: {base!r}")
    found: list[tuple[int, ...]] = []
    _extend(list(base), sums, 0, size - len(base), found)
    return found


def _extend(cards: list[int], sums: set[int], start: int, more: int,
            found: list[tuple[int, ...]]) -> None:
    if more <= 0:
        found.append(tuple(cards))
        return
    for card in range(start, 81):
        if card in cards:
            continue
        new = [_plus(card, other) for other in cards]
        if sums.isdisjoint(new):
            cards.append(card)
            _extend(cards, sums.union(new), card + 1, more - 1, found)
            cards.pop()
