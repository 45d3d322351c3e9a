"""SET, the card game: a pure rules library.

>>> from setgame import parse_card, card_name, find_sets, third_card, is_set
>>> card = parse_card("2rtd")
>>> card_name(card)
'2RTD'
>>> card_name(third_card(parse_card("1RSD"), parse_card("2GTO")))
'3POS'
>>> is_set(parse_card("1RSD"), parse_card("2GTO"), parse_card("3POS"))
True
>>> is_set(parse_card("1RSD"), parse_card("2GTO"), parse_card("3POO"))
False
"""

from __future__ import annotations

from setgame.analysis.batch import find_sets_batch
from setgame.rules.cards import (
    ATTRIBUTE_NAMES,
    CARDS,
    COLOR,
    NUMBER,
    SHADING,
    SHAPE,
    Card,
    CardError,
    attribute,
    attributes,
    beginner_deck,
    card_name,
    card_names,
    deck_with,
    describe,
    format_cards,
    full_deck,
    make_card,
    parse_card,
    parse_cards,
    parse_deck,
)
from setgame.rules.sets import (
    Flaw,
    Triple,
    count_sets,
    explain,
    find_sets,
    has_set,
    is_set,
    iter_sets,
    third_card,
)
from setgame.words.i18n import LANGUAGES, card_label

__version__ = "0.1.0"

__all__ = [
    "ATTRIBUTE_NAMES",
    "CARDS",
    "COLOR",
    "LANGUAGES",
    "NUMBER",
    "SHADING",
    "SHAPE",
    "Card",
    "CardError",
    "Flaw",
    "Triple",
    "attribute",
    "attributes",
    "beginner_deck",
    "card_label",
    "card_name",
    "card_names",
    "count_sets",
    "deck_with",
    "describe",
    "explain",
    "find_sets",
    "find_sets_batch",
    "format_cards",
    "full_deck",
    "has_set",
    "is_set",
    "iter_sets",
    "make_card",
    "parse_card",
    "parse_cards",
    "parse_deck",
    "third_card",
]
