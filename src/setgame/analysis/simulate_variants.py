"""Whole games of any variant with nobody erring (``setgame simulate --variant``).

The same statistics as :func:`setgame.analysis.simulate.simulate` (table states by size,
whether each held a group that may be claimed, cards left at the end), for every
variant of :mod:`setgame.rules.variants`, one game at a time on the engine's own
:class:`setgame.rules.table.Table` (so by the engine's rules of every flow), without
players or clocks:

- a table of ``variant.table_size`` cards is dealt; at each step a uniformly
  random group among those that may be claimed now (``Table.groups``) is taken;
- R11 generalized: when there is none, ``variant.grow_by`` cards are dealt
  (fewer when the stock runs short); the game ends when there is none and the
  stock is empty (R12);
- normal (and memory, which plays like normal here: nobody forgets): the claim
  leaves the table, and cards are dealt into its places only while the table
  would otherwise fall below its size (R09);
- chain: a claim after the first uses exactly ``links`` cards of the previous
  claim (kept apart from the table); its table cards leave and are replaced as
  R09 says; the claim becomes the previous one;
- puzzle: found groups stay on the table; once every group of the table is
  found the table is discarded and a new one dealt (a table whose groups are all
  found is not counted as a table state: it is replaced at once, or ends the game);
- shuffle: the claim leaves, the rest of the table goes back into the stock,
  which is shuffled, and a new table is dealt.

Deterministic from its seed (``random.Random``), pure: no clock.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from setgame.analysis.simulate import SimulationStats, TableCount, check_games
from setgame.rules.cards import CardError, parse_deck
from setgame.rules.decks import STANDARD
from setgame.rules.table import Table
from setgame.rules.variants import Variant

#: Games between two calls of the progress callback.
PROGRESS_EVERY = 100


@dataclass
class _Counts:
    seen: Counter[int] = field(default_factory=Counter)
    none: Counter[int] = field(default_factory=Counter)
    leftover: Counter[int] = field(default_factory=Counter)
    taken: int = 0
    claims: list[tuple[int, ...]] | None = None  # every claim, in order, when a list


def variant_cards(variant: Variant, deck: str = "full") -> list[int]:
    """The cards a game of ``variant`` is dealt from: its deck, or for a variant
    on the standard deck a deck of :func:`setgame.parse_deck` (``beginner``...)."""
    if variant.deck is STANDARD:
        cards = parse_deck(deck)
    elif deck.strip().lower() == "full":
        cards = list(variant.deck.cards)
    else:
        raise CardError(f"the deck {deck!r} filters the standard deck; {variant.title} has its own")
    if len(cards) < variant.table_size:
        raise CardError(
            f"{variant.title} deals {variant.table_size} cards, the deck {deck!r} has {len(cards)}"
        )
    return cards


def simulate_variant(
    variant: Variant,
    games: int,
    seed: int,
    deck: str = "full",
    progress: Callable[[int], None] | None = None,
) -> SimulationStats:
    """Play ``games`` whole games of ``variant``, deterministically from ``seed``."""
    check_games(games)
    cards = variant_cards(variant, deck)
    rng = random.Random(seed)
    counts = _Counts()
    for played in range(1, games + 1):
        _play(variant, cards, rng, counts)
        if progress is not None and (played % PROGRESS_EVERY == 0 or played == games):
            progress(played % PROGRESS_EVERY or PROGRESS_EVERY)
    tables = {n: TableCount(counts.seen[n], counts.none[n]) for n in sorted(counts.seen)}
    leftover = dict(sorted(counts.leftover.items()))
    return SimulationStats(games, deck, tables, leftover, counts.taken, variant.name)


def _play(variant: Variant, cards: list[int], rng: random.Random, counts: _Counts) -> None:
    table = Table(variant, variant.table_size)
    table.deal(cards, f"simulate:{rng.getrandbits(64)}")
    while True:
        groups = table.groups()
        if not groups and table.found:  # puzzle: all found, and no stock to deal anew
            counts.leftover[len(table.cards)] += 1
            return
        counts.seen[len(table.cards)] += 1
        if not groups:
            counts.none[len(table.cards)] += 1
            if not table.stock:
                counts.leftover[len(table.cards)] += 1
                return
            table.grow()
            continue
        counts.taken += 1
        group = groups[rng.randrange(len(groups))]
        if counts.claims is not None:
            counts.claims.append(group)
        table.take(group)
