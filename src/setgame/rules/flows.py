"""How play flows in a variant: a static description the engine will follow.

Every flow starts from :data:`NORMAL` (R06-R14) and states only what differs.
The number of cards in a claim is the kind's (3, 4 or 6); the table size and
how it grows belong to the variant (see :mod:`setgame.rules.variants`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final


@dataclass(frozen=True, slots=True)
class Flow:
    """One flow of play.

    ``links``: how many cards of the previous claim a claim must use, exactly
    (chain: 1, ultra-chain: 2; the previous claim stays on the table for this,
    and its cards leave when the next claim is taken; 0: no link).
    ``removes_claims``: a good claim takes its cards off the table (puzzle: no,
    the table stays fixed until every group on it has been found).
    ``reshuffles``: the table is reshuffled into the deck and dealt anew after
    every claim (shuffle).
    ``face_down``: the table lies face down; a player turns up as many cards as a
    claim holds, keeps them when they form a group, else they turn back (memory).
    """

    name: str
    links: int = 0
    removes_claims: bool = True
    reshuffles: bool = False
    face_down: bool = False

    def derive(self, name: str, **changes: Any) -> Flow:
        """This flow with a new name and only the stated differences."""
        return replace(self, name=name, **changes)


NORMAL: Final = Flow("normal")
CHAIN: Final = NORMAL.derive("chain", links=1)
ULTRA_CHAIN: Final = CHAIN.derive("ultra-chain", links=2)
PUZZLE: Final = NORMAL.derive("puzzle", removes_claims=False)
SHUFFLE: Final = NORMAL.derive("shuffle", reshuffles=True)
MEMORY: Final = NORMAL.derive("memory", face_down=True)

FLOWS: Final = {f.name: f for f in (NORMAL, CHAIN, ULTRA_CHAIN, PUZZLE, SHUFFLE, MEMORY)}
