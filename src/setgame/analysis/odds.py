"""How often K cards hold no set: exactly, by sampling, and during play (R17).

Three figures for the same question, beside the ones the rulebooks quote:

- :func:`exact_no_set`: the exact probability that K random cards hold no set,
  for the sizes where counting is cheap (K <= 8, and K >= 21 where it is 0).
  Set-free collections ("caps") are counted through one fixed non-collinear
  triple: the affine group of the deck acts transitively on such triples, so
  ``caps(K) * C(K, 3) = triples * caps through one triple``.
- :func:`sample_no_set`: a Monte Carlo estimate with its standard error, for any K.
- :func:`play_no_set`: the share of K-card tables without a set met during real
  play (from :func:`setgame.analysis.simulate.simulate`), which is higher: the tables a
  game leaves behind are what remains after sets were taken out of them.

>>> exact_no_set(3)
Fraction(78, 79)
>>> round(float(exact_no_set(4)), 6)
0.949367
>>> exact_no_set(21)
Fraction(0, 1)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

import numpy as np

from setgame.analysis.simulate import LINES, SimulationStats
from setgame.rules.sets import THIRD
from setgame.words.catalog import format_number, format_percent, gettext, ngettext

EXACT_MAX: Final = 8
"""The largest K :func:`exact_no_set` counts (K = 8 takes about a second, 9 half a minute)."""
MAX_CAP: Final = 20
"""The most cards that can hold no set (a 20-card cap exists; any 21 cards hold a set)."""
CHUNK: Final = 16384


@dataclass(frozen=True, slots=True)
class Estimate:
    """A probability with its standard error over ``samples`` draws (0 when exact)."""

    probability: float
    stderr: float
    samples: int

    @property
    def odds_against(self) -> float:
        """The odds against no set, x in "x:1" (infinite when no set cannot happen)."""
        p = self.probability
        return math.inf if p == 0 else (1 - p) / p


@dataclass(frozen=True, slots=True)
class RulebookFigure:
    """A figure a rulebook quotes (R17), as the probability of no set among ``cards``."""

    sources: str
    cards: int
    quoted: str
    probability: float


RULEBOOK: Final = (
    RulebookFigure("001, 004", 12, "about 33:1 that 12 cards contain a set", 1 / 34),
    RulebookFigure("000", 12, "no set among 12 cards with probability 3%", 0.03),
    RulebookFigure("001, 004", 15, "about 2500:1 that 15 cards contain a set", 1 / 2501),
    RulebookFigure("000", 21, "any 21 cards contain a set", 0.0),
)


def _check_cards(k: int) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= 81:
        raise ValueError(f"the number of cards must be 0-81, not {k!r}")
    return k


# --- exact --------------------------------------------------------------------

_BIT: Final = tuple(1 << c for c in range(81))
_ABOVE: Final = tuple(((1 << 81) - 1) >> (c + 1) << (c + 1) for c in range(81))
_TRIANGLE: Final = (0, 1, 3)  # 1RSD, 1RSO, 1RTD: not collinear


def _count_extensions(chosen: list[int], allowed: int, more: int) -> int:
    """Caps made by adding ``more`` cards from ``allowed`` (each above the last chosen)."""
    if more == 1:
        return allowed.bit_count()
    total = 0
    while allowed:
        low = allowed & -allowed
        card = low.bit_length() - 1
        allowed ^= low
        banned = 0
        for other in chosen:
            banned |= _BIT[THIRD[card * 81 + other]]
        chosen.append(card)
        total += _count_extensions(chosen, allowed & ~banned & _ABOVE[card], more - 1)
        chosen.pop()
    return total


def count_caps(k: int) -> int:
    """How many k-card collections of the deck hold no set (k <= EXACT_MAX, or >= 21).

    >>> count_caps(3) == math.comb(81, 3) - 1080
    True
    """
    _check_cards(k)
    if k < 3:
        return math.comb(81, k)
    if k > MAX_CAP:
        return 0
    if k > EXACT_MAX:
        raise ValueError(f"counting {k!r}-card caps is not cheap (at most {EXACT_MAX})")
    banned = sum(_BIT[c] for c in _TRIANGLE)
    for a in _TRIANGLE:
        for b in _TRIANGLE:
            if a != b:
                banned |= _BIT[THIRD[a * 81 + b]]
    allowed = ((1 << 81) - 1) & ~banned
    through = _count_extensions(list(_TRIANGLE), allowed, k - 3) if k > 3 else 1
    triangles = math.comb(81, 3) - 1080
    return triangles * through // math.comb(k, 3)


def exact_no_set(k: int) -> Fraction | None:
    """The exact probability that k random cards hold no set, or None when it is
    not cheap to count (9 <= k <= 20)."""
    if EXACT_MAX < _check_cards(k) <= MAX_CAP:
        return None
    return Fraction(count_caps(k), math.comb(81, k))


# --- sampled ------------------------------------------------------------------


def sample_no_set(k: int, samples: int, seed: int = 0) -> Estimate:
    """Monte Carlo: the share of ``samples`` random k-card draws that hold no set."""
    _check_cards(k)
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"the number of samples must be a positive integer, not {samples!r}")
    rng = np.random.default_rng(seed)
    misses = 0
    for start in range(0, samples, CHUNK):
        misses += _count_set_free(k, min(CHUNK, samples - start), rng)
    p = misses / samples
    return Estimate(p, math.sqrt(p * (1 - p) / samples), samples)


def _count_set_free(k: int, count: int, rng: np.random.Generator) -> int:
    """Draw ``count`` random k-card collections; how many hold no set."""
    width = -(-count // 64) * 64
    onboard = np.zeros((81, width), dtype=bool)
    drawn = np.argpartition(rng.random((81, count)), k - 1, axis=0)[:k] if k else None
    if drawn is not None:
        onboard[drawn, np.arange(count)] = True
    packed = np.packbits(onboard, axis=1, bitorder="little").view("<u8")
    present = packed[LINES[:, 0]] & packed[LINES[:, 1]] & packed[LINES[:, 2]]
    any_set = np.bitwise_or.reduce(present, axis=0)
    has = np.unpackbits(any_set.view(np.uint8), bitorder="little")[:count]
    return count - int(np.count_nonzero(has))


# --- during play --------------------------------------------------------------


def play_no_set(k: int, stats: SimulationStats) -> Estimate | None:
    """The share of k-card tables met during the simulated games that held no set,
    or None when no such table was met. The standard error treats the tables as
    independent, which those of one game are not quite."""
    count = stats.tables.get(_check_cards(k))
    if count is None or not count.seen:
        return None
    p = count.no_set_rate
    return Estimate(p, math.sqrt(p * (1 - p) / count.seen), count.seen)


def figures_for(k: int) -> list[RulebookFigure]:
    """The rulebook figures about k cards."""
    return [f for f in RULEBOOK if f.cards == k]


def comparison(
    k: int, random_cards: Estimate, play: Estimate | None, lang: str = "en"
) -> list[str]:
    """Sentences in ``lang`` saying how the rulebooks' figures about k cards compare with ours
    (the rulebooks' own words stay quoted as printed)."""
    lines = [_compare_one(figure, random_cards, lang) for figure in figures_for(k)]
    if play is not None and random_cards.probability > 0:
        ratio = play.probability / random_cards.probability
        if lines:
            why = gettext(
                lang,
                "taking sets out leaves tables poorer in sets, so the rulebooks' figures, "
                "made for random cards, understate how often play needs more cards",
            )
        else:
            why = gettext(lang, "taking sets out leaves tables poorer in sets")
        lines.append(
            ngettext(
                lang,
                "During play a {n}-card table holds no set {ratio} times as often as "
                "{n} random card ({play} against {random}): {why}.",
                "During play a {n}-card table holds no set {ratio} times as often as "
                "{n} random cards ({play} against {random}): {why}.",
                k,
                ratio=format_number(lang, ratio, 1),
                play=format_percent(lang, play.probability),
                random=format_percent(lang, random_cards.probability),
                why=why,
            )
        )
    return lines


def _compare_one(figure: RulebookFigure, ours: Estimate, lang: str) -> str:
    fields = {"sources": figure.sources, "quoted": repr(figure.quoted)}
    if "," in figure.sources:
        quoted = gettext(lang, "rulebooks {sources} say {quoted}", **fields)
    else:
        quoted = gettext(lang, "rulebook {sources} says {quoted}", **fields)
    if figure.probability == 0:
        return gettext(
            lang,
            "{quoted}: true: no 21 cards are free of sets "
            "(the largest set-free collection has 20).",
            quoted=quoted,
        )
    diff = ours.probability - figure.probability
    rounded = round(ours.probability, 2) == figure.probability  # "3%": one digit
    close = rounded or abs(diff) <= max(2 * ours.stderr, 0.05 * figure.probability)
    words = {
        "quoted": quoted,
        "implied": format_percent(lang, figure.probability),
        "measured": format_percent(lang, ours.probability),
        "odds": odds_text(ours, lang),
    }
    if close:
        return gettext(
            lang, "{quoted}, that is {implied} for no set: it matches {measured} ({odds}).", **words
        )
    if diff > 0:
        return gettext(
            lang,
            "{quoted}, that is {implied} for no set: a little lower than {measured} ({odds}).",
            **words,
        )
    return gettext(
        lang,
        "{quoted}, that is {implied} for no set: a little higher than {measured} ({odds}).",
        **words,
    )


def odds_text(estimate: Estimate, lang: str = "en") -> str:
    """The odds that k cards hold a set, in ``lang``: "33:1 that they hold a set"."""
    odds = estimate.odds_against
    if math.isinf(odds):
        return gettext(lang, "never")
    return gettext(lang, "{odds}:1 that they hold a set", odds=format_number(lang, odds, 0))
