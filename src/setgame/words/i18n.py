"""Words of the game in English, Russian, Polish, Italian and German (R01, R04).

Card names and the explanation of a rejected triple, each language using its own
rulebook's words (``/work/shared/rulebooks``). The words themselves (attribute and
value names, the flaw sentences and their word forms, the verdicts) are messages of
the gettext catalog (:mod:`setgame.words.catalog`); only the declension of a card name
with its number (ru, pl, it, de) stays code here, built on the catalog's words:

- ``en``: RULES.md: one/two/three, red/green/purple, solid/striped/open,
  diamond/oval/squiggle.
- ``ru``: ``000`` (the edition with the diamond): ромб/овал/волна,
  красный/зелёный/фиолетовый, закрашенный/заштрихованный/пустой. ``002`` says
  прямоугольник and "в крапинку" instead; we follow ``000``, as its words match
  the cards the project draws.
- ``pl``: ``001``: czerwony/zielony/fioletowy, wypełniony/zacieniony/obrysowany
  (its "wypełniona, obrysowana, zacieniona" stands where ``004`` has
  "ausgefüllt, umrandet, schattiert"), romb/owal. ``001`` has no word for the
  squiggle (its list "owale, kwadraty, romby" renders ``004``'s "Ovale,
  Schnörkel, Rauten" and "kwadraty" is the squares some editions print for the
  diamond, RULES.md R01), so we use "wężyk", the usual Polish name of the shape.
- ``it``: ``003``: rosso/verde/violetto, pieno/brizzolato/vuoto,
  diamante/ovale/onda ("diamante (o rettangolo, a seconda delle edizioni)").
- ``de``: ``004``: rot/grün/lila, ausgefüllt/schattiert/umrandet,
  Raute/Oval/Schnörkel.

The variants add the MegaSet border («рамка», «ramka», «bordo», «Rand») and
the 4Set decks' fourth values (blue, checkered, heart); their flaws (set, pairing,
count, link) are worded from the web keys of :mod:`setgame.words.flaw_words`, so that the
browser says the same sentences (``docs/i18n.md``).

>>> from setgame.rules.cards import parse_card
>>> card_label(parse_card("2RTD"), "ru")
'два красных заштрихованных ромба'
>>> card_label(parse_card("1GOS"), "de")
'ein grüner umrandeter Schnörkel'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from setgame.rules import sets
from setgame.rules.cards import ATTRIBUTES, VALUE_NAMES, Card, attributes, card_name, parse_card
from setgame.words import flaw_words
from setgame.words.catalog import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    N_,
    NP_,
    check_language,
    gettext,
    pgettext,
)

if TYPE_CHECKING:
    from setgame.rules.decks import Deck
    from setgame.rules.flaws import Flaw as VariantFlaw
    from setgame.rules.sets import Flaw

#: A flaw as :func:`flaw_text` takes it: the standard deck's, a variant's, or the event's dict.
AnyFlaw: TypeAlias = "Flaw | VariantFlaw | Mapping[str, Any]"

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "check_language"]

#: Each language's name in itself, for a language picker.
LANGUAGE_NAMES: Final[Mapping[str, str]] = {
    "en": "English",
    "ru": "Русский",
    "pl": "Polski",
    "it": "Italiano",
    "de": "Deutsch",
}


def _check_attribute(attr: int) -> int:
    if isinstance(attr, bool) or attr not in ATTRIBUTES:
        raise ValueError(f"not an attribute (0 number, 1 color, 2 shading, 3 shape): {attr!r}")
    return attr


def _check_value(value: int) -> int:
    if isinstance(value, bool) or value not in (0, 1, 2):
        raise ValueError(f"not an attribute value (0, 1 or 2): {value!r}")
    return value


# --- names of attributes and values (from the catalog) ------------------------------

# Attribute and value names are the catalog's ``attr.<attribute>`` and
# ``value.<attribute>.<value>`` messages (flaw_words' keys, the browser's too): one message
# per word. Values are in their dictionary form (numeral, masculine singular adjective,
# shape in the singular); the card names below decline them in code.
assert all(
    flaw_words.VALUES[name][:3] == values
    for name, values in zip(flaw_words.ATTRIBUTES, VALUE_NAMES, strict=False)
), "the catalog's value keys are named by the cards' English names"

_Words = tuple[str, str, str]

#: Russian adjectives: masculine and feminine singular, nominative and genitive plural.
_RU_ADJECTIVES: Final[Mapping[str, tuple[str, str, str, str]]] = {
    "red": ("красный", "красная", "красные", "красных"),
    "green": ("зелёный", "зелёная", "зелёные", "зелёных"),
    "purple": ("фиолетовый", "фиолетовая", "фиолетовые", "фиолетовых"),
    "solid": ("закрашенный", "закрашенная", "закрашенные", "закрашенных"),
    "striped": ("заштрихованный", "заштрихованная", "заштрихованные", "заштрихованных"),
    "open": ("пустой", "пустая", "пустые", "пустых"),
}
#: Russian shapes: nominative and genitive singular, instrumental plural, feminine?
_RU_SHAPES: Final = (
    ("ромб", "ромба", "ромбами", False),
    ("овал", "овала", "овалами", False),
    ("волна", "волны", "волнами", True),
)
_RU_NUMERALS: Final = (("один", "одна"), ("два", "две"), ("три", "три"))

#: Polish adjectives: masculine singular, plural (non-virile), feminine singular.
_PL_ADJECTIVES: Final[Mapping[str, _Words]] = {
    "red": ("czerwony", "czerwone", "czerwona"),
    "green": ("zielony", "zielone", "zielona"),
    "purple": ("fioletowy", "fioletowe", "fioletowa"),
    "solid": ("wypełniony", "wypełnione", "wypełniona"),
    "striped": ("zacieniony", "zacienione", "zacieniona"),
    "open": ("obrysowany", "obrysowane", "obrysowana"),
}
#: Polish shapes (all masculine): singular, plural.
_PL_SHAPES: Final = (("romb", "romby"), ("owal", "owale"), ("wężyk", "wężyki"))

#: Italian adjectives: masculine and feminine singular, masculine and feminine plural.
_IT_ADJECTIVES: Final[Mapping[str, tuple[str, str, str, str]]] = {
    "red": ("rosso", "rossa", "rossi", "rosse"),
    "green": ("verde", "verde", "verdi", "verdi"),
    "purple": ("violetto", "violetta", "violetti", "violette"),
    "solid": ("pieno", "piena", "pieni", "piene"),
    "striped": ("brizzolato", "brizzolata", "brizzolati", "brizzolate"),
    "open": ("vuoto", "vuota", "vuoti", "vuote"),
}
#: Italian shapes: singular, plural, feminine?
_IT_SHAPES: Final = (
    ("diamante", "diamanti", False),
    ("ovale", "ovali", False),
    ("onda", "onde", True),
)

#: German shapes: singular, plural, gender (m, f, n).
_DE_SHAPES: Final = (
    ("Raute", "Rauten", "f"),
    ("Oval", "Ovale", "n"),
    ("Schnörkel", "Schnörkel", "m"),
)
#: Ending of an adjective after "ein"/"eine" (nominative), by gender; plural without article.
_DE_ENDINGS: Final[Mapping[str, str]] = {"m": "er", "f": "e", "n": "es", "pl": "e"}


def _key(attr: int, value: int) -> str:
    return VALUE_NAMES[attr][value]


def attribute_name(attr: int, lang: str = "en", deck: Deck | None = None) -> str:
    """The name of an attribute (0 number, 1 color, 2 shading, 3 shape; with a
    ``deck`` of five attributes, 4 border) in ``lang``.

    >>> attribute_name(2, "de")
    'Schattierung'
    >>> from setgame.rules.decks import MEGASET
    >>> attribute_name(4, "pl", MEGASET)
    'ramka'
    """
    if deck is None:
        return flaw_words.attribute_word(_check_attribute(attr), check_language(lang))
    attr = _check_index(attr, deck.width, "attribute")
    return flaw_words.attribute_word(attr, check_language(lang))


def value_name(attr: int, value: int, lang: str = "en", deck: Deck | None = None) -> str:
    """One value of one attribute in ``lang``, in its dictionary form (the numeral,
    the masculine singular adjective, the shape in the singular; the border's
    adjective as its noun takes it). With a ``deck``, its attributes and values: the
    MegaSet border, the fourth values of the 4Set decks.

    >>> value_name(3, 2, "it"), value_name(1, 2, "de"), value_name(2, 2, "ru")
    ('onda', 'lila', 'пустой')
    >>> from setgame.rules.decks import FOURSET
    >>> value_name(1, 3, "it", FOURSET), value_name(3, 3, "de", FOURSET)
    ('blu', 'Herz')
    """
    if deck is None:
        attr, value = _check_attribute(attr), _check_value(value)
    else:
        attr = _check_index(attr, deck.width, "attribute")
        value = _check_index(value, deck.radix, "attribute value")
    return flaw_words.value_word(attr, value, check_language(lang))


def _check_index(index: int, size: int, what: str) -> int:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < size:
        raise ValueError(f"not an {what} of this deck (0-{size - 1}): {index!r}")
    return index


# --- a card in words -------------------------------------------------------------


def _label_en(n: int, c: int, s: int, h: int) -> str:
    shape = VALUE_NAMES[3][h] + ("s" if n else "")
    return f"{VALUE_NAMES[0][n]} {VALUE_NAMES[1][c]} {VALUE_NAMES[2][s]} {shape}"


def _label_ru(n: int, c: int, s: int, h: int) -> str:
    nominative, genitive, _, feminine = _RU_SHAPES[h]
    color, shading = _RU_ADJECTIVES[_key(1, c)], _RU_ADJECTIVES[_key(2, s)]
    numeral = _RU_NUMERALS[n][feminine]
    if n == 0:
        return f"{numeral} {color[feminine]} {shading[feminine]} {nominative}"
    # After два/три the noun takes the genitive singular; the adjective the genitive
    # plural with a masculine noun ("два красных ромба") and, as usual today, the
    # nominative plural with a feminine one ("две красные волны").
    form = 2 if feminine else 3
    return f"{numeral} {color[form]} {shading[form]} {genitive}"


def _label_pl(n: int, c: int, s: int, h: int) -> str:
    # jeden + singular; dwa/trzy + nominative plural (every shape is masculine).
    form = 0 if n == 0 else 1
    color, shading = _PL_ADJECTIVES[_key(1, c)][form], _PL_ADJECTIVES[_key(2, s)][form]
    return f"{value_name(0, n, 'pl')} {color} {shading} {_PL_SHAPES[h][form]}"


def _label_it(n: int, c: int, s: int, h: int) -> str:
    singular, plural, feminine = _IT_SHAPES[h]
    form = (0 if n == 0 else 2) + feminine
    color, shading = _IT_ADJECTIVES[_key(1, c)][form], _IT_ADJECTIVES[_key(2, s)][form]
    if n == 0:
        article = ("un'" if singular[0] in "aeiou" else "una ") if feminine else "un "
        return f"{article}{singular} {color} {shading}"
    return f"{value_name(0, n, 'it')} {plural} {color} {shading}"


def _de_adjective(attr: int, value: int, gender: str) -> str:
    stem = value_name(attr, value, "de")  # the catalog's word is the stem
    return stem if stem == "lila" else stem + _DE_ENDINGS[gender]


def _label_de(n: int, c: int, s: int, h: int) -> str:
    singular, plural, gender = _DE_SHAPES[h]
    if n == 0:
        article = "eine" if gender == "f" else "ein"
        color, shading = _de_adjective(1, c, gender), _de_adjective(2, s, gender)
        return f"{article} {color} {shading} {singular}"
    color, shading = _de_adjective(1, c, "pl"), _de_adjective(2, s, "pl")
    return f"{value_name(0, n, 'de')} {color} {shading} {plural}"


_LABELS: Final[Mapping[str, Callable[[int, int, int, int], str]]] = {
    "en": _label_en,
    "ru": _label_ru,
    "pl": _label_pl,
    "it": _label_it,
    "de": _label_de,
}


def card_label(card: Card, lang: str = "en") -> str:
    """A card in words: ``card_label(30) == "two red striped diamonds"``.

    >>> card_label(0, "pl"), card_label(80, "it")
    ('jeden czerwony wypełniony romb', 'tre onde violette vuote')
    """
    check_language(lang)
    card_name(card)  # raises CardError quoting anything that is not a card
    return _LABELS[lang](*attributes(card))


_WITH_BORDER: Final = N_("{card}, {border} border")


def card_words(card: int, deck: Deck, lang: str = "en") -> str:
    """A card of any ``deck`` in words: the standard deck's declined name (:func:`card_label`),
    a MegaSet card's with its border, a 4Set card with a fourth value as its four values in
    their dictionary forms (those values have no declined forms in the catalog, so no word
    needs declining). The server serves these names to the browser (``/api/words``).

    >>> from setgame.rules.decks import DECKS
    >>> card_words(DECKS["megaset"].parse("2RTDD"), DECKS["megaset"], "it")
    'due diamanti rossi brizzolati, bordo doppio'
    >>> card_words(DECKS["4set"].parse("4BCH"), DECKS["4set"], "de")
    'vier, blau, kariert, Herz'
    >>> card_words(DECKS["4set"].parse("1RSD"), DECKS["4set"], "en")
    'one red solid diamond'
    """
    values = deck.values(card)
    if deck.radix == 4 and max(values) < 3:  # a standard card in a 4Set deck: its own name
        return card_label(parse_card(deck.name_of(card)), lang)
    if deck.radix == 4:
        return ", ".join(value_name(a, v, lang, deck) for a, v in enumerate(values))
    if deck.width == 5:
        border = value_name(4, values[4], lang, deck)
        return gettext(lang, _WITH_BORDER, card=card_label(card // 3, lang), border=border)
    return card_label(card, lang)


# --- why three cards are no set (R04) ----------------------------------------------


#: What two cards of a flaw share, and what the third has, as the catalog says it in
#: the sentence frames below (Russian: "две карты с волнами, а одна с овалами", 000).
_FLAW_WORDS: Final = (
    (
        (NP_("flaw: two cards", "one symbol"), NP_("flaw: one card", "one symbol")),
        (NP_("flaw: two cards", "two symbols"), NP_("flaw: one card", "two symbols")),
        (
            NP_("flaw: two cards", "three symbols"),
            NP_("flaw: one card", "three symbols"),
        ),
    ),
    (
        (NP_("flaw: two cards", "red"), NP_("flaw: one card", "red")),
        (NP_("flaw: two cards", "green"), NP_("flaw: one card", "green")),
        (NP_("flaw: two cards", "purple"), NP_("flaw: one card", "purple")),
    ),
    (
        (NP_("flaw: two cards", "solid"), NP_("flaw: one card", "solid")),
        (NP_("flaw: two cards", "striped"), NP_("flaw: one card", "striped")),
        (NP_("flaw: two cards", "open"), NP_("flaw: one card", "open")),
    ),
    (
        (NP_("flaw: two cards", "diamonds"), NP_("flaw: one card", "a diamond")),
        (NP_("flaw: two cards", "ovals"), NP_("flaw: one card", "an oval")),
        (NP_("flaw: two cards", "squiggles"), NP_("flaw: one card", "a squiggle")),
    ),
)
#: The sentence of a flaw, per attribute (each language words shapes its own way).
_FLAW_FRAMES: Final = (
    NP_("flaw: number", "two have {common}, one has {odd}"),
    NP_("flaw: color", "two are {common}, one is {odd}"),
    NP_("flaw: shading", "two are {common}, one is {odd}"),
    NP_("flaw: shape", "two are {common}, one is {odd}"),
)


def flaw_text(flaw: AnyFlaw, lang: str = "en", deck: Deck | None = None) -> str:
    """Why a pick is not a group of its kind, on one point: "two are red, one is green".

    ``flaw`` is a :class:`setgame.rules.sets.Flaw`, a flaw of :mod:`setgame.rules.variants` (set,
    pairing, count, link) or the engine's event dict of one (``wrong_call.flaws``);
    ``deck`` names card ints and bounds the attributes (default: any of the decks, the
    standard one for card ints; a :class:`setgame.rules.sets.Flaw` is the standard deck's).

    >>> from setgame.rules.sets import Flaw
    >>> flaw_text(Flaw(1, 0, 1), "de")
    'zwei sind rot, eine ist grün'
    >>> flaw_text({"type": "set", "attribute": 4, "common": 0, "odd": 2}, "en")
    'two have a single border, one has a dotted border'
    """
    check_language(lang)
    width = 4 if _is_standard_flaw(flaw) else 5
    try:
        data = flaw_words.normalize(flaw, deck, width=width)
    except flaw_words.FlawError as error:
        raise ValueError(str(error)) from None
    if data["type"] != "set" or data["attribute"] > 3:
        return flaw_words.text(data, lang)
    attr, common, odd = data["attribute"], data["common"], data["odd"]
    two, one = _FLAW_WORDS[attr][common][0], _FLAW_WORDS[attr][odd][1]
    frame = _FLAW_FRAMES[attr]
    return pgettext(lang, *frame, common=pgettext(lang, *two), odd=pgettext(lang, *one))


def _is_standard_flaw(flaw: object) -> bool:
    return isinstance(flaw, sets.Flaw)


sets.word_flaws_with(flaw_text)  # Flaw.text and str(flaw) speak through this module


# --- whole verdicts and game messages ------------------------------------------------

def is_set_text(lang: str = "en") -> str:
    """The verdict on three cards that form a set: "That is a set."."""
    return flaw_words.verdict("set", [], check_language(lang))


def explain_text(
    flaws: Iterable[AnyFlaw], lang: str = "en", *, kind: str = "set", deck: Deck | None = None
) -> str:
    """The verdict on a pick with every flaw named; no flaws means a group of ``kind``
    (``set``, ``ultraset``, ``ghostset``, ``4set``: the variant's ``kind.name``).

    >>> from setgame.rules.sets import Flaw
    >>> explain_text([Flaw(1, 0, 1), Flaw(2, 0, 2)])
    'Not a set: two are red, one is green; two are solid, one is open.'
    >>> explain_text([], "it")
    'È un SET.'
    >>> explain_text([{"type": "link", "used": 2, "needed": 1}], "de").split(": ")[0]
    'Nicht mit dem vorigen SET verbunden'
    """
    check_language(lang)
    flaws = list(flaws)
    texts = [flaw_text(flaw, lang, deck) for flaw in flaws]
    linked = any(_flaw_type(flaw) != "link" for flaw in flaws)
    try:
        return flaw_words.verdict(kind, texts, lang, linked=linked)
    except flaw_words.FlawError as error:
        raise ValueError(str(error)) from None


def _flaw_type(flaw: object) -> str:
    return str(flaw_words.normalize(flaw)["type"])


#: Short game messages others may reuse: ``WORDS[lang][key]``.
#: set: a set (the noun); not_a_set: the verdict; no_set: the declaration that the
#: table holds no set (R11); call: what a player calls (R08); deck, score, round
#: (R12), match (R14), winner: labels.
_WORD_IDS: Final[Mapping[str, str]] = {
    "set": N_("Set"),
    "not_a_set": N_("Not a set"),
    "no_set": N_("No set"),
    "call": N_("SET!"),
    "deck": N_("Deck"),
    "score": N_("Score"),
    "round": N_("Round"),
    "match": N_("Match"),
    "winner": N_("Winner"),
}


class _WordTable(Mapping[str, Mapping[str, str]]):
    """``WORDS[lang][key]``, read from the catalog when asked."""

    def __getitem__(self, lang: str) -> Mapping[str, str]:
        if lang not in LANGUAGES:
            raise KeyError(lang)
        return {key: gettext(lang, msgid) for key, msgid in _WORD_IDS.items()}

    def __iter__(self) -> Iterator[str]:
        return iter(LANGUAGES)

    def __len__(self) -> int:
        return len(LANGUAGES)


WORDS: Final[Mapping[str, Mapping[str, str]]] = _WordTable()
