"""What a call that ends without a set costs (R10), and this project's own fair-call rule.

Pure functions of the room settings and a player's record, kept apart from the state
machine in :mod:`setgame.rules.game` so each rule reads in one place.

Fair call (this project's own rule, it extends R08): in a multiplayer room, after a call
ends without a set (a wrong pick or the pick window running out), that caller waits before
calling again, so the others get the first chance at the board. The k-th consecutive such
call by the same player waits ``pick_seconds * 2**(k-1)`` seconds, at most
:data:`COOLDOWN_CAP`; k restarts when the player takes a set and at each new round.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

COOLDOWN_CAP: Final = 300.0
"""Seconds: the longest fair-call cooldown, however many calls in a row ended without a set."""

_MAX_DOUBLINGS: Final = 16  # 2**16 * 1 s is far past the cap: no need to compute bigger powers


def cooldown_seconds(pick_seconds: float, misses: int) -> float:
    """The fair-call cooldown after the ``misses``-th consecutive call without a set."""
    if misses < 1:
        return 0.0
    return float(min(COOLDOWN_CAP, pick_seconds * 2 ** min(misses - 1, _MAX_DOUBLINGS)))


@dataclass(frozen=True, slots=True)
class Outcome:
    """The consequences of one call without a set."""

    penalty: str  # the rule applied (practice plays without penalties)
    point_lost: bool  # R10 point: one won set goes back to the box
    locked: bool  # R10 lockout
    cooldown: float  # fair call: seconds before this player may call again


def outcome(mode: str, penalty: str, pick_seconds: float, sets: int, misses: int) -> Outcome:
    """What a call without a set costs a player who holds ``sets`` sets and whose calls ended
    without a set ``misses`` times in a row, this one included."""
    if mode == "practice":
        penalty = "none"
    multi = mode == "multi"
    return Outcome(
        penalty=penalty,
        # a player with no sets loses nothing (000, FAQ 2)
        point_lost=penalty in ("point", "both") and sets > 0,
        locked=penalty in ("lockout", "both") and multi,
        cooldown=cooldown_seconds(pick_seconds, misses) if multi else 0.0,
    )


def solo_won(rules: int, penalties: int, cancelled: int) -> bool:
    """R15: whether a solo game with ``penalties`` more-cards penalties, ``cancelled`` sets of
    them found among the last cards (the deck empty, at most a table's size left), is won.

    ``001`` and ``004``: three more cards come "with a penalty of one set"; to win, the
    player "must cancel this penalty by finding a set among the last 12 cards". Read one
    set per penalty (rules 1), a game with three requests is all but lost (the last 12
    cards seldom hold three sets that all can be taken); the reading of rules 2, which a
    player of those books accepts: a set found among the last 12 cards cancels the penalty,
    however many cards were asked for. The penalties still cost their points (``000``)."""
    if rules < 2:
        return cancelled >= penalties
    return penalties == 0 or cancelled > 0


PUZZLE_PENALTY_SECONDS: Final = 10
"""Seconds a wrong pick adds to the time of a puzzle played alone (solo or practice): there
the clock is the score, so a wrong pick costs time instead of a point (this project's own)."""
