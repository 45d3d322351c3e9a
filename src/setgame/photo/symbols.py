"""Cards found by their symbols, where no outline showed them.

A card's outline can be lost in many ways: a block of touching cards broken by a hand or
shifted by overlaps, a cloth's white stripes running into the paper, a white table and a
moving webcam's blur, a hard shadow across the card. Its symbols are still there: blobs of
one strong ink on paper. A card's symbols are alike (one colour, one size, one way), lie
across the card, side by side along its length, :data:`PITCH` of a symbol's length apart
centre to centre, and the symbol's length is :data:`ACROSS` of the card's width. So the
symbols on no card found are grouped into cards (one to three alike, in a line across
them, that far apart), and each group proposes a card's outline around it, which is read
as a neighbour proposed by a card found is (:func:`setgame.photo.grid.place`: surely,
centred, a plain paper border, no seam across it), and then proposes its own neighbours.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Final

import cv2
import numpy as np
from numpy.typing import NDArray

from setgame.photo.find import CARD, clockwise, neutral

#: A symbol's length over the card's width (52 and 64 units of the printed card).
ACROSS: Final = 52 / 64
#: The distance between two symbols' centres on one card over a symbol's length (28 / 52).
PITCH: Final = 28 / 52
#: The outline proposed a little inside the card's edge: a symbol's measured length takes
#: in its stroke and blur (2% over, 4% for one symbol, on the development photos), and a
#: border that takes in the table at the rounded corners is refused.
SNUG: Final = 0.95
#: Ink: at least this Lab chroma (the symbols' inks are strong colours).
INK: Final = 30.0
#: Paper: at most this Lab chroma (and not dark: a hard shadow leaves it 0.4 of the
#: whitest's lightness at least).
PAPER: Final = 20.0
#: Fainter ink (this share of :data:`INK`) joined to a blob's strong ink is the blob's,
#: in the last look for cards by their symbols (:func:`symbols`): a moving webcam's blur.
WEAK: Final = 0.5
#: Two alike symbols in a line further apart than this many times :data:`PITCH` lie on two
#: cards (cards end to end: 1.56 times it, 1.35 overlapping 8%, on the tuning photos).
APART: Final = 1.2
#: At most this many groups are proposed in one photo (a bound on the time it takes).
MOST: Final = 40
#: A blob about as wide as long (its width over its length at least this), in the last
#: look (fainter ink taken in), is two symbols that a moving camera's blur across their
#: length ran together: two symbols side by side are 0.41 + 28/52 = 0.95 of a symbol's
#: length across.
PAIR: Final = 0.8

Quad = NDArray[Any]


@dataclass(frozen=True)
class Symbol:
    """An ink blob that looks like a symbol: its centre, its long axis (unit vector), its
    length and width (pixels) and its ink's hue (Lab a, b)."""

    centre: NDArray[Any]
    axis: NDArray[Any]
    length: float
    width: float
    hue: NDArray[Any]
    #: Two symbols a moving camera ran together into one square blob (:data:`PAIR`):
    #: which of its sides is their length is not known.
    pair: bool = False


def proposed(marks: tuple[list[Symbol], float],
             taken: list[Quad]) -> list[tuple[list[Quad], int]]:  # fmt: skip
    """Card outlines (in the photo's pixels, 4 x 2) around the groups of symbols ``marks``
    (:func:`symbols` of the photo :func:`setgame.photo.find.searched`, and the scale from it
    to the photo) that lie on none of the outlines ``taken``, largest groups first, each
    with the number of symbols in its group; each a list of the ways it may lie (one, or
    two for a pair of symbols run together: which side is their length is not known)."""
    every, scale = marks
    free = [s for s in every if not any(_inside(quad / scale, s.centre) for quad in taken)]
    groups = sorted(_groups([s for s in free if not s.pair]), key=len, reverse=True)[:MOST]
    outlines = [([_outline(group) * scale], len(group)) for group in groups]
    for pair in (s for s in free if s.pair):
        turned = Symbol(pair.centre, np.array([-pair.axis[1], pair.axis[0]]), pair.length,
                        pair.width, pair.hue, pair=True)  # fmt: skip
        outlines.append(([_outline([way]) * scale for way in (pair, turned)], 2))
    return outlines[:MOST]


@dataclass(frozen=True)
class Inked:
    """A photo's colours as the look for symbols measures them (:func:`inked`): both looks
    (the strong ink, then the fainter too) share them, measured once."""

    a: NDArray[Any]  # Lab a and b, smoothed a little
    b: NDArray[Any]
    chroma: NDArray[Any]
    dim: NDArray[Any]  # the thresholds' scale: the lightness of the paper nearby
    paper: NDArray[Any]
    ink: NDArray[Any]  # strong ink (uint8), small gaps closed
    size: int  # the photo's long side, pixels


def inked(rgb: NDArray[Any]) -> Inked:
    """Measure ``rgb``'s colours for :func:`symbols_of`."""
    lab = cv2.cvtColor(neutral(rgb), cv2.COLOR_RGB2LAB).astype(np.float32)
    # the colour smoothed a little: a shadow's noise is strong in a and b
    a, b = (cv2.GaussianBlur(lab[:, :, i], (0, 0), 1.0) - 128 for i in (1, 2))
    chroma = np.hypot(a, b)
    light = lab[:, :, 0]
    white = float(np.percentile(light, 99))
    # a hard shadow dims the ink's colour with the paper: the thresholds follow the
    # lightness of the brightest nearby (the paper around a symbol)
    near = cv2.dilate(light, np.ones((15, 15), np.uint8))
    dim = np.clip(cv2.blur(near, (15, 15)) / max(white, 1.0), 0.35, 1.0)
    paper = (chroma < PAPER * dim) & (light > 0.4 * white)
    ink = cv2.morphologyEx((chroma > INK * dim).astype(np.uint8), cv2.MORPH_CLOSE,
                           np.ones((3, 3), np.uint8))  # fmt: skip
    return Inked(a, b, chroma, dim, paper, ink, max(rgb.shape[:2]))


def symbols(rgb: NDArray[Any], weak: float = 1.0) -> list[Symbol]:
    """The blobs of strong ink on paper in ``rgb`` shaped like a symbol: :func:`symbols_of` of
    :func:`inked`."""
    return symbols_of(inked(rgb), weak)


def symbols_of(measured: Inked, weak: float = 1.0) -> list[Symbol]:
    """The blobs of strong ink on paper shaped like a symbol (2-4 times as long as wide,
    filling much of their box), open ones filled. With ``weak`` under 1, a blob takes in
    the fainter ink (over ``weak`` of :data:`INK`) joined to its strong ink: a moving
    webcam's blur leaves an open symbol's outline strong in pieces only, and a halo around
    a solid one that is neither ink nor paper."""
    ink = measured.ink
    if weak < 1.0:
        faint = (measured.chroma > weak * INK * measured.dim).astype(np.uint8)
        _, labels = cv2.connectedComponents(faint)
        joined = np.zeros(int(labels.max()) + 1, bool)
        joined[labels[ink > 0]] = True
        joined[0] = False  # the background
        ink = cv2.morphologyEx(joined[labels].astype(np.uint8), cv2.MORPH_CLOSE,
                               np.ones((3, 3), np.uint8))  # fmt: skip
    # every region's outer boundary, those inside another's hole too (a card's symbols lie
    # in a hole of a coloured table's region)
    contours, hierarchy = cv2.findContours(ink, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    contours = [c for c, h in zip(contours, hierarchy[0] if hierarchy is not None else [],
                                  strict=True) if h[3] < 0]  # fmt: skip
    a, b, paper, size = measured.a, measured.b, measured.paper, measured.size
    marks = (_symbol(contour, ink, paper, a, b, size, pairs=weak < 1.0) for contour in contours)
    return [mark for mark in marks if mark is not None]


def _symbol(contour: NDArray[Any], ink: NDArray[Any], paper: NDArray[Any], a: NDArray[Any],
            b: NDArray[Any], size: int, pairs: bool = False) -> Symbol | None:  # fmt: skip
    """The ink region ``contour`` as a symbol, or None when it is not shaped like one (2-4
    times as long as wide, filling much of its box, of a size a card's symbol has in a
    photo ``size`` pixels on its long side) or not ringed by ``paper``. With ``pairs``, a
    blob about as wide as long (:data:`PAIR`) is two symbols run together, along the
    sides of its smallest box (a square blob's moments give no axis)."""
    shape = _shape(contour)
    if shape is None:
        return None
    centre, axis, length, width = shape
    if not 0.01 * size <= length <= 0.3 * size or width < 3:
        return None
    filled = cv2.contourArea(contour)
    pair = pairs and width / length >= PAIR and filled >= 0.5 * length * width
    if pair:
        turn = np.radians(cv2.minAreaRect(contour)[2])
        axis = np.array([np.cos(turn), np.sin(turn)])
    elif not 0.25 <= width / length <= 0.65 or filled < 0.4 * length * width:
        return None
    # the blob (filled: an open symbol's outline) and a ring around it, in a window
    margin = max(2, round(0.05 * length))
    x, y, w, h = cv2.boundingRect(contour)
    x0, y0 = max(x - margin - 1, 0), max(y - margin - 1, 0)
    window = (slice(y0, y + h + margin + 1), slice(x0, x + w + margin + 1))
    blob = np.zeros(ink[window].shape, np.uint8)
    cv2.drawContours(blob, [contour - np.array([x0, y0])], -1, 1, cv2.FILLED)
    ring = cv2.dilate(blob, np.ones((2 * margin + 1, 2 * margin + 1), np.uint8)) > blob
    if paper[window][ring].mean() < 0.7:
        return None  # not ink on paper: a cloth's pattern, a box's print
    inside = (blob > 0) & (ink[window] > 0)
    hue = np.array([a[window][inside].mean(), b[window][inside].mean()])
    return Symbol(centre, axis, length, width, hue, pair)


def _shape(contour: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any], float, float] | None:
    """A blob's centre, long axis (its moments' principal axis: a thin diamond's smallest
    box lies along its sides, not its length), and its length and width along and across
    that axis."""
    moments = cv2.moments(contour)
    if moments["m00"] <= 0:
        return None
    centre = np.array([moments["m10"], moments["m01"]]) / moments["m00"]
    theta = 0.5 * np.arctan2(2 * moments["mu11"], moments["mu20"] - moments["mu02"])
    axis = np.array([np.cos(theta), np.sin(theta)])
    points = contour.reshape(-1, 2).astype(np.float64) - centre
    along, across = points @ axis, points @ np.array([-axis[1], axis[0]])
    return (centre, axis, float(along.max() - along.min()),
            float(across.max() - across.min()))


def _alike(one: Symbol, other: Symbol) -> bool:
    """Whether two symbols may be neighbours on one card: about one size, one way and one
    colour, one beside the other across their length, :data:`PITCH` apart."""
    if not 0.8 <= one.length / other.length <= 1.25:
        return False
    if abs(float(one.axis @ other.axis)) < 0.96:  # more than about 16 degrees apart
        return False
    cosine = float(one.hue @ other.hue) / max(float(np.hypot(*one.hue) * np.hypot(*other.hue)),
                                              1e-6)  # fmt: skip
    if cosine < 0.85:
        return False
    step = other.centre - one.centre
    size = (one.length + other.length) / 2
    along = abs(float(step @ one.axis))
    across = abs(float(step @ np.array([-one.axis[1], one.axis[0]])))
    return along < 0.2 * size and 0.35 * size <= across <= 0.75 * size


def _groups(found: list[Symbol]) -> list[list[Symbol]]:
    """The symbols joined into cards' groups (neighbours alike, :func:`_alike`); a chain
    of more than three is cut where two neighbours lie further apart than a card's
    symbols do (:func:`_cards_of`), and what is still longer is no card's, left out."""
    parent = list(range(len(found)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(found)):
        for j in range(i + 1, len(found)):
            if _alike(found[i], found[j]):
                parent[root(i)] = root(j)
    groups: dict[int, list[Symbol]] = {}
    for i, symbol in enumerate(found):
        groups.setdefault(root(i), []).append(symbol)
    return [part for group in groups.values() for part in _cards_of(group) if len(part) <= 3]


def _cards_of(chain: list[Symbol]) -> list[list[Symbol]]:
    """A chain of alike symbols cut into cards' groups: cards laid end to end, overlapping
    a little, bring the last symbol of one near the first of the next, but further than
    :data:`PITCH` (:data:`APART` times it). A chain of three or fewer stays whole."""
    if len(chain) <= 3:
        return [chain]
    normal = np.array([-chain[0].axis[1], chain[0].axis[0]])
    ordered = sorted(chain, key=lambda s: float(s.centre @ normal))
    pitch = PITCH * float(np.mean([s.length for s in chain]))
    parts = [[ordered[0]]]
    for before, symbol in itertools.pairwise(ordered):
        if float((symbol.centre - before.centre) @ normal) > APART * pitch:
            parts.append([])
        parts[-1].append(symbol)
    return parts


def _outline(group: list[Symbol]) -> Quad:
    """The outline of the card a group of symbols lies on: centred on them, as wide as a
    symbol's length allows (:data:`ACROSS`), as long as the spacing of its symbols shows
    (or a card's proportions, for one symbol), clockwise."""
    centre = np.mean([s.centre for s in group], axis=0)
    axis = group[0].axis
    normal = np.array([-axis[1], axis[0]])
    if len(group) > 1:
        # the line the symbols stand on is the card's length: a squiggle's own long axis
        # (its moments') leans off it by several degrees, an outline that leans so cuts
        # the outer symbols at the card's sides
        ends = sorted(group, key=lambda s: float(s.centre @ normal))
        line = ends[-1].centre - ends[0].centre
        normal = line / max(float(np.hypot(*line)), 1e-6)
        axis = np.array([normal[1], -normal[0]])
    length = float(np.mean([s.length for s in group]))
    width = length / ACROSS
    tall = width * CARD
    if len(group) > 1:  # the spacing measures the card's length as the camera sees it
        spots = sorted(float((s.centre - centre) @ normal) for s in group)
        pitch = (spots[-1] - spots[0]) / (len(group) - 1)
        tall = float(np.clip(pitch / (PITCH * ACROSS) * CARD, 0.7 * tall, 1.2 * tall))
    half_w, half_h = axis * width * SNUG / 2, normal * tall * SNUG / 2
    return clockwise(np.array([centre - half_w - half_h, centre + half_w - half_h,
                               centre + half_w + half_h, centre - half_w + half_h], np.float32))


def _inside(quad: Quad, point: NDArray[Any]) -> bool:
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32),
                                (float(point[0]), float(point[1])), False) >= 0  # fmt: skip
