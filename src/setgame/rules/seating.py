"""Who deals and how long a match lasts (R14), following the players who are seated.

R14 (``000``): after a round the deal passes to the next player on the left (clockwise,
the seat order) and the match ends when every player has dealt once. Players come and go
during a match, so this project reads the rule as: every *seated* player deals once, in
seat order; a player who joins later deals too (seats are added after the others, so they
deal after them); one who leaves before dealing is skipped; the match ends when no seated
player is left to deal. ``rounds="single"`` (and solo play) is one round.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

MAX_SEATED: Final = 32
"""Players one match keeps at once, seated and departed (departed players who scored stay
so their points count, R13-R14): bounds the state against join/leave cycles."""


def to_deal(seated: Sequence[str], dealt: Collection[str]) -> list[str]:
    """The seated players (in seat order) who have not dealt yet."""
    return [player for player in seated if player not in dealt]


def next_dealer(seated: Sequence[str], dealt: Collection[str]) -> str | None:
    """The next dealer: the first seated player in seat order who has not dealt.

    Everyone before them has dealt or left, so this is the next seat clockwise."""
    waiting = to_deal(seated, dealt)
    return waiting[0] if waiting else None


def planned_rounds(single: bool, seated: Sequence[str], dealt: Collection[str]) -> int:
    """The rounds of the match as now planned: those dealt plus one per player still to deal
    (one in all for a single-round game)."""
    if single:
        return 1
    return len(dealt) + len(to_deal(seated, dealt))
