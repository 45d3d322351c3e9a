"""Every word of the project, read from the gettext catalogs in ``setgame/locale``.

The catalogs are standard gettext files managed with Babel (see ``babel.cfg`` and
``scripts/catalog.py``): ``locale/setgame.pot`` is extracted from the code, each
language has ``locale/<lang>/LC_MESSAGES/setgame.po``, and the compiled ``.mo`` is
what is read at run time, with the standard library's :mod:`gettext` (fast, no
Babel on the start path).

Where the ``.mo`` comes from: a wheel or ``pip install .`` compiles it next to the
``.po`` (``setup.py``'s build step), with ``setgame.mo.crc32`` naming the ``.po`` it
was made from. A source tree or an editable install has no ``.mo`` (they are not in
git): the first use compiles the ``.po`` with Babel into a cache (``$SETGAME_CACHE``,
else ``$XDG_CACHE_HOME/setgame``, else ``~/.cache/setgame``), keyed by the ``.po``'s
checksum, so an edited ``.po`` is compiled again.

Two kinds of message ids live in one catalog: the Python code's ids are the
English text itself (``"Deck: {count}"``); the web client's ids are keys
(``"room.holds"``) whose English text is in ``en``'s catalog. Placeholders are
``str.format`` fields in Python and ``{name}`` in the web client.

>>> gettext("de", "Deck: {count}", count=12)
'Stapel: 12'
>>> one, many = "res.sets.one", "res.sets.other"
>>> [ngettext("ru", one, many, n) for n in (1, 2, 5)]
['1 сет', '2 сета', '5 сетов']
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from gettext import GNUTranslations

LANGUAGES: Final = ("en", "ru", "pl", "it", "de")
DEFAULT_LANGUAGE: Final = "en"
DOMAIN: Final = "setgame"
LOCALE_DIR: Final = Path(__file__).parents[1] / "locale"  # setgame/locale, package data
#: The web client's message ids: dotted lowercase keys such as ``room.holds``.
WEB_KEY: Final = re.compile(r"[a-z][a-z0-9_]*(\.[a-zA-Z0-9_]+)+")


def check_language(lang: str) -> str:
    """``lang`` itself if it is one of :data:`LANGUAGES`, else a ``ValueError`` quoting it."""
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise ValueError(f"unknown language: {lang!r} (expected one of {', '.join(LANGUAGES)})")
    return lang


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it: the first set of
    ``LANGUAGE`` (a colon list), ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; English when
    it names none of ours ("C", "fr_FR.UTF-8").

    >>> language_from_environment({"LANG": "pl_PL.UTF-8"})
    'pl'
    >>> language_from_environment({"LANGUAGE": "fr:de", "LANG": "ru_RU.UTF-8"})
    'de'
    >>> language_from_environment({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"})
    'en'
    """
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            for item in value.split(":"):
                code = item.split(".")[0].split("@")[0].split("_")[0].lower()
                if code in LANGUAGES:
                    return code
            if name != "LANGUAGE":  # LANGUAGE may list only others: the LC_* still count
                return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def po_path(lang: str) -> Path:
    return LOCALE_DIR / check_language(lang) / "LC_MESSAGES" / f"{DOMAIN}.po"


def _cache_dir() -> Path:
    base = os.environ.get("SETGAME_CACHE")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "setgame"


def fingerprint(po: Path) -> str:
    """What a compiled catalog was made from: the CRC-32 of the ``.po``'s bytes (file times
    do not tell: an install gives every file its own moment)."""
    import zlib  # built in, and quick on a few dozen kilobytes

    return f"{zlib.crc32(po.read_bytes()):08x}"


def mo_path(lang: str) -> Path:
    """A compiled catalog made from ``lang``'s ``.po`` as it is now, compiling it if need be."""
    po = po_path(lang)
    made_from = fingerprint(po)
    beside = po.with_suffix(".mo")
    stamp = beside.with_name(beside.name + ".crc32")
    if beside.exists() and stamp.exists() and stamp.read_text().strip() == made_from:
        return beside  # an installed package: compiled by the build (setup.py)
    # One cache folder per source tree, so two checkouts never share a catalog.
    tree = re.sub(r"[^A-Za-z0-9]+", "-", str(LOCALE_DIR.resolve())).strip("-")[-120:]
    cached = _cache_dir() / f"locale-{tree}" / f"{lang}-{made_from}.mo"
    if not cached.exists():
        compile_catalog(po, cached)
    return cached


def compile_catalog(po: Path, mo: Path, *, stamp: bool = False) -> None:
    """Compile one ``.po`` into ``mo`` with Babel (imported only here), atomically; with
    ``stamp``, also write ``<mo>.crc32``, the :func:`fingerprint` it was made from."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        catalog = read_po(source)
    mo.parent.mkdir(parents=True, exist_ok=True)
    partial = mo.with_name(f"{mo.name}.{os.getpid()}.tmp")
    with partial.open("wb") as target:
        write_mo(target, catalog)
    partial.replace(mo)
    if stamp:
        mo.with_name(mo.name + ".crc32").write_text(fingerprint(po) + "\n")


@functools.cache
def translations(lang: str) -> GNUTranslations:
    """``lang``'s compiled catalog (read once per process; :mod:`gettext` imported then)."""
    from gettext import GNUTranslations

    with mo_path(check_language(lang)).open("rb") as mo:
        return GNUTranslations(mo)


def gettext(lang: str, message: str, /, **fields: object) -> str:
    """``message`` in ``lang`` with its ``{fields}`` filled in (none given: as is)."""
    text = translations(lang).gettext(message)
    return text.format(**fields) if fields else text


def ngettext(lang: str, singular: str, plural: str, n: int, /, **fields: object) -> str:
    """The plural form of ``lang`` for ``n`` (CLDR rules: Russian and Polish have three),
    filled in with ``n`` and ``fields``."""
    return translations(lang).ngettext(singular, plural, n).format(n=n, **fields)


def pgettext(lang: str, context: str, message: str, /, **fields: object) -> str:
    """``message`` in ``lang`` as meant in ``context`` (a word with two uses)."""
    text = translations(lang).pgettext(context, message)
    return text.format(**fields) if fields else text


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it (translated where used)."""
    return message


def NP_(context: str, message: str) -> tuple[str, str]:
    """Mark ``message`` in ``context`` for extraction: ``pgettext(lang, *NP_(c, m))``."""
    return context, message


def format_number(lang: str, value: float, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals as ``lang`` writes numbers: "5,0" in Russian.

    Babel is imported here, on first use, never on the command line's start path.

    >>> format_number("ru", 5), format_number("en", 1234.56, 2)
    ('5,0', '1,234.56')
    """
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return str(format_decimal(value, format=pattern, locale=check_language(lang)))


def format_percent(lang: str, share: float) -> str:
    """A share as a percentage with up to three significant digits: "2,94%" in German.

    >>> format_percent("de", 0.0294), format_percent("en", 0.03), format_percent("en", 9.999e-05)
    ('2,94%', '3%', '0.01%')
    """
    from decimal import ROUND_HALF_EVEN, Decimal

    from babel.numbers import format_percent as babel_percent

    value = Decimal(repr(share))
    if not value:  # Babel writes "0.0%": no digit is significant in a zero
        return str(babel_percent(0, format="0%", locale=check_language(lang)))
    # rounded here first: Babel's significant digits drop a carry (0.009999% -> 0.001%)
    value = value.quantize(Decimal(1).scaleb(value.adjusted() - 2), rounding=ROUND_HALF_EVEN)
    return str(babel_percent(value, format="@##%", locale=check_language(lang)))


def web_messages(lang: str) -> dict[str, object]:
    """The web client's messages in ``lang``: ``{"lang", "plural", "messages"}``.

    ``messages`` maps each key to its text, or a plural key to its list of gettext
    forms; ``plural`` maps each CLDR category (what ``Intl.PluralRules(lang).select(n)``
    returns) to the index of its gettext form.
    """
    table = translations(lang)
    messages: dict[str, object] = {}
    for key, text in table._catalog.items():  # type: ignore[attr-defined]
        if isinstance(key, tuple):
            msgid, index = key
            if WEB_KEY.fullmatch(msgid):
                forms = messages.setdefault(msgid, [])
                assert isinstance(forms, list)
                forms.extend([""] * (index + 1 - len(forms)))
                forms[index] = text
        elif key and WEB_KEY.fullmatch(key):
            messages[key] = text
    return {"lang": lang, "plural": plural_categories(lang), "messages": messages}


def plural_categories(lang: str) -> dict[str, int]:
    """Each CLDR plural category of ``lang`` -> the index of its gettext plural form,
    found by asking both rules about the counts 0 to 199 (gettext's rule knows whole
    numbers only; a fraction is CLDR's "other").

    >>> sorted(plural_categories("ru").items())
    [('few', 1), ('many', 2), ('one', 0), ('other', 1)]
    """
    from babel import Locale

    rule = Locale.parse(check_language(lang)).plural_form
    pick = translations(lang).plural  # type: ignore[attr-defined]
    mapping: dict[str, int] = {}
    for n in range(200):
        category, index = rule(n), pick(n)
        if mapping.setdefault(category, index) != index:
            raise ValueError(f"{lang}: CLDR {category!r} spans two gettext forms (n={n})")
    # Where "other" never meets a whole number (Russian, Polish) it is the fractions' form:
    # "1,5 карты", "1,5 karty" take the genitive singular, which is the form of 2-4 ("few"),
    # not the form of 5 ("many").
    mapping.setdefault("other", mapping.get("few", max(mapping.values())))
    return mapping
