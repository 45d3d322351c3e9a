"""``setgame solve``: the sets of the cards given, or of each table read from a stream.

Kept apart from the Typer app so that the command starts about as fast as
``import setgame``. Standard input is read in chunks of whatever has arrived
(at most :data:`CHUNK` bytes), so the first table is answered before the input
ends; each chunk's tables are solved together by
:func:`~setgame.analysis.batch.find_sets_batch` and written at once.
"""

from __future__ import annotations

import codecs
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import IO, TYPE_CHECKING, Any, Final

from setgame.analysis.batch import BATCH_MIN, find_array, find_sets_batch
from setgame.rules.cards import CARDS, LETTERS, Card, card_name, parse_cards
from setgame.rules.sets import THIRD, Triple, find_sets
from setgame.words.catalog import gettext, ngettext

if TYPE_CHECKING:  # the variants (and NumPy) are imported only for ``--variant``
    from setgame.rules.decks import Deck
    from setgame.rules.variants import Variant

#: Bytes read from standard input at most at a time.
CHUNK: Final = 1 << 16
#: Longest line accepted (a table of all 81 cards takes 404 characters).
MAX_LINE: Final = 1 << 16

_NAMES: Final = tuple(card_name(c) for c in CARDS)
_BY_NAME: Final = {name: card for card, name in enumerate(_NAMES)}
_QUOTED: Final = tuple(f'"{name}"' for name in _NAMES)


class SolveError(ValueError):
    """Bad input to ``setgame solve``: the message quotes it (and names its line)."""


def solve_cards(
    tokens: Sequence[str],
    as_json: bool,
    out: IO[str],
    lang: str = "en",
    variant: Variant | None = None,
) -> None:
    """Write the sets among the cards named by ``tokens`` (text in ``lang``); with a
    ``variant`` other than classic, its groups (see :func:`solve_variant`)."""
    if _is_classic(variant):
        cards = _parse(list(tokens), 0, lang)
        out.write(_format(cards, find_sets(cards), as_json, lang))
    else:
        assert variant is not None
        out.write(solve_variant(variant, list(tokens), 0, as_json, lang))


def solve_stream(
    stream: IO[str],
    as_json: bool,
    out: IO[str],
    lang: str = "en",
    variant: Variant | None = None,
) -> None:
    """Write the sets of each non-blank line of ``stream`` (a table, its cards
    separated by blanks), chunk by chunk, flushing after each; text answers are
    separated by a blank line. A bad line raises SolveError naming it, after the
    answers to the lines before it. With a ``variant`` other than classic, the
    groups of its kind, a line at a time."""
    separator = "" if as_json else "\n"
    lead = ""  # what goes before the next answer: the separator once one is written
    number = 0
    classic = _is_classic(variant)
    for block in _blocks(stream):
        texts = _answer_uniform(block, as_json, lang) if classic else None
        if texts is None:
            texts, error = _answer_lines(block, number, as_json, lang, variant)
        else:
            error = None
        number += block.count("\n")
        if texts:
            out.write(lead + separator.join(texts))
            out.flush()
            lead = separator
        if error is not None:
            raise error


def _answer_lines(
    block: str, number: int, as_json: bool, lang: str, variant: Variant | None = None
) -> tuple[list[str], SolveError | None]:
    """The answers to the lines of ``block`` up to the first bad one (and its error);
    ``number`` is the line number before the block."""
    tables: list[list[Card]] = []
    answers: list[str] = []  # a variant's, answered line by line
    error = None
    lines = block.split("\n")  # not splitlines(): only a newline ends a line, as it is counted
    if not lines[-1]:
        lines.pop()
    classic = _is_classic(variant)
    for at, line in enumerate(lines, number + 1):
        if tokens := line.split():
            try:
                if classic:
                    tables.append(_parse(tokens, at, lang))
                else:
                    assert variant is not None
                    answers.append(solve_variant(variant, tokens, at, as_json, lang))
            except SolveError as bad:
                error = bad
                break
    if not classic:
        return answers, error
    sets = find_sets_batch(tables)
    return [_format(t, s, as_json, lang) for t, s in zip(tables, sets, strict=True)], error


def _blocks(stream: IO[str]) -> Iterator[str]:
    """The text of ``stream`` in runs of whole lines (each ending in a newline but
    maybe the last), as they arrive: at most about CHUNK bytes at a time."""
    raw = getattr(stream, "buffer", None)
    read1 = getattr(raw, "read1", None)
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    rest = ""
    while True:
        data = decoder.decode(read1(CHUNK)) if read1 else stream.read(CHUNK)
        if not data:
            break
        cut = data.rfind("\n") + 1
        if not cut:
            rest += data
        else:
            yield rest + data[:cut]
            rest = data[cut:]
        if len(rest) > MAX_LINE:
            raise SolveError(f"a line longer than {MAX_LINE} characters: {rest[:40]!r}...")
    if rest:
        yield rest


def _parse(tokens: list[str], line: int, lang: str) -> list[Card]:
    """The cards named by ``tokens`` (canonical names by one lookup each)."""
    try:
        cards = [_BY_NAME[t] for t in tokens]
    except KeyError:
        cards = []
    if len(cards) == len(tokens) and len(set(cards)) == len(cards):
        return cards
    try:
        return parse_cards(tokens)
    except ValueError as error:
        where = gettext(lang, "line {line}: {error}", line=line, error=error)
        raise SolveError(where if line else str(error)) from None


@dataclass(frozen=True)
class _Arrays:
    """Lookup arrays for reading and answering a whole block at once."""

    letters: Any  # letters[position, byte]: the value of a notation letter, 3 when none
    positions: Any  # 0, 1, 2, 3: the positions of the letters in a card's name
    weights: Any  # 27, 9, 3, 1: a card's number from its four values
    separators: dict[int, Any]  # per table size n: n - 1 spaces and a newline
    sets: tuple[Any, Any]  # per pair a * 81 + b, the set it makes as text, then as JSON


@cache
def _arrays() -> tuple[Any, _Arrays]:
    import numpy as np

    letters = np.full((4, 256), 3, dtype=np.uint8)
    for position, symbols in enumerate(LETTERS):
        for value, symbol in enumerate(symbols):
            letters[position, ord(symbol)] = value
    sets = np.empty((2, 81 * 81), dtype=object)
    for a, b in itertools.permutations(CARDS, 2):
        c = THIRD[a * 81 + b]
        sets[0, a * 81 + b] = f"  {_NAMES[a]} {_NAMES[b]} {_NAMES[c]}"
        sets[1, a * 81 + b] = f"[{_QUOTED[a]}, {_QUOTED[b]}, {_QUOTED[c]}]"
    separators = {n: np.frombuffer(b" " * (n - 1) + b"\n", dtype=np.uint8) for n in range(3, 82)}
    weights = np.array([27, 9, 3, 1], dtype=np.uint8)
    return np, _Arrays(letters, np.arange(4), weights, separators, (sets[0], sets[1]))


def _answer_uniform(block: str, as_json: bool, lang: str) -> list[str] | None:
    """The answers to a block whose lines all name the same number of cards in
    notation, one space apart, read and solved as one array; None for any other
    block (blank lines, other spacing, a bad card, a repeat), which is then read
    line by line."""
    if block.count("\n") < BATCH_MIN:  # a few lines (typed, say): no need to load NumPy
        return None
    np, arrays = _arrays()
    text = block.upper() if block.endswith("\n") else block.upper() + "\n"
    width = text.find("\n") + 1
    if width < 15 or width % 5 or len(text) % width or not text.isascii():
        return None
    n = width // 5
    grid = np.frombuffer(text.encode(), dtype=np.uint8).reshape(-1, n, 5)
    if (grid[:, :, 4] != arrays.separators[n]).any():
        return None
    values = arrays.letters[arrays.positions, grid[:, :, :4]]
    if (values > 2).any():
        return None
    cards = (values @ arrays.weights).astype(np.uint8)
    ordered = np.sort(cards, axis=1)
    if (ordered[:, 1:] == ordered[:, :-1]).any():
        return None
    rows, first, second, _ = find_array(cards)
    named = arrays.sets[as_json][first.astype(np.intp) * 81 + second].tolist()
    ends = np.cumsum(np.bincount(rows, minlength=len(cards))).tolist()
    spans = zip(text.splitlines(), [0, *ends], ends, strict=False)
    if as_json:  # the same text as json.dumps (see _format), the names taken from the line
        return [
            '{"cards": ["'
            + line.replace(" ", '", "')
            + '"], "sets": ['
            + ", ".join(named[a:b])
            + "]}\n"
            for line, a, b in spans
        ]
    return [
        "\n".join([_head(b - a, n, lang).format(list=line), *named[a:b]]) + "\n"
        for line, a, b in spans
    ]


@cache
def _head(sets: int, cards: int, lang: str) -> str:
    """The first line of a text answer, the cards left as ``{list}``: "2 sets among 12
    cards: {list}" in ``lang`` (the catalog's plural forms), made once per count."""
    count = ngettext(lang, "{n} set", "{n} sets", sets)
    among = ngettext(lang, "{n} card", "{n} cards", cards)
    return gettext(lang, "{sets} among {cards}: {list}", sets=count, cards=among, list="{list}")


def _format(cards: list[Card], sets: list[Triple], as_json: bool, lang: str) -> str:
    if as_json:
        # The same text as json.dumps({"cards": ..., "sets": ...}), built from quoted names.
        listed = ", ".join(["[" + ", ".join(map(_QUOTED.__getitem__, s)) + "]" for s in sets])
        return f'{{"cards": [{", ".join(map(_QUOTED.__getitem__, cards))}], "sets": [{listed}]}}\n'
    names = " ".join(map(_NAMES.__getitem__, cards))
    head = _head(len(sets), len(cards), lang).format(list=names)
    return "\n".join([head, *("  " + " ".join(map(_NAMES.__getitem__, s)) for s in sets)]) + "\n"


# --- the variants (``--variant NAME``) --------------------------------------------


def _is_classic(variant: Variant | None) -> bool:
    return variant is None or variant.name == "classic"


def solve_variant(variant: Variant, tokens: list[str], line: int, as_json: bool, lang: str) -> str:
    """The answer for one table of ``variant``: its cards in the notation of the
    variant's deck, and every group of the variant's kind among them (chain and
    puzzle flows too: there is no previous claim and nothing found on a table
    given alone), in the shape and words of a classic answer. Bad input (a card of
    another deck, a repeat, GhostSets among more than 30 cards) raises SolveError."""
    import json

    deck = variant.deck
    try:
        cards = deck.parse_many(tokens)
        groups = variant.kind.find(cards, deck)
    except ValueError as error:
        where = gettext(lang, "line {line}: {error}", line=line, error=error)
        raise SolveError(where if line else str(error)) from None
    name = _deck_names(deck)
    names = [name[c] for c in cards]
    listed = [[name[c] for c in group] for group in groups]
    if as_json:
        return json.dumps({"cards": names, "sets": listed}) + "\n"
    count = group_count(lang, variant.kind.name, len(groups))
    among = ngettext(lang, "{n} card", "{n} cards", len(cards))
    head = gettext(lang, "{sets} among {cards}: {list}", sets=count, cards=among,
                   list=" ".join(names))  # fmt: skip
    return "\n".join([head, *("  " + " ".join(group) for group in listed)]) + "\n"


@cache
def _deck_names(deck: Deck) -> tuple[str, ...]:
    """The notation of every card int of ``deck`` ("" for an int not in it): one
    lookup a card instead of ``deck.name_of``'s digits."""
    cards = deck.card_set
    return tuple(deck.name_of(c) if c in cards else "" for c in range(deck.space))


def group_count(lang: str, kind: str, n: int) -> str:
    """"3 UltraSets" in ``lang``: ``n`` groups of the kind named ``kind``."""
    if kind == "ultraset":
        return ngettext(lang, "{n} UltraSet", "{n} UltraSets", n)
    if kind == "ghostset":
        return ngettext(lang, "{n} GhostSet", "{n} GhostSets", n)
    if kind == "4set":
        return ngettext(lang, "{n} 4Set", "{n} 4Sets", n)
    return ngettext(lang, "{n} set", "{n} sets", n)
