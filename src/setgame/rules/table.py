"""The cards in play: the layout, the undealt stock, and what a variant's flow keeps beside them.

:class:`Table` is the part of a game's state that the cards make (R06, R09, R11, R12,
generalized to every variant of :mod:`setgame.rules.variants`): the layout dealt face up (or face
down), the stock, and per flow of play the previous claim (chain), the groups found
(puzzle) and the cards turned up (memory). Each flag of
:class:`setgame.rules.flows.Flow` is one small behaviour here, in one place:

* ``links`` (chain): the last good claim lies apart from the layout (``previous``); a claim
  may use its cards, and must use exactly ``links`` of them (the variant judges that);
* ``removes_claims`` off (puzzle): a good claim stays and is listed in ``found``; once every
  group of the layout is found, the layout is discarded and a new one dealt;
* ``reshuffles`` (shuffle): after a good claim the rest of the layout goes back into the
  stock, which is shuffled (seeded) before a new layout is dealt;
* ``face_down`` (memory): the layout shows only the cards turned up (``turned``); it never
  grows because it holds no group (that would tell everyone what lies face down), only after
  misses in a row (``blind_misses``, see :meth:`Table.blind_deal_due`).

The game (:mod:`setgame.rules.game`) owns players, phases and actions; it asks the table what
lies where, what may be claimed now, and to take, grow and show cards. Pure and
deterministic: the shuffles are seeded by the game's seed, round and reshuffle count.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, Final

from setgame.rules.cards import Card, parse_deck
from setgame.rules.decks import STANDARD, Deck
from setgame.rules.kind import Group
from setgame.rules.puzzle import daily_puzzle, parse_day
from setgame.rules.variants import Variant

TABLE_SIZE: Final = 12  # R06: 3 rows of 4 (the classic table)
MAX_TABLE: Final = 21  # R11: any 21 cards hold a set


class Table:
    """The cards of one round of one variant (see the module's docstring)."""

    __slots__ = (
        "blind_misses",
        "cards",
        "found",
        "key",
        "previous",
        "reshuffles",
        "size",
        "stock",
        "turned",
        "variant",
    )

    def __init__(self, variant: Variant, size: int) -> None:
        self.variant = variant
        self.size = size  # cards dealt (R06 generalized)
        self.cards: list[Card] = []  # the layout, position by position
        self.stock: list[Card] = []  # undealt, next card last
        self.previous: list[Card] | None = None  # chain: the last good claim, apart
        self.found: list[Group] = []  # puzzle: groups found on this layout, in order
        self.turned: list[int] = []  # memory: positions turned up now
        self.blind_misses = 0  # memory: misses in a row since the last claim or deal
        self.key = ""  # seeds this round's shuffles
        self.reshuffles = 0

    # -- state ------------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The whole state, stock included (tests and debugging only)."""
        return {
            "table": list(self.cards),
            "stock": list(self.stock),
            "previous": None if self.previous is None else list(self.previous),
            "found": [list(g) for g in self.found],
            "turned": list(self.turned),
            "blind_misses": self.blind_misses,
            "reshuffles": self.reshuffles,
        }

    def deal(
        self,
        deck: Sequence[Card],
        key: str,
        layout: Sequence[Card] = (),
        start: Sequence[Card] = (),
    ) -> None:
        """A new round (R06): shuffle ``deck`` (seeded by ``key``) and deal the layout; a
        given ``layout`` (a puzzle's) is laid as it is, with an empty stock; ``start`` (a
        photo's table, ours) is laid as it is, the rest of ``deck`` shuffled as the stock."""
        self.key, self.reshuffles = key, 0
        self.previous, self.found, self.turned = None, [], []
        self.blind_misses = 0
        if layout:
            self.cards, self.stock = list(layout), []
            return
        laid = set(start)
        self.stock = [card for card in deck if card not in laid]
        random.Random(key).shuffle(self.stock)
        self.cards = list(start)
        if not start:
            self._lay()

    def _lay(self) -> None:
        """Fill an empty layout up to its size from the stock."""
        self.cards = [self.stock.pop() for _ in range(min(self.size, len(self.stock)))]

    # -- what may be claimed ----------------------------------------------------------------

    @property
    def auto_grows(self) -> bool:
        """Whether the table grows by itself: nobody can judge a puzzle's layout (all its
        groups found) or a face-down one, so no-set declarations have no place there."""
        flow = self.variant.flow
        return flow.face_down or not flow.removes_claims

    def pool(self) -> list[Card]:
        """The cards a claim may use: the layout, and in a chain the previous claim."""
        return self.cards + (self.previous or [])

    def groups(self) -> list[Group]:
        """Every group that may be claimed now (found ones excepted), cards in pool order."""
        groups = self.variant.find(self.pool(), self.previous)
        if not self.found:
            return groups
        found = {frozenset(g) for g in self.found}
        return [g for g in groups if frozenset(g) not in found]

    def needs_more(self) -> bool:
        """R11 generalized: no group may be claimed now."""
        return not self.groups()

    def full(self) -> bool:
        """No more cards on request: at 21 cards (any 21 standard cards hold a set, R11)
        while a group lies there."""
        return len(self.cards) >= MAX_TABLE and not self.needs_more()

    def missing(self, cards: Iterable[Card]) -> list[Card]:
        """The cards of ``cards`` a claim may not use (not in the pool)."""
        pool = set(self.pool())
        return [c for c in cards if c not in pool]

    def already_found(self, cards: Iterable[Card]) -> bool:
        picked = frozenset(cards)
        return any(picked == frozenset(g) for g in self.found)

    def blind_deal_due(self) -> bool:
        """Memory (this project's own rule): after as many misses in a row as it takes to turn
        every card once (cards on the table / cards in a claim), three cards are dealt, or the
        round ends when the deck is empty. Only public things count (misses, the number of
        cards), never whether a group lies face down: the deal tells nobody anything."""
        return self.blind_misses >= max(1, len(self.cards) // self.variant.claim_size)

    def last_cards(self) -> bool:
        """R15: the deck is empty and at most a table's size of cards lie there."""
        return not self.stock and len(self.cards) <= self.size

    # -- changes ----------------------------------------------------------------------------

    def grow(self) -> list[Card]:
        """R11: deal ``grow_by`` more cards (fewer when the stock runs out)."""
        new = [self.stock.pop() for _ in range(min(self.variant.grow_by, len(self.stock)))]
        self.cards.extend(new)
        self.blind_misses = 0
        return new

    def take(self, claim: Sequence[Card]) -> dict[str, Any]:
        """A good claim leaves (or stays, in a puzzle); returns the event's table fields."""
        flow = self.variant.flow
        positions = [self.cards.index(c) for c in claim if c in self.cards]
        fields: dict[str, Any] = {"positions": positions, "replaced": []}
        self.turned, self.blind_misses = [], 0
        if not flow.removes_claims:
            return fields | self._keep(claim)
        if flow.reshuffles:
            self.cards = remove_compact(self.cards, positions)
            self._reshuffle()
            fields["reshuffled"] = True
        else:
            replaced = self._replace(positions)
            # memory: the new cards lie face down, nobody may see them
            fields["replaced"] = [None] * len(replaced) if flow.face_down else replaced
        if flow.links:  # the claim becomes the previous one; the old one's unused cards go
            self.previous = list(claim)
            fields["previous"] = self.names(claim)
        return fields

    def _replace(self, positions: Sequence[int]) -> list[Card]:
        """R09 generalized: new cards take the places of the taken ones while the layout
        would fall below its size; other places close up (at 12 and more in the classic
        game: all replaced, or none)."""
        kept = len(self.cards) - len(positions)
        fill = min(len(positions), max(0, self.size - kept), len(self.stock))
        replaced = []
        for pos in positions[:fill]:
            replaced.append(self.stock.pop())
            self.cards[pos] = replaced[-1]
        self.cards = remove_compact(self.cards, positions[fill:])
        return replaced

    def _reshuffle(self) -> None:
        """Shuffle: the rest of the layout goes back into the stock, shuffled, and a new
        layout is dealt."""
        self.stock.extend(self.cards)
        self.reshuffles += 1
        random.Random(f"{self.key}:shuffle:{self.reshuffles}").shuffle(self.stock)
        self._lay()

    def _keep(self, claim: Sequence[Card]) -> dict[str, Any]:
        """Puzzle: the claim stays and is found; once every group is found, the layout is
        discarded and a new one dealt (if the stock can deal one)."""
        order = {c: i for i, c in enumerate(self.cards)}
        self.found.append(tuple(sorted(claim, key=order.__getitem__)))
        fields: dict[str, Any] = {"found": [self.names(g) for g in self.found]}
        if self.needs_more() and self.stock:
            self.found = []
            self._lay()
            fields["new_table"] = True
        return fields

    # -- what players see ---------------------------------------------------------------------

    def shown(self) -> list[Card | None]:
        """The layout as players see it: ``None`` for a face-down card."""
        if not self.variant.flow.face_down:
            return list(self.cards)
        up = set(self.turned)
        return [c if i in up else None for i, c in enumerate(self.cards)]

    def public_groups(self) -> list[Group]:
        """The groups anyone may know of: none while cards lie face down."""
        return [] if self.variant.flow.face_down else self.groups()

    def names(self, cards: Iterable[Card | None]) -> list[Any]:
        """Cards in the notation of the variant's deck (``None`` stays ``None``)."""
        table = notation(self.variant.deck)
        return [None if c is None else table[c] for c in cards]

    def view(self) -> dict[str, Any]:
        """The table's part of a view; a flow's key is None when the flow does not use it."""
        flow = self.variant.flow
        puzzle = not flow.removes_claims
        return {
            "table": self.names(self.shown()),
            "previous": self.names(self.previous) if flow.links and self.previous else None,
            "found": [self.names(g) for g in self.found] if puzzle else None,
            "groups": len(self.found) + len(self.groups()) if puzzle else None,
            "turned": list(self.turned) if flow.face_down else None,
        }


def remove_compact(table: Sequence[Card], positions: Sequence[int]) -> list[Card]:
    """Take the cards at ``positions`` away without replacement (R09 above 12 cards): the cards
    of the last positions move into the gaps so the others stay where they lie."""
    size = len(table) - len(positions)
    gaps = sorted(p for p in positions if p < size)
    movers = [c for i, c in enumerate(table) if i >= size and i not in positions]
    result = list(table[:size])
    for gap, card in zip(gaps, movers, strict=True):
        result[gap] = card
    return result


@cache
def notation(deck: Deck) -> dict[int, str]:
    """Every card of ``deck`` and its code (views name cards often: look them up)."""
    return {card: deck.name_of(card) for card in deck.cards}


def deck_of(variant: Variant, setting: str) -> tuple[Card, ...]:
    """The cards a round is dealt from: the standard deck as the ``deck`` setting filters it
    (R16), or the variant's own deck (the settings allow no filter there)."""
    return tuple(parse_deck(setting) if variant.deck is STANDARD else variant.deck.cards)


def daily_layout(day: str, seed: int) -> tuple[Card, ...]:
    """The table of the daily puzzle of ``day`` (``YYYY-MM-DD``) dealt from the game's
    ``seed`` (a server's :func:`setgame.rules.puzzle.daily_seed`; 0: the public table)."""
    return daily_puzzle(parse_day(day), seed)
