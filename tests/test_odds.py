"""Odds that K cards hold no set: exact counts, sampling, play, the rulebooks (R17)."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from setgame import has_set
from setgame.analysis.odds import (
    EXACT_MAX,
    RULEBOOK,
    Estimate,
    comparison,
    count_caps,
    exact_no_set,
    figures_for,
    play_no_set,
    sample_no_set,
)
from setgame.analysis.simulate import simulate

SETS = 1080
PAIRS_OF_SETS_SHARING_A_CARD = 81 * math.comb(40, 2)  # each card lies in 40 sets


def test_r17_exact_for_small_tables_by_inclusion_exclusion() -> None:
    assert [exact_no_set(k) for k in (0, 1, 2)] == [1, 1, 1]
    assert exact_no_set(3) == 1 - Fraction(SETS, math.comb(81, 3))
    # Four cards hold at most one set; five at most two, which then share a card.
    assert exact_no_set(4) == 1 - Fraction(SETS * 78, math.comb(81, 4))
    with_a_set = SETS * math.comb(78, 2) - PAIRS_OF_SETS_SHARING_A_CARD
    assert exact_no_set(5) == 1 - Fraction(with_a_set, math.comb(81, 5))


@pytest.mark.parametrize("k", [6, 7])
def test_r17_exact_agrees_with_sampling(k: int) -> None:
    exact = float(exact_no_set(k) or 0)
    estimate = sample_no_set(k, 40_000, seed=k)
    assert abs(estimate.probability - exact) < 5 * estimate.stderr


def test_r17_exact_only_where_cheap_and_zero_from_21() -> None:
    assert EXACT_MAX >= 7
    assert all(exact_no_set(k) is None for k in range(EXACT_MAX + 1, 21))
    assert all(exact_no_set(k) == 0 for k in range(21, 82))
    assert count_caps(81) == 0
    with pytest.raises(ValueError, match="12"):
        count_caps(12)


def brute_force_no_set(k: int, samples: int, seed: int) -> float:
    rng = random.Random(seed)
    return sum(not has_set(rng.sample(range(81), k)) for _ in range(samples)) / samples


@pytest.mark.parametrize("k", [9, 12])
def test_r17_sampling_agrees_with_a_plain_sampler(k: int) -> None:
    estimate = sample_no_set(k, 100_000, seed=1)
    plain = brute_force_no_set(k, 20_000, seed=2)
    plain_error = math.sqrt(plain * (1 - plain) / 20_000)
    assert abs(estimate.probability - plain) < 5 * math.hypot(estimate.stderr, plain_error)


def test_r17_twelve_random_cards_lack_a_set_about_3_percent_of_the_time() -> None:
    estimate = sample_no_set(12, 200_000, seed=3)
    assert 0.030 < estimate.probability < 0.0345
    assert estimate.stderr == pytest.approx(math.sqrt(0.032 * 0.968 / 200_000), rel=0.1)
    assert 28 < estimate.odds_against < 33


def test_sampling_is_deterministic_and_exact_at_the_ends() -> None:
    assert sample_no_set(10, 5_000, seed=4) == sample_no_set(10, 5_000, seed=4)
    assert sample_no_set(2, 100).probability == 1
    assert sample_no_set(21, 3_000).probability == 0
    assert sample_no_set(81, 10).probability == 0
    assert Estimate(0.0, 0.0, 1).odds_against == math.inf


@pytest.mark.parametrize("bad", [-1, 82, True, "12"])
def test_bad_number_of_cards(bad: object) -> None:
    with pytest.raises(ValueError, match=repr(bad)):
        sample_no_set(bad, 10)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=repr(bad)):
        exact_no_set(bad)  # type: ignore[arg-type]


def test_bad_number_of_samples() -> None:
    with pytest.raises(ValueError, match="0"):
        sample_no_set(12, 0)


def test_r17_play_figures_come_from_the_simulation() -> None:
    stats = simulate(3_000, seed=5)
    play = play_no_set(12, stats)
    assert play is not None
    assert play.samples == stats.tables[12].seen
    assert play.probability == stats.tables[12].no_set / stats.tables[12].seen
    assert play_no_set(5, stats) is None  # never met: tables hold multiples of 3


def test_r17_rulebook_figures() -> None:
    quoted = {(f.sources, f.cards): f.probability for f in RULEBOOK}
    assert quoted[("001, 004", 12)] == pytest.approx(1 / 34)  # "33:1"
    assert quoted[("001, 004", 15)] == pytest.approx(1 / 2501)  # "2500:1"
    assert quoted[("000", 12)] == 0.03
    assert quoted[("000", 21)] == 0
    assert figures_for(13) == []


def test_r17_comparison_explains_the_rulebook_figures() -> None:
    random12 = Estimate(0.0323, 0.0004, 200_000)
    play12 = Estimate(0.066, 0.0004, 400_000)
    notes = comparison(12, random12, play12)
    assert "33:1" in notes[0] and "2.94%" in notes[0] and "lower" in notes[0]
    assert "3%" in notes[1] and "matches" in notes[1]
    assert "2.0 times as often" in notes[2]
    notes15 = comparison(15, Estimate(0.0004, 0.00005, 100_000), None)
    assert len(notes15) == 1 and "matches" in notes15[0]
    notes21 = comparison(21, Estimate(0.0, 0.0, 0), None)
    assert "true" in notes21[0]
