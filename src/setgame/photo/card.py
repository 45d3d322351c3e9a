"""Reading one card, seen from above (:data:`SIZE`): its number, color, shading and shape.

The card's own white is the reference: each channel is scaled so that the card's paper
is neutral grey-white (a warm lamp or a cool shade changes the paper as much as the
ink). Ink is what has colour (Lab chroma) or is darker than the paper; the symbols are
the large regions of ink, their holes filled. Then:

- number: how many symbols of about the same size;
- color: the hue angle of the strongest ink in Lab (red, including a camera's orange,
  around +30 degrees; purple around -50; green around +150);
- shading: the depth inside the symbols at which the ink falls to half of the outline's
  is the outline's thickness; past it, how much of the ink's colour the inside holds
  (along the ink's own Lab direction): none (open), some (striped, also when the stripes
  blur into a pale fill); where the ink never falls, a full fill is solid and a lighter
  one, or one with fine detail beyond the noise (stripes still seen: blur weakens the
  thin outline more than the stripes inside it), or one whose fullest part holds less
  than the outline's strongest ink (stripes a moving camera spread into a pale fill: the
  outline's sides along the motion keep their ink), very dense stripes;
- shape: the silhouette's convexity (a squiggle has hollows) and how much of its
  rotated bounding box it fills (a diamond half of it; an oval most of it, its corners
  empty; a rectangle, which some printings draw for the diamond, all of it, corners too);
- whether it is a card at all: one to three symbols across most of its width, in its
  middle, on clean paper.

Each reading has a margin: how far its measure lies from the nearest boundary; the
card's confidence is made from the smallest of them.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Final

import cv2
import numpy as np
from numpy.typing import NDArray

#: The width and height a card is warped to (the proportions of 2 1/4 x 3 1/2 inches).
SIZE: Final = (180, 280)
#: The share of the card's width cut off each side before looking for symbols (the card's
#: edge and the table beyond a loose outline).
INSET: Final = 0.06
#: Fine detail inside a symbol beyond the noise (against the outline's ink: its root mean
#: square and its typical size, :func:`_ripple`) above both of which a fill that never
#: falls is stripes, not solid.
RIPPLE: Final = (0.058, 0.03)
#: A fill that never falls is solid only if its fullest part (:func:`_peak`) holds at
#: least this share of the outline's strongest ink (its 97th percentile): a made-up solid
#: fill holds 0.90 of it at least (609 such cards of the harder tuning photos), a real one
#: 0.83 (a phone's sharpening darkens a symbol's edge; crops ``_00``-``_19``); stripes a
#: motion blur spread into a pale fill read solid held 0.56-0.81.
HELD: Final = 0.78
#: How sure a reading of symbols that are never whole (pieces of outline) or still run
#: together is at most: below
#: what a card proposed beside another must reach (:data:`setgame.photo.grid.SURE`).
BROKEN: Final = 0.6
#: The distance between two symbols' centres on a card over a symbol's length (28 and 54
#: units of the printed card).
PITCH: Final = 28 / 54
#: A symbol washed out by glare leaves a trace: ink above this share of the strongest (and
#: above the paper's noise, :data:`FAINT` levels) within a few pixels of at least
#: :data:`TRACED` of the outline of the symbol moved to where it is missing.
TRACE: Final = 0.1
FAINT: Final = 8.0
TRACED: Final = 0.6
#: At most this share of the ink may lie off the symbols of a card whose symbols are never
#: whole (:func:`plausible`).
LOOSE: Final = 0.05
#: A card's symbols lie :data:`PITCH` of their length apart (0.49-0.55 measured, 191 cards
#: of two on the tuning photos): two symbols this many times their length apart or more
#: are two cards' (an outline over two cards laid edge to edge, each of one symbol).
APART: Final = 0.75
#: A card's three symbols are evenly spaced: the larger gap between two neighbours' middles
#: is at most this many times the smaller (1.11 at most on the tuning photos' cards;
#: halves of two cards read across, or a symbol and two pieces, are far from it).
UNEVEN: Final = 1.35


@dataclass(frozen=True)
class CardReading:
    """The values (0-2 each, in the notation's order) and how sure each is (0-1)."""

    number: int
    color: int
    shading: int
    shape: int
    sureness: tuple[float, float, float, float]
    #: Per attribute, the value across the nearest boundary (the second guess).
    others: tuple[int, int, int, int] = (0, 0, 0, 0)
    #: Whether the symbols keep clear of the card's ends (else this may be a part of a
    #: card, or a loose outline with the table in it: of overlapping outlines, a whole
    #: card's wins).
    whole: bool = True

    @property
    def values(self) -> tuple[int, int, int, int]:
        return (self.number, self.color, self.shading, self.shape)

    @property
    def confidence(self) -> float:
        return float(min(self.sureness))


def balanced(card: NDArray[Any]) -> NDArray[Any]:
    """The card with its paper made neutral: each channel scaled so that the paper reaches
    235. The paper is the pixels whose darkest channel is among the brightest (ink is dark
    in at least one channel, even a light red or green), their median per channel."""
    pixels = card.reshape(-1, 3)
    darkest = pixels.min(axis=1)
    paper = pixels[darkest >= np.percentile(darkest, 80)]
    white = np.median(paper, axis=0).astype(np.float32)
    gain = 235.0 / np.maximum(white, 20.0)
    result: NDArray[Any] = np.clip(card.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    return result


def ink_map(card: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Per pixel, how much ink it holds (chroma, and darkness against the paper nearby), and
    the Lab image (float, a and b centred on 0).

    The paper's lightness is taken around each pixel (the grey, colourless pixels, blurred
    wide): a shadow across the card or light falling off towards one end darkens the paper
    as much as the ink, and must not read as ink."""
    lab = cv2.cvtColor(card, cv2.COLOR_RGB2LAB).astype(np.float32)
    lab[:, :, 1:] -= 128.0
    light = lab[:, :, 0]
    chroma = np.hypot(lab[:, :, 1], lab[:, :, 2])
    paper = (chroma < 12).astype(np.float32)
    sigma = SIZE[0] / 10
    weight = cv2.GaussianBlur(paper, (0, 0), sigma)
    around = cv2.GaussianBlur(light * paper, (0, 0), sigma) / np.maximum(weight, 1e-3)
    fallback = float(np.percentile(light, 75))
    around = np.where(weight > 0.05, around, fallback)
    dark = np.maximum(around - light, 0.0)
    return np.maximum(chroma, dark * 0.6).astype(np.float32), lab


def measure(card: NDArray[Any]) -> dict[str, Any] | None:
    """The measures a card is read from (see the module docstring), or None when there is
    no ink of symbols on it."""
    card = balanced(cv2.resize(card, SIZE, interpolation=cv2.INTER_AREA))
    ink, lab = ink_map(card)
    inset = round(INSET * SIZE[0])
    inner = np.zeros(ink.shape, np.uint8)
    inner[inset:-inset, inset:-inset] = 1
    strong = float(np.percentile(ink[inner > 0], 99))
    if strong < 18:
        return None  # no ink at all: a blank sheet of paper
    raw, mask, symbols = _regions(ink, inner, strong)
    if symbols and _merged(symbols):
        raw, symbols = _split(ink, inner, strong, raw, symbols)
    if symbols and _merged(symbols):
        raw, symbols = _cut(mask, raw, symbols)
    if not symbols:
        return None
    areas = [cv2.contourArea(c) for c in symbols]
    alike = [a for a in areas if a >= 0.5 * areas[0]]
    kept = symbols[: len(alike)]
    silhouette = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(silhouette, kept, -1, 255, cv2.FILLED)
    trace = _trace(ink, strong, kept, silhouette)
    seen = kept + ([trace] if trace is not None else [])  # a washed-out symbol counts
    if trace is not None:  # pieces of the washed-out symbol are no other symbol
        areas = [a for a, c in zip(areas, symbols, strict=True)
                 if a >= 0.5 * areas[0] or not _within(c, trace)]  # fmt: skip
    return {
        "areas": [a / areas[0] for a in areas],
        "count": len(alike) + (trace is not None),
        "traced": float(trace is not None),
        "uneven": _uneven(kept),
        "apart": _apart(seen),
        # symbols never whole, or still run together, are not read surely
        "whole": _whole(kept) and not _merged(kept),
        **_layout(seen, raw, silhouette, inner),
        **_hue(lab, ink, silhouette),
        **_fill(ink, lab, silhouette, inner),
        **_outline(kept),
    }


def _trace(ink: NDArray[Any], strong: float, kept: list[NDArray[Any]],
           silhouette: NDArray[Any]) -> NDArray[Any] | None:  # fmt: skip
    """The outline of a symbol missing from ``kept`` (one or two symbols read), where glare
    washed it out: a card's symbols are evenly spaced (:data:`PITCH`) about its middle,
    so one or two symbols off the middle by half a pitch, or two a double pitch apart,
    leave a gap where one is missing; the nearest symbol moved there must lie clear of the
    others (``silhouette``) and find a trace of ink along its outline (:data:`TRACE`), not
    the blur around the others. None when no gap holds one."""
    if not 1 <= len(kept) <= 2 or not _whole(kept):
        return None
    middles = sorted(_middle(c) for c in kept)
    pitch = PITCH * cv2.boundingRect(kept[0])[2]  # symbols lie across the card
    if len(kept) == 1:
        gaps = [middles[0] - pitch, middles[0] + pitch]
    elif 1.75 * pitch <= middles[1] - middles[0] <= 2.3 * pitch:
        gaps = [(middles[0] + middles[1]) / 2]
    elif 0.8 * pitch <= middles[1] - middles[0] <= 1.25 * pitch:
        gaps = [middles[0] - pitch, middles[1] + pitch]
    else:
        return None
    height = SIZE[1]
    apart = cv2.dilate(silhouette, np.ones((11, 11), np.uint8)) == 0
    faint = cv2.dilate(((ink > max(FAINT, TRACE * strong)) & apart).astype(np.uint8),
                       np.ones((7, 7), np.uint8))  # fmt: skip
    for gap in gaps:
        centres = [*middles, gap]
        # the symbols with the missing one are about the card's middle
        if abs((min(centres) + max(centres)) / 2 - height / 2) > 0.25 * pitch:
            continue
        nearest = min(kept, key=lambda c: abs(_middle(c) - gap))
        moved = nearest + np.array([0, round(gap - _middle(nearest))], np.int32)
        top, bottom = moved[:, 0, 1].min(), moved[:, 0, 1].max()
        inset = round(INSET * SIZE[0])
        if top < inset or bottom >= height - inset:
            continue
        place = np.zeros(silhouette.shape, np.uint8)
        cv2.drawContours(place, [moved], -1, 1, cv2.FILLED)
        if np.count_nonzero(place & (silhouette > 0)) > 0.05 * np.count_nonzero(place):
            continue  # no room there for a symbol
        points = moved[:, 0]
        if float(np.mean(faint[points[:, 1], points[:, 0]])) >= TRACED:
            return moved
    return None


def _uneven(symbols: list[NDArray[Any]]) -> float:
    """How unevenly three symbols are spaced along the line they stand on (down the card,
    or across it on a card read sideways): the larger gap between two neighbours'
    middles over the smaller (1 for one or two symbols)."""
    if len(symbols) != 3:
        return 1.0
    middles = np.array([[x + w / 2, y + h / 2] for x, y, w, h in map(cv2.boundingRect, symbols)])
    pairs = [(i, j) for i in range(3) for j in range(i + 1, 3)]
    i, j = max(pairs, key=lambda p: float(np.linalg.norm(middles[p[1]] - middles[p[0]])))
    line = (middles[j] - middles[i]) / max(float(np.linalg.norm(middles[j] - middles[i])), 1.0)
    along = sorted(float(v) for v in middles @ line)
    gaps = (along[1] - along[0], along[2] - along[1])
    return max(gaps) / max(min(gaps), 1.0)


def _apart(symbols: list[NDArray[Any]]) -> float:
    """How far apart neighbouring symbols lie down the card: the largest step between two
    middles over the symbols' length (across the card); 0 for one symbol."""
    if len(symbols) < 2:
        return 0.0
    middles = sorted(_middle(c) for c in symbols)
    length = float(np.median([cv2.boundingRect(c)[2] for c in symbols]))
    return max(b - a for a, b in itertools.pairwise(middles)) / max(length, 1.0)


def _middle(contour: NDArray[Any]) -> float:
    """The middle of a symbol's outline down the card (pixels)."""
    _, y, _, h = cv2.boundingRect(contour)
    return y + h / 2


def _within(piece: NDArray[Any], outline: NDArray[Any]) -> bool:
    """Whether the middle of ``piece`` lies inside ``outline``."""
    x, y, w, h = cv2.boundingRect(piece)
    return cv2.pointPolygonTest(outline, (x + w / 2, y + h / 2), False) >= 0


def _regions(ink: NDArray[Any], inner: NDArray[Any],
             strong: float) -> tuple[NDArray[Any], NDArray[Any], list[NDArray[Any]]]:  # fmt: skip
    """The ink above a share of the strongest (``raw``), closed (``mask``), and the symbols'
    outlines in it. An outline broken by glare or blur is closed by a larger kernel until
    the symbols are whole; one that a moving camera smeared along its own length (its
    edges across the motion keep their ink, those along it fade) by a lower threshold."""
    first = None
    for share in (0.3, 0.2):
        raw = ((ink > max(12.0, strong * share)) & (inner > 0)).astype(np.uint8) * 255
        for size in (3, 7, 11):
            mask = cv2.morphologyEx(raw, cv2.MORPH_CLOSE, np.ones((size, size), np.uint8))
            symbols = _symbols(mask)
            # the lower threshold runs symbols together more: only parted ones are taken
            if _whole(symbols) and (share == 0.3 or not _merged(symbols)):
                return raw, mask, symbols
            first = first or (raw, mask, symbols)
    assert first is not None
    return first


def plausible(measures: dict[str, Any]) -> bool:
    """Whether the measures are a SET card's: one to three symbols across most of the
    card's width, in its middle, on clean paper (a box's lid, a patterned cloth, a printed
    page or a hand fail one of these); symbols never whole (pieces of ink) only with
    little ink off them (:data:`LOOSE`) and none at the card's ends: a band of a striped
    cloth between two cards, or halves of two cards, has pieces of symbols and more;
    three symbols evenly spaced (:data:`UNEVEN`)."""
    return bool(
        measures["count"] <= 3
        and 0.4 <= measures["span"] <= 1.0
        and measures["offset"] < 0.35
        and measures["stray"] < 0.3
        and (measures["whole"] or (measures["loose"] <= LOOSE and not measures["cut"]))
        and measures["uneven"] <= UNEVEN
        and measures["apart"] <= APART
    )


def read_card(card: NDArray[Any]) -> CardReading | None:
    """The reading of a card seen from above (RGB, any size: it is resized to
    :data:`SIZE`), or None when it does not look like a SET card."""
    return reading_of(measure(card))


def reading_of(measures: dict[str, Any] | None) -> CardReading | None:
    """The reading from a card's measures (:func:`measure`), or None when they are not a
    SET card's."""
    if measures is None or not plausible(measures):
        return None
    n, c, s, h = (_number(measures["areas"], bool(measures.get("traced"))),
                  _color(measures["angle"]), _shading(measures), _shape(measures))  # fmt: skip
    # symbols never whole (an open outline cut by a loose outline's side, or broken by
    # glare or blur) read as pieces of line, and symbols still run together (or a card
    # read sideways, its symbols standing side by side) as one: nothing about them is sure
    most = 1.0 if measures["whole"] else BROKEN
    sureness = (min(n[1], most), min(c[1], most), min(s[1], most), min(h[1], most))
    return CardReading(n[0], c[0], s[0], h[0], sureness, (n[2], c[2], s[2], h[2]),
                       not measures["cut"])  # fmt: skip


def _ring() -> NDArray[Any]:
    """Every other pixel (each way) of a card's border, 2-9% of its width in from its edge
    (a sample: the border's colour needs no more, and it is read for every outline)."""
    width, height = SIZE
    outer, inner = round(0.02 * width), round(0.09 * width)
    ring = np.zeros((height, width), bool)
    ring[outer:height - outer:2, outer:width - outer:2] = True
    ring[inner:height - inner, inner:width - inner] = False
    return ring


_RING: Final = _ring()


def border(card: NDArray[Any]) -> tuple[NDArray[Any], float]:
    """The colour of a card's border (2-9% of its width in from its edge; ``card`` at
    :data:`SIZE`; its brighter part) and the share of the border near its median (within
    20 levels in every channel): a card's border is plain paper, a symbol's or two cards'
    outline's is not."""
    pixels = card[_RING].astype(np.float32)
    middle = np.median(pixels, axis=0)
    near = np.abs(pixels - middle).max(axis=1) <= 20
    # the paper's colour: the brighter part of the border (a loose outline takes in a strip
    # of table along it)
    return np.percentile(pixels, 80, axis=0), float(np.mean(near))


def _whole(symbols: list[NDArray[Any]]) -> bool:
    """Whether these look like whole symbols: one to three of about one size, each filling
    most of its hull (a broken outline gives pieces of line, which fill little of theirs)."""
    if not symbols:
        return False
    largest = cv2.contourArea(symbols[0])
    alike = [c for c in symbols if cv2.contourArea(c) >= 0.5 * largest]
    return len(alike) <= 3 and all(
        cv2.contourArea(c) >= 0.7 * cv2.contourArea(cv2.convexHull(c)) for c in alike
    )


def _merged(symbols: list[NDArray[Any]]) -> bool:
    """Whether symbols seem run together (a blurred or moving camera fills the gap between
    them): a symbol is about 2.5 times as long as it is wide, and shorter than the card is
    wide; two run together are squarer, three longer."""
    largest = cv2.contourArea(symbols[0])
    for contour in symbols:
        if cv2.contourArea(contour) < 0.5 * largest:
            continue
        w, h = cv2.minAreaRect(contour)[1]
        if max(w, h) < 1.7 * max(min(w, h), 1.0) or max(w, h) > 0.98 * SIZE[0]:
            return True
    return False


def _split(ink: NDArray[Any], inner: NDArray[Any], strong: float, raw: NDArray[Any],
           symbols: list[NDArray[Any]]) -> tuple[NDArray[Any], list[NDArray[Any]]]:  # fmt: skip
    """Symbols run together parted by a higher ink threshold (the blur between them is
    fainter than the symbols' own ink), if one parts them; else as they were."""
    for share in (0.5, 0.65, 0.8):
        higher = ((ink > strong * share) & (inner > 0)).astype(np.uint8) * 255
        for size in (3, 7):  # open symbols' outlines, fainter, may need closing
            mask = cv2.morphologyEx(higher, cv2.MORPH_CLOSE, np.ones((size, size), np.uint8))
            parted = _symbols(mask)
            if len(parted) > 1 and _whole(parted) and not _merged(parted) and _spans(
                    parted, symbols):  # fmt: skip
                return higher, parted
    return raw, symbols


def _spans(parted: list[NDArray[Any]], symbols: list[NDArray[Any]]) -> bool:
    """Whether the symbols parted (those of about the largest one's size) still reach
    from one end of the symbols run together to the other, down the card (a higher
    threshold may part two and lose the third, whose fainter outline breaks up)."""
    def rows(contours: list[NDArray[Any]]) -> tuple[float, float]:
        points = np.concatenate([c.reshape(-1, 2) for c in contours])
        return float(points[:, 1].min()), float(points[:, 1].max())

    largest = cv2.contourArea(parted[0])
    top, bottom = rows([c for c in parted if cv2.contourArea(c) >= 0.5 * largest])
    first, last = rows(symbols)
    return top - first + last - bottom < 0.25 * (last - first)


def _cut(mask: NDArray[Any], raw: NDArray[Any],
         symbols: list[NDArray[Any]]) -> tuple[NDArray[Any], list[NDArray[Any]]]:  # fmt: skip
    """Symbols run together that no threshold parts (open outlines that touch, a wide
    smear) cut apart where they must meet: a card's symbols are alike and evenly spaced,
    each about 0.41 as tall as it is long and 0.52 of its length from the next, so a
    region as tall as k of them is cut into k equal bands, if it narrows where they meet;
    else as they were."""
    cut, ink = mask.copy(), raw.copy()
    for contour in symbols:
        x, y, w, h = cv2.boundingRect(contour)
        ratio = h / max(w, 1)
        count = 1 if ratio < 0.67 else 2 if ratio < 1.19 else 3
        filled = np.zeros((h, w), np.uint8)
        cv2.drawContours(filled, [contour], -1, 1, cv2.FILLED, offset=(-x, -y))
        widths = filled.sum(axis=1)
        for i in range(1, count):
            row = round(i * h / count)
            # symbols meet at a waist (rounded or pointed ends); a region as wide there
            # as anywhere is one thing (a symbol's own outline taken for a card's)
            if widths[max(row - 3, 0):row + 4].min() > 0.85 * widths.max():
                return raw, symbols
            cut[y + row - 1:y + row + 2, x:x + w] = 0
            ink[y + row - 1:y + row + 2, x:x + w] = 0
    parted = _symbols(cut)
    areas = [cv2.contourArea(c) for c in parted]
    # a card's symbols are alike: the pieces cut must be of about one size
    if len(parted) > len(symbols) and _whole(parted) and not _merged(parted) \
            and areas[-1] >= 0.6 * areas[0]:  # fmt: skip
        return ink, parted
    return raw, symbols


def _symbols(mask: NDArray[Any]) -> list[NDArray[Any]]:
    """The outer outlines of the ink regions large enough to be symbols, largest first."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    least = 0.02 * SIZE[0] * SIZE[1]
    big = [c for c in contours if cv2.contourArea(c) >= least]
    return sorted(big, key=cv2.contourArea, reverse=True)


#: A reading of one attribute: the value, how sure (0.5-1), the second guess.
Read = tuple[int, float, int]


def _number(areas: list[float], traced: bool = False) -> Read:
    """How many symbols (0-2 for one to three) of about the largest one's size (``areas``:
    each region's area over the largest's, largest first), one more when the trace of a
    washed-out one was found (``traced``)."""
    alike = [a for a in areas if a >= 0.5]
    nearest_other = max(areas[len(alike):], default=0.0)
    fewer, more = min(alike) - 0.5, 0.5 - nearest_other
    value = len(alike) - 1 + traced
    other = value - 1 if (fewer < more and value > 0) or value == 2 else value + 1
    return value, _sure(min(fewer, more), 0.3), other


def _hue(lab: NDArray[Any], ink: NDArray[Any], silhouette: NDArray[Any]) -> dict[str, float]:
    """The hue angle (degrees, Lab a-b plane), chroma and lightness of the strongest ink."""
    inside = silhouette > 0
    cut = np.percentile(ink[inside], 70)
    chosen = inside & (ink >= cut)
    a = float(np.mean(lab[:, :, 1][chosen]))
    b = float(np.mean(lab[:, :, 2][chosen]))
    return {"angle": math.degrees(math.atan2(b, a)), "chroma": math.hypot(a, b),
            "lightness": float(np.mean(lab[:, :, 0][chosen]))}  # fmt: skip


def _layout(symbols: list[NDArray[Any]], raw: NDArray[Any], silhouette: NDArray[Any],
            inner: NDArray[Any]) -> dict[str, float]:  # fmt: skip
    """Whether this looks like a SET card at all: ``stray``, the share of the paper around
    the symbols that holds ink (a pattern, print, a photo); ``offset``, how far the symbols'
    middle lies from the card's (in card widths; ``dx`` and ``dy``, in pixels); ``span``,
    the symbols' long side over the card's width; ``cut``, whether the symbols run into the
    card's ends; ``across``, how far the symbols spread across the card's width (they stand
    one above the other, so little) in card widths; ``loose``, the share of the ink that
    lies off the symbols."""
    size = max(3, round(0.05 * SIZE[0])) | 1
    paper = (cv2.dilate(silhouette, np.ones((size, size), np.uint8)) == 0) & (inner > 0)
    astray = np.count_nonzero(raw[paper])
    stray = float(astray) / max(int(np.count_nonzero(paper)), 1)
    loose = float(astray) / max(int(np.count_nonzero(raw[inner > 0])), 1)
    points = np.concatenate([c.reshape(-1, 2) for c in symbols]).astype(np.float32)
    low, high = points.min(axis=0), points.max(axis=0)
    middle = (low + high) / 2 - np.array([SIZE[0], SIZE[1]], np.float32) / 2
    spans = [max(cv2.minAreaRect(c)[1]) for c in symbols]
    # a card's symbols keep a tenth of its height from its ends; ink cut off by the end
    # of the part looked at is a part of a card, or symbols of two
    inset = round(INSET * SIZE[0])
    ends = np.concatenate([raw[inset:inset + 3], raw[SIZE[1] - inset - 3:SIZE[1] - inset]])
    cut = np.count_nonzero(ends) > 0.3 * SIZE[0]
    return {"stray": stray, "loose": loose, "cut": float(cut),
            "offset": float(np.hypot(*middle)) / SIZE[0],
            "dx": float(middle[0]), "dy": float(middle[1]),
            "span": float(np.median(spans)) / SIZE[0],
            "across": float(high[0] - low[0]) / SIZE[0]}  # fmt: skip


def _fill(ink: NDArray[Any], lab: NDArray[Any], silhouette: NDArray[Any],
          inner: NDArray[Any]) -> dict[str, float]:  # fmt: skip
    """How much of the ink's colour the inside of the symbols holds (their outline worn
    away), against the paper around them (0) and the outline (1): ``fill`` by the ink
    measure, ``tint`` by the Lab colour along the ink's own direction (noise of other
    hues cancels out)."""
    size = max(3, round(0.05 * SIZE[0])) | 1
    depth = cv2.distanceTransform(silhouette, cv2.DIST_L2, 3)
    stroke = _stroke(ink, depth)
    # no fall inside: solid, or stripes so dense that they hold more than half the ink; the
    # inner part of the symbols tells them apart
    core = depth > (stroke * 1.4 + 1.5 if stroke is not None else max(2.0, 0.3 * depth.max()))
    if not core.any():  # thin symbols with a thick outline: their middle line
        core = depth >= 0.6 * depth.max()
    rim = (depth > 0) & (depth <= 2.5)
    paper = (cv2.dilate(silhouette, np.ones((size, size), np.uint8)) == 0) & (inner > 0)
    if not core.any() or not rim.any() or not paper.any():
        return {"fill": 1.0, "tint": 1.0, "grain": 0.0, "fell": float(stroke is not None),
                "ripple": 0.0, "ripple_typical": 0.0, "peak": 1.0, "held": 1.0}
    edge = float(np.percentile(ink[rim], 90))
    base = float(np.mean(ink[paper]))
    scale = max(edge - base, 1.0)  # the outline's ink above the paper: the unit of all below
    fill = (float(np.mean(ink[core])) - base) / scale
    strong = rim & (ink >= np.percentile(ink[rim], 75))
    colour = np.array([lab[:, :, i][strong].mean() for i in range(3)])
    white = np.array([lab[:, :, i][paper].mean() for i in range(3)])
    inside = np.array([lab[:, :, i][core].mean() for i in range(3)])
    span = colour - white
    tint = float((inside - white) @ span / max(float(span @ span), 1.0))
    # stripes still seen: the ink inside varies from line to line (a solid fill does not)
    grain = float(np.std(ink[core])) / scale
    peak = _peak(ink, core, base)
    # the outline's strongest ink: a motion blur fades the outline's sides across it,
    # not those along it, which keep the ink's full strength
    outline = float(np.percentile(ink[(depth > 0) & (depth <= 6)], 97)) - base
    return {"fill": fill, "tint": tint, "grain": grain, "fell": float(stroke is not None),
            **_ripple(ink, core, paper, scale), "peak": peak / scale,
            "held": peak / max(outline, 1.0)}  # fmt: skip


def _peak(ink: NDArray[Any], core: NDArray[Any], base: float) -> float:
    """The ink of the fullest part of the symbols' inside (its 90th percentile, smoothed
    over a few pixels: stripes average out), above the paper's: a glare that washes out
    part of a solid fill leaves the rest of it full."""
    return float(np.percentile(cv2.GaussianBlur(ink, (0, 0), 4.0)[core], 90)) - base


def _ripple(ink: NDArray[Any], core: NDArray[Any], paper: NDArray[Any],
            scale: float) -> dict[str, float]:  # fmt: skip
    """How much fine detail the inside of the symbols holds beyond the noise, in units of
    ``scale`` (the outline's ink): the ink's changes over a few pixels (the ink less its
    blur), their mean square inside less the paper's (noise, a JPEG's blocks: ``ripple``),
    and the same by the medians (stripes are everywhere inside; a shadow's edge across a
    symbol is a line of it: ``ripple_typical``). Stripes have both; a solid fill, a blurred
    edge's ramp and a glare's smooth wash have neither."""
    fine = np.square(ink - cv2.GaussianBlur(ink, (0, 0), 3.0))
    spread = float(np.mean(fine[core])) - float(np.mean(fine[paper]))
    typical = float(np.median(fine[core])) - float(np.median(fine[paper]))
    return {"ripple": math.sqrt(max(spread, 0.0)) / scale,
            "ripple_typical": math.sqrt(max(typical, 0.0)) / scale}  # fmt: skip


def _stroke(ink: NDArray[Any], depth: NDArray[Any]) -> float | None:
    """How thick the symbols' outline is (pixels): the depth inside the silhouette at which
    the ink first falls below half of the outline's; None when it never does (a solid
    symbol, or very dense stripes)."""
    deepest = int(depth.max())
    levels = np.minimum(depth, deepest + 1).astype(np.int32)
    sums = np.bincount(levels.ravel(), weights=ink.ravel(), minlength=deepest + 2)
    counts = np.bincount(levels.ravel(), minlength=deepest + 2)
    present = counts[1:] > 0  # depths no pixel has say nothing
    profile = sums[1:] / np.maximum(counts[1:], 1)
    top = float(profile[:3].max())
    low = np.nonzero((profile < 0.5 * top) & present)[0]
    return float(low[0]) if len(low) else None


def _outline(symbols: list[NDArray[Any]]) -> dict[str, float]:
    """The silhouettes' median solidity (area over convex hull), extent (area over the
    rotated bounding box) and corners (of a coarse polygon)."""
    solidity, extent, corners = [], [], []
    for contour in symbols:
        area = cv2.contourArea(contour)
        hull = cv2.contourArea(cv2.convexHull(contour))
        box = cv2.minAreaRect(contour)
        solidity.append(area / max(hull, 1.0))
        extent.append(area / max(box[1][0] * box[1][1], 1.0))
        corners.append(_corners_filled(contour, box))
    return {"solidity": float(np.median(solidity)), "extent": float(np.median(extent)),
            "corners": float(np.median(corners))}  # fmt: skip


def _corners_filled(contour: NDArray[Any], box: Any) -> float:
    """How much of the four corners of the symbol's rotated bounding box the symbol fills
    (a square of a fifth of its short side in each): a rectangle all, an oval or a diamond
    almost nothing."""
    (cx, cy), (w, h), angle = box
    side = 0.2 * min(w, h)
    if side < 1:
        return 0.0
    turn = np.radians(angle)
    axes = np.array([[np.cos(turn), np.sin(turn)], [-np.sin(turn), np.cos(turn)]])
    filled = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        for u in (0.25, 0.75):
            for v in (0.25, 0.75):  # four points inside each corner square
                dx = sx * (w / 2 - u * side)
                dy = sy * (h / 2 - v * side)
                x, y = np.array([cx, cy]) + dx * axes[0] + dy * axes[1]
                filled.append(cv2.pointPolygonTest(contour, (float(x), float(y)), False) >= 0)
    return float(np.mean(filled))


def _color(angle: float) -> Read:
    """Red (0), green (1) or purple (2) from the hue angle of the strongest ink."""
    # boundaries: purple | red at -12 degrees, red | green at 100, green | purple at -120;
    # each value's neighbours below and above
    bounds = {0: (-12.0, 100.0, 2, 1), 1: (100.0, 240.0, 0, 2), 2: (-120.0, -12.0, 1, 0)}
    for value, (low, high, below, above) in bounds.items():
        turned = angle if low <= angle < high else angle + 360
        if low <= turned < high:
            other = below if turned - low < high - turned else above
            return value, _sure(min(turned - low, high - turned), 25.0), other
    return 0, 0.5, 1


def _shading(measures: dict[str, Any]) -> Read:
    """Solid (0), striped (1) or open (2) from the ink inside the symbols: past the outline
    (where the ink fell), none is open and some is striped; where it never fell, a full
    fill without fine detail is solid and a lighter or a rippled one is very dense
    stripes."""
    tint = measures["tint"]
    if not measures["fell"]:
        # a blurred outline is weaker than the fill it holds, so a striped symbol's
        # inside can look as strong as a solid one's: stripes still seen (fine detail
        # beyond the noise) are striped whatever the tint; a glare's smooth wash over a
        # solid fill is no stripes
        seen = min(measures["ripple"] - RIPPLE[0], 2.0 * (measures["ripple_typical"] - RIPPLE[1]))
        # a glare washes out part of a solid fill: the rest of it is still full (a fill
        # far from full, with a full patch, is an open symbol with a neighbour's edge in it)
        full = max(tint, measures["peak"] - 0.1) if tint >= 0.6 else tint
        # stripes blurred past seeing into a pale fill: even its fullest part holds
        # less ink than the outline's sides along the motion (a solid fill, as much)
        score = min(full - 0.72, -2.0 * seen, 2.0 * (measures["held"] - HELD))
        if score >= 0:
            return 0, _sure(score, 0.1), 1
        return 1, _sure(-score, 0.1), 0
    stripes = tint + 0.5 * measures["grain"]  # a pale fill, or lines still seen
    if stripes <= 0.12:
        return 2, _sure(0.12 - stripes, 0.04), 1
    if tint < 0.75:
        return 1, _sure(min(stripes - 0.12, 0.75 - tint), 0.04), 2 if tint < 0.4 else 0
    return 0, _sure(tint - 0.75, 0.1), 1


def _shape(measures: dict[str, Any]) -> Read:
    """Diamond (0), oval (1) or squiggle (2) from the symbols' silhouettes."""
    s, e = measures["solidity"], measures["extent"]
    if s < 0.915:
        return 2, _sure(0.915 - s, 0.04), 1 if e >= 0.68 else 0
    if e < 0.68:
        return 0, _sure(0.68 - e, 0.08), 1 if 0.68 - e < s - 0.915 else 2
    if e >= 0.8 and measures["corners"] > 0.55:  # a rectangle: some printings' diamond
        return 0, _sure(measures["corners"] - 0.55, 0.2), 1
    margins = {2: s - 0.915, 0: e - 0.68, 3: 0.55 - measures["corners"]}
    nearest = min(margins, key=margins.__getitem__)
    return 1, _sure(margins[nearest], 0.04), 0 if nearest == 3 else nearest


def _sure(margin: float, scale: float) -> float:
    """0.5 at the boundary, towards 1 as the measure moves ``scale`` away from it."""
    return float(0.5 + 0.5 * math.tanh(max(margin, 0.0) / scale))
