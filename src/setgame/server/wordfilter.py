"""The word filter: words no name may hold and chat shows masked (issue 20, moderation).

The words: the LDNOOBW lists ("List of Dirty, Naughty, Obscene, and Otherwise Bad Words",
Shutterstock and contributors, CC BY 4.0) for English, Russian, Polish, Italian and German, as
the npm package ``naughty-words`` publishes them (``wordlists/<lang>.txt``, unchanged; refreshed
by ``scripts/wordlists.py``), less this project's ``wordlists/keep.txt`` (everyday words of
the five languages that the lists hold for a search box's sake: Italian "pesce", Polish
"jajko"...), then changed by the host's file (``SETGAME_WORDS_FILE``, :func:`load`). Every
language applies everywhere: a room's players write in any of them.

Matching: a text's words (letters and digits, with apostrophes inside; in a name also split
where a lower-case letter meets a capital) are folded: case, accents, leetspeak (``0 1 3 4 5
7 @ $ !`` as ``o i e a s t a s i``), Cyrillic written out in Latin letters (the Russian list is
mostly transliterated), the Unicode TR39 lookalikes, the spelling variants of transliteration
(``kh``/``h``, ``ts``/``c``, ``y``/``j``/``i``), and a letter said three times or more as once or
twice. A folded word equal to an entry matches; an entry of several words matches those words
in a row. A name is refused (``name_word``) when a word of it matches, when the whole name
without spaces does, or when it contains an entry of :data:`INSIDE` letters or more anywhere
("xxbitchxx"; "Therapist" too, the price of it). A chat line is kept with each matching word
masked (``*``), so that a conversation goes on and nobody is told which spelling got through.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import disarm

LANGS: Final = ("en", "ru", "pl", "it", "de")
HERE: Final = Path(__file__).resolve().parent / "wordlists"
INSIDE: Final = 5
"""An entry this long (folded) is refused anywhere inside a name; a shorter one only as a
word of it ("Cassandra" and "Dickens" pass)."""
MAX_FILE: Final = 1_000_000
"""The largest words file a host may give, in bytes."""
MAX_ENTRY: Final = 100

_TOKEN: Final = re.compile(r"[@$]?[^\W_](?:[^\W_]|[@$!'’`](?=[^\W_]))*")
_CAMEL: Final = re.compile(r"(?<=[^\W\d_])(?=[A-ZА-ЯЁ])")
_LEET: Final = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i"}
)
_CYRILLIC: Final = str.maketrans(
    {
        "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh",
        "з": "z", "и": "i", "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o",
        "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "kh", "ц": "ts",
        "ч": "ch", "ш": "sh", "щ": "sch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu",
        "я": "ya", "і": "i", "ї": "i", "є": "e", "ґ": "g",
    }
)  # fmt: skip
_LOOSE: Final = (("sch", "sh"), ("kh", "h"), ("ts", "c"), ("tc$", "c"), ("ck", "k"),
                 ("y", "i"), ("j", "i"), ("'", ""))  # fmt: skip
_CYRILLIC_LETTER: Final = re.compile("[\u0400-\u04ff]")
_RUN: Final = re.compile(r"(.)\1{2,}")


def fold(word: str, loose: bool = False) -> str:
    """One word as the filter compares it; ``loose`` also folds the spelling variants of
    transliteration (for the Russian entries, which come in several spellings).

    >>> fold("Sh1t"), fold("Scheiße"), fold("ХУЙ"), fold("ХУЙ", True), fold("khuy", True)
    ('shit', 'scheisse', 'khui', 'hui', 'hui')
    >>> fold("pizdetc", True) == fold("пиздец", True) == "pizdec"
    True
    """
    text = word.casefold().translate(_LEET).translate(_CYRILLIC)
    text = disarm.skeleton_key(text) if text else text
    text = unicodedata.normalize("NFD", text)
    text = "".join(ch for ch in text if ch.isalnum() and not unicodedata.combining(ch))
    if loose:
        for spelling, same in _LOOSE:
            text = re.sub(spelling, same, text)
    return text


def _variants(folded: str) -> set[str]:
    """The word and, where a letter is said three times or more, with it once or twice."""
    return {folded, _RUN.sub(r"\1", folded), _RUN.sub(r"\1\1", folded)}


@dataclass(frozen=True)
class _Table:
    """Entries folded one way: single words, phrases by their first word, and every entry
    with its words run together (whole names are compared with those)."""

    loose: bool
    words: frozenset[str] = frozenset()
    by_first: dict[str, list[tuple[str, ...]]] = field(default_factory=dict)
    joined: frozenset[str] = frozenset()
    long: tuple[str, ...] = ()  # of ``joined``, the ones at least INSIDE long

    @classmethod
    def of(cls, entries: Iterable[str], loose: bool) -> _Table:
        words: set[str] = set()
        by_first: dict[str, list[tuple[str, ...]]] = {}
        joined: set[str] = set()
        for entry in entries:
            parts = [fold(t.group(), loose) for t in _TOKEN.finditer(entry)]
            parts = [part for part in parts if part]
            if len(parts) == 1:
                words.add(parts[0])
            elif parts:
                by_first.setdefault(parts[0], []).append(tuple(parts))
            if parts:
                joined.add(fold("".join(t.group() for t in _TOKEN.finditer(entry)), loose))
        long = tuple(sorted(e for e in joined if len(e) >= INSIDE))
        return cls(loose, frozenset(words), by_first, frozenset(joined), long)

    def spans(self, tokens: list[str]) -> set[int]:
        """The indexes of the words that match an entry (each word of a matching phrase)."""
        variants = [_variants(fold(token, self.loose)) for token in tokens]
        hits = {i for i, found in enumerate(variants) if found & self.words}
        for i, found in enumerate(variants):
            for phrase in (p for v in found for p in self.by_first.get(v, ())):
                rest = variants[i + 1 : i + len(phrase)]
                if len(rest) == len(phrase) - 1 and all(
                    word in seen for word, seen in zip(phrase[1:], rest, strict=True)
                ):
                    hits.update(range(i, i + len(phrase)))
        return hits

    def inside(self, text: str) -> bool:
        """Whether ``text`` (a whole name, run together) is or holds an entry."""
        whole = _variants(fold(text, self.loose))
        return bool(whole & self.joined) or any(e in v for v in whole for e in self.long)


@dataclass(frozen=True)
class WordFilter:
    """The entries: folded plainly, and the Russian ones also loosely; symbols (no letters)
    as they are."""

    plain: _Table = field(default_factory=lambda: _Table(False))
    russian: _Table = field(default_factory=lambda: _Table(True))
    symbols: frozenset[str] = frozenset()

    @classmethod
    def of(cls, entries: Iterable[str], russian: Iterable[str] = ()) -> WordFilter:
        """A filter of ``entries``; those also in ``russian`` (and any with a Cyrillic
        letter) are matched loosely as well."""
        every = list(entries)
        loose = set(russian) | {e for e in every if _CYRILLIC_LETTER.search(e)}
        symbols = {e.strip() for e in every if e.strip() and not _TOKEN.search(e)}
        return cls(
            _Table.of(every, False), _Table.of([e for e in every if e in loose], True),
            frozenset(symbols),
        )  # fmt: skip

    def __bool__(self) -> bool:
        return any((self.plain.words, self.plain.by_first, self.russian.words, self.symbols))

    def in_name(self, name: str) -> bool:
        """Whether ``name`` holds a word of the filter (see the module's notes)."""
        pieces = [p for t in _TOKEN.finditer(name) for p in _CAMEL.split(t.group()) if p]
        if self._spans(pieces) or any(symbol in name for symbol in self.symbols):
            return True
        whole = "".join(pieces)
        return bool(whole) and (self.plain.inside(whole) or self.russian.inside(whole))

    def mask(self, text: str) -> str:
        """``text`` with every word of the filter written as stars, the rest as it was.

        >>> WordFilter.of(["shit", "piece of shit"]).mask("oh sh1t, a PIECE of $hit!")
        'oh ****, a ***** ** ****!'
        """
        tokens = list(_TOKEN.finditer(text))
        hits = self._spans([t.group() for t in tokens])
        out, last = [], 0
        for index in sorted(hits):
            token = tokens[index]
            out += [text[last : token.start()], "*" * len(token.group())]
            last = token.end()
        out.append(text[last:])
        masked = "".join(out)
        for symbol in self.symbols:
            masked = masked.replace(symbol, "*")
        return masked

    def _spans(self, tokens: list[str]) -> set[int]:
        return self.plain.spans(tokens) | self.russian.spans(tokens)


@functools.cache
def default_filter() -> WordFilter:
    """The shipped lists alone (what a server without ``SETGAME_WORDS_FILE`` uses)."""
    return load()


class WordsError(ValueError):
    """A host's words file that cannot be used; the message names it."""


def shipped(lang: str | None = None) -> list[str]:
    """The entries of the shipped lists (of one language, or all), less ``keep.txt``."""
    keep = {fold_entry(e) for e in _lines(HERE / "keep.txt")}
    entries = [e for code in ([lang] if lang else LANGS) for e in _lines(HERE / f"{code}.txt")]
    return [e for e in entries if fold_entry(e) not in keep]


def load(path: str = "", enabled: bool = True) -> WordFilter:
    """The server's filter: none when not ``enabled``; else the shipped lists changed by the
    host's file at ``path``, one entry a line: ``word`` or ``+word`` adds, ``-word`` takes one
    out (a shipped one too), ``!replace`` (a line of its own) drops the shipped lists, ``#``
    starts a comment. :class:`WordsError` for a file that cannot be read or is too big."""
    if not enabled:
        return WordFilter()
    entries = {fold_entry(e): e for e in shipped()}
    if path:
        for line in host_lines(path):
            if line == "!replace":
                entries.clear()
            elif line.startswith("-"):
                entries.pop(fold_entry(line[1:]), None)
            else:
                entry = line.removeprefix("+").strip()
                entries[fold_entry(entry)] = entry
    return WordFilter.of(entries.values(), shipped("ru"))


def host_lines(path: str) -> list[str]:
    """The entries of a host's words file, checked (also at start: ``limits.py``)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE + 1)
    except OSError as exc:
        raise WordsError(f"SETGAME_WORDS_FILE: cannot read {path!r}: {exc.strerror}") from None
    if len(data) > MAX_FILE:
        raise WordsError(f"SETGAME_WORDS_FILE: {path!r} is over {MAX_FILE} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise WordsError(f"SETGAME_WORDS_FILE: {path!r} is not UTF-8 text") from None
    lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    return [line[:MAX_ENTRY] for line in lines if line]


def fold_entry(entry: str) -> str:
    """An entry as one key (its words folded, joined by spaces; a symbol as it is)."""
    parts = [fold(t.group()) for t in _TOKEN.finditer(entry)]
    return " ".join(p for p in parts if p) or entry.strip()


def _lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]
