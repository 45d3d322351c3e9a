"""The points of one arena game (this project's own rules: ``docs/rules.md``, "Arenas (ours)").

A win (first place alone) scores 2, a first place shared 1, any other place 0, in rooms of
every size. After two wins in a row each further win scores double (4) until a game is not
won alone: the streak (shown as a flame). A player who leaves the game before its end
forfeits it: 0 points, whatever their score, and the streak ends.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Final, Literal

Finish = Literal["won", "shared", "lost", "left"]
"""How a player ended a game: first alone, first with others, below, or gone before the end."""

WIN: Final = 2
SHARED: Final = 1
FIRE_AFTER: Final = 2
"""Wins alone in a row after which a win counts double."""
FIRE_FACTOR: Final = 2


def score(finish: Finish, streak: int) -> tuple[int, int]:
    """The points of a game ended as ``finish`` by a player with ``streak`` wins alone in a
    row before it, and their streak after it.

    >>> score("won", 0), score("won", 2), score("shared", 5), score("left", 3)
    ((2, 1), (4, 3), (1, 0), (0, 0))
    """
    if finish == "won":
        return WIN * (FIRE_FACTOR if on_fire(streak) else 1), streak + 1
    return (SHARED if finish == "shared" else 0), 0


def on_fire(streak: int) -> bool:
    """Whether the next win alone counts double."""
    return streak >= FIRE_AFTER


def finishes(totals: Mapping[str, int], left: Collection[str] = ()) -> dict[str, Finish]:
    """Each seat's finish from the game's final totals; the seats in ``left`` forfeit and do
    not count for the others' places (a leader who leaves hands the win on).

    >>> finishes({"a": 5, "b": 3, "c": 5}, left={"c"})
    {'a': 'won', 'b': 'lost', 'c': 'left'}
    >>> finishes({"a": 4, "b": 4})
    {'a': 'shared', 'b': 'shared'}
    """
    stayed = {player: total for player, total in totals.items() if player not in left}
    best = max(stayed.values(), default=0)
    first = [player for player, total in stayed.items() if total == best]
    result: dict[str, Finish] = {}
    for player in totals:
        if player not in stayed:
            result[player] = "left"
        elif player in first:
            result[player] = "won" if len(first) == 1 else "shared"
        else:
            result[player] = "lost"
    return result
