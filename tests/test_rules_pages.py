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
from setgame import game

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
#: shown, the match following the seated players, ties).
OWN_RULES = {
    "en": (("wrong", "When every player is locked out, all lockouts lift"),
           ("wrong", "the others get the first chance"),
           ("no-set", "one set that was missed"),
           ("match", "the match follows the seated players"),
           ("match", "equal highest totals share the win")),
    "ru": (("wrong", "Если заблокированы все игроки, блокировка снимается со всех"),
           ("wrong", "первыми шанс получают другие"),
           ("no-set", "один пропущенный сет"),
           ("match", "партия следует за теми, кто сидит за столом"),
           ("match", "при равенстве лучших сумм победу делят")),
    "pl": (("wrong", "Gdy zablokowani są wszyscy gracze, blokada znika dla wszystkich"),
           ("wrong", "pierwszą szansę dostają inni"),
           ("no-set", "jeden przeoczony SET"),
           ("match", "partia idzie za tymi, którzy siedzą przy stole"),
           ("match", "równe najwyższe wyniki dzielą zwycięstwo")),
    "it": (("wrong", "Se tutti i giocatori sono fermi, il blocco cade per tutti"),
           ("wrong", "la prima occasione tocca agli altri"),
           ("no-set", "un SET che era sfuggito"),
           ("match", "la partita segue chi è seduto al tavolo"),
           ("match", "la vittoria è condivisa")),
    "de": (("wrong", "Setzen alle Spieler aus, fallen alle Sperren auf einmal weg"),
           ("wrong", "die anderen haben zuerst die Chance"),
           ("no-set", "ein übersehenes SET"),
           ("match", "richtet sich die Partie nach denen, die am Tisch sitzen"),
           ("match", "teilen sich die Spieler den Sieg")),
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
