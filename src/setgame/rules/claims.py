"""Why a claim is wrong, as JSON-ready dicts for the ``wrong_call`` event (R04 generalized).

Each flaw of :mod:`setgame.rules.flaws` becomes a dict with a ``type``; cards are written
in the notation of the variant's deck, attributes and values are indices into its
``attributes`` (0 number, 1 color, 2 shading, 3 shape, 4 border).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from setgame.rules.cards import Card
from setgame.rules.decks import Deck
from setgame.rules.flaws import CountFlaw, Flaw, LinkFlaw, PairingFlaw, SetFlaw
from setgame.rules.variants import Variant


def flaw_dict(flaw: Flaw, deck: Deck) -> dict[str, Any]:
    """One flaw: ``{"type": "set" | "pairing" | "count" | "link", ...}``."""
    if isinstance(flaw, SetFlaw):  # the fields of the classic flaw, and its type
        return {"type": "set", "attribute": flaw.attribute, "common": flaw.common, "odd": flaw.odd}
    if isinstance(flaw, PairingFlaw):
        return {
            "type": "pairing",
            "pairs": [deck.names(pair) for pair in flaw.pairs],
            "thirds": deck.names(flaw.thirds),
            "attributes": list(flaw.attributes),
        }
    if isinstance(flaw, CountFlaw):
        return {"type": "count", "attribute": flaw.attribute, "counts": list(flaw.counts)}
    assert isinstance(flaw, LinkFlaw)
    return {"type": "link", "used": flaw.used, "needed": flaw.needed}


def flaw_dicts(
    variant: Variant, cards: Sequence[Card], previous: Sequence[Card] | None
) -> list[dict[str, Any]]:
    """Every flaw of a claim of ``variant``: the kind's, then the link's (empty: good)."""
    return [flaw_dict(f, variant.deck) for f in variant.explain(cards, previous)]
