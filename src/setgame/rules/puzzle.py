"""Puzzle tables and the daily puzzle: 12 cards holding exactly 6 sets.

Like the official daily puzzle, everyone gets the same table on the same day.
The table is a pure function of the date and a seed: the cards are drawn with
a SHA-256 counter stream keyed by ``setgame daily puzzle v2 YYYY-MM-DD <seed>``
(not Python's or NumPy's generators, whose streams may change between
versions: a day's puzzle must stay the same for ever), and tables are drawn
until one holds exactly the wanted number of sets (for 12 cards and 6 sets,
about one draw in 44 does: measured over 200,000 random tables).

The seed of a day is a MAC of the date under a server's key (:func:`daily_seed`):
without the key nobody can compute a day's cards before the server deals
them, so a future day cannot be solved in advance. The seed is the game's (the engine
deals the day's table from its own seed), stored with the game and never sent to a
client. Seed 0 (:data:`PUBLIC_SEED`) is the public table of the day, keyed by the date
alone (``setgame daily puzzle v1 YYYY-MM-DD``): offline play, where there is no server
and no board, and the games stored before the key existed (migration 0010).
Whether a date may be played yet (no future dates) is the caller's business:
this module has no clock.
"""

from __future__ import annotations

import datetime
import hashlib
import itertools
import re
from collections.abc import Iterator
from typing import Final

from setgame.rules.variants import PUZZLE, Variant

DAILY_SIZE: Final = 12
DAILY_SETS: Final = 6
MAX_DRAWS: Final = 20_000
"""Draws before giving up on a table (a daily one needs at most a few hundred)."""
_DATE: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class PuzzleError(ValueError):
    """A puzzle asked for with a date or a shape that is not valid."""


def _words(seed: bytes) -> Iterator[int]:
    """An endless stream of 64-bit words: SHA-256 of the seed and a counter."""
    for counter in itertools.count():
        block = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        for k in range(0, 32, 8):
            yield int.from_bytes(block[k : k + 8], "big")


def _below(words: Iterator[int], n: int) -> int:
    """A uniform int in [0, n), by rejection (no modulo bias)."""
    limit = (1 << 64) // n * n
    while (word := next(words)) >= limit:
        pass
    return word % n


def draw(seed: bytes, cards: tuple[int, ...], size: int) -> tuple[int, ...]:
    """``size`` cards drawn from ``cards`` in order, as the seed decides (a partial
    Fisher-Yates shuffle)."""
    pool, words = list(cards), _words(seed)
    for i in range(size):
        j = i + _below(words, len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return tuple(pool[:size])


def make_puzzle(
    seed: bytes, size: int = DAILY_SIZE, groups: int = DAILY_SETS, variant: Variant = PUZZLE
) -> tuple[int, ...]:
    """The first table of ``size`` cards drawn from ``seed`` that holds exactly
    ``groups`` groups of the variant's kind."""
    if not variant.claim_size <= size <= len(variant.deck) or groups < 0:
        raise PuzzleError(f"no puzzle of {size!r} cards and {groups!r} groups")
    for attempt in range(MAX_DRAWS):
        table = draw(seed + b"/" + str(attempt).encode(), variant.deck.cards, size)
        if variant.kind.count(table, variant.deck) == groups:
            return table
    raise PuzzleError(f"no table of {size} cards with {groups} groups in {MAX_DRAWS} draws")


PUBLIC_SEED: Final = 0
"""The seed of the public daily puzzle (offline play; games stored before migration 0010)."""


def daily_seed(day: datetime.date, key: bytes) -> int:
    """The seed of ``day``'s puzzle under a server's ``key``: 62 bits of a keyed BLAKE2b of
    the date (a MAC, as HMAC is; the key is hashed to BLAKE2b's 32 bytes), never
    :data:`PUBLIC_SEED`."""
    _check_day(day)
    text = f"setgame daily puzzle v2 {day.isoformat()}".encode()
    digest = hashlib.blake2b(text, key=hashlib.sha256(key).digest(), digest_size=8).digest()
    return (int.from_bytes(digest, "big") >> 2) or 1


def daily_puzzle(day: datetime.date, seed: int = PUBLIC_SEED) -> tuple[int, ...]:
    """The daily puzzle of ``day`` dealt from ``seed`` (:func:`daily_seed`): 12 cards holding
    exactly 6 sets, in the order they are laid out. The same date and seed always give the
    same cards; seed 0 gives the public table of the day."""
    _check_day(day)
    if seed == PUBLIC_SEED:
        return make_puzzle(f"setgame daily puzzle v1 {day.isoformat()}".encode())
    return make_puzzle(f"setgame daily puzzle v2 {day.isoformat()} {seed}".encode())


def _check_day(day: object) -> None:
    if isinstance(day, datetime.datetime) or not isinstance(day, datetime.date):
        raise PuzzleError(f"a daily puzzle needs a date, not {day!r}")


def parse_day(text: object) -> datetime.date:
    """A date written ``YYYY-MM-DD`` (exactly that form), else :class:`PuzzleError`."""
    if isinstance(text, str) and _DATE.fullmatch(text):
        try:
            return datetime.date.fromisoformat(text)
        except ValueError:
            pass
    shown = text[:20] + "..." if isinstance(text, str) and len(text) > 20 else text
    raise PuzzleError(f"not a date: {shown!r} (expected YYYY-MM-DD, e.g. '2026-11-22')")
