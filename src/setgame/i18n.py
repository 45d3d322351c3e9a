"""Words of the game in English, Russian, Polish, Italian and German (R01, R04).

Pure data and string building: card names and the explanation of a rejected
triple, each language using its own rulebook's words (``/work/shared/rulebooks``):

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

>>> from setgame.cards import parse_card
>>> card_label(parse_card("2RTD"), "ru")
'два красных заштрихованных ромба'
>>> card_label(parse_card("1GOS"), "de")
'ein grüner umrandeter Schnörkel'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Final

from setgame.cards import ATTRIBUTES, VALUE_NAMES, Card, attributes, card_name

if TYPE_CHECKING:
    from setgame.sets import Flaw

LANGUAGES: Final = ("en", "ru", "pl", "it", "de")
DEFAULT_LANGUAGE: Final = "en"
#: Each language's name in itself, for a language picker.
LANGUAGE_NAMES: Final[Mapping[str, str]] = {
    "en": "English",
    "ru": "Русский",
    "pl": "Polski",
    "it": "Italiano",
    "de": "Deutsch",
}


def check_language(lang: str) -> str:
    """``lang`` itself if it is one of :data:`LANGUAGES`, else a ``ValueError`` quoting it."""
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise ValueError(f"unknown language: {lang!r} (expected one of {', '.join(LANGUAGES)})")
    return lang


def _check_attribute(attr: int) -> int:
    if isinstance(attr, bool) or attr not in ATTRIBUTES:
        raise ValueError(f"not an attribute (0 number, 1 color, 2 shading, 3 shape): {attr!r}")
    return attr


def _check_value(value: int) -> int:
    if isinstance(value, bool) or value not in (0, 1, 2):
        raise ValueError(f"not an attribute value (0, 1 or 2): {value!r}")
    return value


# --- names of attributes and values --------------------------------------------

#: Attribute names, in attribute order, as each rulebook calls them.
_ATTRIBUTE_NAMES: Final[Mapping[str, tuple[str, str, str, str]]] = {
    "en": ("number", "color", "shading", "shape"),
    "ru": ("количество", "цвет", "заполнение", "тип символов"),  # 000
    "pl": ("liczba", "kolor", "cieniowanie", "kształt"),  # 001
    "it": ("numero", "colore", "riempimento", "simbolo"),  # 003
    "de": ("Anzahl", "Farbe", "Schattierung", "Form"),  # 004
}

_Words = tuple[str, str, str]

#: Value names in their dictionary form (numeral, masculine singular adjective,
#: shape in the singular), per attribute, in value order.
_VALUE_NAMES: Final[Mapping[str, tuple[_Words, _Words, _Words, _Words]]] = {
    "en": VALUE_NAMES,
    "ru": (
        ("один", "два", "три"),
        ("красный", "зелёный", "фиолетовый"),
        ("закрашенный", "заштрихованный", "пустой"),
        ("ромб", "овал", "волна"),
    ),
    "pl": (
        ("jeden", "dwa", "trzy"),
        ("czerwony", "zielony", "fioletowy"),
        ("wypełniony", "zacieniony", "obrysowany"),
        ("romb", "owal", "wężyk"),
    ),
    "it": (
        ("uno", "due", "tre"),
        ("rosso", "verde", "violetto"),
        ("pieno", "brizzolato", "vuoto"),
        ("diamante", "ovale", "onda"),
    ),
    "de": (
        ("eins", "zwei", "drei"),
        ("rot", "grün", "lila"),
        ("ausgefüllt", "schattiert", "umrandet"),
        ("Raute", "Oval", "Schnörkel"),
    ),
}

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
_RU_WITH_SYMBOLS: Final = ("с одним символом", "с двумя символами", "с тремя символами")

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
_PL_SYMBOLS: Final = ("jeden symbol", "dwa symbole", "trzy symbole")

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
_IT_SYMBOLS: Final = ("un simbolo", "due simboli", "tre simboli")

#: German adjective stems ("lila" takes no ending).
_DE_ADJECTIVES: Final[Mapping[str, str]] = {
    "red": "rot",
    "green": "grün",
    "purple": "lila",
    "solid": "ausgefüllt",
    "striped": "schattiert",
    "open": "umrandet",
}
#: German shapes: singular, plural, gender (m, f, n).
_DE_SHAPES: Final = (
    ("Raute", "Rauten", "f"),
    ("Oval", "Ovale", "n"),
    ("Schnörkel", "Schnörkel", "m"),
)
_DE_SYMBOLS: Final = ("ein Symbol", "zwei Symbole", "drei Symbole")
#: Ending of an adjective after "ein"/"eine" (nominative), by gender; plural without article.
_DE_ENDINGS: Final[Mapping[str, str]] = {"m": "er", "f": "e", "n": "es", "pl": "e"}

_EN_SYMBOLS: Final = ("one symbol", "two symbols", "three symbols")


def _key(attr: int, value: int) -> str:
    return VALUE_NAMES[attr][value]


def attribute_name(attr: int, lang: str = "en") -> str:
    """The name of an attribute (0 number, 1 color, 2 shading, 3 shape) in ``lang``.

    >>> attribute_name(2, "de")
    'Schattierung'
    """
    return _ATTRIBUTE_NAMES[check_language(lang)][_check_attribute(attr)]


def value_name(attr: int, value: int, lang: str = "en") -> str:
    """One value of one attribute in ``lang``, in its dictionary form (the numeral,
    the masculine singular adjective, the shape in the singular).

    >>> value_name(3, 2, "it"), value_name(1, 2, "de"), value_name(2, 2, "ru")
    ('onda', 'lila', 'пустой')
    """
    lang = check_language(lang)
    return _VALUE_NAMES[lang][_check_attribute(attr)][_check_value(value)]


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
    return f"{_VALUE_NAMES['pl'][0][n]} {color} {shading} {_PL_SHAPES[h][form]}"


def _label_it(n: int, c: int, s: int, h: int) -> str:
    singular, plural, feminine = _IT_SHAPES[h]
    form = (0 if n == 0 else 2) + feminine
    color, shading = _IT_ADJECTIVES[_key(1, c)][form], _IT_ADJECTIVES[_key(2, s)][form]
    if n == 0:
        article = ("un'" if singular[0] in "aeiou" else "una ") if feminine else "un "
        return f"{article}{singular} {color} {shading}"
    return f"{_VALUE_NAMES['it'][0][n]} {plural} {color} {shading}"


def _de_adjective(key: str, gender: str) -> str:
    stem = _DE_ADJECTIVES[key]
    return stem if stem == "lila" else stem + _DE_ENDINGS[gender]


def _label_de(n: int, c: int, s: int, h: int) -> str:
    singular, plural, gender = _DE_SHAPES[h]
    if n == 0:
        article = "eine" if gender == "f" else "ein"
        color, shading = _de_adjective(_key(1, c), gender), _de_adjective(_key(2, s), gender)
        return f"{article} {color} {shading} {singular}"
    color, shading = _de_adjective(_key(1, c), "pl"), _de_adjective(_key(2, s), "pl")
    return f"{_VALUE_NAMES['de'][0][n]} {color} {shading} {plural}"


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


# --- why three cards are no set (R04) ----------------------------------------------


def _flaw_en(attr: int, common: int, odd: int) -> str:
    if attr == 0:
        return f"two have {_EN_SYMBOLS[common]}, one has {_EN_SYMBOLS[odd]}"
    first, second = VALUE_NAMES[attr][common], VALUE_NAMES[attr][odd]
    if attr == 3:
        article = "an" if second[0] in "aeiou" else "a"
        return f"two are {first}s, one is {article} {second}"
    return f"two are {first}, one is {second}"


def _flaw_ru(attr: int, common: int, odd: int) -> str:
    # "две карты красные, а одна зелёная", "две карты с волнами, а одна с овалами" (000)
    if attr == 0:
        first, second = _RU_WITH_SYMBOLS[common], _RU_WITH_SYMBOLS[odd]
    elif attr == 3:
        first, second = f"с {_RU_SHAPES[common][2]}", f"с {_RU_SHAPES[odd][2]}"
    else:
        first = _RU_ADJECTIVES[_key(attr, common)][2]
        second = _RU_ADJECTIVES[_key(attr, odd)][1]
    return f"две карты {first}, а одна {second}"


def _flaw_pl(attr: int, common: int, odd: int) -> str:
    # "jeśli 2 są czerwone, a 1 jest fioletowa" (001); karta is feminine
    if attr == 0:
        return f"dwie mają {_PL_SYMBOLS[common]}, a jedna ma {_PL_SYMBOLS[odd]}"
    if attr == 3:
        return f"dwie mają {_PL_SHAPES[common][1]}, a jedna ma {_PL_SHAPES[odd][1]}"
    first, second = _PL_ADJECTIVES[_key(attr, common)][1], _PL_ADJECTIVES[_key(attr, odd)][2]
    return f"dwie są {first}, a jedna jest {second}"


def _flaw_it(attr: int, common: int, odd: int) -> str:
    # "due sono rosse e una è verde" (003); carta is feminine
    if attr == 0:
        return f"due hanno {_IT_SYMBOLS[common]} e una ha {_IT_SYMBOLS[odd]}"
    if attr == 3:
        first, second = _IT_SHAPES[common][0], _IT_SHAPES[odd][0]
        return f"due hanno il simbolo {first} e una ha il simbolo {second}"
    first, second = _IT_ADJECTIVES[_key(attr, common)][3], _IT_ADJECTIVES[_key(attr, odd)][1]
    return f"due sono {first} e una è {second}"


def _flaw_de(attr: int, common: int, odd: int) -> str:
    # "wenn 2 Karten rot sind und 1 Karte lila ist" (004); Karte is feminine
    if attr == 0:
        return f"zwei haben {_DE_SYMBOLS[common]}, eine hat {_DE_SYMBOLS[odd]}"
    if attr == 3:
        first, second = _DE_SHAPES[common][0], _DE_SHAPES[odd][0]
        return f"zwei haben die Form {first}, eine hat die Form {second}"
    first, second = _DE_ADJECTIVES[_key(attr, common)], _DE_ADJECTIVES[_key(attr, odd)]
    return f"zwei sind {first}, eine ist {second}"


_FLAWS: Final[Mapping[str, Callable[[int, int, int], str]]] = {
    "en": _flaw_en,
    "ru": _flaw_ru,
    "pl": _flaw_pl,
    "it": _flaw_it,
    "de": _flaw_de,
}


def flaw_text(flaw: Flaw, lang: str = "en") -> str:
    """Why three cards are no set, on one attribute: "two are red, one is green".

    >>> from setgame.sets import Flaw
    >>> flaw_text(Flaw(1, 0, 1), "de")
    'zwei sind rot, eine ist grün'
    """
    check_language(lang)
    attr = _check_attribute(flaw.attribute)
    common, odd = _check_value(flaw.common), _check_value(flaw.odd)
    if common == odd:
        raise ValueError(f"a flaw needs two different values, got {flaw!r}")
    return _FLAWS[lang](attr, common, odd)


# --- whole verdicts and game messages ------------------------------------------------

_IS_SET: Final[Mapping[str, str]] = {
    "en": "That is a set.",
    "ru": "Это сет.",
    "pl": "To jest SET.",
    "it": "È un SET.",
    "de": "Das ist ein SET.",
}
_NOT_A_SET: Final[Mapping[str, str]] = {
    "en": "Not a set",
    "ru": "Это не сет",
    "pl": "To nie jest SET",
    "it": "Non è un SET",
    "de": "Kein SET",
}


def is_set_text(lang: str = "en") -> str:
    """The verdict on three cards that form a set: "That is a set."."""
    return _IS_SET[check_language(lang)]


def explain_text(flaws: Iterable[Flaw], lang: str = "en") -> str:
    """The verdict on three cards with every flaw named; no flaws means a set.

    >>> from setgame.sets import Flaw
    >>> explain_text([Flaw(1, 0, 1), Flaw(2, 0, 2)])
    'Not a set: two are red, one is green; two are solid, one is open.'
    >>> explain_text([], "it")
    'È un SET.'
    """
    check_language(lang)
    texts = [flaw_text(flaw, lang) for flaw in flaws]
    if not texts:
        return is_set_text(lang)
    return f"{_NOT_A_SET[lang]}: {'; '.join(texts)}."


#: Short game messages others may reuse: ``WORDS[lang][key]``.
#: set: a set (the noun); not_a_set: the verdict; no_set: the declaration that the
#: table holds no set (R11); call: what a player calls (R08); deck, score, round
#: (R12), match (R14), winner: labels.
WORDS: Final[Mapping[str, Mapping[str, str]]] = {
    "en": {
        "set": "Set",
        "not_a_set": "Not a set",
        "no_set": "No set",
        "call": "SET!",
        "deck": "Deck",
        "score": "Score",
        "round": "Round",
        "match": "Match",
        "winner": "Winner",
    },
    "ru": {
        "set": "Сет",
        "not_a_set": "Это не сет",
        "no_set": "Сета нет",
        "call": "Сет!",
        "deck": "Колода",
        "score": "Очки",
        "round": "Раунд",
        "match": "Партия",
        "winner": "Победитель",
    },
    "pl": {
        "set": "SET",
        "not_a_set": "To nie jest SET",
        "no_set": "Nie ma SETa",
        "call": "SET!",
        "deck": "Talia",
        "score": "Punkty",
        "round": "Runda",
        "match": "Partia",
        "winner": "Zwycięzca",
    },
    "it": {
        "set": "SET",
        "not_a_set": "Non è un SET",
        "no_set": "Nessun SET",
        "call": "SET!",
        "deck": "Mazzo",
        "score": "Punti",
        "round": "Mano",
        "match": "Partita",
        "winner": "Vincitore",
    },
    "de": {
        "set": "SET",
        "not_a_set": "Kein SET",
        "no_set": "Kein SET da",
        "call": "SET!",
        "deck": "Stapel",
        "score": "Punkte",
        "round": "Runde",
        "match": "Partie",
        "winner": "Gewinner",
    },
}
