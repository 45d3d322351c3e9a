"""Player names: when two names look alike, and which names only computer players may wear.

This project's own rule (not in the rulebooks): a claimed name belongs to its account, and no
one else may sit under it or under a name that looks like it; no person may sit under a name
that looks like a computer player's ("Bot", "B0t 2", "Воt"). Two names look alike when their
:func:`name_key` is the same: NFKC, accents dropped, a fold of the common Latin, Cyrillic and
Greek lookalikes and of digits that pass for letters (0/O, 1/l/I, 5/S...), case folded, and
spaces, punctuation and invisible characters removed. The fold is deliberately coarse (``i``,
``l`` and ``1`` are one letter to it): a name refused by mistake costs a guest a moment, a
lookalike let through lets someone pass for another player.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Final

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
    >>> name_key("B0B"), name_key("Bill"), name_key("corn")
    ('bob', 'blll', 'com')
    """
    text = unicodedata.normalize("NFKC", name).translate(_FOLD)
    text = unicodedata.normalize("NFD", text.casefold().translate(_FOLD))
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] not in _DROP)
    for pair, single in _PAIRS:
        text = text.replace(pair, single)
    return text


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
    """The name stripped, or :class:`NameRefused` (``bad_name``) for one the engine refuses:
    not text, empty, longer than :data:`MAX_NAME`, or with control characters."""
    if not isinstance(name, str):
        raise NameRefused("bad_name", f"a name is text, not {name!r}")
    text = name.strip()
    if not text or len(text) > MAX_NAME:
        raise NameRefused("bad_name", f"a name is 1-{MAX_NAME} characters, not {name!r}")
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text):
        raise NameRefused("bad_name", f"a name has no control characters: {name!r}")
    if not name_key(text):
        raise NameRefused("bad_name", f"a name needs a letter or a digit: {name!r}")
    return text


class NameRefused(ValueError):
    """A name that may not be used; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
