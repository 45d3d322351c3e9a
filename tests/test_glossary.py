"""One term per concept per language, ties worded for several winners, every count through
its plural form, fractions in the few form (the native reading of issue 19).

The glossary is the table in ``docs/i18n.md``: these tests read it, so a new banned word is
one line there.
"""

from __future__ import annotations

import functools
import re
import string
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from setgame.rules.variants import VARIANTS
from setgame.tui.strings import event_message
from setgame.words import catalog
from setgame.words.catalog import LANGUAGES, format_number, plural_categories, web_messages

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = re.compile(r"<!-- glossary -->\n(.*?)<!-- /glossary -->", re.S)


@functools.cache
def po(lang: str) -> Catalog:
    with catalog.po_path(lang).open("rb") as source:
        return read_po(source)


def translations(lang: str) -> list[tuple[str, str]]:
    """(msgid, text) for every translated form in ``lang``'s catalog."""
    found = []
    for message in po(lang):
        if not message.id:
            continue
        first = message.id if isinstance(message.id, str) else message.id[0]
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        found.extend((first, text) for text in forms if text)
    return found


def glossary() -> list[tuple[str, str, str, list[str]]]:
    """(concept, lang, term, never) per row of the glossary in ``docs/i18n.md``."""
    match = GLOSSARY.search((ROOT / "docs" / "i18n.md").read_text(encoding="utf-8"))
    assert match, "docs/i18n.md has no <!-- glossary --> table"
    rows = []
    for line in match.group(1).splitlines()[2:]:
        concept, lang, term, never = (cell.strip() for cell in line.strip("| ").split(" | "))
        rows.append((concept, lang, term, [word.strip() for word in never.split(", ")]))
    return rows


def pattern(word: str) -> re.Pattern[str]:
    """A banned word as a whole word with its case; ``*`` at an end lets it go on there."""
    body = re.escape(word.strip("*"))
    start = "" if word.startswith("*") or not re.match(r"\w", word) else r"(?<!\w)"
    end = "" if word.endswith("*") or not re.search(r"\w$", word) else r"(?!\w)"
    return re.compile(start + body + end)


def offending(texts: list[tuple[str, str]], never: list[str]) -> list[str]:
    patterns = [pattern(word) for word in never]
    return [f"{mid!r}: {text!r}" for mid, text in texts if any(p.search(text) for p in patterns)]


def test_the_glossary_covers_the_native_readings_concepts() -> None:
    concepts = {(concept, lang) for concept, lang, _, _ in glossary()}
    assert {lang for _, lang in concepts} <= set(LANGUAGES)
    for wanted in [("lockout", "de"), ("calling SET", "pl"), ("dealer", "de"), ("replay", "it")]:
        assert wanted in concepts
    assert len(concepts) == len(glossary()), "one row per concept and language"


@pytest.mark.parametrize(
    ("concept", "lang", "term", "never"), glossary(), ids=lambda v: str(v)[:24]
)
def test_one_term_per_concept(concept: str, lang: str, term: str, never: list[str]) -> None:
    bad = offending(translations(lang), never)
    assert not bad, f"{lang}, {concept}: use {term}, not:\n" + "\n".join(bad)


def rules_page_text(lang: str) -> list[tuple[str, str]]:
    """(line, text) of ``lang``'s rules page: the words a reader reads, without markup,
    ``<code>`` (setting names) and the variants' names (proper names: "Set-Chain")."""
    page = (ROOT / "src" / "setgame" / "web" / "rules" / f"{lang}.html").read_text("utf-8")
    page = re.sub(r"<code>.*?</code>", "", page, flags=re.S)
    page = re.sub(r"<[^>]*>", " ", page)
    for title in sorted((v.title for v in VARIANTS.values()), key=len, reverse=True):
        page = page.replace(title, "")
    return [(f"line {n}", line) for n, line in enumerate(page.splitlines(), 1)]


@pytest.mark.parametrize(
    ("concept", "lang", "term", "never"), glossary(), ids=lambda v: str(v)[:24]
)
def test_one_term_per_concept_on_the_rules_pages(
    concept: str, lang: str, term: str, never: list[str]
) -> None:
    bad = offending(rules_page_text(lang), never)
    assert not bad, f"rules/{lang}.html, {concept}: use {term}, not:\n" + "\n".join(bad)


def test_the_glossary_check_finds_a_synonym() -> None:
    """The words the native reading found are caught (so the test above can fail)."""
    rows = {(concept, lang): never for concept, lang, _, never in glossary()}
    old = {
        ("lockout", "de"): "Du setzt aus, bis ein anderer Spieler ein SET findet.",
        ("calling SET", "de"): "{n} falsche Wahlen",
        ("calling SET", "pl"): "Kara za błędne zgłoszenie; Najpierw zawołaj SET.",
        ("lockout", "it"): "fermo",
        ("replay", "it"): "Replay",
        ("the game's word (the call, a group)", "de"): "Zuletzt gefundenes Set",
        ("solo game", "ru"): "Пасьянс",
        ("dealer", "de"): "Runde {n} von {of}, {name} gibt",
        ("a player named or addressed (forms for everyone)", "ru"): "нашёл(ла): {name}",
        ("a player named or addressed (forms for everyone)", "pl"): "znalazłeś(aś) ty",
    }
    for key, text in old.items():
        assert offending([("x", text)], rows[key]), key
    good = [("x", "Wywołanie bez SETa"), ("x", "UltraSet"), ("x", "4Set"), ("x", "setgame serve")]
    assert not offending(good, rows[("calling SET", "pl")] + ["set", "Set"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_translation_is_fuzzy(lang: str) -> None:
    """A fuzzy entry is left out of the compiled catalog: its words would show in English."""
    assert not [m.id for m in po(lang) if m.id and m.fuzzy]


# --- ties ----------------------------------------------------------------------------

VIEW = {"you": "a", "mode": "multi", "players": [
    {"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cy"},
]}  # fmt: skip

TIES = {
    "en": ("Game over. Winner: Bob", "Game over. Winners: Bob, Cy"),
    "ru": ("Игра окончена. Побеждает Bob", "Игра окончена. Побеждают Bob, Cy"),
    "pl": ("Koniec gry. Wygrywa Bob", "Koniec gry. Wygrywają Bob, Cy"),
    "it": ("Partita finita. Vince Bob", "Partita finita. Vincono Bob, Cy"),
    "de": ("Spiel vorbei. Es gewinnt Bob", "Spiel vorbei. Es gewinnen Bob, Cy"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_ties_are_worded_for_several_winners_on_the_terminal(lang: str) -> None:
    one, two = TIES[lang]
    assert event_message({"type": "match_over", "winners": ["b"]}, VIEW, lang) == one
    assert event_message({"type": "match_over", "winners": ["b", "c"]}, VIEW, lang) == two


@pytest.mark.parametrize("lang", LANGUAGES)
def test_ties_are_worded_for_several_winners_on_the_web(lang: str) -> None:
    """The browser picks the form of ``ev.matchover`` by the number of winners (events.js)."""
    data = web_messages(lang)
    forms, plural = data["messages"]["ev.matchover.one"], data["plural"]
    assert isinstance(forms, list) and isinstance(plural, dict)
    rule = Locale.parse(lang).plural_form
    alone, tied = forms[plural[rule(1)]], forms[plural[rule(2)]]
    assert alone != tied and "{names}" in alone and "{names}" in tied
    if lang != "en":  # the singular word for the winner is wrong for a tie
        assert not re.search(r"Победитель|Zwycięzca|Vince |gewinnt", tied)


# --- counts ---------------------------------------------------------------------------

#: Placeholders that hold a number of things.
COUNTS = {"n", "count", "games", "found", "total", "claim", "k", "groups"}
#: Messages with a number that need no plural form, and why.
NOT_COUNTS = {
    "Bot {n}": "a name",
    "bot.name": "a name",
    "card.down_at": "a position",
    "puzzle.set_n": "an ordinal",
    "ev.round": "a round's ordinal",
    "ev.roundover": "a round's ordinal",
    "res.round": "a round's ordinal",
    "room.round": "a round's ordinal",
    "unit.seconds": "a unit symbol (s)",
    "Deck: {count}": "a label: the number stands alone",
    "room.watchers": "a label: the number stands alone",
    "prof.game.sets": "a label: the number stands alone",
    "room.found": "a label: found {k} of {n}",
    "puzzle.count": "a label: found {found} of {total}",
    "check takes exactly three cards, got {n}: {cards}": "the number stands alone",
    "the whole deck ({cards} cards) holds {groups} groups": "a whole deck holds many groups",
    **dict.fromkeys(
        [
            "during play ({games}): no {cards}-card table met",
            "during play ({games}, {tables}): {estimate}",
            "no group to claim during play ({games}, {tables}): {percent}",
            "{variant}: {games}",
        ],
        "{games} is the plural message {n} game(s), worded by ngettext",
    ),
}


def english_texts() -> list[tuple[str, bool, str]]:
    """(msgid, plural?, English text) for every message."""
    found = []
    for message in po("en"):
        if not message.id:
            continue
        first = message.id if isinstance(message.id, str) else message.id[0]
        english = message.string if isinstance(message.string, str) else message.string[0]
        found.append((first, message.pluralizable, english or first))
    return found


def names(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_count_is_a_plural_message() -> None:
    """A number of things is worded by a plural message (ngettext / tn), so that "1 partite",
    "1 Spiele" cannot be written; the exceptions are named with their reason."""
    singular = [
        (mid, sorted(names(text) & COUNTS))
        for mid, plural, text in english_texts()
        if not plural and names(text) & COUNTS and mid not in NOT_COUNTS
    ]
    assert not singular, f"counts in messages without plural forms: {singular}"


CALL = re.compile(r"""\b(?:gettext|tr|t)\(\s*(?:lang,\s*)?["']([^"']+)["']""")


def test_plural_messages_are_looked_up_with_their_count() -> None:
    """No code looks a plural message up with ``gettext``/``tr``/``t`` (it would show the
    English form, or the key, whatever the count)."""
    plural = {mid for mid, is_plural, _ in english_texts() if is_plural}
    plural |= {m.id[1] for m in po("en") if m.pluralizable}
    sources = [*ROOT.glob("src/setgame/**/*.py"), *ROOT.glob("src/setgame/web/static/js/*.js")]
    misused = [
        f"{path.relative_to(ROOT)}: {mid}"
        for path in sources
        for mid in CALL.findall(path.read_text(encoding="utf-8"))
        if mid in plural
    ]
    assert not misused
    assert CALL.findall('t("ev.matchover.one", {names})') == ["ev.matchover.one"]


# --- fractions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "text"),
    [("ru", "1,5 карты"), ("pl", "1,5 karty"), ("en", "1.5 cards"), ("de", "1,5 Karten")],
)
def test_a_fraction_takes_the_form_of_its_language(lang: str, text: str) -> None:
    """CLDR calls 1.5 "other"; in Russian and Polish that is the genitive singular, the form
    of 2-4 ("few"), not the form of 5 ("many"): "1,5 карты", not "1,5 карт"."""
    category = Locale.parse(lang).plural_form(1.5)
    assert category == "other"
    forms = web_messages(lang)["messages"]["set.table.cards.one"]
    assert isinstance(forms, list)
    index = plural_categories(lang)[category]
    assert forms[index].format(n=format_number(lang, 1.5, 1)) == text
    if lang in ("ru", "pl"):
        assert plural_categories(lang)["other"] == plural_categories(lang)["few"]
