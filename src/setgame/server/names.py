"""Player names: which characters a name may hold, when two names look alike, and which
names only computer players may wear.

This project's own rule (not in the rulebooks): a claimed name belongs to its account, and no
one else may sit under it or under a name that looks like it; no person may sit under a name
that looks like a computer player's ("Bot", "B0t 2", "Воt"). Two names look alike when their
:func:`name_key` is the same: the Unicode TR39 confusable skeleton (the ``disarm`` library,
Unicode 17.0 data: Cyrillic, Greek, Armenian, Cherokee, Lisu, small capitals, ``ɑ ɡ ɩ``...
fold to the Latin letter they pass for), then this project's coarser fold (accents dropped,
digits that pass for letters such as 0/O, 1/l/I, 5/S, ``rn`` for ``m``), case folded, and
spaces, punctuation and invisible characters removed. The fold is deliberately coarse (``i``,
``l`` and ``1`` are one letter to it): a name refused by mistake costs a guest a moment, a
lookalike let through lets someone pass for another player.

What a name may hold (:func:`check_name`): no character that draws nothing (Unicode's
default-ignorable code points, such as the Hangul fillers U+3164, U+115F, U+1160, U+FFA0,
zero-width characters, tag characters, variation selectors; controls, format characters,
bidirectional controls, line separators, unassigned and private-use code points), at most
:data:`MAX_MARKS` combining marks on one letter, and letters of one writing system (Latin,
Cyrillic, Greek...; digits, spaces and punctuation go with any; Japanese, Chinese and Korean
count as one system each, as TR39 says). "Anna_1990", "Łukasz", "Jörg", "Саша-99" pass;
"Аnna" with a Cyrillic А does not.

The keys are stored (``accounts.key``): a change to :func:`name_key` (or a ``disarm`` release
with a new ``KEY_SCHEMA_VERSION``) needs a migration that recomputes them, as ``0011`` did.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from typing import Final

import disarm

MAX_NAME: Final = 24
"""The longest name, in characters (the engine's ``MAX_NAME``)."""

_FOLD: Final = str.maketrans(
    {
        # Cyrillic letters drawn like Latin ones (both cases)
        "а": "a", "А": "a", "в": "b", "В": "b", "Ь": "b", "ь": "b", "с": "c", "С": "c",
        "е": "e", "Е": "e", "ё": "e", "Ё": "e", "н": "h", "Н": "h", "һ": "h", "Һ": "h",
        "і": "l", "І": "l", "ї": "l", "Ї": "l", "ј": "j", "Ј": "j", "к": "k", "К": "k",
        "м": "m", "М": "m", "о": "o", "О": "o", "р": "p", "Р": "p", "ԛ": "q", "ѕ": "s",
        "Ѕ": "s", "т": "t", "Т": "t", "у": "y", "У": "y", "ү": "y", "х": "x", "Х": "x",
        "ԁ": "d", "ԝ": "w", "Ԝ": "w", "п": "n", "г": "r", "з": "3", "З": "3",
        # Greek letters drawn like Latin ones
        "α": "a", "Α": "a", "β": "b", "Β": "b", "ε": "e", "Ε": "e", "Ζ": "z", "η": "n",
        "Η": "h", "ι": "l", "Ι": "l", "κ": "k", "Κ": "k", "Μ": "m", "ν": "v", "Ν": "n",
        "ο": "o", "Ο": "o", "ρ": "p", "Ρ": "p", "τ": "t", "Τ": "t", "υ": "u", "Υ": "y",
        "χ": "x", "Χ": "x", "ω": "w", "ς": "c", "σ": "o",
        # Latin letters and digits that pass for one another; i, l, I, 1 and | are one
        "0": "o", "1": "l", "i": "l", "I": "l", "|": "l", "!": "l", "ı": "l", "5": "s",
        "8": "b", "2": "z", "$": "s", "@": "a", "ß": "ss",
    }
)
MAX_KEY: Final = 96
"""The longest key (``accounts.key`` holds 128 characters)."""
KEY_SCHEMA: Final = 10
"""The ``disarm.KEY_SCHEMA_VERSION`` the stored keys were made with (a test compares)."""
MAX_MARKS: Final = 2
"""Combining marks one letter may carry in a name (after NFC): Vietnamese needs two."""
_IGNORABLE: Final = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)  # fmt: skip
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt, 17.0): characters
a font draws as nothing. The standard library has no such property; this list has not changed
since Unicode 6.0 apart from U+061C (6.3), U+180F (14.0)."""
_BLANKS: Final = frozenset("\u2800\u3000")
"""Characters that are not default-ignorable but draw nothing: the braille blank, the
ideographic space (a name's spaces are plain ones)."""
_HIDDEN: Final = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
"""Controls, format characters, surrogates, private use, unassigned, line and paragraph
separators: nothing a name (or a chat line, ``chat.py``) needs."""
_PAIRS: Final = (("rn", "m"), ("vv", "w"), ("cl", "d"))
"""Two letters drawn like one (after the fold, so ``r`` + Cyrillic ``п`` counts too)."""
_DROP: Final = frozenset("ZPSCM")
"""Unicode categories removed from a key: separators, punctuation, symbols, controls and
invisible format characters, combining marks (after NFD, the accents)."""
BOT_WORDS: Final = ("Bot", "Бот")
"""What computer players are called, in every language of the clients ("bot.name" in the
catalog: "Бот {n}" in Russian, "Bot {n}" in the others)."""


def name_key(name: str) -> str:
    """What a name looks like: equal keys mean lookalike names.

    >>> name_key("Ann") == name_key("АNN") == name_key("a n n") == name_key("Ánn")
    True
    >>> name_key("ꓮnnɑ") == name_key("ᴀɴɴᴀ") == name_key("Anna")
    True
    >>> name_key("B0B"), name_key("Bill"), name_key("corn")
    ('bob', 'blll', 'com')
    """
    text = disarm.skeleton_key(name, digit_policy="tr39")
    text = unicodedata.normalize("NFKC", text).translate(_FOLD)
    text = unicodedata.normalize("NFD", text.casefold().translate(_FOLD))
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] not in _DROP)
    for pair, single in _PAIRS:
        text = text.replace(pair, single)
    return text


def lookalike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that looks like ``name`` (the same :func:`name_key`), if any:
    a room's seats and an arena's players each hold a name once.

    >>> lookalike("ann.", ["Bob", "Ann"]), lookalike("Anna", ["Ann"])
    ('Ann', None)
    """
    key = name_key(name)
    return next((other for other in others if name_key(other) == key), None)


def bot_like(name: str) -> bool:
    """Whether a person's name would pass for a computer player's.

    >>> [bot_like(n) for n in ("Bot", "bot 3", "B0T_12", "Вот", "Бот 2", "Bob", "Botticelli")]
    [True, True, True, True, True, False, False]
    """
    return _bot_pattern().fullmatch(name_key(name)) is not None


@functools.cache
def _bot_pattern() -> re.Pattern[str]:
    """A key that reads as a computer player's name: a bot word, maybe a letter, then
    digits (as folded: 0 is o, 1 is l...)."""
    words = "|".join(re.escape(name_key(word)) for word in BOT_WORDS)
    return re.compile(rf"(?:{words})[0-9a-z]?[0-9lozsb]*")


def check_name(name: object) -> str:
    """The name stripped, or :class:`NameRefused` quoting it: ``bad_name`` when not text,
    empty, longer than :data:`MAX_NAME` or with nothing but punctuation; ``name_invisible``
    with a character that draws nothing (:func:`hidden`); ``name_marks`` with more than
    :data:`MAX_MARKS` combining marks on a letter; ``name_mixed`` with letters of two
    writing systems."""
    if not isinstance(name, str):
        raise NameRefused("bad_name", f"a name is text, not {name!r}")
    text = name.strip()
    if not text or len(text) > MAX_NAME:
        raise NameRefused("bad_name", f"a name is 1-{MAX_NAME} characters, not {name!r}")
    bad = invisible(text) + [
        ch for ch in text if ch.isspace() and ch != " "
    ]
    if bad:
        raise NameRefused(
            "name_invisible", f"a name may not hold invisible characters ({codes(bad)}): {name!r}"
        )
    if stacked(text) > MAX_MARKS:
        raise NameRefused(
            "name_marks",
            f"a name has at most {MAX_MARKS} accents on one letter, not {stacked(text)}: {name!r}",
        )
    if disarm.is_mixed_script(text):
        scripts = " and ".join(s.name.title() for s in disarm.detect_scripts(text))
        raise NameRefused(
            "name_mixed", f"a name is written in one alphabet, not {scripts}: {name!r}"
        )
    key = name_key(text)
    if not key:
        raise NameRefused("bad_name", f"a name needs a letter or a digit: {name!r}")
    if len(key) > MAX_KEY:  # NFKC writes one character out as up to 18 (U+FDFA)
        raise NameRefused("bad_name", f"a name is too long once written out: {name!r}")
    return text


def invisible(text: str) -> list[str]:
    """The characters of ``text`` that draw nothing (:func:`hidden`)."""
    return [ch for before, ch in zip(" " + text, text, strict=False) if hidden(ch, before)]


def hidden(ch: str, before: str = "") -> bool:
    """Whether ``ch`` draws nothing (or controls how others draw): see the module's notes.
    A variation selector right after a symbol or a keycap's digit (``before``) chooses how an
    emoji is drawn ("❤️" is U+2764 U+FE0F, "1️⃣" is 1 U+FE0F U+20E3), so it is let through
    there."""
    code = ord(ch)
    if 0xFE00 <= code <= 0xFE0F and before and _emoji_base(before):
        return False
    if ch in _BLANKS or unicodedata.category(ch) in _HIDDEN:
        return True
    return any(low <= code <= high for low, high in _IGNORABLE)


def _emoji_base(ch: str) -> bool:
    return unicodedata.category(ch).startswith("S") or ch in "0123456789#*"


def stacked(text: str) -> int:
    """The most combining marks on one character of ``text`` (after NFC: a precomposed
    letter such as "é" carries none)."""
    most = run = 0
    for ch in unicodedata.normalize("NFC", text):
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


def codes(chars: list[str]) -> str:
    """The code points of ``chars``, as an error names them: ``U+200B, U+3164``."""
    return ", ".join(sorted({f"U+{ord(c):04X}" for c in chars}))


class NameRefused(ValueError):
    """A name that may not be used; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
