"""Why a pick is not a set of its variant's kind (R04 generalized), as data.

Explanations are structured, not sentences: the words go into the message
catalogs later, where each flaw type becomes one translatable pattern.
Attributes and values are indices into the deck's ``attributes`` and their
``values``, so the same flaw names the border on a MegaSet card and the
fourth color on a 4Set card.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SetFlaw:
    """Three cards on one attribute: two share ``common``, the third has ``odd``
    (the fields of :class:`setgame.rules.sets.Flaw`, for any three-valued deck)."""

    attribute: int
    common: int
    odd: int


@dataclass(frozen=True, slots=True)
class PairingFlaw:
    """Four cards split into two pairs: the pairs' completing cards differ
    (UltraSet). ``thirds`` completes each pair; ``attributes`` are those on which
    the two completing cards differ. An UltraSet pick that fails gets one
    PairingFlaw per way of splitting it (three)."""

    pairs: tuple[tuple[int, int], tuple[int, int]]
    thirds: tuple[int, int]
    attributes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CountFlaw:
    """How many of the picked cards show each value of one attribute, when that
    split is not allowed: GhostSet allows six cards split 6-0-0, 4-1-1, 3-3-0 or
    2-2-2 (counts equal mod 3, i.e. values summing to 0 mod 3); 4Set allows four
    cards split 4, 2-2 or 1-1-1-1 (values XOR to 0)."""

    attribute: int
    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LinkFlaw:
    """A chain claim (Set-Chain, UltraSet-Chain) that uses ``used`` cards of the
    previous claim where it must use exactly ``needed``."""

    used: int
    needed: int


Flaw = SetFlaw | PairingFlaw | CountFlaw | LinkFlaw
