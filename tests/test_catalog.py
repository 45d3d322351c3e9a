"""The gettext catalog: complete in five languages, placeholders kept, plural forms
(CLDR), numbers as each language writes them, the .pot in step with the code."""

from __future__ import annotations

import functools
import os
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from setgame.tui.strings import seconds_text
from setgame.words import catalog
from setgame.words.catalog import (
    LANGUAGES,
    WEB_KEY,
    format_number,
    format_percent,
    gettext,
    ngettext,
)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import catalog as catalog_script  # noqa: E402  (scripts/catalog.py: the extract keywords)

sys.path.pop(0)


@functools.cache
def po(lang: str) -> Catalog:
    with catalog.po_path(lang).open("rb") as source:
        return read_po(source)


@functools.cache
def pot() -> Catalog:
    with (catalog.LOCALE_DIR / "setgame.pot").open("rb") as source:
        return read_po(source)


def ids(messages: Catalog) -> set[tuple[str | None, object]]:
    return {(m.context, m.id) for m in messages if m.id}


def fields(text: str) -> set[str]:
    """The ``{name}`` placeholders of a message (``str.format`` and the web client's)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def english(message: Message) -> list[str]:
    """The English text of each plural form (the id itself, or ``en``'s text for a web key)."""
    texts = list(message.id) if isinstance(message.id, tuple) else [message.id]
    first = texts[0]
    if WEB_KEY.fullmatch(first):
        found = po("en").get(message.id, context=message.context)
        assert found is not None, first
        return list(found.string) if isinstance(found.string, tuple) else [found.string]
    return texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_with_the_english_placeholders(lang: str) -> None:
    template, messages = pot(), po(lang)
    assert ids(messages) == ids(template), f"{lang}: run scripts/catalog.py update"
    for message in messages:
        if not message.id:
            continue
        texts = list(message.string) if isinstance(message.string, tuple) else [message.string]
        source = english(message)
        if lang == "en" and not WEB_KEY.fullmatch(source[0] if source else ""):
            continue  # an English id is its own English text
        assert all(text.strip() for text in texts), f"{lang}: no translation of {message.id!r}"
        wanted = set().union(*(fields(text) for text in source))
        for text in texts:
            assert fields(text) == wanted, f"{lang}: {text!r} has not the fields {wanted}"


@pytest.mark.parametrize(("lang", "forms"), [("en", 2), ("ru", 3), ("pl", 3), ("it", 2), ("de", 2)])
def test_plural_messages_have_every_form_of_the_language(lang: str, forms: int) -> None:
    messages = po(lang)
    assert messages.num_plurals == forms
    plurals = [m for m in messages if isinstance(m.id, tuple)]
    assert len(plurals) >= 5
    for message in plurals:
        if lang == "en" and not WEB_KEY.fullmatch(message.id[0]):
            continue
        assert len(message.string) == forms and all(s.strip() for s in message.string), message.id


def test_the_pot_is_extracted_from_the_code_as_it_is() -> None:
    """Re-extract with the project's own settings and compare the message ids."""
    method_map, options_map = _mapping()
    keywords = {}
    for spec in catalog_script.KEYWORDS:
        name, _, args = spec.partition(":")
        keywords[name] = _spec(args)
    extracted = {
        (context, message if isinstance(message, str) else tuple(message))
        for _, _, message, _, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords
        )
    }
    template = {(c, m if isinstance(m, str) else tuple(m)) for c, m in ids(pot())}
    assert extracted == template, "run: python3 scripts/catalog.py extract && ... update"


def _mapping() -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    from babel.messages.frontend import parse_mapping_cfg

    with (ROOT / "babel.cfg").open() as cfg:
        return parse_mapping_cfg(cfg, str(ROOT / "babel.cfg"))


def _spec(args: str) -> tuple[object, ...] | None:
    if not args:
        return None
    return tuple((int(a[:-1]), "c") if a.endswith("c") else int(a) for a in args.split(","))


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("en", ("1 penalty", "2 penalties", "5 penalties")),
        ("ru", ("1 штраф", "2 штрафа", "5 штрафов")),
        ("pl", ("1 kara", "2 kary", "5 kar")),
        ("it", ("1 penalità", "2 penalità", "5 penalità")),
        ("de", ("1 Strafe", "2 Strafen", "5 Strafen")),
    ],
)
def test_plural_forms_follow_cldr(lang: str, texts: tuple[str, ...]) -> None:
    got = tuple(ngettext(lang, "res.penalties.one", "res.penalties.other", n) for n in (1, 2, 5))
    assert got == texts


def test_russian_points_one_few_many() -> None:
    points = [
        ngettext(
            "ru",
            "ev.solo.over.one",
            "ev.solo.over.other",
            n,
            clock="1:00",
        )
        for n in (1, 2, 5, 11, 21, 22, 25)
    ]
    words = [text.split()[3] for text in points]
    assert words == ["очко", "очка", "очков", "очков", "очко", "очка", "очков"]


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [("it", "1 punto", "2 punti"), ("de", "1 Punkt", "2 Punkte"), ("pl", "1 punkt", "2 punkty")],
)
def test_points_singular_and_plural(lang: str, one: str, two: str) -> None:
    def say(n: int) -> str:
        return ngettext(
            lang,
            "ev.solo.over.one",
            "ev.solo.over.other",
            n,
            clock="1:00",
        )

    assert one in say(1) and two in say(2)
    assert "5 punktów" in say(5) if lang == "pl" else True


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", "5.0 s"), ("ru", "5,0 с"), ("pl", "5,0 s"), ("it", "5,0 s"), ("de", "5,0 s")],
)
def test_seconds_are_written_as_each_language_writes_numbers(lang: str, text: str) -> None:
    assert seconds_text(5, lang) == text


@pytest.mark.parametrize(
    ("share", "en", "de"),
    [
        (0.0294, "2.94%", "2,94%"),
        (0.03, "3%", "3%"),
        (9.999e-05, "0.01%", "0,01%"),  # 0.009999%: the carry reaches a new digit
        (0.0009996, "0.1%", "0,1%"),
        (0.99996, "100%", "100%"),
        (0.12345, "12.3%", "12,3%"),
        (0.0, "0%", "0%"),
    ],
)
def test_percentages_have_three_significant_digits_after_a_carry(
    share: float, en: str, de: str
) -> None:
    assert (format_percent("en", share), format_percent("de", share)) == (en, de)


def test_thousands_and_decimals() -> None:
    assert format_number("en", 1234.5, 2) == "1,234.50"
    assert format_number("de", 1234.5, 2) == "1.234,50"
    assert format_number("ru", 1234.5, 0).replace("\u00a0", " ") == "1 234"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_web_messages_map_every_cldr_category_to_a_form(lang: str) -> None:
    data = catalog.web_messages(lang)
    plural = data["plural"]
    assert isinstance(plural, dict) and "other" in plural and "one" in plural
    messages = data["messages"]
    assert isinstance(messages, dict)
    assert all(WEB_KEY.fullmatch(key) for key in messages)
    assert "room.holds" in messages and "Deck: {count}" not in messages
    forms = messages["res.sets.one"]
    assert isinstance(forms, list) and len(forms) == (3 if lang in ("ru", "pl") else 2)
    assert max(plural.values()) == len(forms) - 1


def test_unknown_language_is_refused_quoting_it() -> None:
    with pytest.raises(ValueError, match="'fr'"):
        gettext("fr", "Deck")


def test_a_missing_mo_is_compiled_into_the_cache_and_again_when_the_po_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locale = tmp_path / "locale"
    target = locale / "de" / "LC_MESSAGES" / "setgame.po"
    target.parent.mkdir(parents=True)
    target.write_bytes(catalog.po_path("de").read_bytes())
    monkeypatch.setattr(catalog, "LOCALE_DIR", locale)
    monkeypatch.setenv("SETGAME_CACHE", str(tmp_path / "cache"))

    def deck() -> str:
        with catalog.mo_path("de").open("rb") as mo:
            return str(read_mo(mo).get("Deck").string)

    assert catalog.mo_path("de").is_relative_to(tmp_path / "cache") and deck() == "Stapel"
    text = target.read_text(encoding="utf-8")
    target.write_text(text.replace('msgstr "Stapel"', 'msgstr "Kartenstapel"'), encoding="utf-8")
    assert deck() == "Kartenstapel"  # an edited .po is compiled again, whatever the file times
    catalog.compile_catalog(target, target.with_suffix(".mo"), stamp=True)  # as the build does
    assert catalog.mo_path("de") == target.with_suffix(".mo")
    target.write_text(text, encoding="utf-8")  # the .mo beside no longer matches: not used
    assert catalog.mo_path("de").is_relative_to(tmp_path / "cache") and deck() == "Stapel"


def test_the_command_line_starts_without_babel() -> None:
    """Babel is for building and for numbers; the CLI's start path reads .mo files only."""
    for lang in LANGUAGES:  # compiled already (on first use), as after any earlier run
        catalog.mo_path(lang)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "setgame", "solve", "1RSD", "2GTO", "3POS"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    assert "3POS" in run.stdout
    imported = {line.split("|")[-1].strip() for line in run.stderr.splitlines() if "|" in line}
    assert not {name for name in imported if name.split(".")[0] == "babel"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_variant_words_reach_the_browser_with_every_plural_form(lang: str) -> None:
    """Issue 10: the flaw, attribute, value, verdict and variant keys of ``flaw_words`` (which
    docs/i18n.md lists for the web client) are all in ``/i18n/<lang>.json``."""
    from setgame.words import flaw_words

    messages = catalog.web_messages(lang)["messages"]
    assert isinstance(messages, dict)
    singles = [*flaw_words.ATTRIBUTE_KEYS, flaw_words.SET_FRAME, flaw_words.PAIRING_FRAME,
               flaw_words.COUNT_FRAME, *flaw_words.COUNT_RULES.values(), flaw_words.LINK_FRAME,
               flaw_words.LINK_VERDICT, *flaw_words.VARIANT_ABOUT.values()]  # fmt: skip
    singles += [key for keys in (*flaw_words.VALUE_KEYS, *flaw_words.TWO_KEYS,
                                 *flaw_words.ONE_KEYS) for key in keys]  # fmt: skip
    singles += [key for pair in flaw_words.VERDICTS.values() for key in pair]
    assert len(singles) == 5 + 3 + 2 + 1 + 1 + 13 + 19 + 30 + 8
    for key in singles:
        assert isinstance(messages.get(key), str) and messages[key].strip(), key
    plurals = [pair for keys in flaw_words.COUNT_KEYS for pair in keys] + [flaw_words.LINK_CARDS]
    assert len(plurals) == 19 + 1
    forms = 3 if lang in ("ru", "pl") else 2
    for one, _ in plurals:
        texts = messages.get(one)
        assert isinstance(texts, list) and len(texts) == forms, one
        assert all("{n}" in text for text in texts), one
