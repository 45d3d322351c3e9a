"""The variants of SET: decks, kinds of set and flows of play, composed (issue 10).

Pure like the rest of the core: no I/O, no clock, deterministic. A variant is
one deck x one kind of set x one flow of play (see ``docs/variants.md``)::

    >>> from setgame.variants import find_variant
    >>> ultra = find_variant("ultraset")
    >>> table = ultra.deck.parse_many("1RSD 2RSD 1GSD 2GSD 3POS".split())
    >>> [ultra.deck.names(g) for g in ultra.find(table)]
    [['1RSD', '2RSD', '1GSD', '2GSD']]
    >>> ultra.is_claim(table[:4]), ultra.claim_size, ultra.table_size
    (True, 4, 12)
"""

from __future__ import annotations

from setgame.variants.decks import DECKS, Attribute, Deck
from setgame.variants.flaws import CountFlaw, Flaw, LinkFlaw, PairingFlaw, SetFlaw
from setgame.variants.flows import FLOWS, Flow
from setgame.variants.kinds import (
    KINDS,
    Kind,
    KindError,
    is_fourset,
    is_ghostset,
    is_set,
    is_ultraset,
)
from setgame.variants.puzzle import PUBLIC_SEED, PuzzleError, daily_puzzle, daily_seed, parse_day
from setgame.variants.registry import VARIANTS, Variant, VariantError, find_variant

__all__ = [
    "DECKS",
    "FLOWS",
    "KINDS",
    "PUBLIC_SEED",
    "VARIANTS",
    "Attribute",
    "CountFlaw",
    "Deck",
    "Flaw",
    "Flow",
    "Kind",
    "KindError",
    "LinkFlaw",
    "PairingFlaw",
    "PuzzleError",
    "SetFlaw",
    "Variant",
    "VariantError",
    "daily_puzzle",
    "daily_seed",
    "find_variant",
    "is_fourset",
    "is_ghostset",
    "is_set",
    "is_ultraset",
    "parse_day",
]
