"""Computer opponents: when a bot claims a group and which one, in every variant.

A bot is a policy only; a driver (the server, the terminal app) asks it for a
:class:`Plan` whenever the table changes and carries the plan out through the
same actions a person uses, at the times the plan names.

Reaction times behave like a person's: they are drawn from a log-normal
distribution whose median grows when the table holds fewer groups (a lone set
among twelve cards takes much longer to see than one of five), when the table
is larger, and when a group is harder to see (see :func:`effort`). Low levels
sometimes pick a near miss (a group with one card swapped), which the rules then
penalize like anyone's wrong call. In Memory the bot remembers the cards it saw
turned up, forgetting some of them (a beginner more), claims a group among those
it remembers, and otherwise turns up cards it does not know.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from setgame.rules.cards import Card
from setgame.rules.variants import CLASSIC, Variant


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    median: float  # seconds to see a classic set on a table holding about three of them
    error_rate: float  # chance that the pick is a near miss
    pick_delay: float  # seconds between calling SET and picking (and between two turns)
    recall: float  # Memory: chance to still know a card seen turned up earlier


LEVELS: Final = {
    1: Level("beginner", 16.0, 0.20, 1.8, 0.55),
    2: Level("casual", 10.0, 0.10, 1.4, 0.70),
    3: Level("club", 6.5, 0.04, 1.0, 0.82),
    4: Level("strong", 4.0, 0.01, 0.8, 0.92),
    5: Level("expert", 2.5, 0.0, 0.6, 1.0),
}
SPREAD: Final = 0.35  # sigma of the log-normal reaction time
#: Memory: deciding which unknown cards to turn up takes this share of a level's median.
EXPLORE: Final = 0.4


def effort(variant: Variant) -> float:
    """How much longer than a classic set one group of ``variant`` takes to see,
    other things equal (this project's own model; 1.0 for Classic).

    - The claim's size k: a player checks a candidate by holding k - 1 cards in
      mind and looking for the last, and the candidates grow with the cards held;
      we take (k/3)**3: 2.4 for UltraSet and 4Set, 8 for GhostSet. With the
      groups a typical table holds (19 UltraSets, 11 GhostSets among 12 cards,
      against about 3 sets) an UltraSet takes about as long as a classic set and a
      GhostSet about four times as long.
    - The deck: every attribute that varies is one more comparison (MegaSet's
      border: x 5/4; Junior's fixed shading: x 3/4), and four values per attribute
      instead of three make each comparison harder (4Set: x 4/3).
    """
    deck = variant.deck
    varying = deck.width - (1 if deck.fixed is not None else 0)
    return (variant.claim_size / 3) ** 3 * (varying / 4) * (deck.radix / 3)


@dataclass(frozen=True, slots=True)
class Plan:
    """What the bot will do: ``kind`` "set" (call at ``at``, then pick ``cards``
    after ``pick_delay``), "no_set" (declare that the table holds no group, at
    ``at``) or, in Memory, "turn" (from ``at``, turn up the cards at ``positions``
    one by one, ``pick_delay`` apart; in multi after calling). A turn plan has
    ``cards`` when the bot claims cards it remembers (then every position is one
    it saw), None when it explores cards it does not know."""

    kind: Literal["set", "no_set", "turn"]
    at: float
    cards: tuple[Card, ...] | None = None
    positions: tuple[int, ...] | None = None

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

    def thinking_time(self, sets: int, cards: int, variant: Variant = CLASSIC) -> float:
        """Seconds until the bot sees one of ``sets`` groups among ``cards`` cards
        (or, with none, is sure there is none)."""
        if sets:
            median = self.spec.median * math.sqrt(3 / sets) * (cards / 12) ** 0.5
        else:  # making sure there is no group means looking at everything
            median = self.spec.median * 2.0 * (cards / 12)
        if variant is not CLASSIC:  # classic draws stay as they were (replays hold)
            median *= effort(variant)
        return float(median * math.exp(self.rng.gauss(0.0, SPREAD)))

    def agree_time(self) -> float:
        """Seconds until the bot agrees with another player's "no set" on a table where it
        sees no group: it has looked at this table already and only checks, so about its
        pick delay (spread like a reaction time), not the long look of declaring first."""
        return float(self.spec.pick_delay * math.exp(self.rng.gauss(0.0, SPREAD)))

    def agreeing(self, plan: Plan | None, now: float) -> Plan | None:
        """``plan`` once another player has said the table holds no group: a "no_set"
        plan comes due within :meth:`agree_time`; any other plan stands (a bot that sees
        a group claims it)."""
        if plan is None or plan.kind != "no_set":
            return plan
        return Plan("no_set", min(plan.at, now + self.agree_time()))

    def plan(
        self,
        table: Sequence[Card | None],
        now: float,
        *,
        variant: Variant = CLASSIC,
        previous: Collection[Card] | None = None,
        seen: Mapping[int, Card] | None = None,
        found: Iterable[Iterable[Card]] = (),
    ) -> Plan | None:
        """The bot's plan for this table, seen from ``now``; None when it has nothing to do.

        ``previous``: the last good claim in a chain flow (shown apart from the
        table; a claim must reuse exactly ``variant.flow.links`` of its cards).
        ``seen``: Memory, the cards the bot saw turned up earlier by position
        (``table`` holds None for a face-down card). ``found``: Puzzle, the groups
        already found on this table (claiming one again is refused).
        """
        if not table:
            return None
        if variant.flow.face_down:
            return self._memory_plan(table, now, variant, seen or {})
        cards = [c for c in table if c is not None]
        pool = cards + [c for c in previous or () if c not in cards]
        done = {frozenset(g) for g in found}
        groups = [g for g in variant.find(pool, previous) if frozenset(g) not in done]
        delay = self.thinking_time(len(groups), len(pool), variant)
        if not groups:
            return None if _no_declaring(variant) else Plan("no_set", now + delay)
        group = self.rng.choice(groups)
        if self.rng.random() < self.spec.error_rate:
            group = self._near_miss(group, cards, previous or ())
            if frozenset(group) in done:  # a miss that would be refused, not judged
                group = self.rng.choice(groups)
        return Plan("set", now + delay, group)

    def _near_miss(
        self, group: Sequence[Card], table: Sequence[Card], previous: Collection[Card]
    ) -> tuple[Card, ...]:
        """The group with one card swapped for another of the same place (table, or
        the previous claim of a chain, so a link count stays right): a plausible mistake."""
        if all(c in group for c in (*table, *previous)):
            return tuple(group)
        slot = self.rng.randrange(len(group))
        origin = previous if group[slot] in previous else table
        others = [c for c in origin if c not in group]
        if not others:
            return tuple(group)
        swapped = list(group)
        swapped[slot] = self.rng.choice(others)
        return tuple(swapped)

    # -- Memory ------------------------------------------------------------------------------

    def _memory_plan(
        self, table: Sequence[Card | None], now: float, variant: Variant, seen: Mapping[int, Card]
    ) -> Plan | None:
        known = self._recalled(table, seen)
        positions = list(known)
        groups = variant.find([known[p] for p in positions])
        if groups:
            where = {card: p for p, card in known.items()}
            group = self.rng.choice(groups)
            if self.rng.random() < self.spec.error_rate:  # a position misremembered
                group = self._near_miss(group, [known[p] for p in positions], ())
            delay = self.thinking_time(len(groups), len(known), variant)
            return Plan("turn", now + delay, group, tuple(where[c] for c in group))
        return self._explore(table, now, variant, known)

    def _recalled(self, table: Sequence[Card | None], seen: Mapping[int, Card]) -> dict[int, Card]:
        """The cards the bot knows now: those face up, and those it saw and has not forgotten."""
        known = {p: c for p, c in enumerate(table) if c is not None}
        for position in sorted(seen):
            if (
                0 <= position < len(table)
                and table[position] is None
                and self.rng.random() < self.spec.recall
            ):
                known[position] = seen[position]
        return dict(sorted(known.items()))  # groups then name positions in table order

    def _explore(
        self, table: Sequence[Card | None], now: float, variant: Variant, known: Mapping[int, Card]
    ) -> Plan | None:
        """Turn up cards the bot does not know (as many as a claim holds; when fewer
        are left, some it knows make up the count). Knowing every card and no group, it
        turns some anyway: misses in a row are what deal more cards in Memory."""
        size = variant.claim_size
        unknown = [p for p, c in enumerate(table) if c is None and p not in known]
        face_down_known = [p for p in known if table[p] is None]
        if len(table) < size or len(unknown) + len(face_down_known) < size:
            return None
        chosen = self.rng.sample(unknown, min(size, len(unknown)))
        if len(chosen) < size:
            if len(face_down_known) < size - len(chosen):
                return None
            chosen += self.rng.sample(face_down_known, size - len(chosen))
        delay = self.spec.median * EXPLORE * math.exp(self.rng.gauss(0.0, SPREAD))
        return Plan("turn", now + delay, None, tuple(chosen))


def _no_declaring(variant: Variant) -> bool:
    """Whether the variant refuses "no set" declarations (the table always holds a
    group to find: Puzzle; Memory deals by itself)."""
    return not variant.flow.removes_claims or variant.flow.face_down
