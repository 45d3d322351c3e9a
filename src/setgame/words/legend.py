"""A variant's rule and its cards' notation in words: what the terminal's help (``?``) says.

The one-sentence description of each variant is the web's (``variant.*.about``); the
rule of its kind of group is added where the description does not state it (Classic
says "sets of three", not what a set is; Ultra9 names UltraSets without the rule). The
notation lists, per attribute, the letter of each value on the deck's cards and its
word, the same words as the cards' names.

>>> from setgame.rules.variants import find_variant
>>> print(variant_rules(find_variant("classic"), "de")[1])  # doctest: +NORMALIZE_WHITESPACE
Ein SET sind drei Karten, bei denen jedes Merkmal (Anzahl, Farbe, Schattierung, Form)
auf allen gleich oder auf allen verschieden ist.
>>> [(name, values[:2]) for name, values in notation(find_variant("megaset").deck, "en")][-1]
('border', [('S', 'single'), ('D', 'double')])
"""

from __future__ import annotations

from typing import Final

from setgame.rules.decks import Deck
from setgame.rules.variants import Variant
from setgame.words.catalog import N_, gettext
from setgame.words.flaw_words import about
from setgame.words.i18n import attribute_name, value_name

#: The rule of each kind of group a description may leave out (GhostSet's own
#: description is its rule, and no other variant plays GhostSets).
KIND_RULES: Final = {
    "set": N_(
        "A set: three cards on which each attribute ({attributes}) is all the same "
        "or all different."
    ),
    "ultraset": N_(
        "An UltraSet: four cards that split into two pairs completed to a set by the same "
        "third card."
    ),
    "4set": N_(
        "A 4Set: four cards on which each attribute ({attributes}) is all the same, "
        "all different, or two pairs."
    ),
}


def variant_rules(variant: Variant, lang: str) -> list[str]:
    """The variant's description, then the rule of its kind of group when the
    description is not that rule (UltraSet's and 4Set's are)."""
    lines = [about(variant.name, lang)]
    rule = KIND_RULES.get(variant.kind.name)
    if rule is not None and variant.name != variant.kind.name:
        deck = variant.deck
        attributes = ", ".join(attribute_name(a, lang, deck) for a in range(deck.width))
        lines.append(gettext(lang, rule, attributes=attributes))
    return lines


def notation(deck: Deck, lang: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each attribute of ``deck``'s cards: its name, and the letter and word of each of
    its values that the deck's cards show (a Junior deck's shading: solid only)."""
    shown = [sorted({deck.values(card)[a] for card in deck.cards}) for a in range(deck.width)]
    return [
        (
            attribute_name(a, lang, deck),
            [(attribute.letters[v], value_name(a, v, lang, deck)) for v in shown[a]],
        )
        for a, attribute in enumerate(deck.attributes)
    ]
