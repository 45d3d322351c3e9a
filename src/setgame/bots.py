"""Computer opponents: when a bot calls SET and what it picks.

A bot is a policy only; a driver (the server, the terminal app) asks it for a
:class:`Plan` whenever the table changes and carries the plan out through the
same actions a person uses, at the times the plan names.

Reaction times behave like a person's: they are drawn from a log-normal
distribution whose median grows when the table holds fewer sets (a lone set
among twelve cards takes much longer to see than one of five). Low levels
sometimes pick a near miss (a set with one card swapped), which the rules then
penalize like anyone's wrong call.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from setgame.cards import Card
from setgame.sets import find_sets


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    median: float  # seconds to see a set on a table holding about three of them
    error_rate: float  # chance that the pick is a near miss
    pick_delay: float  # seconds between calling SET and picking


LEVELS: Final = {
    1: Level("beginner", 16.0, 0.20, 1.8),
    2: Level("casual", 10.0, 0.10, 1.4),
    3: Level("club", 6.5, 0.04, 1.0),
    4: Level("strong", 4.0, 0.01, 0.8),
    5: Level("expert", 2.5, 0.0, 0.6),
}
SPREAD: Final = 0.35  # sigma of the log-normal reaction time


@dataclass(frozen=True, slots=True)
class Plan:
    """What the bot will do: ``kind`` "set" (call at ``at``, then pick ``cards`` after
    ``pick_delay``) or "no_set" (declare that the table holds no set, at ``at``)."""

    kind: Literal["set", "no_set"]
    at: float
    cards: tuple[Card, Card, Card] | None = None

    @property
    def call_at(self) -> float:
        return self.at


class Bot:
    """A computer opponent of a given level (1 beginner to 5 expert)."""

    def __init__(self, level: int = 2, seed: int | str | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"bot level must be 1-5, not {level!r}")
        self.level = level
        self.spec = LEVELS[level]
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"Bot(level={self.level})"

    @property
    def pick_delay(self) -> float:
        return self.spec.pick_delay

    def thinking_time(self, sets: int, cards: int) -> float:
        """Seconds until the bot sees a set (or is sure there is none)."""
        if sets:
            median = self.spec.median * math.sqrt(3 / sets) * (cards / 12) ** 0.5
        else:  # making sure there is no set means looking at everything
            median = self.spec.median * 2.0 * (cards / 12)
        return float(median * math.exp(self.rng.gauss(0.0, SPREAD)))

    def plan(self, table: Sequence[Card], now: float) -> Plan | None:
        """The bot's plan for this table, seen from ``now``; None on an empty table."""
        if not table:
            return None
        sets = find_sets(table)
        delay = self.thinking_time(len(sets), len(table))
        if not sets:
            return Plan("no_set", now + delay)
        cards = self.rng.choice(sets)
        if self.rng.random() < self.spec.error_rate:
            cards = self._near_miss(cards, table)
        return Plan("set", now + delay, cards)

    def _near_miss(
        self, cards: tuple[Card, Card, Card], table: Sequence[Card]
    ) -> tuple[Card, Card, Card]:
        """The set with one card swapped for another card of the table: a plausible mistake."""
        others = [c for c in table if c not in cards]
        if not others:
            return cards
        slot = self.rng.randrange(3)
        swapped = list(cards)
        swapped[slot] = self.rng.choice(others)
        return (swapped[0], swapped[1], swapped[2])
