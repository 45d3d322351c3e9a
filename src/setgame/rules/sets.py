"""What a set is (R03-R05): the set kind, the one judge of sets, and the classic functions.

The rule is in one place, :func:`third_table`: the card that completes a pair, value by
value the one that makes each attribute all same or all different (R03, R05). The set
kind (:class:`SetKind`, :data:`SET`) judges, finds, counts and explains through it on
every three-valued deck (the standard deck and Junior's: four attributes; MegaSet's:
five); the engine and every tool ask the variant's kind. The classic functions
(:func:`is_set`, :func:`third_card`, :func:`explain`, :func:`find_sets`, :func:`has_set`,
:func:`count_sets`) are the standard deck's side of that same kind: they ask :data:`SET`,
or are the fast paths :data:`SET` itself runs on the standard deck.

The finder looks up, for every pair of the given cards, the one card that
completes it (R05), and whether that card lies further along the table. For
tables of up to 45 cards the whole pair matrix is built in a few C-level
calls (``bytes.translate`` with one 256-byte row per card, then a
position table from ``bytes.maketrans``) and compared against the pair
positions bytewise inside one Python int, so a 12-card table costs a dozen
calls instead of 66 Python-level lookups (or 220 triple checks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import Final

from setgame.rules.cards import ATTRIBUTE_NAMES, VALUE_NAMES, Card, CardError, card_name
from setgame.rules.decks import STANDARD, Deck
from setgame.rules.flaws import Flaw as AnyFlaw
from setgame.rules.flaws import SetFlaw
from setgame.rules.kind import Group, Kind

Triple = tuple[Card, Card, Card]


@cache
def third_table(width: int) -> bytes:
    """``third_table(w)[a * 3**w + b]`` completes a and b to a set, on a three-valued deck
    of ``w`` attributes (at most 5, so that a card fits in a byte; a == b gives a).

    R03 attribute by attribute: the value that makes three all same or all different is
    -(x + y) mod 3. The first attribute (the highest base-3 digit) is settled so, and the
    others are the table of one attribute fewer: each row of it is copied with the first
    attribute's part added by one C-level ``bytes.translate`` (the table is made at import).
    """
    if not 1 <= width <= 5:
        raise ValueError(f"three-valued decks have 1 to 5 attributes, not {width!r}")
    if width == 1:
        return bytes(-(x + y) % 3 for x in range(3) for y in range(3))
    rest, span = third_table(width - 1), 3 ** (width - 1)
    plus = [bytes((byte + value * span) % 256 for byte in range(256)) for value in range(3)]
    rows = []
    for a in range(3 * span):
        first_a, rest_a = divmod(a, span)
        row = rest[rest_a * span : (rest_a + 1) * span]
        rows += [row.translate(plus[-(first_a + first_b) % 3]) for first_b in range(3)]
    return b"".join(rows)


def _third(a: int, b: int, width: int = 4) -> int:
    """The card completing ``a`` and ``b`` on a deck of ``width`` attributes."""
    return third_table(width)[a * int(3**width) + b]


#: THIRD[a * 81 + b] is the card that makes a set with a and b on the standard deck.
THIRD: Final = third_table(4)


def _check(card: object) -> Card:
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 81:
        raise CardError(f"not a card number (0-80): {card!r}")
    return card


#: ROWS[a] maps each card b to third(a, b) as a bytes.translate table; a itself
#: maps to 81, which is no card, so a pair of equal cards never completes.
ROWS: Final = tuple(
    bytes(81 if b == a else THIRD[a * 81 + b] if b < 81 else b for b in range(256))
    for a in range(81)
)
#: Position k of a card on the table is coded as the byte 82 + k (above every card).
_CODES: Final = bytes(range(82, 127))
_MAX_PACKED: Final = len(_CODES)
_NOT_CARDS: Final = bytes(range(81, 256))


@cache
def _limits(n: int) -> tuple[int, int]:
    """The high bit of every byte of an n*n matrix, and per pair (i, j) the least
    code of a third card that lies after j (127, above every code, when i >= j)."""
    high = int.from_bytes(b"\x80" * (n * n), "little")
    least = bytes(83 + j if i < j else 127 for i in range(n) for j in range(n))
    return high, int.from_bytes(least, "little")


def _as_bytes(cards: Sequence[Card]) -> bytes:
    try:
        packed = bytes(cards)
    except (TypeError, ValueError):
        packed = b""
    if len(packed) != len(cards) or packed.translate(None, _NOT_CARDS) != packed:
        for card in cards:
            _check(card)
    return packed


def _hits(cards: Sequence[Card], packed: bytes) -> tuple[int, bytes]:
    """The pair matrix of a table of at most 45 cards: an int with the high bit of
    byte i * n + j set when the pair (i, j) completes to a card after j, and the
    coded thirds (82 + the third card's position, or a card not on the table)."""
    n = len(packed)
    rows = itemgetter(*cards)(ROWS) if n > 1 else ()
    # thirds[i * n + j] codes where third(cards[i], cards[j]) lies: 82 + its position,
    # or the card itself (<= 81) when it is not on the table.
    thirds = b"".join(map(packed.translate, rows)).translate(bytes.maketrans(packed, _CODES[:n]))
    high, least = _limits(n)
    # Bytewise "thirds >= least" for all pairs at once; no byte borrows from the next.
    return ((int.from_bytes(thirds, "little") | high) - least) & high, thirds


def _sets_packed(cards: Sequence[Card], packed: bytes) -> list[Triple]:
    n = len(packed)
    hits, thirds = _hits(cards, packed)
    found = []
    while hits:
        low = hits & -hits
        i, j = divmod((low.bit_length() - 1) >> 3, n)
        found.append((cards[i], cards[j], cards[thirds[i * n + j] - 82]))
        hits ^= low
    return found


def _sets_looped(cards: Sequence[Card]) -> Iterator[Triple]:
    position = {card: i for i, card in enumerate(cards)}
    n = len(cards)
    for i in range(n - 2):
        row = ROWS[cards[i]]
        for j in range(i + 1, n - 1):
            k = position.get(row[cards[j]], -1)
            if k > j:
                yield (cards[i], cards[j], cards[k])


def iter_sets(cards: Sequence[Card]) -> Iterator[Triple]:
    """Each set among ``cards`` once, its cards in the order they stand in ``cards``.

    Sets come in the order of their first two cards' positions.
    """
    packed = _as_bytes(cards)
    if len(cards) <= _MAX_PACKED:
        return iter(_sets_packed(cards, packed))
    return _sets_looped(cards)


def find_sets(cards: Iterable[Card]) -> list[Triple]:
    """Every set among ``cards``, as 3-tuples of those cards in their given order.

    >>> from setgame import parse_cards, find_sets, card_names
    >>> [card_names(s) for s in find_sets(parse_cards("1RSD 2RSD 3RSD 1GTO".split()))]
    [['1RSD', '2RSD', '3RSD']]
    """
    cards = list(cards)
    packed = _as_bytes(cards)
    if len(cards) <= _MAX_PACKED:
        return _sets_packed(cards, packed)
    return list(_sets_looped(cards))


def has_set(cards: Iterable[Card]) -> bool:
    """Whether any set lies among ``cards``.

    It stops at the first card that is in a set: per card, two C-level calls
    find the thirds it makes with every card and whether any of them is on the
    table (no positions are needed to know that one is).
    """
    packed = _as_bytes(list(cards))
    for card in packed:
        thirds = packed.translate(ROWS[card])  # an equal card maps to 81: never on the table
        if len(thirds.translate(None, packed)) < len(thirds):
            return True
    return False


def count_sets(cards: Iterable[Card]) -> int:
    """How many sets lie among ``cards`` (the length of :func:`find_sets`), counted
    from the pair matrix's bits without building the sets."""
    cards = list(cards)
    packed = _as_bytes(cards)
    if len(cards) <= _MAX_PACKED:
        return _hits(cards, packed)[0].bit_count()
    return sum(1 for _ in _sets_looped(cards))


@dataclass(frozen=True, slots=True)
class Flaw:
    """One attribute on which three cards break the rule (R04): two of them share
    ``common`` and the third has ``odd``."""

    attribute: int
    common: int
    odd: int

    def text(self, lang: str = "en") -> str:
        """The flaw in words, in ``lang`` ("two are red, one is green"), as the words
        layer words it (:func:`word_flaws_with`)."""
        if _wording is None:
            raise RuntimeError("flaws are worded by setgame.words.i18n: import it first")
        return _wording(self, lang)

    def __str__(self) -> str:
        return self.text("en")

    @property
    def attribute_name(self) -> str:
        return ATTRIBUTE_NAMES[self.attribute]

    @property
    def common_name(self) -> str:
        return VALUE_NAMES[self.attribute][self.common]

    @property
    def odd_name(self) -> str:
        return VALUE_NAMES[self.attribute][self.odd]


#: How a flaw is put in words. The rules hold no words and import no module of the words
#: layer: ``setgame.words.i18n`` gives its ``flaw_text`` here when it is imported, which
#: ``import setgame`` (run before any ``setgame.rules`` module) does.
_wording: Callable[[Flaw, str], str] | None = None


def word_flaws_with(wording: Callable[[Flaw, str], str]) -> None:
    """Let :meth:`Flaw.text` (and ``str(flaw)``) word flaws with ``wording(flaw, lang)``."""
    global _wording
    _wording = wording


class SetKind(Kind):
    """Three cards, every attribute all same or all different (R03), on any three-valued
    deck: judged by :func:`third_table`, found on four attributes by the fast finder above
    (:func:`find_sets`, :func:`has_set`, :func:`count_sets`), on MegaSet's five by the
    whole pair matrix at once."""

    name = "set"

    def third(self, a: int, b: int, deck: Deck | None = None) -> int:
        """The card of ``deck`` that completes ``a`` and ``b`` to a set (R05)."""
        deck = deck or self.deck
        a, b = self._cards((a, b), deck)
        return third_table(deck.width)[a * deck.space + b]

    def count(self, table: Iterable[int], deck: Deck | None = None) -> int:
        deck = deck or self.deck
        cards = self._table(table, deck)
        return count_sets(cards) if deck.width == 4 else len(self._find(cards, deck))

    def has(self, table: Iterable[int], deck: Deck | None = None) -> bool:
        deck = deck or self.deck
        cards = self._table(table, deck)
        return has_set(cards) if deck.width == 4 else bool(self._find(cards, deck))

    def _is(self, cards: Group, deck: Deck) -> bool:
        a, b, c = cards
        return third_table(deck.width)[a * deck.space + b] == c

    def _find(self, cards: Group, deck: Deck) -> list[Group]:
        if deck.width == 4:  # the standard deck and Junior: the fast finder of R03-R05
            return list(find_sets(cards))
        return _find_wide(cards, deck)

    def _explain(self, cards: Group, deck: Deck) -> list[AnyFlaw]:
        flaws: list[AnyFlaw] = []
        for attr, values in enumerate(zip(*(deck.values(c) for c in cards), strict=True)):
            if len(set(values)) == 2:
                common = max(set(values), key=values.count)
                odd = next(v for v in values if v != common)
                flaws.append(SetFlaw(attr, common, odd))
        return flaws


def _find_wide(cards: Group, deck: Deck) -> list[Group]:
    """MegaSet's sets: the whole pair matrix at once (NumPy, imported only for it).
    thirds[i, j] completes cards i and j; where[t] is card t's position (-1: not there)."""
    import numpy as np

    table = np.frombuffer(third_table(deck.width), dtype=np.uint8)
    on_table = np.array(cards, dtype=np.intp)
    thirds = table[on_table[:, None] * deck.space + on_table[None, :]]
    where = np.full(deck.space, -1, dtype=np.intp)
    where[on_table] = np.arange(len(cards))
    k = where[thirds]
    i, j = np.nonzero(k > np.arange(len(cards))[None, :])
    keep = i < j
    return [
        (cards[a], cards[b], cards[c])
        for a, b, c in zip(i[keep].tolist(), j[keep].tolist(), k[i[keep], j[keep]].tolist(),
                           strict=True)
    ]


#: The set kind: the judge of sets for the engine, the tools and the functions below.
SET: Final = SetKind()


def is_set(a: Card, b: Card, c: Card) -> bool:
    """Whether three cards of the standard deck form a set: every attribute all same or all
    different (R03). The set kind judges (:data:`SET`)."""
    return SET.is_group((_check(a), _check(b), _check(c)), STANDARD)


def third_card(a: Card, b: Card) -> Card:
    """The one card that completes the two different cards ``a`` and ``b`` to a set (R05)."""
    if _check(a) == _check(b):
        raise CardError(f"two different cards make a pair, got {card_name(a)!r} twice")
    return SET.third(a, b, STANDARD)


def explain(a: Card, b: Card, c: Card) -> list[Flaw]:
    """Each attribute on which the three cards are not all same nor all different (R04),
    as the set kind explains it (:data:`SET`). An empty list means the cards form a set.

    >>> from setgame import parse_card, explain
    >>> [str(f) for f in explain(parse_card("1RSD"), parse_card("2RSD"), parse_card("3GSD"))]
    ['two are red, one is green']
    """
    cards = (_check(a), _check(b), _check(c))
    if len(set(cards)) < 3:
        raise CardError(f"three different cards are needed, got {[card_name(x) for x in cards]!r}")
    return [
        Flaw(f.attribute, f.common, f.odd)
        for f in SET.explain(cards, STANDARD)
        if isinstance(f, SetFlaw)  # the only flaw a set has
    ]
