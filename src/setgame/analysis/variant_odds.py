"""How many groups of a variant's kind K random cards hold: sampled and exact.

- :func:`sample_odds`: Monte Carlo (seeded, so pure): the mean number of groups
  among K random cards of the variant's deck, and the share of draws holding
  none (what R11's growth rule meets), each with its standard error.
- :func:`exact_mean`: the same mean exactly, by linearity: every group of the
  whole deck lies among K random cards with probability C(N-m, K-m)/C(N, K),
  which is C(K, m)/C(N, m) for a group of m cards of a deck of N. The deck's groups are
  counted by the kind's own counter, or for GhostSets (too many to list) by a
  subset-sum count over the deck's vector group.

>>> from setgame.rules.variants import ULTRASET
>>> round(float(exact_mean(ULTRASET, 12)), 2), round(float(exact_mean(ULTRASET, 9)), 2)
(18.8, 4.78)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Final

import numpy as np

from setgame.rules.algebra import digits, encode
from setgame.rules.decks import Deck
from setgame.rules.kind import Kind
from setgame.rules.kinds import GHOSTSET
from setgame.rules.variants import Variant

MAX_SAMPLES: Final = 1_000_000


@dataclass(frozen=True, slots=True)
class Odds:
    """Among ``samples`` draws of ``cards`` cards: the mean number of groups and
    the share of draws with none, each with its standard error."""

    cards: int
    mean: float
    mean_stderr: float
    none: float
    none_stderr: float
    samples: int


def _check(variant: Variant, cards: int | None) -> int:
    k = variant.table_size if cards is None else cards
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= len(variant.deck):
        raise ValueError(f"the number of cards must be 0-{len(variant.deck)}, not {k!r}")
    return k


def sample_odds(variant: Variant, cards: int | None = None, samples: int = 2000,
                seed: int = 0) -> Odds:
    """Monte Carlo over ``samples`` random tables of ``cards`` cards (default: the
    variant's table size) of the variant's deck."""
    k = _check(variant, cards)
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise ValueError(f"the number of samples must be 1-{MAX_SAMPLES}, not {samples!r}")
    rng = np.random.default_rng(seed)
    deck = np.array(variant.deck.cards)
    counts = np.array([
        variant.kind.count(rng.choice(deck, size=k, replace=False).tolist(), variant.deck)
        for _ in range(samples)
    ], dtype=np.float64)
    none = float(np.mean(counts == 0))
    spread = float(counts.std(ddof=1)) if samples > 1 else 0.0
    return Odds(k, float(counts.mean()), spread / math.sqrt(samples), none,
                math.sqrt(none * (1 - none) / samples), samples)


def exact_mean(variant: Variant, cards: int | None = None) -> Fraction:
    """The exact mean number of groups among ``cards`` random cards of the deck."""
    k = _check(variant, cards)
    m, n = variant.claim_size, len(variant.deck)
    return Fraction(deck_groups(variant.kind, variant.deck) * math.comb(k, m), math.comb(n, m))


@cache
def deck_groups(kind: Kind, deck: Deck) -> int:
    """How many groups of ``kind`` the whole deck holds."""
    if kind is GHOSTSET:
        return zero_sum_subsets(deck, kind.size)
    return kind.count(deck.cards, deck)


def zero_sum_subsets(deck: Deck, size: int) -> int:
    """How many ``size``-card subsets of a three-valued deck sum to zero in every
    attribute: ways[j][s] counts j-card subsets summing to s, card by card."""
    vectors = digits(3, deck.width).astype(np.int64)
    ways = np.zeros((size + 1, deck.space), dtype=np.int64)
    ways[0, 0] = 1
    for card in deck.cards:
        # ways[j][s] gains ways[j - 1][s - card]; shifted[s] is the index of s - card.
        shifted = encode((vectors - vectors[card]) % 3, 3)
        ways[1:] += ways[:-1, shifted]
    return int(ways[size, 0])
