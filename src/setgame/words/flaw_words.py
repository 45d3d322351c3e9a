"""Words for the variants: their flaws, attributes, values and descriptions.

The engine's typed flaws (``wrong_call.flaws``: ``set``, ``pairing``, ``count``, ``link``;
see ``docs/variants.md``) are worded from *web keys* of the one gettext catalog, the same
keys the web client uses, so the terminal, the server and the browser say the same
sentence. ``docs/i18n.md`` lists every key and its placeholders.

Attributes and values are named by the English words of the decks
(:mod:`setgame.rules.decks`): attribute 4 is the MegaSet border, value 3 the fourth
value of the 4Set decks. Card codes are notation and stay as they are in every language.

>>> text({"type": "link", "used": 0, "needed": 1}, "en")
'the pick holds 0 cards of the previous set; it must hold exactly 1'
>>> text({"type": "count", "attribute": 1, "counts": [3, 1, 0, 0]}, "de").split(":")[0]
'3 rote Karten, 1 grüne Karte'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import fields, is_dataclass
from typing import TYPE_CHECKING, Any, Final

from setgame.words.catalog import N_, check_language, gettext, ngettext

if TYPE_CHECKING:
    from setgame.rules.decks import Deck

__all__ = ["ATTRIBUTES", "VALUES", "FlawError", "normalize", "text", "verdict"]


class FlawError(ValueError):
    """Something given as a flaw that is none (quoted in the message)."""


def tn(one: str, other: str) -> tuple[str, str]:
    """Mark a plural web key pair for the catalog (the keyword ``tn:1,2``, as in the
    web client): ``ngettext(lang, *pair, n)`` picks the form."""
    return one, other


#: Attribute names by index (4: the MegaSet border).
ATTRIBUTES: Final = ("number", "color", "shading", "shape", "border")
#: Value names by attribute, in value order (index 3: the 4Set decks' fourth value).
VALUES: Final[Mapping[str, tuple[str, ...]]] = {
    "number": ("one", "two", "three", "four"),
    "color": ("red", "green", "purple", "blue"),
    "shading": ("solid", "striped", "open", "checkered"),
    "shape": ("diamond", "oval", "squiggle", "heart"),
    "border": ("single", "double", "dotted"),
}

#: ``attr.<attribute>``: the attribute's name.
ATTRIBUTE_KEYS: Final = (
    N_("attr.number"), N_("attr.color"), N_("attr.shading"), N_("attr.shape"), N_("attr.border"),
)  # fmt: skip
#: ``value.<attribute>.<value>``: a value in its dictionary form (the numeral, the adjective
#: as the attribute's noun takes it, the shape in the singular).
VALUE_KEYS: Final = (
    (N_("value.number.one"), N_("value.number.two"), N_("value.number.three"),
     N_("value.number.four")),
    (N_("value.color.red"), N_("value.color.green"), N_("value.color.purple"),
     N_("value.color.blue")),
    (N_("value.shading.solid"), N_("value.shading.striped"), N_("value.shading.open"),
     N_("value.shading.checkered")),
    (N_("value.shape.diamond"), N_("value.shape.oval"), N_("value.shape.squiggle"),
     N_("value.shape.heart")),
    (N_("value.border.single"), N_("value.border.double"), N_("value.border.dotted")),
)  # fmt: skip

#: ``flaw.set``: "two {common}, one {odd}", filled with ``flaw.two.<attribute>.<value>``
#: (what two cards share, with its verb) and ``flaw.one.<attribute>.<value>``.
SET_FRAME: Final = N_("flaw.set")
TWO_KEYS: Final = (
    (N_("flaw.two.number.one"), N_("flaw.two.number.two"), N_("flaw.two.number.three")),
    (N_("flaw.two.color.red"), N_("flaw.two.color.green"), N_("flaw.two.color.purple")),
    (N_("flaw.two.shading.solid"), N_("flaw.two.shading.striped"),
     N_("flaw.two.shading.open")),
    (N_("flaw.two.shape.diamond"), N_("flaw.two.shape.oval"), N_("flaw.two.shape.squiggle")),
    (N_("flaw.two.border.single"), N_("flaw.two.border.double"),
     N_("flaw.two.border.dotted")),
)  # fmt: skip
ONE_KEYS: Final = (
    (N_("flaw.one.number.one"), N_("flaw.one.number.two"), N_("flaw.one.number.three")),
    (N_("flaw.one.color.red"), N_("flaw.one.color.green"), N_("flaw.one.color.purple")),
    (N_("flaw.one.shading.solid"), N_("flaw.one.shading.striped"),
     N_("flaw.one.shading.open")),
    (N_("flaw.one.shape.diamond"), N_("flaw.one.shape.oval"), N_("flaw.one.shape.squiggle")),
    (N_("flaw.one.border.single"), N_("flaw.one.border.double"),
     N_("flaw.one.border.dotted")),
)  # fmt: skip

#: ``flaw.pairing``: the two pairs of an UltraSet pick, their completing cards, and the
#: attributes (``attr.*`` joined by ", ") on which those differ.
PAIRING_FRAME: Final = N_("flaw.pairing")

#: ``flaw.count``: "{counts}: {rule}", counts being ``flaw.count.<attribute>.<value>``
#: (plural on n) joined by ", " and the rule ``flaw.count.ghostset`` (three values) or
#: ``flaw.count.4set`` (four values).
COUNT_FRAME: Final = N_("flaw.count")
COUNT_RULES: Final = {3: N_("flaw.count.ghostset"), 4: N_("flaw.count.4set")}
COUNT_KEYS: Final = (
    (tn("flaw.count.number.one.one", "flaw.count.number.one.other"),
     tn("flaw.count.number.two.one", "flaw.count.number.two.other"),
     tn("flaw.count.number.three.one", "flaw.count.number.three.other"),
     tn("flaw.count.number.four.one", "flaw.count.number.four.other")),
    (tn("flaw.count.color.red.one", "flaw.count.color.red.other"),
     tn("flaw.count.color.green.one", "flaw.count.color.green.other"),
     tn("flaw.count.color.purple.one", "flaw.count.color.purple.other"),
     tn("flaw.count.color.blue.one", "flaw.count.color.blue.other")),
    (tn("flaw.count.shading.solid.one", "flaw.count.shading.solid.other"),
     tn("flaw.count.shading.striped.one", "flaw.count.shading.striped.other"),
     tn("flaw.count.shading.open.one", "flaw.count.shading.open.other"),
     tn("flaw.count.shading.checkered.one", "flaw.count.shading.checkered.other")),
    (tn("flaw.count.shape.diamond.one", "flaw.count.shape.diamond.other"),
     tn("flaw.count.shape.oval.one", "flaw.count.shape.oval.other"),
     tn("flaw.count.shape.squiggle.one", "flaw.count.shape.squiggle.other"),
     tn("flaw.count.shape.heart.one", "flaw.count.shape.heart.other")),
    (tn("flaw.count.border.single.one", "flaw.count.border.single.other"),
     tn("flaw.count.border.double.one", "flaw.count.border.double.other"),
     tn("flaw.count.border.dotted.one", "flaw.count.border.dotted.other")),
)  # fmt: skip

#: ``flaw.link``: "{used}" (``flaw.link.cards``, plural on n) of the previous set, where
#: exactly "{needed}" must be.
LINK_FRAME: Final = N_("flaw.link")
LINK_CARDS: Final = tn("flaw.link.cards.one", "flaw.link.cards.other")

#: ``verdict.yes.<kind>`` / ``verdict.no.<kind>`` ("{flaws}": the flaws joined by "; "), and
#: ``verdict.no.link`` for a group of the kind that is not linked as a chain needs.
VERDICTS: Final = {
    "set": (N_("verdict.yes.set"), N_("verdict.no.set")),
    "ultraset": (N_("verdict.yes.ultraset"), N_("verdict.no.ultraset")),
    "ghostset": (N_("verdict.yes.ghostset"), N_("verdict.no.ghostset")),
    "4set": (N_("verdict.yes.4set"), N_("verdict.no.4set")),
}
LINK_VERDICT: Final = N_("verdict.no.link")

#: ``variant.<name>.about``, a hyphen of the name written as "_" (keys allow no hyphen):
#: one sentence per variant for the home form.
VARIANT_ABOUT: Final = {
    "classic": N_("variant.classic.about"),
    "junior": N_("variant.junior.about"),
    "set-chain": N_("variant.set_chain.about"),
    "ultraset": N_("variant.ultraset.about"),
    "ultraset-chain": N_("variant.ultraset_chain.about"),
    "ultra9": N_("variant.ultra9.about"),
    "megaset": N_("variant.megaset.about"),
    "ghostset": N_("variant.ghostset.about"),
    "4set": N_("variant.4set.about"),
    "4set-junior": N_("variant.4set_junior.about"),
    "puzzle": N_("variant.puzzle.about"),
    "shuffle": N_("variant.shuffle.about"),
    "memory": N_("variant.memory.about"),
}

#: A card code in a flaw dict: notation of any deck (4 or 5 characters).
_CODE: Final = re.compile(r"[0-9A-Za-z]{4,5}")
_TYPES: Final = ("set", "pairing", "count", "link")


def about(variant: str, lang: str = "en") -> str:
    """The one-sentence description of a variant (registry name) for the home form."""
    key = VARIANT_ABOUT.get(variant) if isinstance(variant, str) else None
    if key is None:
        raise FlawError(f"not a variant: {variant!r} (expected one of {', '.join(VARIANT_ABOUT)})")
    return gettext(lang, key)


def attribute_word(attr: int, lang: str) -> str:
    return gettext(lang, ATTRIBUTE_KEYS[attr])


def value_word(attr: int, value: int, lang: str) -> str:
    return gettext(lang, VALUE_KEYS[attr][value])


# --- reading a flaw: a dataclass of setgame.rules (flaws, sets), or the event's dict ---


def _bad(flaw: object, why: str) -> FlawError:
    shown = repr(flaw)
    return FlawError(f"not a flaw ({why}): {shown[:120] + '...' if len(shown) > 120 else shown}")


def _int(value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(value)
    return value


def normalize(flaw: object, deck: Deck | None = None, *, width: int = 5) -> dict[str, Any]:
    """A flaw as the engine's event dict (``type`` and its fields; cards as codes), checked.

    ``flaw`` is a dataclass (:class:`setgame.rules.sets.Flaw`, or one of
    :mod:`setgame.rules.flaws`) or the event's dict (an old set flaw dict without
    ``type`` reads as a set flaw). Card ints are named with ``deck`` (default: the standard
    deck); ``width`` bounds the attribute index (4 for the standard deck's own flaws).
    Anything else is a :class:`FlawError` quoting it.
    """
    data = _fields(flaw)
    if deck is not None:
        width = deck.width
    kind = data.get("type", "set")
    try:
        if kind == "set":
            return _set(data, width)
        if kind == "pairing":
            return _pairing(data, deck, width)
        if kind == "count":
            return _count(data, width)
        if kind == "link":
            return _link(data)
    except (ValueError, TypeError, KeyError) as error:
        raise _bad(flaw, f"bad field {error}") from None
    raise _bad(flaw, f"type must be one of {', '.join(_TYPES)}")


def _fields(flaw: object) -> Mapping[str, Any]:
    if is_dataclass(flaw) and not isinstance(flaw, type):
        data = {f.name: getattr(flaw, f.name) for f in fields(flaw)}
        names = {"pairs": "pairing", "counts": "count", "used": "link"}
        data["type"] = next((names[n] for n in names if n in data), "set")
        return data
    if isinstance(flaw, Mapping) and len(flaw) <= 8:
        return flaw
    raise _bad(flaw, "a flaw is a dict or a flaw of setgame.rules.variants")


def _set(data: Mapping[str, Any], width: int) -> dict[str, Any]:
    attr = _int(data["attribute"], 0, width - 1)
    common, odd = _int(data["common"], 0, 2), _int(data["odd"], 0, 2)
    if common == odd:
        raise ValueError("common == odd")
    return {"type": "set", "attribute": attr, "common": common, "odd": odd}


def _code(card: object, deck: Deck | None) -> str:
    if isinstance(card, str):
        if not _CODE.fullmatch(card):
            raise ValueError(card)
        return card.upper() if deck is None else deck.name_of(deck.parse(card))
    if deck is not None:
        return deck.name_of(_int(card, 0, deck.space - 1))
    from setgame.rules.cards import card_name

    return card_name(_int(card, 0, 80))


def _pairing(data: Mapping[str, Any], deck: Deck | None, width: int) -> dict[str, Any]:
    pairs, thirds, attrs = data["pairs"], data["thirds"], data["attributes"]
    if len(pairs) != 2 or any(len(pair) != 2 for pair in pairs) or len(thirds) != 2:
        raise ValueError("two pairs and two thirds")
    if not 0 < len(attrs) <= width or len(set(attrs)) != len(attrs):
        raise ValueError("attributes")
    return {
        "type": "pairing",
        "pairs": [[_code(card, deck) for card in pair] for pair in pairs],
        "thirds": [_code(card, deck) for card in thirds],
        "attributes": sorted(_int(a, 0, width - 1) for a in attrs),
    }


def _count(data: Mapping[str, Any], width: int) -> dict[str, Any]:
    counts = data["counts"]
    if not isinstance(counts, Sequence) or len(counts) not in COUNT_RULES:
        raise ValueError("counts: three or four numbers")
    counts = [_int(n, 0, 6) for n in counts]
    attr = _int(data["attribute"], 0, width - 1 if len(counts) == 3 else 3)
    if sum(counts) != (6 if len(counts) == 3 else 4):
        raise ValueError("counts: six cards (GhostSet) or four (4Set)")
    return {"type": "count", "attribute": attr, "counts": counts}


def _link(data: Mapping[str, Any]) -> dict[str, Any]:
    needed = _int(data["needed"], 1, 5)
    used = _int(data["used"], 0, 6)
    if used == needed:
        raise ValueError("used == needed")
    return {"type": "link", "used": used, "needed": needed}


# --- a flaw in words ----------------------------------------------------------------


def text(flaw: object, lang: str = "en", deck: Deck | None = None) -> str:
    """Any flaw (see :func:`normalize`) in ``lang``, from the web keys."""
    check_language(lang)
    data = normalize(flaw, deck)
    kind = data["type"]
    if kind == "set":
        attr, common, odd = data["attribute"], data["common"], data["odd"]
        two, one = TWO_KEYS[attr][common], ONE_KEYS[attr][odd]
        return gettext(lang, SET_FRAME, common=gettext(lang, two), odd=gettext(lang, one))
    if kind == "pairing":
        (a, b), (c, d) = data["pairs"]
        x, y = data["thirds"]
        words = ", ".join(attribute_word(i, lang) for i in data["attributes"])
        return gettext(lang, PAIRING_FRAME, a=a, b=b, c=c, d=d, x=x, y=y, attributes=words)
    if kind == "count":
        counts, keys = data["counts"], COUNT_KEYS[data["attribute"]]
        listed = [ngettext(lang, *keys[v], n) for v, n in enumerate(counts) if n]
        rule = gettext(lang, COUNT_RULES[len(counts)])
        return gettext(lang, COUNT_FRAME, counts=", ".join(listed), rule=rule)
    used = ngettext(lang, *LINK_CARDS, data["used"])
    return gettext(lang, LINK_FRAME, used=used, needed=data["needed"])


def verdict(kind: str, texts: Sequence[str], lang: str, *, linked: bool = True) -> str:
    """The verdict on a pick of ``kind``: good when ``texts`` is empty; else "Not an
    UltraSet: ..." (or, when only the link to the previous set fails, "Not linked ...")."""
    if kind not in VERDICTS:
        raise FlawError(f"not a kind of set: {kind!r} (expected one of {', '.join(VERDICTS)})")
    yes, no = VERDICTS[kind]
    if not texts:
        return gettext(lang, yes)
    return gettext(lang, no if linked else LINK_VERDICT, flaws="; ".join(texts))
