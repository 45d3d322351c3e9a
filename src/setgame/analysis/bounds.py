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

The same reduction counts the UltraSet-free collections of 8 and 9 cards
(:func:`count_ultra_free`): each is the image of one found by the search under
as many affine maps as it has frames (a card p of it and an ordered basis
among its other cards minus p), so it is counted once by weighing each found
collection with 1 / frames.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Final

import numpy as np

from setgame.rules.algebra import digits
from setgame.rules.sets import THIRD

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


#: How many invertible maps x -> Ax + t there are on the 81 cards: 81 * |GL(4, 3)|.
AFFINE_MAPS: Final = 81 * (81 - 1) * (81 - 3) * (81 - 9) * (81 - 27)


def count_ultra_free(size: int) -> int:
    """How many ``size``-card collections of the deck hold no UltraSet, for
    ``size`` >= 8: from 8 cards on such a collection cannot lie in a hyperplane
    (28 pair sums among 27 cards), so every one is an affine image of one that
    :func:`ultra_free` finds."""
    if isinstance(size, bool) or not isinstance(size, int) or not 8 <= size <= 81:
        raise ValueError(f"UltraSet-free collections are counted from 8 to 81 cards, not {size!r}")
    weight = sum((Fraction(1, _frames(cards)) for cards in ultra_free(size)), Fraction(0))
    count = AFFINE_MAPS * weight
    assert count.denominator == 1
    return int(count)


def _frames(cards: tuple[int, ...]) -> int:
    """The number of (p, ordered basis of the other cards minus p) in ``cards``."""
    vectors = digits(3, 4).astype(np.int64)[list(cards)]
    frames = 0
    for p in range(len(cards)):
        others = np.delete(vectors, p, axis=0) - vectors[p]
        quads = others[np.array(list(itertools.combinations(range(len(others)), 4)))]
        determinants = np.rint(np.linalg.det(quads.astype(np.float64))).astype(np.int64)
        frames += 24 * int(np.count_nonzero(determinants % 3))
    return frames
