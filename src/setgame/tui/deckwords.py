"""The variants' cards in words on the terminal, from the catalog.

The standard deck keeps :mod:`setgame.words.i18n`'s declined card names. A MegaSet card
is the standard name of its first four attributes and its border; a 4Set card
(whose fourth values have no declined forms in the catalog) is its four values in
their dictionary forms, so that no word needs declining. The flaws of a wrong
claim are worded by :func:`setgame.words.i18n.explain_text` (the same sentences as the
web client's and the server's).

>>> from setgame.rules.decks import DECKS
>>> card_words(DECKS["megaset"].parse("2RTDD"), DECKS["megaset"], "it")
'due diamanti rossi brizzolati, bordo doppio'
>>> card_words(DECKS["4set"].parse("4BCH"), DECKS["4set"], "de")
'vier, blau, kariert, Herz'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from setgame.rules.decks import Deck
from setgame.rules.variants import Variant
from setgame.words.catalog import N_, gettext
from setgame.words.i18n import card_label, explain_text, value_name

_WITH_BORDER: Final = N_("{card}, {border} border")


def card_words(card: int, deck: Deck, lang: str) -> str:
    """A card of ``deck`` in words: the standard name (with its border on MegaSet), or
    a 4Set card's values."""
    values = deck.values(card)
    if deck.radix == 4:
        return ", ".join(value_name(a, v, lang, deck) for a, v in enumerate(values))
    if deck.width == 5:
        border = value_name(4, values[4], lang, deck)
        return gettext(lang, _WITH_BORDER, card=card_label(card // 3, lang), border=border)
    return card_label(card, lang)


def flaws_text(flaws: Sequence[Mapping[str, Any]], lang: str, variant: Variant) -> str:
    """The verdict on a wrong claim from the engine's typed flaws (``wrong_call.flaws``)."""
    return explain_text(list(flaws), lang, kind=variant.kind.name, deck=variant.deck)
