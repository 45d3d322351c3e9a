"""An arena's standings (this project's own rules: ``docs/rules.md``, "Arenas (ours)").

Players are ordered by points, then by performance (the average rating of their opponents
adjusted by their results), then by who reached their points earlier. The podium is the
first three of the final standings who played a game.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from setgame.arena.points import Finish, on_fire, score

PERFORMANCE_SPAN: Final = 400
"""Rating points a win alone adds to the opponents' average (a last place takes as many off;
places between, and shared places, in proportion): the performance of one game."""
PODIUM: Final = 3


@dataclass(frozen=True, slots=True)
class GameResult:
    """One participant's finished arena game, as the arena scores it."""

    finish: Finish
    place: float  # among the game's seats, 1 = first alone; ties share the mean place
    seats: int
    opponents: tuple[int, ...]  # the opponents' ratings (a computer player's fixed one)
    at: float  # when it ended, in the arena's seconds


@dataclass(slots=True)
class Entry:
    """A participant's line of the standings."""

    key: str  # who: an account id, or a guest's name key (the server's business)
    name: str
    rating: int  # the rating of the variant's family at entry (1000 for a guest)
    entered: float
    points: int = 0
    games: int = 0
    wins: int = 0
    streak: int = 0
    reached: float = field(default=0.0)  # when the points last grew (entered: not yet)
    performance_sum: float = 0.0
    rated_games: int = 0  # games with an opponent's rating (every game has one)

    def __post_init__(self) -> None:
        self.reached = self.entered

    def record(self, result: GameResult) -> int:
        """Count a finished game; the points it scored."""
        points, self.streak = score(result.finish, self.streak)
        self.games += 1
        self.wins += result.finish == "won"
        if points:
            self.points += points
            self.reached = result.at
        if result.opponents:
            self.performance_sum += game_performance(result)
            self.rated_games += 1
        return points

    @property
    def performance(self) -> int | None:
        """The mean of the games' performances, or None before any."""
        if not self.rated_games:
            return None
        return round(self.performance_sum / self.rated_games)

    @property
    def fire(self) -> bool:
        return on_fire(self.streak)


def game_performance(result: GameResult) -> float:
    """The opponents' mean rating, plus :data:`PERFORMANCE_SPAN` for a first place alone,
    minus as much for the last, in proportion between (a shared first place of two: 0).

    >>> game_performance(GameResult("won", 1.0, 2, (1500,), 0.0))
    1900.0
    >>> game_performance(GameResult("shared", 1.5, 2, (1500,), 0.0))
    1500.0
    """
    mean = sum(result.opponents) / len(result.opponents)
    if result.seats < 2:
        return float(mean)
    outcome = 1.0 - 2.0 * (result.place - 1.0) / (result.seats - 1)
    return mean + PERFORMANCE_SPAN * outcome


def places(totals: Mapping[str, int], left: Collection[str] = ()) -> dict[str, float]:
    """Each seat's place for the performance: by total among those who stayed, ties sharing
    the mean of their places; those who left after all of them.

    >>> places({"a": 5, "b": 5, "c": 1, "d": 9}, left={"d"})
    {'a': 1.5, 'b': 1.5, 'c': 3.0, 'd': 4.0}
    """
    stayed = sorted((t for p, t in totals.items() if p not in left), reverse=True)
    gone = [p for p in totals if p in left]
    result: dict[str, float] = {}
    for player, total in totals.items():
        if player in left:
            result[player] = len(stayed) + (len(gone) + 1) / 2
        else:
            first = stayed.index(total) + 1
            last = len(stayed) - stayed[::-1].index(total)
            result[player] = (first + last) / 2
    return result


def order_key(entry: Entry) -> tuple[int, float, float, str, str]:
    """Points, then performance (none last), then earlier to reach the points; then the
    name and key, so that the order is total (the same everywhere, every time)."""
    performance = entry.performance
    return (
        -entry.points,
        math.inf if performance is None else -performance,
        entry.reached,
        entry.name.casefold(),
        entry.key,
    )


def ranked(entries: Iterable[Entry]) -> list[Entry]:
    """The standings: best first."""
    return sorted(entries, key=order_key)


def podium(standings: Sequence[Entry]) -> list[Entry]:
    """The first three of the final standings who played a game (fewer if fewer did)."""
    return [entry for entry in standings if entry.games][:PODIUM]
