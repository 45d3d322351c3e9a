"""Words for the variants' decks and flaws on the terminal (issue 10), from the catalog.

The standard deck keeps :mod:`setgame.i18n`'s declined card names and "two are
red, one is green". The variants add a fifth attribute (MegaSet's border), a
fourth value per attribute (4Set: four, blue, checkered, heart) and three more
kinds of flaw (an UltraSet's pairings, a GhostSet's or 4Set's counts, a chain's
link). Those are written so that no word needs declining: a 4Set card is its
four values in their dictionary forms, a count is ``3 × red``.

>>> from setgame.variants import DECKS
>>> card_words(DECKS["megaset"].parse("2RTDD"), DECKS["megaset"], "it")
'due diamanti rossi brizzolati, bordo doppio'
>>> card_words(DECKS["4set"].parse("4BCH"), DECKS["4set"], "de")
'vier, blau, kariert, Herz'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from setgame.catalog import N_, NP_, gettext, pgettext
from setgame.i18n import attribute_name, card_label, explain_text, flaw_text, value_name
from setgame.sets import Flaw
from setgame.variants.decks import Deck

#: MegaSet's border values (single, double, dotted), as an adjective of "border".
BORDERS: Final = (
    NP_("card border", "single"),
    NP_("card border", "double"),
    NP_("card border", "dotted"),
)
#: The fourth value of each attribute of the 4Set decks, in attribute order.
FOURTH: Final = (
    NP_("card value", "four"),
    NP_("card value", "blue"),
    NP_("card value", "checkered"),
    NP_("card value", "heart"),
)
_BORDER_NAME: Final = N_("border")
_WITH_BORDER: Final = N_("{card}, {border} border")
_BORDER_FLAW: Final = NP_("flaw: border", "two have a {common} border, one a {odd} one")
_GHOST_RULE: Final = N_("the counts must be 6-0-0, 4-1-1, 3-3-0 or 2-2-2")
_FOUR_RULE: Final = N_("all the same, all different or two pairs")
_PAIRING: Final = N_("{pair1} → {third1}, {pair2} → {third2}: they differ ({attributes})")
_LINK: Final = N_("cards of the previous group used: {used}, needed: exactly {needed}")
_VERDICT: Final = N_("{title}? No: {flaws}.")


def attribute_word(attr: int, lang: str) -> str:
    """An attribute's name: number, color, shading, shape, border (MegaSet)."""
    return gettext(lang, _BORDER_NAME) if attr == 4 else attribute_name(attr, lang)


def value_word(attr: int, value: int, lang: str) -> str:
    """A value in its dictionary form, for any deck's attribute."""
    if attr == 4:
        return pgettext(lang, *BORDERS[value])
    if value == 3:
        return pgettext(lang, *FOURTH[attr])
    return value_name(attr, value, lang)


def card_words(card: int, deck: Deck, lang: str) -> str:
    """A card of ``deck`` in words: the standard name (with its border on MegaSet), or
    a 4Set card's values."""
    values = deck.values(card)
    if deck.radix == 4:
        return ", ".join(value_word(a, v, lang) for a, v in enumerate(values))
    name = card_label(card // 3 if deck.width == 5 else card, lang)
    if deck.width == 5:
        border = value_word(4, values[4], lang)
        return gettext(lang, _WITH_BORDER, card=name, border=border)
    return name


def flaws_text(
    flaws: Sequence[Mapping[str, Any]], lang: str, *, title: str = "", deck: Deck | None = None
) -> str:
    """The verdict on a wrong claim from the engine's typed flaws (``wrong_call.flaws``)."""
    if all(f.get("type", "set") == "set" and f.get("attribute", 0) < 4 for f in flaws):
        plain = [Flaw(f["attribute"], f["common"], f["odd"]) for f in flaws]
        return explain_text(plain, lang)
    said = "; ".join(one_flaw(f, lang, deck) for f in flaws)
    return gettext(lang, _VERDICT, title=title or "SET", flaws=said)


def one_flaw(flaw: Mapping[str, Any], lang: str, deck: Deck | None = None) -> str:
    """One typed flaw in words."""
    kind = flaw.get("type", "set")
    if kind == "set":
        return _set_flaw(flaw, lang)
    if kind == "pairing":
        return _pairing(flaw, lang)
    if kind == "count":
        return _count(flaw, lang)
    if kind == "link":
        return gettext(lang, _LINK, used=flaw.get("used", 0), needed=flaw.get("needed", 0))
    return str(kind)


def _set_flaw(flaw: Mapping[str, Any], lang: str) -> str:
    attr, common, odd = int(flaw["attribute"]), int(flaw["common"]), int(flaw["odd"])
    if attr < 4:
        return flaw_text(Flaw(attr, common, odd), lang)
    return pgettext(
        lang, *_BORDER_FLAW, common=value_word(4, common, lang), odd=value_word(4, odd, lang)
    )


def _pairing(flaw: Mapping[str, Any], lang: str) -> str:
    pairs, thirds = flaw.get("pairs") or [[], []], flaw.get("thirds") or ["?", "?"]
    names = ", ".join(attribute_word(int(a), lang) for a in flaw.get("attributes") or ())
    return gettext(
        lang,
        _PAIRING,
        pair1="+".join(pairs[0]),
        pair2="+".join(pairs[1]),
        third1=thirds[0],
        third2=thirds[1],
        attributes=names,
    )


def _count(flaw: Mapping[str, Any], lang: str) -> str:
    attr, counts = int(flaw["attribute"]), list(flaw.get("counts") or ())
    said = ", ".join(
        f"{n} × {value_word(attr, value, lang)}" for value, n in enumerate(counts) if n
    )
    rule = _FOUR_RULE if len(counts) == 4 else _GHOST_RULE
    return f"{attribute_word(attr, lang)}: {said} ({gettext(lang, rule)})"
