"""Finding the sets of many tables at once (R05), with NumPy.

One :func:`~setgame.rules.sets.find_sets` call costs a few microseconds, most of it
Python call and object overhead. Over many tables of one size the same pair
search runs as a handful of array operations: for every table and every pair
(i, j) of positions, the card completing the pair (``THIRD``), then where that
card lies on its table (-1 when absent); a set is a pair whose third card lies
after j. NumPy is imported on the first large batch only, so ``import setgame``
and the small cases stay light.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, Final

from setgame.rules.cards import Card
from setgame.rules.sets import THIRD, Triple, _as_bytes, find_sets

#: Below this many tables of one size, one find_sets call each is faster.
BATCH_MIN: Final = 32
#: Tables solved per array pass: bounds the memory (about 1 KB a 12-card table).
BATCH_ROWS: Final = 8192


def find_sets_batch(tables: Iterable[Sequence[Card]]) -> list[list[Triple]]:
    """Every set of each table, as :func:`~setgame.rules.sets.find_sets` gives it for that
    table (the cards as ints): a list per table, in the order of ``tables``.

    Tables may differ in size; those of one size are solved together with NumPy.
    Raises :class:`~setgame.rules.cards.CardError` when a table holds something that is
    not a card.

    >>> from setgame import parse_cards, find_sets_batch, card_names
    >>> tables = [parse_cards("1RSD 2RSD 3RSD".split()), parse_cards("1RSD 2GTO".split())]
    >>> [[card_names(s) for s in sets] for sets in find_sets_batch(tables)]
    [[['1RSD', '2RSD', '3RSD']], []]
    """
    packed = [_as_bytes(t) if isinstance(t, bytes) else _packed(t) for t in tables]
    found: list[list[Triple]] = [[] for _ in packed]
    by_size: dict[int, list[int]] = {}
    for index, cards in enumerate(packed):
        by_size.setdefault(len(cards), []).append(index)
    for size, indices in by_size.items():
        if size < 3:
            continue
        if len(indices) < BATCH_MIN:
            for index in indices:
                found[index] = find_sets(packed[index])
            continue
        for start in range(0, len(indices), BATCH_ROWS):
            part = indices[start : start + BATCH_ROWS]
            for index, sets in zip(part, _solve_group([packed[i] for i in part]), strict=True):
                found[index] = sets
    return found


def _packed(cards: Sequence[Card]) -> bytes:
    """A table as bytes, one a card; what is not a card raises CardError."""
    try:
        packed = bytes(cards)
    except (TypeError, ValueError):
        return _as_bytes(list(cards))
    return packed if max(packed, default=0) < 81 else _as_bytes(list(cards))


@cache
def _tables() -> tuple[Any, Any]:
    """THIRD as an array, with 81 (no card) for a pair of equal cards: 81 is never
    on a table, so an equal pair never completes."""
    import numpy as np

    third = np.frombuffer(THIRD, dtype=np.uint8).reshape(81, 81).copy()
    np.fill_diagonal(third, 81)
    return np, third.ravel()


@cache
def _pairs(n: int) -> tuple[Any, Any, Any]:
    """Positions i < j of every pair on an n-card table, in find_sets' order."""
    np, _ = _tables()
    first, second = np.triu_indices(n, 1)
    return first, second, second.astype(np.int8)


def find_array(cards: Any) -> tuple[Any, Any, Any, Any]:
    """The sets of the tables in the rows of ``cards`` (an m x n uint8 array of card
    numbers, n >= 3, each row without repeats): four arrays, one entry per set, in
    find_sets' order: the row, and the set's cards in their order on the table."""
    np, third = _tables()
    m, n = cards.shape
    first, second, second8 = _pairs(n)
    narrow = cards.astype(np.uint16)
    thirds = third[narrow[:, first] * 81 + narrow[:, second]]
    # where[t * 82 + card]: the card's position on table t, -1 when it is not there.
    base = np.arange(0, m * 82, 82, dtype=np.intp)[:, None]
    where = np.full(m * 82, -1, dtype=np.int8)
    where[(base + cards).ravel()] = np.tile(np.arange(n, dtype=np.int8), m)
    rows, pairs = np.nonzero(where[base + thirds] > second8)
    return rows, cards[rows, first[pairs]], cards[rows, second[pairs]], thirds[rows, pairs]


def _solve_group(tables: list[bytes]) -> list[list[Triple]]:
    """The sets of equally long tables (3 to 81 cards, checked as cards)."""
    np, _ = _tables()
    m = len(tables)
    cards = np.frombuffer(b"".join(tables), dtype=np.uint8).reshape(m, -1)
    rows, first, second, third = find_array(cards)
    triples = list(zip(first.tolist(), second.tolist(), third.tolist(), strict=True))
    ends = np.cumsum(np.bincount(rows, minlength=m)).tolist()
    found = [triples[start:end] for start, end in zip([0, *ends], ends, strict=False)]
    _redo_repeats(tables, cards, found)
    return found


def _redo_repeats(tables: list[bytes], cards: Any, found: list[list[Triple]]) -> None:
    """Tables holding a card twice are solved one by one, so that they agree with
    find_sets exactly (the position table keeps only one place per card)."""
    np, _ = _tables()
    ordered = np.sort(cards, axis=1)
    for row in np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1)).tolist():
        found[row] = find_sets(tables[row])
