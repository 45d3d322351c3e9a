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

from setgame.variants.decks import FOURSET as FOURSET_DECK
from setgame.variants.decks import FOURSET_JUNIOR, JUNIOR, MEGASET, STANDARD, Deck
from setgame.variants.flaws import Flaw, LinkFlaw
from setgame.variants.flows import CHAIN, MEMORY, NORMAL, PUZZLE, SHUFFLE, ULTRA_CHAIN, Flow
from setgame.variants.kinds import FOURSET, GHOSTSET, SET, ULTRASET, Group, Kind

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
    deck: Deck = STANDARD
    kind: Kind = SET
    flow: Flow = NORMAL
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


CLASSIC: Final = Variant("classic", "Classic", aliases=("standard", "normal"))
JUNIOR_VARIANT: Final = CLASSIC.derive("junior", "Junior", deck=JUNIOR, table_sizes=(9,))
SET_CHAIN: Final = CLASSIC.derive("set-chain", "Set-Chain", flow=CHAIN)
ULTRA: Final = CLASSIC.derive("ultraset", "UltraSet", kind=ULTRASET)
ULTRA_CHAIN_VARIANT: Final = ULTRA.derive("ultraset-chain", "UltraSet-Chain", flow=ULTRA_CHAIN)
ULTRA9: Final = ULTRA.derive("ultra9", "Ultra9", table_size=9)
MEGA: Final = CLASSIC.derive("megaset", "MegaSet", deck=MEGASET, table_size=16)
GHOST: Final = CLASSIC.derive("ghostset", "GhostSet", kind=GHOSTSET)
FOUR: Final = CLASSIC.derive("4set", "4Set", deck=FOURSET_DECK, kind=FOURSET, table_size=15)
FOUR_JUNIOR: Final = FOUR.derive("4set-junior", "4Set Junior", deck=FOURSET_JUNIOR, table_size=12)
PUZZLE_VARIANT: Final = CLASSIC.derive("puzzle", "Puzzle", flow=PUZZLE)
SHUFFLE_VARIANT: Final = CLASSIC.derive("shuffle", "Shuffle", flow=SHUFFLE)
MEMORY_VARIANT: Final = CLASSIC.derive("memory", "Memory", flow=MEMORY)

VARIANTS: Final = {
    v.name: v
    for v in (
        CLASSIC, JUNIOR_VARIANT, SET_CHAIN, ULTRA, ULTRA_CHAIN_VARIANT, ULTRA9, MEGA, GHOST,
        FOUR, FOUR_JUNIOR, PUZZLE_VARIANT, SHUFFLE_VARIANT, MEMORY_VARIANT,
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
