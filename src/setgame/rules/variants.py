"""The named variants: deck x kind of set x flow of play, registered by name.

As python-chess's ``variant.py`` does, one base (:data:`CLASSIC`) and each
variant states only what differs from the one it derives from. This is the
interface the engine will call::

    variant = find_variant("UltraSet-Chain")
    variant.table_size                  # cards dealt face up (R06 generalized)
    variant.claim_size                  # cards in a claim (3, 4 or 6)
    variant.find(table, previous)       # every group a player may claim now
    variant.is_claim(cards, previous)   # whether a claim is good
    variant.explain(cards, previous)    # why not: structured flaws (empty: good)
    variant.needs_more(table, previous) # R11 generalized: deal ``grow_by`` more

``previous`` is the last good claim, for the chain flows (None before the
first claim, and ignored by the other flows).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Final

import setgame.rules.decks as decks
import setgame.rules.flows as flows
import setgame.rules.kinds as kinds
from setgame.rules.decks import Deck
from setgame.rules.flaws import Flaw, LinkFlaw
from setgame.rules.flows import Flow
from setgame.rules.kind import Group, Kind

MAX_NAME: Final = 40
"""The longest variant name :func:`find_variant` reads (hostile input)."""


class VariantError(ValueError):
    """A variant asked for by a name that is none, or defined inconsistently."""


@dataclass(frozen=True)
class Variant:
    """One variant. ``title`` is its display name (also how players spell it);
    ``table_sizes`` are the table sizes a room may choose instead of
    ``table_size``; ``grow_by`` is how many cards are dealt when the table holds
    no group of the kind (three, as R11; this project's own choice for every
    variant)."""

    name: str
    title: str
    deck: Deck = decks.STANDARD
    kind: Kind = kinds.SET
    flow: Flow = flows.NORMAL
    table_size: int = 12
    table_sizes: tuple[int, ...] = ()
    grow_by: int = 3
    aliases: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.deck.radix != self.kind.radix:
            raise VariantError(f"{self.name}: a {self.kind.name} needs another deck")
        if not 0 <= self.flow.links < self.kind.size:
            raise VariantError(f"{self.name}: {self.flow.links} links in a {self.kind.name}")
        if not self.kind.size <= self.table_size <= len(self.deck):
            raise VariantError(f"{self.name}: a table of {self.table_size} cards")

    def derive(self, name: str, title: str, **changes: Any) -> Variant:
        """A new variant: this one with only the stated differences (no aliases)."""
        return replace(self, name=name, title=title, aliases=(), **changes)

    @property
    def claim_size(self) -> int:
        """How many cards a claim holds."""
        return self.kind.size

    @property
    def replaced_per_claim(self) -> int:
        """How many cards leave the table with a good claim (and are replaced while
        the table is at its size): the claim's cards less the links it reuses."""
        return self.kind.size - self.flow.links if self.flow.removes_claims else 0

    def find(self, table: Iterable[int], previous: Iterable[int] | None = None) -> list[Group]:
        """Every group of the kind among ``table`` that is a good claim now."""
        groups = self.kind.find(table, self.deck)
        if not self.flow.links or previous is None:
            return groups
        linked = set(previous)
        return [g for g in groups if len(linked.intersection(g)) == self.flow.links]

    def has(self, table: Iterable[int], previous: Iterable[int] | None = None) -> bool:
        if not self.flow.links or previous is None:
            return self.kind.has(table, self.deck)  # the kind's own way (stops at the first)
        return bool(self.find(table, previous))

    def needs_more(self, table: Iterable[int], previous: Iterable[int] | None = None) -> bool:
        """R11 generalized: the table grows until it holds a group to claim."""
        return not self.has(table, previous)

    def is_claim(self, cards: Iterable[int], previous: Iterable[int] | None = None) -> bool:
        """Whether ``cards`` are a good claim (of the kind; linked as the flow says)."""
        picked = tuple(cards)
        return self.kind.is_group(picked, self.deck) and not self._link_flaws(picked, previous)

    def explain(self, cards: Iterable[int], previous: Iterable[int] | None = None) -> list[Flaw]:
        """Why ``cards`` are not a good claim: the kind's flaws, then the link's."""
        picked = tuple(cards)
        return [*self.kind.explain(picked, self.deck), *self._link_flaws(picked, previous)]

    def _link_flaws(self, cards: tuple[int, ...], previous: Iterable[int] | None) -> list[Flaw]:
        if not self.flow.links or previous is None:
            return []
        used = len(set(previous).intersection(cards))
        return [] if used == self.flow.links else [LinkFlaw(used, self.flow.links)]


# The constants mirror the registry names; the decks, kinds and flows they are
# made of are named in their own modules (decks.JUNIOR is the deck, JUNIOR here
# the variant).
CLASSIC: Final = Variant("classic", "Classic", aliases=("standard", "normal"))
JUNIOR: Final = CLASSIC.derive("junior", "Junior", deck=decks.JUNIOR, table_sizes=(9,))
SET_CHAIN: Final = CLASSIC.derive("set-chain", "Set-Chain", flow=flows.CHAIN)
ULTRASET: Final = CLASSIC.derive("ultraset", "UltraSet", kind=kinds.ULTRASET)
ULTRASET_CHAIN: Final = ULTRASET.derive("ultraset-chain", "UltraSet-Chain", flow=flows.ULTRA_CHAIN)
ULTRA9: Final = ULTRASET.derive("ultra9", "Ultra9", table_size=9)
MEGASET: Final = CLASSIC.derive("megaset", "MegaSet", deck=decks.MEGASET, table_size=16)
GHOSTSET: Final = CLASSIC.derive("ghostset", "GhostSet", kind=kinds.GHOSTSET)
FOURSET: Final = CLASSIC.derive(
    "4set", "4Set", deck=decks.FOURSET, kind=kinds.FOURSET, table_size=15
)
FOURSET_JUNIOR: Final = FOURSET.derive(
    "4set-junior", "4Set Junior", deck=decks.FOURSET_JUNIOR, table_size=12
)
PUZZLE: Final = CLASSIC.derive("puzzle", "Puzzle", flow=flows.PUZZLE)
SHUFFLE: Final = CLASSIC.derive("shuffle", "Shuffle", flow=flows.SHUFFLE)
MEMORY: Final = CLASSIC.derive("memory", "Memory", flow=flows.MEMORY)

VARIANTS: Final = {
    v.name: v
    for v in (
        CLASSIC, JUNIOR, SET_CHAIN, ULTRASET, ULTRASET_CHAIN, ULTRA9, MEGASET, GHOSTSET,
        FOURSET, FOURSET_JUNIOR, PUZZLE, SHUFFLE, MEMORY,
    )
}


def _key(name: str) -> str:
    return re.sub(r"[\s_]+", "-", name.strip().lower())


_LOOKUP: Final = {
    _key(alias): v for v in VARIANTS.values() for alias in (v.name, v.title, *v.aliases)
}


def find_variant(name: object) -> Variant:
    """The variant called ``name`` (case, spaces and underscores do not matter:
    ``"ultraset chain"`` is UltraSet-Chain). Raises :class:`VariantError` quoting
    the input when there is none."""
    if isinstance(name, str) and len(name) <= MAX_NAME:
        variant = _LOOKUP.get(_key(name))
        if variant is not None:
            return variant
    shown = name[:MAX_NAME] + "..." if isinstance(name, str) and len(name) > MAX_NAME else name
    raise VariantError(f"not a variant: {shown!r} (expected one of {', '.join(VARIANTS)})")
