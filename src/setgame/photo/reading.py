"""The reading of a photo: the cards found in it and the sets among them."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from setgame.photo.errors import MAX_BYTES, MAX_PIXELS, PhotoError
from setgame.rules.cards import card_name, make_card
from setgame.rules.sets import find_sets

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from setgame.photo.card import CardReading

    Placed = tuple[tuple[tuple[float, float], ...], CardReading]  # corners, reading


@dataclass(frozen=True)
class FoundCard:
    """A card found in the photo: its code (``"2RTD"``), its four corners (``[x, y]`` in
    the pixels of the photo as shown, at full size, clockwise from the card's top left) and
    how sure the reading of its values is (0-1)."""

    code: str
    corners: tuple[tuple[float, float], ...]
    confidence: float

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "confidence": round(self.confidence, 3),
        }


@dataclass(frozen=True)
class Reading:
    """What :func:`read_photo` saw: the cards, the sets among them (each three codes, by
    the rules' own judge), the size of the photo as shown and the seconds it took."""

    cards: list[FoundCard]
    sets: list[tuple[str, ...]]
    width: int
    height: int
    seconds: float = field(default=0.0, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` shape of issue 24: ``{"cards": [...], "sets": [...], "seconds"}``."""
        return {
            "cards": [card.to_json() for card in self.cards],
            "sets": [list(group) for group in self.sets],
            "seconds": round(self.seconds, 3),
        }


def sets_of(codes: list[str]) -> list[tuple[str, ...]]:
    """The sets among ``codes`` (a card read twice counts once)."""
    from setgame.rules.cards import parse_card

    distinct = list(dict.fromkeys(parse_card(code) for code in codes))
    return [tuple(card_name(c) for c in group) for group in find_sets(distinct)]


def read_photo(data: bytes | NDArray[Any], *, max_pixels: int = MAX_PIXELS,
               max_bytes: int = MAX_BYTES) -> Reading:  # fmt: skip
    """The cards in a photo and the sets among them.

    ``data`` is the bytes of a JPEG, PNG or WebP file (its header is checked against
    ``max_bytes`` and ``max_pixels`` before anything is decoded) or an RGB ``uint8`` array.
    Raises :class:`PhotoError` when it cannot be read.
    """
    start = time.perf_counter()
    from setgame.photo.decode import decode, from_array

    if isinstance(data, bytes | bytearray | memoryview):
        rgb, header = decode(bytes(data), max_pixels=max_pixels, max_bytes=max_bytes)
        width, height = header.width, header.height
    else:
        rgb = from_array(data)
        height, width = rgb.shape[:2]
        if width * height > max_pixels:
            raise PhotoError(
                "too_many_pixels",
                f"the image is {width} x {height} pixels (at most {max_pixels:,})",
                width=width, height=height, limit=max_pixels,
            )  # fmt: skip
    cards = find_cards(rgb, width / rgb.shape[1])
    codes = [card.code for card in cards]
    return Reading(cards, sets_of(codes), width, height, time.perf_counter() - start)


def find_cards(rgb: NDArray[Any], scale: float = 1.0) -> list[FoundCard]:
    """The cards in ``rgb`` read, their corners multiplied by ``scale`` (from ``rgb``'s
    pixels to the photo's), in reading order (top to bottom, then left to right)."""
    from setgame.photo.card import SIZE, border, read_card
    from setgame.photo.find import (
        SQUARISH,
        aspect,
        candidates,
        light_gains,
        overlapping,
        paper_like,  # fmt: skip
        searched,
        upright,
        warp,
    )
    from setgame.photo.grid import by_symbols, grow, split_blocks
    from setgame.photo.symbols import WEAK, inked, symbols_of

    small, search_scale = searched(rgb)  # outlines and symbols are looked for here
    found, blocks = candidates(small)
    gains = light_gains(rgb[::8, ::8])
    read: list[tuple[Any, CardReading]] = []
    plain: dict[int, bool] = {}  # by id of the quad: whether its border is plain paper
    for candidate in found:
        ways = (False, True) if aspect(candidate.quad) < SQUARISH else (False,)
        readings = []
        for turned in ways:  # a card seen very obliquely: which side is long is not sure
            quad = upright(candidate.quad * search_scale, turned)
            card = warp(rgb, quad, SIZE)
            reading = read_card(card)
            paper, even = border(card)
            if reading is not None and paper_like(paper, gains):  # not a coloured square
                readings.append((quad, reading))
                plain[id(quad)] = reading.whole and even >= 0.7
        if readings:
            read.append(max(readings, key=lambda pair: pair[1].confidence))
    # cards no mask outlined, or outlined askew (across two cards, a corner cut off): each
    # proposed around its symbols and held to a proposed neighbour's checks, a candidate
    # like the masks' outlines, and a plain one
    colours = inked(small)  # measured once for both looks for symbols
    marks = (symbols_of(colours), search_scale)
    whole = [pair for pair in read if plain[id(pair[0])]]
    for quad, reading in by_symbols(rgb, whole, gains, marks)[len(whole):]:
        read.append((quad, reading))
        plain[id(quad)] = True
    # Of outlines that overlap (a card and a symbol inside it, two cards taken as one
    # and each of them), the one whose border is plain paper and whose symbols keep clear
    # of its ends (a whole card's) stays, the surest of those; but two cards taken as one
    # give way to the two, each read by itself.
    kept: list[tuple[Any, CardReading]] = []

    def rank(pair: tuple[Any, CardReading]) -> tuple[bool, float]:
        return (not plain[id(pair[0])], -pair[1].confidence)

    for quad, reading in sorted(_without_unions(read), key=rank):
        if not any(overlapping(quad, other) for other, _ in kept):
            kept.append((quad, reading))
    kept = _of_a_cards_size(kept)
    kept = _unions_cut(rgb, kept, gains)
    kept = grow(rgb, kept, gains)  # cards touching those found, which no outline showed
    # blocks of cards with no seam seen, none of them found so far: cut into rows and columns
    grown = split_blocks(rgb, [quad * search_scale for quad in blocks], kept, gains)
    if len(grown) > len(kept):
        kept = grow(rgb, grown, gains)
    # cards whose outline no mask showed, none of their neighbours found: by their symbols,
    # their fainter ink too (a moving webcam's blur breaks an open outline into pieces;
    # only here: taken earlier, blobs of it would compete with the masks' outlines)
    seeded = by_symbols(rgb, kept, gains, (symbols_of(colours, WEAK), search_scale))
    if len(seeded) > len(kept):
        kept = grow(rgb, seeded, gains)
    placed = [(tuple((float(x) * scale, float(y) * scale) for x, y in quad), reading)
              for quad, reading in kept]  # fmt: skip
    return _in_reading_order(_distinct(placed))


def _of_a_cards_size(kept: list[tuple[Any, CardReading]]) -> list[tuple[Any, CardReading]]:
    """The readings without those of outlines under a quarter of the middle size read, or
    under 0.4 of it and read unsurely (below 0.6; with three or more read): the cards of
    one table differ in size by perspective alone, a few times at most; a speck read as a
    card is far smaller, and a cloth's blossom or stripe read as a card is smaller and
    unsure (its "symbols" are no card's)."""
    from setgame.photo.find import sizes

    if len(kept) < 3:
        return kept
    areas, middle = sizes([quad for quad, _ in kept])
    typical = middle or 0.0
    return [(quad, reading) for (quad, reading), area in zip(kept, areas, strict=True)
            if area >= 0.25 * typical
            and (area >= 0.4 * typical or reading.confidence >= 0.6)]  # fmt: skip


def _unions_cut(rgb: NDArray[Any], kept: list[tuple[Any, CardReading]],
                gains: NDArray[Any]) -> list[tuple[Any, CardReading]]:  # fmt: skip
    """The readings with an outline of 1.6 times the middle size or more (with three or
    more read) replaced by the cards it holds, when cutting it into rows and columns reads
    two or more holding as many symbols as it, or its symbols run into its ends (two or
    three cards edge to edge whose seams no mask saw, read as one card)."""
    from setgame.photo.find import sizes
    from setgame.photo.grid import split_blocks

    if len(kept) < 3:
        return kept
    areas, middle = sizes([quad for quad, _ in kept])
    typical = middle or 0.0
    for pair, area in zip(list(kept), areas, strict=True):
        if area < 1.6 * typical:
            continue
        others = [other for other in kept if other is not pair]
        parts = split_blocks(rgb, [pair[0]], others, gains)[len(others):]
        # the parts hold the symbols the outline held, or its symbols run into its ends
        # (no whole card's): a large card (the nearest of a phone held at a slant) cut in
        # two would count a symbol's halves twice
        symbols = sum(part.number + 1 for _, part in parts)
        if len(parts) >= 2 and (symbols == pair[1].number + 1 or not pair[1].whole):
            kept = others + parts
    return kept


#: An outline under this share of the size of one that holds it (no union of cards, and
#: under 0.75 / PART of the middle size) is a part of that card: a symbol's outline, or
#: a card's corner that a pale table or a cool light lets no mask close, which may read
#: as surely as the card (a third of it: seed 3004 of `9000K`).
PART: Final = 0.4


def _without_unions(read: list[tuple[Any, CardReading]]) -> list[tuple[Any, CardReading]]:
    """The readings without those of two or three cards taken as one (an outline holding
    two or three others read as cards, apart, each a quarter to 0.7 of its size: cards laid
    edge to edge), nor those of a part of a card (an outline under :data:`PART` of the
    size of one that holds it, is no union and is under 0.75 / :data:`PART` times the
    middle size read: a symbol's outline). Either may read as a card, and
    surely: two cards' symbols side by side, a symbol's stripes."""
    import cv2

    from setgame.photo.find import overlapping, sizes

    areas, middle = sizes([quad for quad, _ in read])

    def holds(i: int, j: int) -> bool:
        quad, other = read[i][0].reshape(-1, 1, 2).astype("float32"), read[j][0]
        return cv2.pointPolygonTest(quad, tuple(float(v) for v in other.mean(axis=0)),
                                    False) >= 0  # fmt: skip

    unions = set()
    for i in range(len(read)):
        inside = [j for j in range(len(read))
                  if j != i and 0.25 * areas[i] <= areas[j] <= 0.7 * areas[i] and holds(i, j)]
        apart = [j for j in inside
                 if not any(overlapping(read[j][0], read[k][0]) for k in inside if k != j)]
        if len(apart) >= 2:
            unions.add(i)
    typical = middle or 0.0
    parts = {i for i in range(len(read)) for j in range(len(read))
             if j not in unions and areas[i] < PART * areas[j] < 0.75 * typical
             and holds(j, i)}  # fmt: skip
    return [pair for i, pair in enumerate(read) if i not in unions | parts]


def _distinct(read: list[Placed]) -> list[FoundCard]:
    """The cards, each code once: a deck holds every card once, so of two cards read alike
    the less sure one is left out. (It took its second guess before: on the tuning photos
    seven of eight such were no card or a card misread, a band of a striped cloth read as
    the same card twice, a part of a card, whose second guess was right once.)"""
    taken: set[str] = set()
    cards = []
    for corners, reading in sorted(read, key=lambda pair: -pair[1].confidence):
        code = card_name(make_card(*reading.values))
        if code not in taken:
            taken.add(code)
            cards.append(FoundCard(code, corners, reading.confidence))
    return cards


def _in_reading_order(cards: list[FoundCard]) -> list[FoundCard]:
    """Rows of cards (centres within half a card's height of each other), top to bottom,
    each left to right."""
    def centre(card: FoundCard) -> tuple[float, float]:
        xs, ys = zip(*card.corners, strict=True)
        return sum(xs) / 4, sum(ys) / 4

    if not cards:
        return []
    heights = sorted(max(y for _, y in c.corners) - min(y for _, y in c.corners) for c in cards)
    step = heights[len(heights) // 2] / 2
    ordered = sorted(cards, key=lambda c: centre(c)[1])
    rows: list[list[FoundCard]] = [[ordered[0]]]
    for card in ordered[1:]:
        if centre(card)[1] - centre(rows[-1][0])[1] > step:
            rows.append([])
        rows[-1].append(card)
    return [card for row in rows for card in sorted(row, key=lambda c: centre(c)[0])]
