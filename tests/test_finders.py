"""The finders beyond find_sets: has_set, count_sets and the batch finder (R03, R05).

Each is compared with the all-triples search straight from the attribute rule.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setgame import CardError, count_sets, find_sets, find_sets_batch, has_set
from setgame.analysis.batch import BATCH_MIN
from test_invariants import brute_force_sets

tables = st.lists(st.integers(0, 80), max_size=30)


@settings(max_examples=300, deadline=None)
@given(tables)
def test_r03_has_set_and_count_sets_agree_with_the_rule(cards: list[int]) -> None:
    # Repeated cards are allowed here: a pair of equal cards completes to nothing.
    expected = [t for t in brute_force_sets(cards) if len(set(t)) == 3]
    assert has_set(cards) == bool(expected)
    assert count_sets(cards) == len(find_sets(cards))
    if len(set(cards)) == len(cards):
        assert count_sets(cards) == len(expected)


def test_r03_has_set_and_count_sets_beyond_45_cards() -> None:
    cards = random.Random(3).sample(range(81), 60)
    assert has_set(cards)
    assert count_sets(cards) == len(brute_force_sets(cards))


@pytest.mark.parametrize("size", [3, 4, 12, 15, 21, 45, 60, 81])
def test_r05_batch_finder_gives_what_find_sets_gives(size: int) -> None:
    rng = random.Random(size)
    batch = [rng.sample(range(81), size) for _ in range(2 * BATCH_MIN + 1)]
    assert find_sets_batch(batch) == [find_sets(t) for t in batch]
    assert find_sets_batch(batch[:3]) == [find_sets(t) for t in batch[:3]]  # small: one by one


def test_r05_batch_finder_mixes_sizes_and_repeated_cards() -> None:
    rng = random.Random(7)
    batch = [rng.sample(range(81), rng.choice([0, 1, 2, 12, 15])) for _ in range(400)]
    batch += [[5, 5, 7, 9, 11, 7, 20, 30, 40, 50, 60, 70]] * BATCH_MIN  # repeats
    batch.append(bytes([0, 1, 2]))
    assert find_sets_batch(batch) == [find_sets(t) for t in batch]
    assert find_sets_batch(batch)[-1] == [(0, 1, 2)]
    assert find_sets_batch([]) == []


@pytest.mark.parametrize("bad", [[1, 2, 81], [1, 2, -1], [1, 2, "3"], [1, 2, 3.0]])
def test_batch_finder_rejects_what_is_not_a_card(bad: list[object]) -> None:
    good = [[1, 2, 3]] * BATCH_MIN
    with pytest.raises(CardError, match="not a card"):
        find_sets_batch([*good, bad])  # type: ignore[list-item]
