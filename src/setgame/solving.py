"""``setgame solve``: the sets of the cards given, or of each table read from a stream.

Kept apart from the Typer app so that the command starts about as fast as
``import setgame``. Standard input is read in chunks of whatever has arrived
(at most :data:`CHUNK` bytes), so the first table is answered before the input
ends; each chunk's tables are solved together by
:func:`~setgame.batch.find_sets_batch` and written at once.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator, Sequence
from typing import IO, Final

from setgame.batch import find_sets_batch
from setgame.cards import CARDS, Card, card_name, parse_cards
from setgame.sets import Triple, find_sets

#: Bytes read from standard input at most at a time.
CHUNK: Final = 1 << 16
#: Longest line accepted (a table of all 81 cards takes 404 characters).
MAX_LINE: Final = 1 << 16

_NAMES: Final = tuple(card_name(c) for c in CARDS)
_BY_NAME: Final = {name: card for card, name in enumerate(_NAMES)}
_QUOTED: Final = tuple(f'"{name}"' for name in _NAMES)


class SolveError(ValueError):
    """Bad input to ``setgame solve``: the message quotes it (and names its line)."""


def solve_cards(tokens: Sequence[str], as_json: bool, out: IO[str]) -> None:
    """Write the sets among the cards named by ``tokens``."""
    cards = _parse(list(tokens), 0)
    out.write(_format(cards, find_sets(cards), as_json))


def solve_stream(stream: IO[str], as_json: bool, out: IO[str]) -> None:
    """Write the sets of each non-blank line of ``stream`` (a table, its cards
    separated by blanks), chunk by chunk, flushing after each; text answers are
    separated by a blank line. A bad line raises SolveError naming it, after the
    answers to the lines before it."""
    separator = "" if as_json else "\n"
    lead = ""  # what goes before the next answer: the separator once one is written
    number = 0
    for lines in _chunks(stream):
        tables: list[list[Card]] = []
        try:
            for line in lines:
                number += 1
                if tokens := line.split():
                    tables.append(_parse(tokens, number))
        finally:
            sets = find_sets_batch(tables)
            texts = [_format(t, s, as_json) for t, s in zip(tables, sets, strict=True)]
            if texts:
                out.write(lead + separator.join(texts))
                out.flush()
                lead = separator


def _chunks(stream: IO[str]) -> Iterator[list[str]]:
    """The whole lines of ``stream``, in lists of those that have arrived together."""
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
            lines = (rest + data[:cut]).split("\n")
            lines.pop()
            rest = data[cut:]
            yield lines
        if len(rest) > MAX_LINE:
            raise SolveError(f"a line longer than {MAX_LINE} characters: {rest[:40]!r}...")
    if rest:
        yield [rest]


def _parse(tokens: list[str], line: int) -> list[Card]:
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
        raise SolveError(f"line {line}: {error}" if line else str(error)) from None


def _format(cards: list[Card], sets: list[Triple], as_json: bool) -> str:
    if as_json:
        # The same text as json.dumps({"cards": ..., "sets": ...}), built from quoted names.
        listed = ", ".join(["[" + ", ".join(map(_QUOTED.__getitem__, s)) + "]" for s in sets])
        return f'{{"cards": [{", ".join(map(_QUOTED.__getitem__, cards))}], "sets": [{listed}]}}\n'
    noun = "set" if len(sets) == 1 else "sets"
    names = " ".join(map(_NAMES.__getitem__, cards))
    head = f"{len(sets)} {noun} among {len(cards)} cards: {names}"
    return "\n".join([head, *("  " + " ".join(map(_NAMES.__getitem__, s)) for s in sets)]) + "\n"
