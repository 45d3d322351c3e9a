"""Figures about the variants, computed: expected counts, published ones, any 10 cards."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from setgame import count_sets
from setgame.analysis.bounds import BASE, count_ultra_free, ultra_free
from setgame.analysis.odds import deck_groups, exact_mean, sample_odds, zero_sum_subsets
from setgame.rules.decks import JUNIOR, MEGASET, STANDARD
from setgame.rules.kinds import GHOSTSET, ULTRASET, is_ultraset
from setgame.rules.variants import VARIANTS, find_variant

ULTRA = find_variant("ultraset")


def test_published_ultraset_figures_about_5_among_9_and_19_among_12() -> None:
    # The fork's help page: "about 5 UltraSets among 9 cards and about 19 among 12".
    assert round(exact_mean(ULTRA, 9)) == 5 and round(exact_mean(ULTRA, 12)) == 19
    for cards, published in ((9, 5), (12, 19)):
        odds = sample_odds(ULTRA, cards, samples=1500, seed=cards)
        assert abs(odds.mean - float(exact_mean(ULTRA, cards))) < 4 * odds.mean_stderr
        assert round(odds.mean) == published


@pytest.mark.parametrize("name", list(VARIANTS))
def test_sampled_means_agree_with_exact_means(name: str) -> None:
    variant = VARIANTS[name]
    odds = sample_odds(variant, samples=400, seed=7)
    assert odds.cards == variant.table_size and odds.samples == 400
    assert abs(odds.mean - float(exact_mean(variant))) < 4.5 * odds.mean_stderr + 1e-9
    assert 0 <= odds.none <= 1


def test_r17_classic_figures_reappear_as_variant_odds() -> None:
    # The classic variant's mean among 12 cards is 1080 sets x C(12,3)/C(81,3).
    assert exact_mean(VARIANTS["classic"]) == pytest.approx(1080 * 220 / math.comb(81, 3))
    rng = random.Random(0)
    plain = np.mean([count_sets(rng.sample(range(81), 12)) for _ in range(3000)])
    assert abs(plain - float(exact_mean(VARIANTS["classic"]))) < 0.15


def test_deck_group_totals_by_two_methods() -> None:
    # Subset-sum counting agrees with listing for sets, on the standard and MegaSet decks.
    assert zero_sum_subsets(STANDARD, 3) == deck_groups(VARIANTS["classic"].kind, STANDARD) == 1080
    assert zero_sum_subsets(MEGASET, 3) == 9801
    # GhostSets of the 27 Junior cards: the subset-sum count against all C(27, 6) subsets.
    values = np.array([JUNIOR.values(c) for c in JUNIOR.cards])
    combos = np.array(list(itertools.combinations(range(27), 6)))
    brute = int(np.count_nonzero(~(values[combos].sum(axis=1) % 3).any(axis=1)))
    assert zero_sum_subsets(JUNIOR, 6) == brute
    assert deck_groups(GHOSTSET, STANDARD) == zero_sum_subsets(STANDARD, 6)


def test_odds_are_seeded_and_bounded() -> None:
    assert sample_odds(ULTRA, 9, 50, seed=1) == sample_odds(ULTRA, 9, 50, seed=1)
    for bad in (0, -1, 10**7, True, 2.5):
        with pytest.raises(ValueError, match="samples"):
            sample_odds(ULTRA, 9, bad)  # type: ignore[arg-type]
    for cards in (-1, 82, True, "9"):
        with pytest.raises(ValueError, match="cards"):
            sample_odds(ULTRA, cards)  # type: ignore[arg-type]


def test_any_10_cards_hold_an_ultraset_exhaustively() -> None:
    # The search and why five fixed cards suffice: setgame.analysis.bounds.
    nines = ultra_free(9)
    assert ultra_free(10) == []
    assert nines, "9 cards can be free of UltraSets, so the search is not vacuous"
    for cards in nines:
        assert set(BASE) <= set(cards) and ULTRASET.count(cards) == 0
        assert not any(is_ultraset(g) for g in itertools.combinations(cards, 4))


def test_ten_cards_in_a_hyperplane_always_repeat_a_pair_sum() -> None:
    # The counting step of the argument: 45 pair sums cannot all differ among 27 cards.
    assert math.comb(10, 2) > 27
    rng = random.Random(5)
    hyperplane = [c for c in STANDARD.cards if STANDARD.values(c)[0] == 0]
    for _ in range(200):
        assert ULTRASET.count(rng.sample(hyperplane, 10)) > 0
        assert ULTRASET.count(rng.sample(range(81), 10)) > 0


def test_counted_ultraset_free_tables_agree_with_sampling() -> None:
    assert count_ultra_free(10) == 0
    exact = count_ultra_free(8) / math.comb(81, 8)
    odds = sample_odds(ULTRA, 8, samples=6000, seed=8)
    assert abs(odds.none - exact) < 4 * math.sqrt(exact * (1 - exact) / 6000)
    # Nine cards: about one table in 13,000 holds no UltraSet (Ultra9 rarely grows).
    assert 1 / 14_000 < count_ultra_free(9) / math.comb(81, 9) < 1 / 12_000
    with pytest.raises(ValueError, match="7"):
        count_ultra_free(7)
