"""Words of the game in five languages (R01, R04): each from its own rulebook."""

from __future__ import annotations

import itertools
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

import setgame
from setgame.rules import claims
from setgame.rules.cards import CARDS, CardError, attributes, parse_card, parse_cards
from setgame.rules.decks import FOURSET, MEGASET, STANDARD
from setgame.rules.flaws import CountFlaw, LinkFlaw, PairingFlaw, SetFlaw
from setgame.rules.sets import Flaw, explain, third_card
from setgame.rules.variants import VARIANTS, find_variant
from setgame.words import flaw_words
from setgame.words.catalog import gettext, ngettext
from setgame.words.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGE_NAMES,
    LANGUAGES,
    WORDS,
    attribute_name,
    card_label,
    check_language,
    explain_text,
    flaw_text,
    is_set_text,
    value_name,
)

#: The value words of each language, per attribute, in value order, as the
#: rulebooks print them (ru: 000, pl: 001 except the squiggle, it: 003, de: 004).
RULEBOOK_WORDS = {
    "en": (
        ("one", "two", "three"),
        ("red", "green", "purple"),
        ("solid", "striped", "open"),
        ("diamond", "oval", "squiggle"),
    ),
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

#: A stem of each color, shading and shape word that every inflected form keeps.
STEMS = {
    "en": (("red", "green", "purple"), ("solid", "striped", "open"), ("diamond", "oval", "squig")),
    "ru": (
        ("красн", "зелён", "фиолетов"),
        ("закрашен", "заштрихован", "пуст"),
        ("ромб", "овал", "волн"),
    ),
    "pl": (
        ("czerwon", "zielon", "fioletow"),
        ("wypełnion", "zacienion", "obrysowan"),
        ("romb", "owal", "wężyk"),
    ),
    "it": (("ross", "verd", "violett"), ("pien", "brizzolat", "vuot"), ("diamant", "oval", "ond")),
    "de": (
        ("rot", "grün", "lila"),
        ("ausgefüllt", "schattiert", "umrandet"),
        ("Raute", "Oval", "Schnörkel"),
    ),
}


#: The numeral that opens a label, by number (any gender).
NUMERALS = {
    "en": ({"one"}, {"two"}, {"three"}),
    "ru": ({"один", "одна"}, {"два", "две"}, {"три"}),
    "pl": ({"jeden"}, {"dwa"}, {"trzy"}),
    "it": ({"un", "una", "un'"}, {"due"}, {"tre"}),
    "de": ({"ein", "eine"}, {"zwei"}, {"drei"}),
}


def test_languages_and_their_names() -> None:
    assert LANGUAGES == ("en", "ru", "pl", "it", "de")
    assert DEFAULT_LANGUAGE in LANGUAGES
    assert set(LANGUAGE_NAMES) == set(LANGUAGES)
    assert LANGUAGE_NAMES["ru"] == "Русский"


@pytest.mark.parametrize("bad", ["EN", "fr", "", "en ", None, 1])
def test_check_language_rejects_unknown_codes_quoting_them(bad: object) -> None:
    with pytest.raises(ValueError, match="unknown language") as info:
        check_language(bad)  # type: ignore[arg-type]
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r01_every_card_has_a_distinct_label(lang: str) -> None:
    labels = [card_label(card, lang) for card in CARDS]
    assert len(set(labels)) == 81
    for label in labels:
        assert label == label.strip() and "  " not in label
        assert len(label.replace("'", "' ").split()) == 4


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r01_labels_carry_the_rulebook_words_of_each_value(lang: str) -> None:
    for card in CARDS:
        number, color, shading, shape = attributes(card)
        label = card_label(card, lang)
        words = label.replace("'", "' ").split()
        assert words[0] in NUMERALS[lang][number], label
        for attr, value in ((1, color), (2, shading), (3, shape)):
            stem = STEMS[lang][attr - 1][value]
            assert sum(word.startswith(stem) for word in words) == 1, (label, stem)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r01_value_names_are_the_rulebook_words(lang: str) -> None:
    for attr, values in enumerate(RULEBOOK_WORDS[lang]):
        assert tuple(value_name(attr, v, lang) for v in range(3)) == values


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("en", ("number", "color", "shading", "shape")),
        ("ru", ("количество", "цвет", "заполнение", "тип символов")),
        ("pl", ("liczba", "kolor", "cieniowanie", "kształt")),
        ("it", ("numero", "colore", "riempimento", "simbolo")),
        ("de", ("Anzahl", "Farbe", "Schattierung", "Form")),
    ],
)
def test_r01_attribute_names(lang: str, names: tuple[str, ...]) -> None:
    assert tuple(attribute_name(a, lang) for a in range(4)) == names


@pytest.mark.parametrize(
    ("code", "lang", "label"),
    [
        ("2RTD", "en", "two red striped diamonds"),
        ("1RSD", "en", "one red solid diamond"),
        ("3POS", "en", "three purple open squiggles"),
        ("1RSO", "de", "ein rotes ausgefülltes Oval"),
        ("1GTD", "de", "eine grüne schattierte Raute"),
        ("1POS", "de", "ein lila umrandeter Schnörkel"),
        ("2RSS", "de", "zwei rote ausgefüllte Schnörkel"),
        ("3GTO", "de", "drei grüne schattierte Ovale"),
        ("1RSD", "it", "un diamante rosso pieno"),
        ("1GOO", "it", "un ovale verde vuoto"),
        ("1PTS", "it", "un'onda violetta brizzolata"),
        ("2RSS", "it", "due onde rosse piene"),
        ("3PTD", "it", "tre diamanti violetti brizzolati"),
    ],
)
def test_r01_spot_labels(code: str, lang: str, label: str) -> None:
    assert card_label(parse_card(code), lang) == label


@pytest.mark.parametrize(
    ("code", "label"),
    [
        ("1RSD", "один красный закрашенный ромб"),
        ("1GOO", "один зелёный пустой овал"),
        ("1PTS", "одна фиолетовая заштрихованная волна"),
        ("2RTD", "два красных заштрихованных ромба"),
        ("2GSO", "два зелёных закрашенных овала"),
        ("2RTS", "две красные заштрихованные волны"),
        ("3POD", "три фиолетовых пустых ромба"),
        ("3GSS", "три зелёные закрашенные волны"),
    ],
)
def test_ru_numerals_agree_in_gender_and_case(code: str, label: str) -> None:
    # один/одна + nominative singular; два/две/три + genitive singular of the noun.
    assert card_label(parse_card(code), "ru") == label


def test_ru_every_label_follows_the_numeral_rules() -> None:
    genitive = {"ромб": "ромба", "овал": "овала", "волна": "волны"}
    for card in CARDS:
        number, _, _, shape = attributes(card)
        words = card_label(card, "ru").split()
        noun = RULEBOOK_WORDS["ru"][3][shape]
        feminine = noun == "волна"
        assert words[0] == (("один", "одна"), ("два", "две"), ("три", "три"))[number][feminine]
        assert words[-1] == (noun if number == 0 else genitive[noun])
        if number == 0:
            assert all(w.endswith("ая" if feminine else ("ый", "ой")) for w in words[1:3])
        else:
            assert all(w.endswith("ые" if feminine else "ых") for w in words[1:3])


@pytest.mark.parametrize(
    ("code", "label"),
    [
        ("1RSD", "jeden czerwony wypełniony romb"),
        ("1GOS", "jeden zielony obrysowany wężyk"),
        ("2RTD", "dwa czerwone zacienione romby"),
        ("2GSO", "dwa zielone wypełnione owale"),
        ("3POS", "trzy fioletowe obrysowane wężyki"),
    ],
)
def test_pl_numerals_agree(code: str, label: str) -> None:
    # jeden + singular; dwa/trzy + nominative plural (the shapes are masculine).
    assert card_label(parse_card(code), "pl") == label


@pytest.mark.parametrize("bad", [-1, 81, True, "2RTD", 2.0, None])
def test_card_label_rejects_what_is_not_a_card(bad: object) -> None:
    with pytest.raises(CardError) as info:
        card_label(bad, "de")  # type: ignore[arg-type]
    assert repr(bad) in str(info.value)


def test_card_label_rejects_unknown_language() -> None:
    with pytest.raises(ValueError, match="'xx'"):
        card_label(0, "xx")


@pytest.mark.parametrize(
    ("attr", "value", "message"),
    [(4, 0, "not an attribute"), (-1, 0, "not an attribute"), (True, 0, "not an attribute"),
     (0, 3, "not an attribute value"), (1, -1, "not an attribute value"),
     (1, False, "not an attribute value")],
)  # fmt: skip
def test_value_and_attribute_names_reject_bad_input(attr: int, value: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        value_name(attr, value, "it")
    if message == "not an attribute":
        with pytest.raises(ValueError, match=repr(attr).replace("-", r"\-")):
            attribute_name(attr, "it")


# --- R04: the explanation of a rejected triple ------------------------------------------


@pytest.mark.parametrize(
    ("flaw", "lang", "text"),
    [
        (Flaw(1, 0, 1), "en", "two are red, one is green"),
        (Flaw(2, 0, 2), "en", "two are solid, one is open"),
        (Flaw(0, 2, 0), "en", "two have three symbols, one has one symbol"),
        (Flaw(3, 2, 1), "en", "two are squiggles, one is an oval"),
        (Flaw(3, 1, 0), "en", "two are ovals, one is a diamond"),
        (Flaw(1, 0, 1), "ru", "две карты красные, а одна зелёная"),
        (Flaw(2, 0, 1), "ru", "две карты закрашенные, а одна заштрихованная"),
        (Flaw(2, 2, 0), "ru", "две карты пустые, а одна закрашенная"),
        (Flaw(3, 2, 1), "ru", "две карты с волнами, а одна с овалами"),
        (Flaw(0, 2, 0), "ru", "две карты с тремя символами, а одна с одним символом"),
        (Flaw(1, 0, 2), "pl", "dwie są czerwone, a jedna jest fioletowa"),
        (Flaw(2, 0, 2), "pl", "dwie są wypełnione, a jedna jest obrysowana"),
        (Flaw(0, 1, 0), "pl", "dwie mają dwa symbole, a jedna ma jeden symbol"),
        (Flaw(3, 0, 2), "pl", "dwie mają romby, a jedna ma wężyki"),
        (Flaw(1, 0, 1), "it", "due sono rosse e una è verde"),
        (Flaw(2, 2, 0), "it", "due sono vuote e una è piena"),
        (Flaw(0, 1, 0), "it", "due hanno due simboli e una ha un simbolo"),
        (Flaw(3, 2, 1), "it", "due hanno il simbolo onda e una ha il simbolo ovale"),
        (Flaw(1, 0, 1), "de", "zwei sind rot, eine ist grün"),
        (Flaw(1, 0, 2), "de", "zwei sind rot, eine ist lila"),
        (Flaw(2, 0, 2), "de", "zwei sind ausgefüllt, eine ist umrandet"),
        (Flaw(0, 2, 0), "de", "zwei haben drei Symbole, eine hat ein Symbol"),
        (Flaw(3, 0, 1), "de", "zwei haben die Form Raute, eine hat die Form Oval"),
    ],
)
def test_r04_flaw_texts(flaw: Flaw, lang: str, text: str) -> None:
    assert flaw_text(flaw, lang) == text
    assert flaw.text(lang) == text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r04_every_flaw_has_its_own_text_naming_both_values(lang: str) -> None:
    texts = set()
    for attr in range(4):
        for common, odd in itertools.permutations(range(3), 2):
            text = flaw_text(Flaw(attr, common, odd), lang)
            texts.add(text)
            if attr in (1, 2):
                stems = STEMS[lang][attr - 1]
                assert text.find(stems[common]) < text.rfind(stems[odd]), text
    assert len(texts) == 4 * 6


@pytest.mark.parametrize("flaw", [Flaw(1, 1, 1), Flaw(4, 0, 1), Flaw(0, 0, 3)])
def test_r04_flaw_text_rejects_impossible_flaws(flaw: Flaw) -> None:
    with pytest.raises(ValueError):
        flaw_text(flaw, "pl")


def test_r04_explain_text_names_every_flaw_of_real_cards() -> None:
    cards = [parse_card(c) for c in ("1RSD", "1RSO", "1GOD")]
    flaws = explain(*cards)
    assert explain_text(flaws) == (
        "Not a set: two are red, one is green; two are solid, one is open; "
        "two are diamonds, one is an oval."
    )
    assert explain_text(flaws, "de") == (
        "Kein SET: zwei sind rot, eine ist grün; zwei sind ausgefüllt, eine ist umrandet; "
        "zwei haben die Form Raute, eine hat die Form Oval."
    )
    assert explain_text(flaws, "ru").startswith("Это не сет: две карты красные, а одна зелёная; ")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r04_explain_text_of_a_set_says_it_is_one(lang: str) -> None:
    cards = [parse_card(c) for c in ("1RSD", "2GTO", "3POS")]
    assert explain(*cards) == []
    assert explain_text(explain(*cards), lang) == is_set_text(lang)
    assert is_set_text(lang).endswith(".")


def test_r04_every_rejected_triple_is_explained_in_every_language() -> None:
    for a, b, c in itertools.islice(itertools.combinations(range(0, 81, 4), 3), 0, None, 7):
        flaws = explain(a, b, c)
        for lang in LANGUAGES:
            text = explain_text(flaws, lang)
            if flaws:
                assert text.startswith(WORDS[lang]["not_a_set"])
                assert all(flaw_text(f, lang) in text for f in flaws)
            else:
                assert text == is_set_text(lang)


def test_is_set_texts() -> None:
    assert is_set_text() == "That is a set."
    assert [is_set_text(lang) for lang in LANGUAGES[1:]] == [
        "Это сет.",
        "To jest SET.",
        "È un SET.",
        "Das ist ein SET.",
    ]


def test_words_have_every_key_in_every_language() -> None:
    keys = {"set", "not_a_set", "no_set", "call", "deck", "score", "round", "match", "winner"}
    assert set(WORDS) == set(LANGUAGES)
    for lang in LANGUAGES:
        assert set(WORDS[lang]) == keys
        assert all(text.strip() == text and text for text in WORDS[lang].values())
    assert WORDS["de"]["deck"] == "Stapel"  # 004: "3 vom Stapel"
    assert WORDS["ru"]["deck"] == "Колода"  # 000: "перетасовывает колоду"


# --- the rules pages (web/rules/<lang>.html) ---------------------------------------------

RULES_DIR = Path(setgame.__file__).parent / "web" / "rules"
VOID = {"br", "hr", "img", "wbr"}
SECTIONS = ("cards", "set", "magic", "play", "wrong", "no-set", "round-end", "scoring", "match",
            "solo", "beginner", "odds", "editions", "variants",
            *(f"variant-{name}" for name in VARIANTS if name != "classic"), "daily-puzzle",
            "own", "ratings", "arenas")  # fmt: skip
SETTINGS = ("pick_seconds", "penalty", "point", "lockout", "both", "none", "no_set", "vote",
            "auto", "rounds", "single", "deck", "beginner", "mode", "solo", "practice")  # fmt: skip


class _Page(HTMLParser):
    """Collects the tags, ids, codes and text of a fragment, checking that tags nest."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.errors: list[str] = []
        self.text: list[str] = []
        self.section = ""
        self.sections: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "h2":
            self.section = dict(attrs).get("id") or ""
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(f"unexpected </{tag}>")

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        self.sections.setdefault(self.section, []).append(data)


def _page(lang: str) -> tuple[str, _Page]:
    source = (RULES_DIR / f"{lang}.html").read_text(encoding="utf-8")
    parser = _Page()
    parser.feed(source)
    parser.close()
    return source, parser


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_page_is_a_well_formed_fragment(lang: str) -> None:
    source, page = _page(lang)
    assert source.startswith(f'<article class="rules" lang="{lang}">')
    assert source.rstrip().endswith("</article>")
    assert page.errors == [] and page.stack == []
    names = {tag for tag, _ in page.tags}
    assert not names & {"html", "head", "body", "script", "style"}
    assert [tag for tag, _ in page.tags].count("h1") == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_page_covers_every_topic_and_setting(lang: str) -> None:
    _, page = _page(lang)
    ids = [attrs.get("id") for _, attrs in page.tags if attrs.get("id")]
    assert ids == list(SECTIONS)
    text = " ".join(page.text)
    for word in SETTINGS:
        assert re.search(rf"\b{word}\b", text), word
    for number in ("81", "27", "12", "15", "18", "21", "20", "33", "2500", "3"):
        assert re.search(rf"\b{number}\b", text), number


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r01_rules_page_names_example_cards_as_the_game_does(lang: str) -> None:
    source, page = _page(lang)
    examples = [attrs["data-example"] for _, attrs in page.tags if "data-example" in attrs]
    assert len(examples) == 3
    for example in examples:
        assert example is not None
        for code in example.split():
            label = card_label(parse_card(code), lang)
            expected = f"<code>{code}</code> {label}"
            assert expected in re.sub(r"\s+", " ", source), expected


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r04_rules_page_explains_its_examples(lang: str) -> None:
    _, page = _page(lang)
    text = re.sub(r"\s+", " ", " ".join(page.text))
    examples = [attrs["data-example"] for _, attrs in page.tags if "data-example" in attrs]
    verdicts = [explain(*parse_cards(str(e).split())) for e in examples]
    assert [bool(flaws) for flaws in verdicts] == [False, False, True]
    for flaw in verdicts[2]:
        assert flaw_text(flaw, lang) in text
    # the third card that completes the first two cards of the first example (R05)
    first, second, third = parse_cards(str(examples[0]).split())
    assert third_card(first, second) == third


#: Words the solo section must hold: the score, the more-cards penalty, the wrong-pick
#: penalty settings, "below zero", the cancelling after the deck ran out, and the time.
SOLO_WORDS = {
    "en": ("sets found minus penalties", "three more cards costs one point", "below zero",
           "after the deck ran out", "time from start to the end is recorded"),
    "ru": ("найденные сеты минус штрафы", "добавить три карты стоит одно очко", "меньше нуля",
           "после того, как кончилась колода", "время от начала до конца"),
    "pl": ("znalezione SETy minus kary", "trzy dodatkowe karty kosztuje jeden punkt",
           "poniżej zera", "po wyczerpaniu talii", "czas od początku do końca"),
    "it": ("SET trovati meno penalità", "tre carte in più costa un punto", "sotto zero",
           "dopo che il mazzo è finito", "tempo dall'inizio alla fine"),
    "de": ("gefundene SETs minus Strafen", "drei weitere Karten kostet einen Punkt",
           "nie unter null", "nach dem Ende des Stapels", "Zeit vom Start bis zum Ende"),
}  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r15_rules_page_states_how_solo_is_scored(lang: str) -> None:
    _, page = _page(lang)
    solo = re.sub(r"\s+", " ", " ".join(page.sections["solo"]))
    for word in SOLO_WORDS[lang]:
        assert word in solo, word


def test_rules_folder_has_a_readme_and_one_page_per_language() -> None:
    names = sorted(p.name for p in RULES_DIR.iterdir())
    assert names == sorted(["README.md", *(f"{lang}.html" for lang in LANGUAGES)])


# --- the variants' flaws (issue 10): set, pairing, count and link, from web keys ---------


def _pick(variant: str, codes: str, previous: str = "") -> tuple[list[object], str]:
    v = find_variant(variant)
    cards = v.deck.parse_many(codes.split())
    before = v.deck.parse_many(previous.split()) if previous else None
    return list(v.explain(cards, before)), v.kind.name


@pytest.mark.parametrize(
    ("flaw", "lang", "text"),
    [
        (SetFlaw(4, 1, 0), "en", "two have a double border, one has a single border"),
        (SetFlaw(4, 0, 2), "ru", "две карты с одинарной рамкой, а одна с пунктирной рамкой"),
        (SetFlaw(4, 2, 1), "pl", "dwie mają kropkowaną ramkę, a jedna ma podwójną ramkę"),
        (SetFlaw(4, 0, 1), "it", "due hanno il bordo singolo e una ha il bordo doppio"),
        (SetFlaw(4, 1, 2), "de", "zwei haben einen doppelten Rand, eine hat einen gepunkteten "
         "Rand"),
        (SetFlaw(1, 0, 1), "de", "zwei sind rot, eine ist grün"),
        (CountFlaw(1, (3, 1, 0, 0)), "en", "3 red cards, 1 green card: four cards must be all "
         "the same, all different or two pairs"),
        (CountFlaw(2, (0, 2, 1, 1)), "ru", "2 заштрихованные карты, 1 пустая карта, 1 клетчатая "
         "карта: у четырёх карт должно быть всё одинаковое, всё разное или две пары"),
        (CountFlaw(1, (5, 1, 0)), "pl", "5 czerwonych kart, 1 zielona karta: w każdej cesze musi "
         "być 6-0-0, 4-1-1, 3-3-0 albo 2-2-2"),
        (CountFlaw(3, (1, 1, 1, 1)), "it", "1 carta con diamanti, 1 carta con ovali, 1 carta con "
         "onde, 1 carta con cuori: quattro carte devono essere tutte uguali, tutte diverse o due "
         "coppie"),
        (CountFlaw(0, (2, 3, 1)), "de", "2 Karten mit einem Symbol, 3 Karten mit zwei Symbolen, "
         "1 Karte mit drei Symbolen: in jedem Merkmal muss die Verteilung 6-0-0, 4-1-1, 3-3-0 "
         "oder 2-2-2 sein"),
        (LinkFlaw(0, 1), "en", "the pick holds 0 cards of the previous set; it must hold "
         "exactly 1"),
        (LinkFlaw(1, 2), "pl", "wybór zawiera 1 kartę z poprzedniego SETa, a łańcuch wymaga "
         "dokładnie 2"),
        (LinkFlaw(3, 2), "ru", "в выборе 3 карты из предыдущего сета, а нужно ровно 2"),
        (PairingFlaw(((0, 27), (9, 80)), (54, 31), (0, 2, 3)), "en",
         "1RSD and 2RSD need 3RSD, 1GSD and 3POS need 2RTO: they differ in number, shading, "
         "shape"),
        (PairingFlaw(((0, 27), (9, 80)), (54, 31), (0,)), "de",
         "1RSD und 2RSD brauchen 3RSD, 1GSD und 3POS brauchen 2RTO: sie unterscheiden sich in "
         "Anzahl"),
    ],
)  # fmt: skip
def test_r04_variant_flaw_texts(flaw: object, lang: str, text: str) -> None:
    assert flaw_text(flaw, lang) == text  # type: ignore[arg-type]


#: Picks of every kind that fail, with the flaw types they must produce.
FAILING = [
    ("megaset", "1RSDS 2GTOD 3POSD", "", {"set"}),
    ("junior", "1RSD 1GSD 2PSD", "", {"set"}),
    ("ultraset", "1RSD 2RSD 1GSD 3POS", "", {"pairing"}),
    ("ghostset", "1RSD 1GTO 2RSO 2POS 3GTD 3POO", "", {"count"}),
    ("4set", "1RSD 2GTO 3POS 4BCD", "", {"count"}),
    ("4set-junior", "1RSD 1GSD 2RSD 2GSH", "", {"count"}),
    ("set-chain", "1GSD 2GSO 3GSS", "1RSD 2GTO 3POS", {"link"}),
    ("ultraset-chain", "1RSD 2GTO 3PTO 3PSD", "1RSD 2RSD 1GSD 2GSD", {"link"}),
    ("set-chain", "1GSD 2GSO 3GTS", "1RSD 2GTO 3POS", {"set", "link"}),
]


def _event(flaw: object, deck: object) -> dict[str, object]:
    """A flaw as the engine's ``wrong_call`` event carries it (cards as codes); reading it
    back gives the same dict."""
    event = claims.flaw_dict(flaw, deck)  # type: ignore[arg-type]
    assert flaw_words.normalize(event) == flaw_words.normalize(flaw, deck) == event  # type: ignore[arg-type]
    return event


@pytest.mark.parametrize(("variant", "codes", "previous", "types"), FAILING)
def test_r04_every_variant_flaw_is_worded_the_same_from_the_dataclass_and_the_event(
    variant: str, codes: str, previous: str, types: set[str]
) -> None:
    v = find_variant(variant)
    flaws, kind = _pick(variant, codes, previous)
    events = [_event(f, v.deck) for f in flaws]
    assert {e["type"] for e in events} == types
    assert json_roundtrip(events) == events  # plain JSON, as on the wire
    for lang in LANGUAGES:
        texts = [flaw_text(f, lang, v.deck) for f in flaws]  # type: ignore[arg-type]
        assert texts == [flaw_text(e, lang) for e in events]
        assert all(t and "{" not in t and "}" not in t and t == t.strip() for t in texts)
        verdict = explain_text(flaws, lang, kind=kind, deck=v.deck)  # type: ignore[arg-type]
        assert all(t in verdict for t in texts) and verdict.endswith(".")
        for event, text in zip(events, texts, strict=True):
            if event["type"] == "pairing":  # every card code is named, as notation
                for code in (*event["pairs"][0], *event["pairs"][1], *event["thirds"]):  # type: ignore[index]
                    assert code in text
            if event["type"] == "count":  # every count that is not zero, as a number
                shown = [int(n) for n in re.findall(r"\b(\d)\b", text.split(":")[0])]
                assert shown == [n for n in event["counts"] if n]  # type: ignore[attr-defined]


def json_roundtrip(value: object) -> object:
    import json

    return json.loads(json.dumps(value))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r04_every_count_and_border_flaw_has_its_own_text(lang: str) -> None:
    texts = set()
    for attr in range(5):
        for common, odd in itertools.permutations(range(3), 2):
            texts.add(flaw_text(SetFlaw(attr, common, odd), lang))
    assert len(texts) == 5 * 6
    counts = set()
    for attr in range(4):  # 4Set: one card of each value, then three of one and one of another
        for a, b in itertools.permutations(range(4), 2):
            split = [0, 0, 0, 0]
            split[a], split[b] = 3, 1
            counts.add(flaw_text(CountFlaw(attr, tuple(split)), lang).split(":")[0])
    assert len(counts) == 4 * 12


@pytest.mark.parametrize(
    ("variant", "codes", "previous", "verdict"),
    [
        ("ultraset", "1RSD 2RSD 1GSD 2GSD", "", "That is an UltraSet."),
        ("ghostset", "1RTD 1GTS 2RTS 2PSD 3GTO 3POO", "", "That is a GhostSet."),
        ("4set", "1RSD 1RTO 2GSD 2GTO", "", "That is a 4Set."),
        ("megaset", "1RSDS 2GTOD 3POST", "", "That is a set."),
        ("ultraset", "1RSD 2RSD 1GSD 3POS", "", "Not an UltraSet: 1RSD and 2RSD need"),
        ("ghostset", "1RSD 1GTO 2RSO 2POS 3GTD 3POO", "", "Not a GhostSet: 2 cards with"),
        ("4set", "1RSD 2GTO 3POS 4BCD", "", "Not a 4Set: 2 cards with diamonds"),
        ("set-chain", "1GSD 2GSO 3GSS", "1RSD 2GTO 3POS", "Not linked to the previous set: "),
        ("set-chain", "1GSD 2GSO 3GTS", "1RSD 2GTO 3POS", "Not a set: two are solid"),
    ],
)
def test_r04_the_verdict_names_the_kind(
    variant: str, codes: str, previous: str, verdict: str
) -> None:
    flaws, kind = _pick(variant, codes, previous)
    assert explain_text(flaws, kind=kind).startswith(verdict)  # type: ignore[arg-type]


def test_r04_verdicts_keep_the_titles_in_every_language() -> None:
    for kind, title in (("ultraset", "UltraSet"), ("ghostset", "GhostSet"), ("4set", "4Set")):
        for lang in LANGUAGES:
            assert title in explain_text([], lang, kind=kind)
            assert title in explain_text([CountFlaw(0, (2, 3, 1))], lang, kind=kind)


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "sett", "attribute": 1, "common": 0, "odd": 1},
        {"type": "set", "attribute": 5, "common": 0, "odd": 1},
        {"type": "set", "attribute": 1, "common": 0, "odd": 0},
        {"type": "set", "attribute": True, "common": 0, "odd": 1},
        {"type": "set", "attribute": 1, "common": 3, "odd": 1},
        {"type": "set", "attribute": 1},
        {"type": "count", "attribute": 1, "counts": [3, 2]},
        {"type": "count", "attribute": 1, "counts": [3, 2, 2]},
        {"type": "count", "attribute": 4, "counts": [1, 1, 1, 1]},
        {"type": "count", "attribute": 1, "counts": "321"},
        {"type": "link", "used": 1, "needed": 1},
        {"type": "link", "used": -1, "needed": 1},
        {"type": "pairing", "pairs": [["1RSD", "2RSD"]], "thirds": ["3RSD", "2RTO"],
         "attributes": [0]},
        {"type": "pairing", "pairs": [["1RSD", "2RSD"], ["1GSD", "<b>"]],
         "thirds": ["3RSD", "2RTO"], "attributes": [0]},
        {"type": "pairing", "pairs": [["1RSD", "2RSD"], ["1GSD", "3POS"]],
         "thirds": ["3RSD", "2RTO"], "attributes": []},
        {str(n): n for n in range(20)},
        "two are red",
        None,
        Flaw(4, 0, 1),
    ],
)  # fmt: skip
def test_r04_flaw_text_refuses_what_is_no_flaw_quoting_it(bad: object) -> None:
    with pytest.raises(ValueError, match="not a flaw") as info:
        flaw_text(bad, "en")  # type: ignore[arg-type]
    assert repr(bad)[:40] in str(info.value)


def test_r04_a_deck_bounds_the_flaws_it_names() -> None:
    border = {"type": "set", "attribute": 4, "common": 0, "odd": 1}
    assert flaw_text(border, "en", MEGASET) == flaw_text(border, "en")
    with pytest.raises(ValueError, match="not a flaw"):
        flaw_text(border, "en", STANDARD)
    pairing = {"type": "pairing", "pairs": [["1rsd", "2RSD"], ["1GSD", "3POS"]],
               "thirds": ["3RSD", "2RTO"], "attributes": [0]}  # fmt: skip
    assert "1RSD and 2RSD" in flaw_text(pairing, "en", STANDARD)
    for deck, changes in ((STANDARD, {"thirds": ["3RSDS", "2RTO"]}),  # a MegaSet code
                          (STANDARD, {"attributes": [0, 4]}),  # no border on this deck
                          (FOURSET, {"thirds": ["5RSD", "2RTO"]})):  # fmt: skip
        with pytest.raises(ValueError, match="not a flaw"):
            flaw_text({**pairing, **changes}, "en", deck)
    with pytest.raises(ValueError, match="not a kind"):
        explain_text([], "en", kind="megaset")


def test_the_web_keys_compose_the_same_set_flaws_as_python() -> None:
    """The web client builds ``flaw.set`` from ``flaw.two.*``/``flaw.one.*`` (docs/i18n.md):
    the same sentence as :func:`flaw_text` for every attribute and both values."""
    for lang in LANGUAGES:
        for attr, name in enumerate(flaw_words.ATTRIBUTES):
            values = flaw_words.VALUES[name][:3]
            for common, odd in itertools.permutations(range(3), 2):
                web = gettext(
                    lang, "flaw.set",
                    common=gettext(lang, f"flaw.two.{name}.{values[common]}"),
                    odd=gettext(lang, f"flaw.one.{name}.{values[odd]}"),
                )  # fmt: skip
                flaw = Flaw(attr, common, odd) if attr < 4 else SetFlaw(attr, common, odd)
                assert web == flaw_text(flaw, lang), (lang, attr, common, odd)
            assert gettext(lang, f"attr.{name}") == attribute_name(attr, lang, MEGASET)


def test_attribute_and_value_keys_name_every_value_of_every_deck() -> None:
    for lang in LANGUAGES:
        for deck in (STANDARD, MEGASET, FOURSET):
            for attr, attribute in enumerate(deck.attributes):
                words = [value_name(attr, v, lang, deck) for v in range(deck.radix)]
                assert len(set(words)) == deck.radix and all(words), words
                assert words == [gettext(lang, f"value.{attribute.name}.{value}")
                                 for value in attribute.values]  # fmt: skip
                if attr < 4 and deck.radix == 3:  # the old words are kept
                    assert words == [value_name(attr, v, lang) for v in range(3)]
    assert value_name(3, 3, "ru", FOURSET) == "сердце"
    assert value_name(4, 2, "de", MEGASET) == "gepunktet"
    with pytest.raises(ValueError, match="not an attribute of this deck"):
        value_name(4, 0, "en", FOURSET)
    with pytest.raises(ValueError, match="not an attribute value of this deck"):
        value_name(4, 3, "en", MEGASET)
    with pytest.raises(ValueError, match="not an attribute value"):
        value_name(0, 3, "en")  # without a deck: the standard deck, as before


@pytest.mark.parametrize(
    ("lang", "forms"),
    [("ru", ("карта", "карты", "карт")), ("pl", ("karta", "karty", "kart")),
     ("it", ("carta", "carte", "carte")), ("de", ("Karte", "Karten", "Karten")),
     ("en", ("card", "cards", "cards"))],
)  # fmt: skip
def test_count_words_take_the_plural_of_each_language(lang: str, forms: tuple[str, ...]) -> None:
    for attr_keys in flaw_words.COUNT_KEYS:
        for keys in attr_keys:
            said = [ngettext(lang, *keys, n).split() for n in (1, 3, 5)]
            assert [words[0] for words in said] == ["1", "3", "5"]
            for words, form in zip(said, forms, strict=True):
                assert form in words, (keys, words)
    link = [ngettext(lang, *flaw_words.LINK_CARDS, n) for n in (1, 2, 5)]
    if lang == "pl":  # the accusative: "zawiera 1 kartę, 2 karty, 5 kart"
        assert link == ["1 kartę", "2 karty", "5 kart"]
    if lang == "ru":
        assert link == ["1 карта", "2 карты", "5 карт"]


def test_every_variant_has_a_short_description_in_every_language() -> None:
    assert set(flaw_words.VARIANT_ABOUT) == set(VARIANTS)
    for lang in LANGUAGES:
        texts = [flaw_words.about(name, lang) for name in VARIANTS]
        assert len(set(texts)) == len(VARIANTS)
        assert all(t.endswith(".") and len(t) <= 160 and "{" not in t for t in texts)
        if lang != "en":
            english = [flaw_words.about(name, "en") for name in VARIANTS]
            assert not set(texts) & set(english), lang
        for name, title in (("ultraset-chain", "UltraSet"), ("ultra9", "UltraSet"),
                            ("4set-junior", "4Set")):  # titles stay as they are  # fmt: skip
            assert title in flaw_words.about(name, lang)
    with pytest.raises(ValueError, match="'chess'"):
        flaw_words.about("chess")


@pytest.mark.parametrize("variant", ["ultraset", "ghostset", "4set", "megaset", "set-chain"])
def test_r04_the_engines_wrong_call_flaws_are_worded_in_every_language(variant: str) -> None:
    """A real wrong pick in a game of each kind: its ``wrong_call.flaws`` read as they come."""
    import itertools as it

    from setgame.rules.game import Game, Join, Pick, Settings, Start

    game = Game(Settings(variant=variant, mode="practice"), 3)
    game.apply(Join(0.0, "a", "A"))
    game.apply(Start(0.0, "a"))
    at = 1.0
    if game.variant.flow.links:  # a chain: take a first group, then pick one not linked
        game.apply(Pick(at, "a", tuple(game.groups_on_table()[0])))
        at += 1.0
    size = game.variant.claim_size
    wrong = next(
        c for c in it.combinations(game.table, size)
        if not game.variant.is_claim(c, game.previous if game.variant.flow.links else None)
    )  # fmt: skip
    events = game.apply(Pick(at, "a", wrong))
    (event,) = [e for e in events if e["type"] == "wrong_call"]
    flaws = event["flaws"]
    assert flaws and all(isinstance(f, dict) and "type" in f for f in flaws)
    for lang in LANGUAGES:
        text = explain_text(flaws, lang, kind=game.variant.kind.name, deck=game.variant.deck)
        assert text.endswith(".") and "{" not in text
        assert all(flaw_text(f, lang) in text for f in flaws)
