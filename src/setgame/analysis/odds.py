"""Odds (R17): how many groups K random cards of a variant hold, how often none, and in play.

For every variant (``setgame odds --variant NAME``), among K random cards of its deck:

- :func:`exact_mean`: the mean number of groups, exactly, by linearity: every group of
  the whole deck lies among K random cards with probability C(N-m, K-m)/C(N, K), which
  is C(K, m)/C(N, m) for a group of m cards of a deck of N. The deck's groups are
  counted by the variant's kind, or for GhostSets (too many to list) by a subset-sum
  count over the deck's vector group (:func:`zero_sum_subsets`);
- :func:`sample_odds`: the same mean sampled (seeded, so pure), and the share of draws
  holding none (what R11's growth rule meets), each with its standard error; the
  variant's kind counts each draw;
- :func:`exact_none`: the share of draws holding none, exactly where it is known
  (fewer cards than a claim; sets of the standard deck; UltraSets: counted for 8 and 9
  cards, and 0 from 10 cards on, proved by an exhaustive search in
  :mod:`setgame.analysis.bounds`);
- :func:`play_no_set`: the share of K-card tables without a group to claim met in whole
  games of the variant (:mod:`setgame.analysis.simulate`), which is higher: the tables a
  game leaves behind are what remains after groups were taken out of them;
- the figures the rulebooks (:data:`RULEBOOK`) and others (:data:`PUBLISHED`) quote,
  each with whether this project's figure agrees.

The classic game (the standard deck, sets) is one of the variants; ``setgame odds``
without ``--variant`` shows its figures of old, from the set kind's fast paths:

- :func:`exact_no_set`: the exact probability that K random cards hold no set, for the
  sizes where counting is cheap (K <= 8, and K >= 21 where it is 0). Set-free
  collections ("caps") are counted through one fixed non-collinear triple: the affine
  group of the deck acts transitively on such triples, so
  ``caps(K) * C(K, 3) = triples * caps through one triple``.
- :func:`sample_no_set`: a Monte Carlo estimate with its standard error, for any K,
  every draw tested against the deck's 1080 sets at once (NumPy).

The random-cards figures are about the kind alone: in a chain flow a claim must also be
linked to the previous one, which only the in-play figure counts.

>>> exact_no_set(3)
Fraction(78, 79)
>>> round(float(exact_no_set(4)), 6)
0.949367
>>> exact_no_set(21)
Fraction(0, 1)
>>> from setgame.rules.variants import ULTRASET
>>> round(float(exact_mean(ULTRASET, 12)), 2), round(float(exact_mean(ULTRASET, 9)), 2)
(18.8, 4.78)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from setgame.analysis.bounds import count_ultra_free, ultra_free
from setgame.analysis.simulate import LINES, SimulationStats
from setgame.rules.algebra import digits, encode
from setgame.rules.decks import STANDARD, Deck
from setgame.rules.kind import Kind
from setgame.rules.kinds import GHOSTSET, GhostKind
from setgame.rules.sets import THIRD
from setgame.rules.variants import Variant
from setgame.words.catalog import N_, format_number, format_percent, gettext, ngettext

# --- the classic game: sets of the standard deck --------------------------------

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
    """The share of k-card tables met during the simulated games (of any variant) that
    held no group to claim, or None when no such table was met. The standard error
    treats the tables as independent, which those of one game are not quite."""
    count = stats.tables.get(k)
    if count is None or not count.seen:
        return None
    p = count.no_set_rate
    return Estimate(p, math.sqrt(p * (1 - p) / count.seen), count.seen)


def figures_for(k: int) -> list[RulebookFigure]:
    """The rulebook figures about k cards."""
    return [f for f in RULEBOOK if f.cards == k]


# --- every variant: its kind's groups among random cards ---------------------------

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


def _cards(variant: Variant, cards: int | None) -> int:
    k = variant.table_size if cards is None else cards
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= len(variant.deck):
        raise ValueError(f"the number of cards must be 0-{len(variant.deck)}, not {k!r}")
    return k


def sample_odds(variant: Variant, cards: int | None = None, samples: int = 2000,
                seed: int = 0) -> Odds:
    """Monte Carlo over ``samples`` random tables of ``cards`` cards (default: the
    variant's table size) of the variant's deck."""
    k = _cards(variant, cards)
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
    k = _cards(variant, cards)
    m, n = variant.claim_size, len(variant.deck)
    return Fraction(deck_groups(variant.kind, variant.deck) * math.comb(k, m), math.comb(n, m))


@cache
def deck_groups(kind: Kind, deck: Deck) -> int:
    """How many groups of ``kind`` the whole deck holds."""
    if kind is GHOSTSET:
        return zero_sum_subsets(deck, kind.size)
    return kind.count(deck.cards, deck)


def zero_sum_subsets(deck: Deck, size: int, cards: Iterable[int] | None = None) -> int:
    """How many ``size``-card subsets of ``cards`` (default: the whole three-valued deck)
    sum to zero in every attribute: ways[j][s] counts j-card subsets summing to s, card
    by card (ways[j][s] gains ways[j - 1][s - card]; ``_shifts`` gives s - card)."""
    shifted = _shifts(deck.width)
    ways = np.zeros((size + 1, deck.space), dtype=np.int64)
    ways[0, 0] = 1
    for card in deck.cards if cards is None else cards:
        ways[1:] += ways[:-1, shifted[card]]
    return int(ways[size, 0])


@cache
def _shifts(width: int) -> npt.NDArray[np.int64]:
    """``_shifts(w)[c][s]``: the card s - c (three-valued decks of w attributes)."""
    vectors = digits(3, width).astype(np.int64)
    return encode((vectors[None, :, :] - vectors[:, None, :]) % 3, 3)


FORKS: Final = "Set with Forks, help page"
DEFAULT_SAMPLES: Final = 20_000
"""Random draws when ``--samples`` is not given (fewer where the budget says so)."""
PAIR_BUDGET: Final = 100_000_000
"""Draws x pairs of cards in a draw, at most: counting groups costs about 0.1-0.5 µs
a pair, so sampling stays under about a minute (256 4Set cards: 3063 draws)."""


@dataclass(frozen=True, slots=True)
class Published:
    """A figure published about a kind of set: ``mean`` groups among exactly
    ``cards`` cards ("about 5"), or (``mean`` None) none missing from ``cards`` on."""

    source: str
    kind: str
    cards: int
    quoted: str
    mean: int | None = None


PUBLISHED: Final = (
    Published(FORKS, "ultraset", 9, "about 5 UltraSets among 9 cards", 5),
    Published(FORKS, "ultraset", 12, "about 19 UltraSets among 12 cards", 19),
    Published(FORKS, "ultraset", 10, "any 10 cards hold an UltraSet"),
)


@dataclass(frozen=True, slots=True)
class Check:
    """A published figure beside this project's: ``ours`` and whether they agree."""

    figure: Published
    ours: float
    agrees: bool


@dataclass(frozen=True, slots=True)
class VariantOdds:
    """The figures of ``variant`` among ``cards`` random cards (see the module)."""

    variant: Variant
    cards: int
    deck_groups: int
    mean: Fraction
    sampled: Odds
    none: Fraction | None
    play: Estimate | None  # no group to claim in play: share, standard error, tables met
    games: int
    checks: tuple[Check, ...]

    def to_json(self) -> dict[str, Any]:
        s = self.sampled
        return {
            "variant": self.variant.name,
            "cards": self.cards,
            "claim": self.variant.claim_size,
            "deck_groups": self.deck_groups,
            "mean": {"exact": float(self.mean), "fraction": str(self.mean),
                     "sampled": s.mean, "stderr": s.mean_stderr, "n": s.samples},
            "none": {"exact": None if self.none is None else float(self.none),
                     "fraction": None if self.none is None else str(self.none),
                     "sampled": s.none, "stderr": s.none_stderr, "n": s.samples},
            "play": None if self.play is None else {"p": self.play.probability,
                                                    "stderr": self.play.stderr,
                                                    "n": self.play.samples},
            "games": self.games,
            "published": [{"source": c.figure.source, "quoted": c.figure.quoted,
                           "ours": c.ours, "agrees": c.agrees} for c in self.checks],
        }  # fmt: skip


def most_samples(k: int) -> int:
    """The most draws of k cards the budget allows."""
    return max(1, min(MAX_SAMPLES, PAIR_BUDGET // max(1, math.comb(k, 2))))


def check_request(variant: Variant, cards: int | None, samples: int | None) -> tuple[int, int]:
    """The cards and the draws to sample, checked (a ValueError quoting a bad one):
    by default the variant's table size, and DEFAULT_SAMPLES within the budget."""
    k = variant.table_size if cards is None else cards
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= len(variant.deck):
        raise ValueError(
            f"{variant.title} has {len(variant.deck)} cards: --cards must be "
            f"0-{len(variant.deck)}, not {k!r}"
        )
    most = most_samples(k)
    if samples is None:
        return k, min(DEFAULT_SAMPLES, most)
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= most:
        raise ValueError(f"--samples must be 1-{most} for draws of {k} cards, not {samples!r}")
    return k, samples


class CountedGhosts(GhostKind):
    """GhostSets counted without listing them (listing grows as n**6 and stops at
    30 cards): how many 6-card subsets of the table sum to zero
    (:func:`zero_sum_subsets`, as for the whole deck)."""

    max_table = None  # type: ignore[assignment]  # no listing, so no limit (GhostKind: 30)

    def count(self, table: Iterable[int], deck: Deck | None = None) -> int:
        deck = deck or self.deck
        return zero_sum_subsets(deck, self.size, self._table(table, deck))


COUNTED_GHOSTS: Final = CountedGhosts()


def _sampled_as(variant: Variant) -> Variant:
    """The variant whose kind counts groups fastest (the same counts)."""
    if variant.kind is GHOSTSET:
        return variant.derive(variant.name, variant.title, kind=COUNTED_GHOSTS)
    return variant


def variant_odds(
    variant: Variant, cards: int | None, samples: int | None, seed: int, stats: SimulationStats
) -> VariantOdds:
    """The figures of ``variant`` among ``cards`` cards (None: its table size);
    ``stats`` are whole games of it
    (:func:`setgame.analysis.simulate.games_of`)."""
    k, samples = check_request(variant, cards, samples)
    sampled = sample_odds(_sampled_as(variant), k, samples, seed)
    mean = exact_mean(variant, k)
    none = exact_none(variant, k)
    checks = tuple(_checked(f, mean, none) for f in published_for(variant, k))
    return VariantOdds(variant, k, deck_groups(variant.kind, variant.deck), mean, sampled,
                       none, play_no_set(k, stats), stats.games, checks)  # fmt: skip


def exact_none(variant: Variant, k: int) -> Fraction | None:
    """The exact probability that k random cards hold no group of the variant's
    kind, where this project knows it; else None."""
    if k < variant.claim_size:
        return Fraction(1)
    if variant.deck is not STANDARD:
        return None
    if variant.kind.name == "set":
        return exact_no_set(k)
    if variant.kind.name == "ultraset" and k >= 8:
        if k >= 10 and no_ten_ultra_free():
            return Fraction(0)
        return Fraction(count_ultra_free(k), math.comb(len(STANDARD), k))
    return None


@cache
def no_ten_ultra_free() -> bool:
    """Whether the exhaustive search finds no 10 cards free of UltraSets (it does
    not: any 10 cards hold one; under a second)."""
    return not ultra_free(10)


def published_for(variant: Variant, k: int) -> list[Published]:
    """The published figures about the variant's kind (on the standard deck) and k cards."""
    if variant.deck is not STANDARD:
        return []
    return [
        f for f in PUBLISHED
        if f.kind == variant.kind.name and (f.cards == k if f.mean is not None else k >= f.cards)
    ]  # fmt: skip


def _checked(figure: Published, mean: Fraction, none: Fraction | None) -> Check:
    if figure.mean is not None:  # "about N": N is the mean rounded
        return Check(figure, float(mean), round(mean) == figure.mean)
    return Check(figure, float("nan") if none is None else float(none), none == 0)


# --- words: the text of ``setgame odds`` -----------------------------------------


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




def _percent(lang: str, share: float, stderr: float | None = None) -> str:
    """A share (and its standard error) as a percentage of three significant digits."""
    text = format_percent(lang, share)
    return text if not stderr else f"{text} ± {format_percent(lang, stderr)}"




def text_lines(odds: VariantOdds, lang: str) -> list[str]:
    """What ``setgame odds --variant NAME`` prints, in ``lang``."""
    v, s = odds.variant, odds.sampled
    draws = ngettext(lang, "{n} draw", "{n} draws", s.samples)
    lines = [
        ngettext(lang, "{title}: groups of {claim} cards among {n} random card",
                 "{title}: groups of {claim} cards among {n} random cards", odds.cards,
                 title=v.title, claim=v.claim_size),
        "  " + gettext(lang, "the whole deck ({cards} cards) holds {groups} groups",
                       cards=len(v.deck), groups=format_number(lang, odds.deck_groups, 0)),
        "  " + gettext(lang, "mean number of groups, exact: {mean} (= {fraction})",
                       mean=format_number(lang, float(odds.mean), 2), fraction=odds.mean),
        "  " + gettext(lang, "mean number of groups, {draws}: {mean} ± {error}", draws=draws,
                       mean=format_number(lang, s.mean, 2),
                       error=format_number(lang, s.mean_stderr, 2)),
    ]  # fmt: skip
    if odds.none is not None:
        exact = _percent(lang, float(odds.none))
        lines.append("  " + gettext(lang, "no group, exact: {percent} (= {fraction})",
                                    percent=exact, fraction=odds.none))  # fmt: skip
    lines.append("  " + gettext(lang, "no group, {draws}: {percent}", draws=draws,
                                percent=_percent(lang, s.none, s.none_stderr)))  # fmt: skip
    lines.append("  " + _play_text(odds, lang))
    for check in odds.checks:
        ours = (format_number(lang, check.ours, 2) if check.figure.mean is not None
                else _percent(lang, check.ours))  # fmt: skip
        words = {"source": check.figure.source, "quoted": repr(check.figure.quoted), "ours": ours}
        if check.agrees:
            lines.append(gettext(lang, "{source} says {quoted}: it agrees with {ours}.", **words))
        else:
            lines.append(gettext(lang, "{source} says {quoted}: it differs from {ours}.", **words))
    if v.flow.links:
        lines.append(gettext(lang, "In play a claim must also use cards of the previous claim: "
                                   "only the figure during play counts that."))  # fmt: skip
    return lines


def _play_text(odds: VariantOdds, lang: str) -> str:
    games = ngettext(lang, "{n} game", "{n} games", odds.games)
    if odds.play is None:
        return gettext(lang, "during play ({games}): no {cards}-card table met",
                       games=games, cards=odds.cards)  # fmt: skip
    play = odds.play
    tables = ngettext(lang, "{n} table", "{n} tables", play.samples)
    return gettext(lang, "no group to claim during play ({games}, {tables}): {percent}",
                   games=games, tables=tables,
                   percent=_percent(lang, play.probability, play.stderr))  # fmt: skip


def markdown_table(rows: list[VariantOdds], lang: str) -> str:
    """A Markdown table of the figures of several variants, in ``lang``."""
    headings = (N_("variant"), N_("cards"), N_("groups in the deck"), N_("mean (exact)"),
                N_("mean (sampled)"), N_("no group (exact)"), N_("no group (sampled)"),
                N_("no group to claim in play"), N_("published"))  # fmt: skip
    out = ["| " + " | ".join(gettext(lang, h) for h in headings) + " |",
           "|---|" + "---:|" * (len(headings) - 2) + "---|"]  # fmt: skip
    for row in rows:
        s = row.sampled
        cells = [
            row.variant.title,
            str(row.cards),
            format_number(lang, row.deck_groups, 0),
            format_number(lang, float(row.mean), 2),
            f"{format_number(lang, s.mean, 2)} ± {format_number(lang, s.mean_stderr, 2)}",
            "" if row.none is None else _percent(lang, float(row.none)),
            _percent(lang, s.none, s.none_stderr),
            "" if row.play is None else _percent(lang, row.play.probability, row.play.stderr),
            "; ".join(f"{c.figure.quoted} ({_verdict(c, lang)})" for c in row.checks),
        ]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def _verdict(check: Check, lang: str) -> str:
    return gettext(lang, "agrees") if check.agrees else gettext(lang, "differs")
