"""Exhaustive invariants of the deck, in the spirit of perft (R03, R05, R17).

Every check here recomputes from the attribute rule itself (R03: each attribute
all same or all different), not from the library's lookup tables, and compares.

The proof that any 21 cards hold a set (R17) is a counting argument whose three
ingredients are each checked exhaustively (see test_r17_any_21_cards_hold_a_set).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from setgame import attributes, find_sets, full_deck, has_set, is_set, third_card

VALUES = np.array([attributes(c) for c in range(81)])  # 81 x 4, each 0-2


def rule_says_set(a: int, b: int, c: int) -> bool:
    """R03 straight from the attributes: each one all same or all different."""
    return all(len({x, y, z}) != 2 for x, y, z in zip(*map(attributes, (a, b, c)), strict=True))


def brute_force_sets(cards: Sequence[int]) -> list[tuple[int, int, int]]:
    return [t for t in itertools.combinations(cards, 3) if rule_says_set(*t)]


def test_r03_the_deck_holds_1080_sets() -> None:
    expected = brute_force_sets(range(81))
    assert len(expected) == 1080
    assert find_sets(full_deck()) == expected


def test_r05_each_pair_completes_to_exactly_one_card() -> None:
    for a, b in itertools.combinations(range(81), 2):
        thirds = [c for c in range(81) if c not in (a, b) and rule_says_set(a, b, c)]
        assert thirds == [third_card(a, b)], (a, b)
        assert third_card(b, a) == thirds[0]


def test_r03_is_set_agrees_with_the_rule_on_every_triple() -> None:
    for a, b, c in itertools.combinations(range(81), 3):
        assert is_set(a, b, c) == rule_says_set(a, b, c)


# --- R17: 20 cards without a set exist ---------------------------------------------


def quadric_cap() -> list[int]:
    """The nonzero solutions of x1^2 + x2^2 + x3^2 + 2*x4^2 = 0 over GF(3).

    The form is elliptic (its discriminant 2 is no square mod 3), so no plane
    through 0 lies on it; three solutions in a line would span such a plane
    unless the line passes through 0, which is left out. So no three form a set.
    """
    form = np.array([1, 1, 1, 2])
    return [c for c in range(1, 81) if (VALUES[c] ** 2 @ form) % 3 == 0]


def test_r17_a_20_card_collection_without_a_set_exists() -> None:
    cap = quadric_cap()
    assert len(set(cap)) == 20
    assert brute_force_sets(cap) == []
    assert find_sets(cap) == []
    assert not has_set(cap)
    for extra in set(range(81)) - set(cap):  # and it is maximal: any 21st card makes a set
        assert has_set([*cap, extra])


# --- R17: any 21 cards hold a set --------------------------------------------------

# A direction is a nonzero linear form f on GF(3)^4 up to sign; its three level
# sets f(x) = 0, 1, 2 are three parallel hyperplanes, each a copy of AG(3, 3).
DIRECTIONS = [
    f for f in itertools.product(range(3), repeat=4) if any(f) and next(v for v in f if v) == 1
]


def levels(direction: Sequence[int]) -> np.ndarray:
    """The hyperplane (0, 1 or 2) of each card for one direction."""
    return (VALUES @ np.array(direction)) % 3


def holds_cap(points: Sequence[int], size: int) -> bool:
    """Whether ``size`` of ``points`` hold no set (exhaustive, with the first point
    fixed: a translation of the hyperplane moves any cap point there)."""
    index = {p: i for i, p in enumerate(points)}

    def grow(chosen: list[int], allowed: int, need: int) -> bool:
        while allowed and allowed.bit_count() >= need:
            low = allowed & -allowed
            allowed ^= low
            p = points[low.bit_length() - 1]
            banned = 0
            for q in chosen:
                k = index.get(third_card(p, q))
                banned |= 0 if k is None else 1 << k
            chosen.append(p)
            if need == 1 or grow(chosen, allowed & ~banned, need - 1):
                return True
            chosen.pop()
        return False

    return grow([points[0]], (1 << len(points)) - 2, size - 1)


def hyperplanes() -> Iterable[list[int]]:
    for direction in DIRECTIONS:
        level = levels(direction)
        for value in range(3):
            yield [c for c in range(81) if level[c] == value]


def counting_allows(n: int, largest: int) -> bool:
    """Whether n cards with no set could meet every hyperplane in at most ``largest``
    cards, by counting alone.

    For each of the 40 directions the n cards split over its three hyperplanes as
    (a, b, c). Summed over the directions, the pairs of cards sharing a hyperplane
    number 13 * C(n, 2) and the triples 4 * C(n, 3) (see the test below: each pair
    lies in one hyperplane of 13 directions, each triple with no set in 4). An
    exact search over the 40 directions decides whether some splits give both.
    """
    splits = {
        (a, b, n - a - b)
        for a in range(largest + 1)
        for b in range(largest + 1)
        if 0 <= n - a - b <= largest
    }
    sums = {(sum(math.comb(x, 2) for x in s), sum(math.comb(x, 3) for x in s)) for s in splits}
    pairs, triples = 13 * math.comb(n, 2), 4 * math.comb(n, 3)
    low2, high2 = min(p for p, _ in sums), max(p for p, _ in sums)
    low3, high3 = min(t for _, t in sums), max(t for _, t in sums)
    reached = {(0, 0)}
    for done in range(1, len(DIRECTIONS) + 1):
        left = len(DIRECTIONS) - done
        reached = {
            (p + dp, t + dt)
            for p, t in reached
            for dp, dt in sums
            if low2 * left <= pairs - p - dp <= high2 * left
            and low3 * left <= triples - t - dt <= high3 * left
        }
    return (pairs, triples) in reached


def test_r17_there_are_40_directions_of_hyperplanes() -> None:
    assert len(DIRECTIONS) == 40
    assert sorted(map(len, hyperplanes())) == [27] * 120


def test_r17_a_hyperplane_holds_at_most_9_cards_without_a_set() -> None:
    for plane in hyperplanes():
        assert holds_cap(plane, 9)
        assert not holds_cap(plane, 10)


def test_r17_pairs_share_a_hyperplane_in_13_directions_and_triples_in_4() -> None:
    level = np.stack([levels(d) for d in DIRECTIONS])  # 40 x 81
    for a, b in itertools.combinations(range(81), 2):
        assert np.count_nonzero(level[:, a] == level[:, b]) == 13
    triples = np.array(list(itertools.combinations(range(81), 3)))
    a, b, c = level[:, triples[:, 0]], level[:, triples[:, 1]], level[:, triples[:, 2]]
    together = np.count_nonzero((a == b) & (b == c), axis=0)
    in_a_set = np.array([is_set(x, y, z) for x, y, z in triples.tolist()])
    assert set(together[~in_a_set]) == {4}
    assert set(together[in_a_set]) == {13}  # a set is a line: it spans one direction


def test_r17_any_21_cards_hold_a_set() -> None:
    """21 cards with no set would meet each hyperplane in at most 9 cards (the test
    above), and counting pairs and triples over the 40 directions then has no
    solution; the same count allows 20 (and a 20-card collection exists)."""
    assert not counting_allows(21, largest=9)
    assert counting_allows(20, largest=9)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 80), min_size=21, max_size=21, unique=True))
def test_r17_random_21_cards_hold_a_set(cards: list[int]) -> None:
    assert find_sets(cards)
    assert brute_force_sets(cards) == find_sets(cards)
