"""``setgame odds --variant NAME``: how many groups K random cards of a variant hold.

For a variant's kind of set and deck (:mod:`setgame.rules.variants`), among K random
cards: the mean number of groups, exactly (:func:`setgame.analysis.variant_odds.exact_mean`)
and sampled (:func:`~setgame.analysis.variant_odds.sample_odds`); the share of draws
holding none, sampled and, where it is known, exactly (fewer cards than a
claim; :func:`setgame.analysis.odds.exact_no_set` for sets of the standard deck;
:mod:`setgame.analysis.bounds` for UltraSets: counted for 8 and 9 cards, and 0
from 10 cards on, proved by an exhaustive search); the share of K-card tables
without a group to claim met in whole games of the variant
(:mod:`setgame.analysis.simulate_variants`); and the figures published elsewhere, each
with whether this project's figure agrees.

The random-cards figures are about the kind alone: in a chain flow a claim must
also be linked to the previous one, which only the in-play figure counts.
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

from setgame.analysis.simulate import SimulationStats
from setgame.analysis.variant_odds import MAX_SAMPLES, Odds, deck_groups, exact_mean, sample_odds
from setgame.rules.algebra import digits, encode
from setgame.rules.decks import STANDARD, Deck
from setgame.rules.kinds import GHOSTSET, GhostKind
from setgame.rules.variants import Variant

FORKS: Final = "Set with Forks, help page"
PLAY_KEYS: Final = ("p", "stderr", "n")
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
    play: tuple[float, float, int] | None  # share, its standard error, tables met
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
            "play": None if self.play is None else dict(zip(PLAY_KEYS, self.play, strict=True)),
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
    30 cards): how many 6-card subsets of the table sum to zero, by the subset-sum
    count the variants' odds use for the whole deck (ways[j][s]: j-card subsets
    summing to s, card by card)."""

    max_table = None  # type: ignore[assignment]  # no listing, so no limit (GhostKind: 30)

    def count(self, table: Iterable[int], deck: Deck | None = None) -> int:
        deck = deck or self.deck
        shifted = _shifts(deck.width)
        ways = np.zeros((self.size + 1, deck.space), dtype=np.int64)
        ways[0, 0] = 1
        for card in self._table(table, deck):
            ways[1:] += ways[:-1, shifted[card]]  # ways[j][s] += ways[j - 1][s - card]
        return int(ways[self.size, 0])


@cache
def _shifts(width: int) -> npt.NDArray[np.int64]:
    """``_shifts(w)[c][s]``: the card s - c (three-valued decks of w attributes)."""
    vectors = digits(3, width).astype(np.int64)
    return encode((vectors[None, :, :] - vectors[:, None, :]) % 3, 3)


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
    (:func:`setgame.analysis.simulate_variants.simulate_variant`)."""
    k, samples = check_request(variant, cards, samples)
    sampled = sample_odds(_sampled_as(variant), k, samples, seed)
    mean = exact_mean(variant, k)
    none = exact_none(variant, k)
    checks = tuple(_check(f, mean, none) for f in published_for(variant, k))
    return VariantOdds(variant, k, deck_groups(variant.kind, variant.deck), mean, sampled,
                       none, play_none(k, stats), stats.games, checks)  # fmt: skip


def exact_none(variant: Variant, k: int) -> Fraction | None:
    """The exact probability that k random cards hold no group of the variant's
    kind, where this project knows it; else None."""
    if k < variant.claim_size:
        return Fraction(1)
    if variant.deck is not STANDARD:
        return None
    if variant.kind.name == "set":
        from setgame.analysis.odds import exact_no_set

        return exact_no_set(k)
    if variant.kind.name == "ultraset" and k >= 8:
        if k >= 10 and no_ten_ultra_free():
            return Fraction(0)
        from setgame.analysis.bounds import count_ultra_free

        return Fraction(count_ultra_free(k), math.comb(len(STANDARD), k))
    return None


@cache
def no_ten_ultra_free() -> bool:
    """Whether the exhaustive search finds no 10 cards free of UltraSets (it does
    not: any 10 cards hold one; under a second)."""
    from setgame.analysis.bounds import ultra_free

    return not ultra_free(10)


def published_for(variant: Variant, k: int) -> list[Published]:
    """The published figures about the variant's kind (on the standard deck) and k cards."""
    if variant.deck is not STANDARD:
        return []
    return [
        f for f in PUBLISHED
        if f.kind == variant.kind.name and (f.cards == k if f.mean is not None else k >= f.cards)
    ]  # fmt: skip


def _check(figure: Published, mean: Fraction, none: Fraction | None) -> Check:
    if figure.mean is not None:  # "about N": N is the mean rounded
        return Check(figure, float(mean), round(mean) == figure.mean)
    return Check(figure, float("nan") if none is None else float(none), none == 0)


def play_none(k: int, stats: SimulationStats) -> tuple[float, float, int] | None:
    """The share of k-card tables met in play that held no group to claim, its
    standard error (the tables taken as independent), and how many were met."""
    count = stats.tables.get(k)
    if count is None or not count.seen:
        return None
    p = count.no_set_rate
    return p, math.sqrt(p * (1 - p) / count.seen), count.seen


# --- words: the text of ``setgame odds --variant`` and the Markdown table ----------


def _percent(lang: str, share: float, stderr: float | None = None) -> str:
    """A share (and its standard error) as a percentage of three significant digits."""
    text = _significant(lang, share)
    return text if not stderr else f"{text} ± {_significant(lang, stderr)}"


def _significant(lang: str, share: float) -> str:
    from setgame.words.catalog import format_percent

    return format_percent(lang, share)


def text_lines(odds: VariantOdds, lang: str) -> list[str]:
    """What ``setgame odds --variant NAME`` prints, in ``lang``."""
    from setgame.words.catalog import format_number, gettext, ngettext

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
    from setgame.words.catalog import gettext, ngettext

    games = ngettext(lang, "{n} game", "{n} games", odds.games)
    if odds.play is None:
        return gettext(lang, "during play ({games}): no {cards}-card table met",
                       games=games, cards=odds.cards)  # fmt: skip
    share, stderr, seen = odds.play
    tables = ngettext(lang, "{n} table", "{n} tables", seen)
    return gettext(lang, "no group to claim during play ({games}, {tables}): {percent}",
                   games=games, tables=tables, percent=_percent(lang, share, stderr))  # fmt: skip


def markdown_table(rows: list[VariantOdds], lang: str) -> str:
    """A Markdown table of the figures of several variants, in ``lang``."""
    from setgame.words.catalog import N_, format_number, gettext

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
            "" if row.play is None else _percent(lang, row.play[0], row.play[1]),
            "; ".join(f"{c.figure.quoted} ({_verdict(c, lang)})" for c in row.checks),
        ]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def _verdict(check: Check, lang: str) -> str:
    from setgame.words.catalog import gettext

    return gettext(lang, "agrees") if check.agrees else gettext(lang, "differs")
