"""Who plays whom in an arena (this project's own rules: ``docs/rules.md``, "Arenas (ours)").

Each round of pairing takes the players who wait, in the order of the standings (points, then
the rating they entered with), and fills rooms of the arena's size from the top down, so
players meet others of their standing. A room avoids putting together two players who met in
their last game while others wait; a player who has waited ``repeat_after`` seconds takes a
repeat rather than wait on. Whoever has waited ``bot_after`` seconds and is still alone plays
in a smaller room with the others left over, or, alone, against a computer player of a close
level. Nobody is paired after ``last_start``: a game begun then could not finish before the
arena ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from setgame.analysis.ratings import BOT_MU, bot_rating


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player in the pairing queue."""

    key: str
    points: int
    rating: int
    since: float  # when they began to wait
    last: frozenset[str] = frozenset()  # the opponents of their last game


@dataclass(slots=True)
class Pairing:
    """One round of pairing: the rooms of people (keys, best standing first) and the people
    who play a computer player."""

    rooms: list[tuple[str, ...]] = field(default_factory=list)
    bots: list[str] = field(default_factory=list)

    def paired(self) -> set[str]:
        return {key for room in self.rooms for key in room} | set(self.bots)


def pair(
    waiting: Sequence[Waiting],
    size: int,
    now: float,
    *,
    bot_after: float,
    repeat_after: float,
    last_start: float,
) -> Pairing:
    """The rooms to open now for the players in ``waiting`` (``size``: 2, 3 or 4 seats)."""
    result = Pairing()
    if now > last_start or size < 2:
        return result
    pool = sorted(waiting, key=lambda w: (-w.points, -w.rating, w.since, w.key))
    tried: set[str] = set()  # players who found no room as its first member
    while (anchor := next((w for w in pool if w.key not in tried), None)) is not None:
        others = [w for w in pool if w is not anchor]  # one who found none may join another's
        group = _group(anchor, others, size, now - anchor.since >= repeat_after)
        if group is None:
            tried.add(anchor.key)  # fewer players later: it would find none then either
            continue
        for member in group:
            pool.remove(member)
        result.rooms.append(tuple(member.key for member in group))
    _leftovers(result, pool, size, now, bot_after)
    return result


def _group(anchor: Waiting, pool: list[Waiting], size: int, repeats: bool) -> list[Waiting] | None:
    """A full room for ``anchor`` from ``pool`` (in standing order): players who did not meet
    anyone of the room in their last game first; then, if ``repeats``, any."""
    group = [anchor]
    for candidate in pool:
        if len(group) == size:
            break
        if not any(_met(candidate, member) for member in group):
            group.append(candidate)
    if repeats:
        for candidate in pool:
            if len(group) == size:
                break
            if candidate not in group:
                group.append(candidate)
    return group if len(group) == size else None


def _met(a: Waiting, b: Waiting) -> bool:
    return b.key in a.last or a.key in b.last


def _leftovers(
    result: Pairing, left: list[Waiting], size: int, now: float, bot_after: float
) -> None:
    """Those left who waited ``bot_after``: together in smaller rooms, one alone with a bot."""
    overdue = [w for w in left if now - w.since >= bot_after]
    while len(overdue) >= 2:
        group, overdue = overdue[:size], overdue[size:]
        result.rooms.append(tuple(member.key for member in group))
    result.bots.extend(member.key for member in overdue)


def bot_level(rating: int) -> int:
    """The computer player (levels 1-5) whose fixed rating is closest to ``rating`` (the
    shown scale); the lower level on a tie.

    >>> bot_level(1000), bot_level(1460), bot_level(3000)
    (1, 3, 5)
    """
    return min(BOT_MU, key=lambda level: (abs(bot_rating(level).display - rating), level))


def bot_display(level: int) -> int:
    """A computer player's fixed rating on the shown scale (its opponents' performance)."""
    return bot_rating(level).display
