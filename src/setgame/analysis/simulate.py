"""Whole games with nobody erring, of any variant (``setgame simulate``; R17's figures).

Each game is played by the rules fixed for simulation: at each step a uniformly random
group among those that may be claimed is taken; cards are dealt into the places of a
claim only while the table would otherwise fall below its size (R09); more cards are
dealt when the table holds no group (R11); the game ends when there is none and the
stock is empty (R12). What is counted: table states by size and whether each held a
group, the cards left at the end, the groups taken.

Every variant is played by :func:`simulate_variant`, one game at a time on the engine's
own :class:`setgame.rules.table.Table` (so by the engine's rules of every flow, its
variant's kind judging), without players or clocks:

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

The classic game has the set kind's fast path, :func:`simulate`: a batch of games side
by side with NumPy. A table is a column of an ``81 x G`` presence mask; once a step the
mask is packed 64 games to a 64-bit word, and each of the 1080 sets of the deck (as the
set kind finds them, :data:`LINES`) is tested in every game at once with two ANDs of
packed rows. The few (set, game) hits are unpacked and one is drawn per game. The cost
per step grows with G (and a little with how many sets are on the tables), so the time
grows linearly with the number of games. :func:`simulate_plain` plays the same rules
one game at a time in plain Python (a third-card lookup per pair): the baseline and
cross-check. :func:`games_of` picks the way for a variant.

All are deterministic from their seed, and pure: they keep no clock (the caller times
them if it wants a speed).

>>> stats = simulate(200, seed=1)
>>> stats.games, sum(stats.leftover.values())
(200, 200)
>>> 3 in stats.leftover   # three cards left would sum to zero: a set (see tests)
False
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from setgame.rules.cards import Card, CardError, parse_deck
from setgame.rules.decks import STANDARD
from setgame.rules.sets import SET, THIRD
from setgame.rules.table import Table
from setgame.rules.variants import CLASSIC, Variant

SLOTS: Final = 21
"""The most cards a table can hold: any 21 cards contain a set (R17)."""
BATCH: Final = 8192
"""Games played side by side; fixed, so the results depend only on the seed."""

U8 = npt.NDArray[np.uint8]
Ints = npt.NDArray[np.intp]
Mask = npt.NDArray[np.bool_]
Words = npt.NDArray[np.uint64]
Progress = Callable[[int], None]

#: LINES[k]: the three cards of the k-th of the 1080 sets of the deck, as the set kind
#: finds them among the whole deck (in the order of their first two cards).
LINES: Final = np.array(SET.find(STANDARD.cards, STANDARD), dtype=np.intp)


@dataclass(frozen=True, slots=True)
class TableCount:
    """Table states of one size met during play: how many, and how many held no set."""

    seen: int = 0
    no_set: int = 0

    @property
    def no_set_rate(self) -> float:
        return self.no_set / self.seen if self.seen else 0.0


@dataclass(frozen=True, slots=True)
class SimulationStats:
    """What :func:`simulate` counted over ``games`` whole games."""

    games: int
    deck: str
    tables: Mapping[int, TableCount] = field(default_factory=dict)
    """Every table state met, by its number of cards (the final table included)."""
    leftover: Mapping[int, int] = field(default_factory=dict)
    """Games by the number of cards left on the table at the end."""
    sets_taken: int = 0
    variant: str = "classic"
    """The variant played (:mod:`setgame.rules.variants`)."""

    @property
    def sets_per_game(self) -> float:
        return self.sets_taken / self.games if self.games else 0.0

    def to_json(self, seconds: float | None = None) -> dict[str, Any]:
        """The JSON form printed by ``setgame simulate --json``; ``seconds`` is the
        time the caller measured for the run (it gives ``games_per_second``)."""
        speed = self.games / seconds if seconds else None
        return {
            "variant": self.variant,
            "games": self.games,
            "tables": {
                str(size): {"seen": count.seen, "no_set": count.no_set}
                for size, count in sorted(self.tables.items())
            },
            "leftover": {str(size): n for size, n in sorted(self.leftover.items())},
            "sets_per_game": self.sets_per_game,
            "games_per_second": speed,
        }


class _Tally:
    """Counts summed over batches (mutable; frozen into :class:`SimulationStats`)."""

    def __init__(self) -> None:
        self.seen = np.zeros(SLOTS + 1, dtype=np.int64)
        self.no_set = np.zeros(SLOTS + 1, dtype=np.int64)
        self.leftover = np.zeros(SLOTS + 1, dtype=np.int64)
        self.sets_taken = 0

    def freeze(self, games: int, deck: str) -> SimulationStats:
        tables = {
            size: TableCount(int(self.seen[size]), int(self.no_set[size]))
            for size in np.flatnonzero(self.seen).tolist()
        }
        leftover = {
            size: int(self.leftover[size]) for size in np.flatnonzero(self.leftover).tolist()
        }
        return SimulationStats(games, deck, tables, leftover, self.sets_taken)


def _deck_cards(deck: str) -> list[Card]:
    cards = parse_deck(deck)
    if len(cards) < 12:
        raise CardError(f"a deck of at least 12 cards is needed, {deck!r} has {len(cards)}")
    return cards


def simulate(
    games: int, seed: int, deck: str = "full", progress: Progress | None = None
) -> SimulationStats:
    """Play ``games`` whole games with nobody erring, deterministically from ``seed``.

    ``deck`` is a deck name for :func:`setgame.parse_deck` (``full``, ``beginner``, ...).
    ``progress``, if given, is called with the number of games just finished, batch
    by batch.
    """
    check_games(games)
    cards = np.array(_deck_cards(deck), dtype=np.uint8)
    rng = np.random.default_rng(seed)
    tally = _Tally()
    for start in range(0, games, BATCH):
        size = min(BATCH, games - start)
        decks = rng.permuted(np.tile(cards[:, None], (1, size)), axis=0)
        _play_batch(decks, rng, tally)
        if progress is not None:
            progress(size)
    return tally.freeze(games, deck)


def check_games(games: int) -> None:
    """A ``ValueError`` quoting ``games`` unless it is a positive int."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"the number of games must be a positive integer, not {games!r}")


def _play_batch(decks: U8, rng: np.random.Generator, tally: _Tally) -> None:
    """Play one game per column of ``decks`` (each a shuffled deck) to its end.

    The table of game g is the column ``onboard[:, g]`` (card -> on the table);
    slots do not matter to what is counted, so there are none.
    """
    length, count = decks.shape
    games = np.arange(count)
    onboard = np.zeros((81, -(-count // 64) * 64), dtype=bool)  # whole 64-bit words
    onboard[decks[:12], games] = True
    size = np.full(count, 12, dtype=np.intp)
    dealt = np.full(count, 12, dtype=np.intp)
    active = np.ones(count, dtype=bool)
    while active.any():
        line = _choose_sets(onboard, count, rng.random((count,)))
        has_set = line >= 0
        more = dealt < length
        tally.seen += np.bincount(size[active], minlength=SLOTS + 1)
        tally.no_set += np.bincount(size[active & ~has_set], minlength=SLOTS + 1)
        tally.sets_taken += int(np.count_nonzero(has_set))
        over = active & ~has_set & ~more
        tally.leftover += np.bincount(size[over], minlength=SLOTS + 1)
        active &= ~over
        onboard[:, np.flatnonzero(over)] = False
        taking = np.flatnonzero(has_set)
        onboard[LINES[line[taking]].T, taking] = False
        refill = has_set & (size == 12) & more
        size[has_set & ~refill] -= 3
        adding = active & ~has_set  # no set but cards left: three more (R11)
        size[adding] += 3
        grow = np.flatnonzero(refill | adding)
        new = decks[dealt[grow] + np.arange(3)[:, None], grow]
        onboard[new, grow] = True
        dealt[grow] += 3


def _choose_sets(onboard: Mask, count: int, uniform: npt.NDArray[np.float64]) -> Ints:
    """Per game, the index in LINES of a uniformly random set on its table, or -1.

    The tables are packed 64 games to a word, so each of the 1080 possible sets is
    checked in all games at once with two ANDs; the few present ones are then
    unpacked word by word.
    """
    # Game g is bit g % 64 of word g // 64 (little-endian words, whatever the machine).
    packed = np.packbits(onboard, axis=1, bitorder="little").view("<u8")
    present = packed[LINES[:, 0]] & packed[LINES[:, 1]] & packed[LINES[:, 2]]
    line, game = _unpack(present)
    order = np.argsort(game.astype(np.uint16), kind="stable")  # a radix sort: BATCH <= 2**16
    line, game = line[order], game[order]
    counts = np.bincount(game, minlength=count)
    starts = np.cumsum(counts) - counts
    chosen = np.full(count, -1, dtype=np.intp)
    with_set = np.flatnonzero(counts)
    pick = (uniform[with_set] * counts[with_set]).astype(np.intp)
    chosen[with_set] = line[starts[with_set] + pick]
    return chosen


def _unpack(present: Words) -> tuple[Ints, Ints]:
    """The (set, game) pairs whose bit is set in ``present`` (sets x words)."""
    width = present.shape[1]
    where = np.flatnonzero(present)
    words = present.ravel()[where]
    line, word = np.divmod(where, width)
    lines, games = [], []
    one = np.uint64(1)
    while len(words):
        low = words & (~words + one)
        bit = np.frexp(low.astype(np.float64))[1] - 1  # exact: low is a power of two
        lines.append(line)
        games.append(word * 64 + bit)
        words = words ^ low
        left = words != 0
        words, line, word = words[left], line[left], word[left]
    if not lines:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    return np.concatenate(lines), np.concatenate(games)


# --- the plain baseline -------------------------------------------------------


def simulate_plain(games: int, seed: int, deck: str = "full") -> SimulationStats:
    """The same games as :func:`simulate` by the same rules, one at a time in plain
    Python (the third card of each pair looked up in ``THIRD``). The baseline for
    the benchmark and the cross-check for the tests; the random streams differ, so
    the two agree in distribution, not game by game."""
    check_games(games)
    cards = _deck_cards(deck)
    rng = random.Random(seed)
    seen: Counter[int] = Counter()
    no_set: Counter[int] = Counter()
    leftover: Counter[int] = Counter()
    taken = 0
    for _ in range(games):
        taken += _play_plain(cards, rng, seen, no_set, leftover)
    tables = {size: TableCount(seen[size], no_set[size]) for size in sorted(seen)}
    return SimulationStats(games, deck, tables, dict(sorted(leftover.items())), taken)


def _sets_plain(table: Sequence[Card]) -> list[tuple[int, int, int]]:
    """Slots (i, j, k) of every set on ``table``: one THIRD lookup per pair."""
    slot = {card: k for k, card in enumerate(table)}
    found = []
    for i, a in enumerate(table):
        row = a * 81
        for j in range(i + 1, len(table)):
            k = slot.get(THIRD[row + table[j]], -1)
            if k > j:
                found.append((i, j, k))
    return found


def _play_plain(
    cards: list[Card],
    rng: random.Random,
    seen: Counter[int],
    no_set: Counter[int],
    leftover: Counter[int],
) -> int:
    deck = cards[:]
    rng.shuffle(deck)
    table, deck = deck[:12], deck[12:]
    taken = 0
    while True:
        sets = _sets_plain(table)
        seen[len(table)] += 1
        if not sets:
            no_set[len(table)] += 1
            if not deck:
                leftover[len(table)] += 1
                return taken
            table += deck[:3]
            del deck[:3]
            continue
        taken += 1
        slots = sets[rng.randrange(len(sets))]
        if len(table) == 12 and deck:
            for slot in slots:
                table[slot] = deck.pop()
        else:
            table = [card for k, card in enumerate(table) if k not in slots]


# --- every variant, on the engine's table ------------------------------------

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


def games_of(
    variant: Variant, games: int, seed: int, deck: str = "full", progress: Progress | None = None
) -> SimulationStats:
    """Whole games of ``variant``: the classic game by the set kind's batch loop
    (:func:`simulate`), any other by the engine's table (:func:`simulate_variant`)."""
    if variant is CLASSIC:
        return simulate(games, seed, deck, progress)
    return simulate_variant(variant, games, seed, deck, progress)
