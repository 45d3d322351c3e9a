"""The rules pages (web/rules/<lang>.html) say what the rulebooks say, credit each rule to the
rulebook that has it, and mark this project's own rules (issue 8 items 7 and 8).

Each test here fails if one of the errors fixed for issue 8 comes back in any language."""

from __future__ import annotations

import re
from dataclasses import fields
from html.parser import HTMLParser
from itertools import pairwise
from pathlib import Path

import pytest

import setgame
from setgame.rules import game
from setgame.rules.variants import VARIANTS, find_variant

LANGUAGES = ("en", "ru", "pl", "it", "de")
RULES_DIR = Path(setgame.__file__).parent / "web" / "rules"

#: How each page marks a rule of ours.
OURS = {
    "en": "(our own rule)",
    "ru": "(наше собственное правило)",
    "pl": "(nasza własna zasada)",
    "it": "(regola nostra)",
    "de": "(unsere eigene Regel)",
}
#: Rules of ours, by the section that states them and words of the sentence that does: that
#: sentence must carry the page's marker (all locked -> all lift, the fair call, the missed set
#: shown, the match following the seated players, ties, the locked-out players' vote, the
#: seat taken back by a player who returns).
OWN_RULES = {
    "en": (("wrong", "When every player is locked out, all lockouts lift"),
           ("wrong", "the others get the first chance"),
           ("no-set", "one set that was missed"),
           ("match", "the match follows the seated players"),
           ("match", "equal highest totals share the win"),
           ("no-set", "takes no part in the play until the lockout lifts"),
           ("match", "Leaving is no way out of a penalty")),
    "ru": (("wrong", "Если заблокированы все игроки, блокировка снимается со всех"),
           ("wrong", "первыми шанс получают другие"),
           ("no-set", "один пропущенный сет"),
           ("match", "партия следует за теми, кто сидит за столом"),
           ("match", "при равенстве лучших сумм победу делят"),
           ("no-set", "не участвует в игре, пока блокировка не снята"),
           ("match", "Уход из-за стола не избавляет от штрафа")),
    "pl": (("wrong", "Gdy zablokowani są wszyscy gracze, blokada znika dla wszystkich"),
           ("wrong", "pierwszą szansę dostają inni"),
           ("no-set", "jeden przeoczony SET"),
           ("match", "partia idzie za tymi, którzy siedzą przy stole"),
           ("match", "równe najwyższe wyniki dzielą zwycięstwo"),
           ("no-set", "nie bierze udziału w grze, dopóki blokada nie zniknie"),
           ("match", "Wyjście od stołu nie uwalnia od kary")),
    "it": (("wrong", "Se tutti i giocatori sono in blocco, il blocco cade per tutti"),
           ("wrong", "la prima occasione tocca agli altri"),
           ("no-set", "un SET che era sfuggito"),
           ("match", "la partita segue chi è seduto al tavolo"),
           ("match", "la vittoria è condivisa"),
           ("no-set", "non partecipa al gioco finché il blocco non cade"),
           ("match", "Andarsene non cancella una penalità")),
    "de": (("wrong", "Sind alle Spieler gesperrt, fallen alle Sperren auf einmal weg"),
           ("wrong", "die anderen haben zuerst die Chance"),
           ("no-set", "ein übersehenes SET"),
           ("match", "richtet sich die Partie nach denen, die am Tisch sitzen"),
           ("match", "teilen sich die Spieler den Sieg"),
           ("no-set", "nimmt am Spiel nicht teil, bis die Sperre wegfällt"),
           ("match", "Wer geht, entgeht damit keiner Strafe")),
}  # fmt: skip

#: A claim that a rulebook is a "first" or "second" edition: no rulebook says so.
NUMBERED_EDITION = {
    "en": r"\b(first|second)\s+(Russian\s+)?edition",
    "ru": r"(перв|втор)\w*\s+(русск\w*\s+)?издани",
    "pl": r"(pierwsz|drug)\w*\s+(rosyjsk\w*\s+)?wydani",
    "it": r"\b(prim|second)\w*\s+edizion",
    "de": r"\b(erst|zweit)\w*\s+(russisch\w*\s+)?Ausgabe",
}
#: "A player with no set loses nothing": only `000` (FAQ 2) says it.
FLOOR = {
    "en": "loses nothing",
    "ru": "ничего не теряет",
    "pl": "nic nie traci",
    "it": "non perde niente",
    "de": "verliert nichts",
}
#: A set's cards may lie anywhere on the table (`000` FAQ 1, `001`, `002`, `004`).
ANYWHERE = {
    "en": "may lie anywhere on the table",
    "ru": "могут лежать на столе где угодно",
    "pl": "mogą leżeć w dowolnym miejscu stołu",
    "it": "possono trovarsi in qualunque punto del tavolo",
    "de": "dürfen irgendwo auf dem Tisch liegen",
}
#: `001` and `004` offer the match only "if you want a longer game".
LONGER = {
    "en": "if you want a longer game",
    "ru": "если вы хотите игру подлиннее",
    "pl": "jeśli chcesz dłuższej gry",
    "it": "se si vuole una partita più lunga",
    "de": "wenn Sie ein längeres Spiel wünschen",
}
#: `001` and `004`: the solo penalty is cancelled by a set "among the last 12 cards".
LAST_12 = {
    "en": "among the last 12 cards",
    "ru": "среди последних 12 карт",
    "pl": "z ostatnich 12 kart",
    "it": "tra le ultime 12 carte",
    "de": "von den letzten 12 Karten",
}
#: The lockout words of DECISIONS.md, and the words they replace.
LOCKOUT_WORDS = {
    "ru": (("блокировк", "заблокирован"), ("отстран", "пропуск хода", "запрет")),
    "pl": (("blokad", "zablokowan"), ("wstrzyma",)),
}


class _Page(HTMLParser):
    """The text of a fragment by section (``h2`` id), its headings, and the items of lists."""

    def __init__(self) -> None:
        super().__init__()
        self.section = ""
        self.sections: dict[str, list[str]] = {}
        self.headings: list[str] = []
        self.items: list[list[str]] = []
        self._open: list[list[str]] = []  # the list items being read, innermost last

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(tag)
        if tag == "h2":
            self.section = dict(attrs).get("id") or ""
        if tag == "li":
            self.items.append([])
            self._open.append(self.items[-1])

    def handle_endtag(self, tag: str) -> None:
        if tag == "li" and self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        self.sections.setdefault(self.section, []).append(data)
        for item in self._open:
            item.append(data)


def _read(lang: str) -> tuple[str, _Page]:
    source = (RULES_DIR / f"{lang}.html").read_text(encoding="utf-8")
    page = _Page()
    page.feed(source)
    page.close()
    return source, page


def _flat(parts: list[str]) -> str:
    return re.sub(r"\s+", " ", "".join(parts)).strip()


def _text(lang: str) -> str:
    _, page = _read(lang)
    return _flat([part for parts in page.sections.values() for part in parts])


def _section(lang: str, section: str) -> str:
    _, page = _read(lang)
    return _flat(page.sections[section])


def _sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.!?])\s+(?=[A-ZÀ-ÿА-ЯЁŁŚŻŹĆŃÓ«„“\"(<0-9])", text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_headings_go_down_one_level_at_a_time(lang: str) -> None:
    _, page = _read(lang)
    levels = [int(tag[1]) for tag in page.headings]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b <= a + 1 for a, b in pairwise(levels)), levels


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_rulebook_is_called_a_first_or_second_edition(lang: str) -> None:
    assert not re.search(NUMBERED_EDITION[lang], _text(lang), re.I)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r10_the_zero_point_floor_is_credited_to_000_alone(lang: str) -> None:
    wrong = _section(lang, "wrong")
    floor = [s for s in _sentences(wrong) if FLOOR[lang] in s]
    assert len(floor) == 1, floor
    assert "000" in floor[0] and "001" not in floor[0] and "004" not in floor[0], floor[0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r09_a_sets_cards_may_lie_anywhere_on_the_table(lang: str) -> None:
    where = [s for s in _sentences(_section(lang, "set")) if ANYWHERE[lang] in s]
    assert len(where) == 1, ANYWHERE[lang]
    for code in ("000", "001", "002", "004"):
        assert code in where[0], code


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r10_each_page_offers_the_lockout_lift_choice_with_its_rulebooks(lang: str) -> None:
    _, page = _read(lang)
    items = [_flat(item) for item in page.items]
    lift_set = [i for i in items if i.startswith("set ")]
    lift_cards = [i for i in items if i.startswith("set_or_cards")]
    assert len(lift_set) == 1 and len(lift_cards) == 1, items
    assert "000" in lift_set[0] and "002" in lift_set[0] and "003" not in lift_set[0]
    assert "003" in lift_cards[0] and "002" not in lift_cards[0]
    assert "lockout_lift" in _section(lang, "wrong")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r10_all_locked_out_all_lift_and_the_fair_call_are_marked_ours(lang: str) -> None:
    wrong = _section(lang, "wrong")
    assert wrong.count(OURS[lang]) >= 3  # all locked -> all lift, both, none, the fair call
    # the fair-call wait with its numbers: pick_seconds, doubled, at most 300 s
    waits = ", ".join(str(min(300, 5 * 2**k)) for k in range(6))
    assert "pick_seconds" in wrong and waits in wrong and "300" in wrong
    own = _section(lang, "own")
    assert "pick_seconds" in own and "300" in own


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_rule_of_ours_is_marked_where_it_is_stated(lang: str) -> None:
    for section, words in OWN_RULES[lang]:
        stated = [s for s in _sentences(_section(lang, section)) if words in s]
        assert len(stated) == 1, (section, words)
        assert OURS[lang] in stated[0], stated[0]
    assert OURS[lang] in _section(lang, "")  # the introduction explains the marker
    solo = _section(lang, "solo")  # the solo scoring: "(our own rules)", in the plural
    assert re.search(
        r"\((our own rules|наши собственные правила|nasze własne zasady|regole nostre"
        r"|unsere eigenen Regeln)\)",
        solo,
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r11_a_vote_with_a_set_on_the_table_deals_anyway_and_shows_the_missed_set(
    lang: str,
) -> None:
    no_set = _section(lang, "no-set")
    shown = [s for s in _sentences(no_set) if OURS[lang] in s]
    assert len(shown) >= 2, shown  # the vote's own details, and the missed set shown


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r14_the_match_is_not_presented_as_the_rule_of_001_and_004(lang: str) -> None:
    match = _section(lang, "match")
    assert LONGER[lang] in match
    for sentence in _sentences(match):
        if "001" in sentence or "004" in sentence:
            assert LONGER[lang] in sentence or "single" in sentence, sentence
            assert "match" not in sentence.replace("rounds = single", ""), sentence
    default = [s for s in _sentences(match) if "rounds = match" in s]
    assert default, "the match setting is named"
    assert "000" in match and "002" in match


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r15_solo_is_won_among_the_last_12_cards(lang: str) -> None:
    solo = _section(lang, "solo")
    won = [s for s in _sentences(solo) if LAST_12[lang] in s]
    assert won and any("001" in s and "004" in s for s in won), won


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_setting_of_the_engine_is_on_every_page(lang: str) -> None:
    source, _ = _read(lang)
    for name in {f.name for f in fields(game.Settings)} | {"lockout_lift"}:
        assert f"<code>{name}</code>" in source, name
    for value in (*game.MODES[1:], *game.PENALTIES, *game.NO_SET_RULES, *game.ROUND_RULES,
                  "set", "set_or_cards"):  # fmt: skip
        assert f"<code>{value}</code>" in source, value


def test_polish_says_seta_never_setu() -> None:
    source, _ = _read("pl")
    assert not re.search(r"\bsetu\b", source, re.I)
    assert source.count("SETa") >= 10


def test_polish_says_how_its_shape_words_were_chosen() -> None:
    cards = _section("pl", "cards")
    assert "„owale, kwadraty, romby”" in cards  # 001's own list
    assert "„wężyk” to nasz wybór" in cards


@pytest.mark.parametrize("lang", sorted(LOCKOUT_WORDS))
def test_one_word_for_a_lockout(lang: str) -> None:
    text = _text(lang).lower()
    wanted, banned = LOCKOUT_WORDS[lang]
    assert all(word in text for word in wanted), wanted
    assert not [word for word in banned if word in text]


def test_german_uses_004s_words() -> None:
    source, _ = _read("de")
    for wrong in ("Schnelltest", "Je 21", "sonst 5"):
        assert wrong not in source, wrong
    assert "„Quick Check“" in source


def test_italian_uses_003s_words() -> None:
    source, _ = _read("it")
    assert "mazziere" not in source and "distributore" in source
    assert "puntini" not in source  # a gloss of «brizzolato» that 003 does not have
    assert "«brizzolato» è la sua parola" in source


# --- the variants (issue 10): this project's own, one section each, examples checked ----------

#: The anchors the game links to: one per variant but the classic game, then the daily puzzle.
VARIANT_IDS = [f"variant-{name}" for name in VARIANTS if name != "classic"] + ["daily-puzzle"]
#: How each page says that the variants are this project's own rules (plural marker).
OURS_PLURAL = {
    "en": "(our own rules)",
    "ru": "(наши собственные правила)",
    "pl": "(nasze własne zasady)",
    "it": "(regole nostre)",
    "de": "(unsere eigenen Regeln)",
}
#: This project's own choices (DECISIONS.md), by section, as each page words them.
OWN_CHOICES = {
    "en": {"variant-set-chain": "The previous set stays apart from the table",
           "variant-puzzle": "a wrong pick costs 10 seconds added to your time",
           "variant-memory": "A miss costs no point and no lockout",
           "daily-puzzle": "each wrong pick adds 10 seconds to your time"},
    "ru": {"variant-set-chain": "Предыдущий сет лежит отдельно от стола",
           "variant-puzzle": "неверный выбор стоит 10 секунд, которые добавляются к времени",
           "variant-memory": "Промах не стоит ни очка, ни блокировки",
           "daily-puzzle": "каждый неверный выбор добавляет 10 секунд к времени"},
    "pl": {"variant-set-chain": "Poprzedni SET leży osobno, obok stołu",
           "variant-puzzle": "zły wybór kosztuje 10 sekund doliczanych do czasu",
           "variant-memory": "Pudło nie kosztuje punktu ani blokady",
           "daily-puzzle": "każdy zły wybór dolicza 10 sekund do czasu"},
    "it": {"variant-set-chain": "Il SET precedente resta a parte, fuori dal tavolo",
           "variant-puzzle": "una scelta sbagliata costa 10 secondi aggiunti al tempo",
           "variant-memory": "Un errore non costa punti né blocco",
           "daily-puzzle": "ogni scelta sbagliata aggiunge 10 secondi al tempo"},
    "de": {"variant-set-chain": "Das vorige SET liegt getrennt vom Tisch",
           "variant-puzzle": "kostet eine falsche Auswahl 10 Sekunden, die zur Zeit hinzukommen",
           "variant-memory": "Ein Fehlgriff kostet keinen Punkt und keine Sperre",
           "daily-puzzle": "jede falsche Auswahl fügt der Zeit 10 Sekunden hinzu"},
}  # fmt: skip


class _Variants(HTMLParser):
    """The ``h3`` sections of the variants (by id, with their heading and text) and every
    ``data-cards`` example with the section it stands in and the codes its text shows."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.headings: dict[str, str] = {}
        self.texts: dict[str, list[str]] = {}
        self.examples: list[dict[str, str | list[str]]] = []
        self._h2 = ""
        self._h3 = ""
        self._heading = False
        self._example: dict[str, str | list[str]] | None = None
        self._code = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "h2":
            self._h2, self._h3 = found.get("id", ""), ""
        if tag == "h3" and self._h2 == "variants":
            self._h3 = found.get("id", "")
            self.ids.append(self._h3)
            self._heading = True
        if "data-cards" in found:
            self._example = {**found, "section": self._h3, "codes": []}
            self.examples.append(self._example)
        self._code = tag == "code"

    def handle_endtag(self, tag: str) -> None:
        if tag == "h3":
            self._heading = False
        if tag == "p":
            self._example = None
        self._code = False

    def handle_data(self, data: str) -> None:
        if self._heading:
            self.headings[self._h3] = self.headings.get(self._h3, "") + data
        if self._h3:
            self.texts.setdefault(self._h3, []).append(data)
        if self._example is not None and self._code:
            codes = self._example["codes"]
            assert isinstance(codes, list)
            codes.append(data)


def _variants(lang: str) -> _Variants:
    source, _ = _read(lang)
    page = _Variants()
    page.feed(source)
    page.close()
    return page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_variant_has_its_section_with_an_anchor_and_its_own_title(lang: str) -> None:
    page = _variants(lang)
    assert page.ids == VARIANT_IDS
    for name, variant in VARIANTS.items():
        if name != "classic":  # a title is a proper name: the same heading in every language
            assert page.headings[f"variant-{name}"].strip() == variant.title


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_variants_are_said_to_be_this_projects_own_and_not_the_rulebooks(lang: str) -> None:
    intro = _sentences(_section(lang, "variants").split(VARIANTS["junior"].title)[0])
    ours = [s for s in intro if OURS_PLURAL[lang] in s]
    assert len(ours) == 1, intro
    source = _read(lang)[0].split('<h2 id="variants">')[1].split('<h2 id="own">')[0]
    for setting in ("variant", "table", "day"):  # the room settings that choose a variant
        assert f"<code>{setting}</code>" in source, setting
    own = _section(lang, "own")
    assert "#variants" in _read(lang)[0].split('<h2 id="own">')[1]
    assert "10" in own  # the puzzle's penalty, listed with the other rules of ours


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_variants_own_choices_are_stated_and_marked(lang: str) -> None:
    page = _variants(lang)
    for section, words in OWN_CHOICES[lang].items():
        text = _flat(page.texts[section])
        stated = [s for s in _sentences(text) if words in s]
        assert len(stated) == 1, (section, words)
        assert OURS[lang] in stated[0], stated[0]
    chain = _flat(page.texts["variant-ultraset-chain"])
    assert OURS[lang] in chain  # the previous UltraSet kept apart too


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_section_gives_the_table_size_and_the_new_letters(lang: str) -> None:
    page = _variants(lang)
    for name, variant in VARIANTS.items():
        if name == "classic":
            continue
        text = _flat(page.texts[f"variant-{name}"])
        for size in (variant.table_size, *variant.table_sizes):
            assert re.search(rf"\b{size}\b", text), (name, size)
        assert re.search(rf"\b{len(variant.deck)}\b", text) or "81" in _text(lang), name
    source, _ = _read(lang)
    mega = source.split('id="variant-megaset"')[1].split("<h3")[0]
    four = source.split('id="variant-4set"')[1].split("<h3")[0]
    for letter in "SDT":
        assert f"<code>{letter}</code>" in mega, letter
    assert "<code>2RTDS</code>" in mega and "243" in mega
    for letter in "4BCH":
        assert f"<code>{letter}</code>" in four, letter
    assert "<code>4BCH</code>" in four and "256" in four


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_example_is_a_group_of_its_variant_and_every_counter_example_is_not(
    lang: str,
) -> None:
    page = _variants(lang)
    assert len(page.examples) >= 20
    good_in: set[str] = set()
    for example in page.examples:
        variant = find_variant(example["data-variant"])
        cards = variant.deck.parse_many(str(example["data-cards"]).split())
        previous = example.get("data-previous")
        before = variant.deck.parse_many(str(previous).split()) if previous else None
        group = example["data-group"]
        assert group in ("yes", "no"), example
        assert variant.is_claim(cards, before) == (group == "yes"), example
        if group == "no" and variant.kind.is_group(cards, variant.deck):
            assert before is not None, example  # a group of the kind fails only by its link
        assert example["section"] == f"variant-{variant.name}", example
        shown = example["codes"]
        assert isinstance(shown, list)
        for code in (*str(example["data-cards"]).split(), *str(previous or "").split()):
            assert code in shown, (code, example)  # the text names every card it checks
        if group == "yes":
            good_in.add(variant.name)
    assert good_in == set(VARIANTS) - {"classic"}


def test_every_page_checks_the_same_examples() -> None:
    def key(lang: str) -> list[tuple[str, ...]]:
        return [
            tuple(
                str(e.get(k, ""))
                for k in ("data-variant", "data-cards", "data-previous", "data-group")
            )
            for e in _variants(lang).examples
        ]

    english = key("en")
    for lang in LANGUAGES[1:]:
        assert key(lang) == english, lang


def test_a_wrong_example_would_be_caught() -> None:
    """The example check is real: a page whose "group" is none fails it."""
    page = _Variants()
    page.feed('<h2 id="variants"></h2><h3 id="variant-ultraset">UltraSet</h3>'
              '<p data-variant="ultraset" data-cards="1RSD 2RSD 1GSD 3POS" data-group="yes">'
              "<code>1RSD</code></p>")  # fmt: skip
    (example,) = page.examples
    variant = find_variant(str(example["data-variant"]))
    cards = variant.deck.parse_many(str(example["data-cards"]).split())
    assert not variant.is_claim(cards) and example["codes"] == ["1RSD"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r11_the_locked_out_players_vote_is_named_our_reading(lang: str) -> None:
    """The books say "all players" agree on "no set"; leaving the locked-out players out of
    the vote is this project's reading (issue 19), and each page says so where the vote is."""
    section, words = OWN_RULES[lang][-2]
    assert section == "no-set"
    stated = [s for s in _sentences(_section(lang, "no-set")) if words in s]
    assert len(stated) == 1 and OURS[lang] in stated[0], stated
MEMORY_DEAL = {
    "en": "never because of what lies face down",
    "ru": "никогда из-за того, что лежит рубашкой вверх",
    "pl": "nigdy z powodu tego, co leży zakryte",
    "it": "mai per ciò che sta coperto",
    "de": "nie wegen dessen, was verdeckt liegt",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_memory_says_its_deal_tells_nothing_and_is_our_rule(lang: str) -> None:
    """Issue 20: Memory deals after misses in a row, never on what lies face down."""
    text = _flat(_variants(lang).texts["variant-memory"])
    stated = [s for s in _sentences(text) if MEMORY_DEAL[lang] in s]
    assert len(stated) == 1, text
    assert OURS[lang] in stated[0] and "4" in stated[0], stated[0]
