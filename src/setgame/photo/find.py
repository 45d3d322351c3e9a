"""Finding the cards in a photo: pale, bright four-sided shapes, under any perspective.

Each card is a white rounded rectangle. A card stands out from its table by its
brightness (a dark or wooden table), or only by its edges (a white table); so the
candidates come from several masks (brighter than the neighbourhood, Otsu's
threshold, the regions closed by Canny's edges), each outline is fitted with a
four-sided polygon whose corners are the crossings of lines fitted to its sides (a
rounded corner is no corner), and outlines of one card found by several masks keep
the best. Whether a candidate is a card at all is the reader's decision
(:mod:`setgame.photo.card`): a box, a sheet of paper or a hand has no symbols of one
colour on it, and of nested outlines (a symbol inside its card) the surest reading stays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import cv2
import numpy as np
from numpy.typing import NDArray

#: The long side (pixels) the search runs at.
SEARCH: Final = 1000
#: A card's long side over its short side (2 1/4 x 3 1/2 inches).
CARD: Final = 1.56
#: How far perspective may stretch it: a phone held 40 degrees from flat sees the far cards'
#: long side shortened by half (their long side may then look the shorter) or their short side.
ASPECT: Final = (1.0, 3.0)
#: Below this, which side of a card is the long one is not sure: it is read both ways.
SQUARISH: Final = 1.35
#: A card's smallest and largest share of the photo.
AREA: Final = (0.0015, 0.5)

#: A block of cards edge to edge: its least and largest share of the photo, its longest
#: side over its shortest (five cards in a row, foreshortened).
BLOCK: Final = (2 * AREA[0], 0.8, 6.0)

Quad = NDArray[Any]  # 4 x 2, clockwise


@dataclass(frozen=True)
class Candidate:
    """A four-sided outline (in the searched image's pixels) and how card-like it is."""

    quad: Quad
    score: float


def searched(rgb: NDArray[Any]) -> tuple[NDArray[Any], float]:
    """``rgb`` at :data:`SEARCH` pixels on its long side at most, where outlines and symbols
    are looked for, and the scale from it to ``rgb`` (multiply a quad by it)."""
    scale = max(rgb.shape[:2]) / SEARCH if max(rgb.shape[:2]) > SEARCH else 1.0
    small = rgb if scale == 1.0 else cv2.resize(
        rgb, (round(rgb.shape[1] / scale), round(rgb.shape[0] / scale)),
        interpolation=cv2.INTER_AREA)  # fmt: skip
    return small, scale


def candidates(small: NDArray[Any]) -> tuple[list[Candidate], list[Quad]]:
    """The card-like outlines of ``small`` (the photo :func:`searched`), best first, without
    overlaps; and the outlines of blocks (four-sided regions of any proportions and larger:
    cards laid edge to edge with no seam seen, :func:`setgame.photo.grid.split_blocks`)."""
    found: list[Candidate] = []
    blocks: list[Candidate] = []
    for index, mask in enumerate(masks(small)):
        # the thickened edges' region lies a few pixels inside its card: it stands in only
        # where no other mask found that card
        cards, more = outlines(mask, penalty=0.1 if index == 3 else 0.0)
        found.extend(cards)
        blocks.extend(more)
    return separate(found), [block.quad for block in separate(blocks)]


def masks(rgb: NDArray[Any]) -> list[NDArray[Any]]:
    """Masks in which a card is one region: bright and pale against the neighbourhood,
    above Otsu's threshold, and the regions between Canny's edges (thin and thickened)."""
    rgb = neutral(rgb)
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    saturation = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)[:, :, 1]
    pale = (saturation < 90).astype(np.uint8) * 255
    size = max(grey.shape)
    block = (size // 8) | 1
    local = cv2.blur(grey, (block, block))
    brighter = (grey.astype(np.int16) > local.astype(np.int16) + 12).astype(np.uint8) * 255
    _, otsu = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    edges = cv2.Canny(cv2.GaussianBlur(grey, (5, 5), 0), 20, 60)
    between = cv2.bitwise_not(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
    # a faint edge (a white card on a white table, its shadowed side) has gaps: thicker
    # lines close them, at the cost of a region a few pixels inside the card
    closed = cv2.bitwise_not(cv2.dilate(edges, np.ones((7, 7), np.uint8)))
    # cards laid edge to edge are one bright region: the seam between two is a faint line
    # (the edge's shadow, a step in brightness), which only a low threshold keeps
    faint = cv2.Canny(cv2.GaussianBlur(grey, (5, 5), 0), 8, 24)
    seams = cv2.bitwise_not(cv2.dilate(faint, np.ones((3, 3), np.uint8)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    # Symbols inside a card are holes in the first two masks: closing fills the thin ones.
    bright = cv2.morphologyEx(cv2.bitwise_and(brighter, pale), cv2.MORPH_CLOSE, kernel)
    return [
        bright,
        cv2.morphologyEx(cv2.bitwise_and(otsu, pale), cv2.MORPH_CLOSE, kernel),
        between,
        closed,
        seams,
        cut_apart(bright, faint),
    ]


def cut_apart(bright: NDArray[Any], faint: NDArray[Any]) -> NDArray[Any]:
    """Cards laid edge to edge, one bright region, cut along their seams: the region with
    its holes (the symbols) filled, less the faint edges that lie away from any ink (a
    seam has paper on both sides; a symbol's outline has ink on one)."""
    contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(bright)
    cv2.drawContours(filled, contours, -1, 255, cv2.FILLED)
    ink = cv2.dilate(cv2.bitwise_and(filled, cv2.bitwise_not(bright)), np.ones((5, 5), np.uint8))
    seams = cv2.bitwise_and(faint, cv2.bitwise_not(ink))
    return cv2.bitwise_and(filled, cv2.bitwise_not(cv2.dilate(seams, np.ones((3, 3), np.uint8))))


def neutral(rgb: NDArray[Any]) -> NDArray[Any]:
    """The photo with its light's colour taken out, so that the cards' paper is pale under a
    tungsten lamp (orange) or in a blue shade too: each channel scaled so that the whitest
    pixels (those whose darkest channel is brightest: the paper, even under a cast, before
    a yellow cloth or a red box) are grey. The gains are bounded (a photo of no white at
    all is not turned inside out)."""
    gain = light_gains(rgb)
    if gain.max() < 1.05:
        return rgb
    lut = np.clip(np.arange(256)[:, None] * gain[None, :], 0, 255).astype(np.uint8)
    balanced: NDArray[Any] = np.stack([lut[rgb[:, :, i], i] for i in range(3)], axis=2)
    return balanced


def light_gains(rgb: NDArray[Any]) -> NDArray[Any]:
    """Per channel, what makes the whitest pixels of ``rgb`` grey (see :func:`neutral`)."""
    pixels = rgb.reshape(-1, 3)
    darkest = pixels.min(axis=1)
    whitest = pixels[darkest >= np.percentile(darkest, 98)]
    white = np.maximum(whitest.mean(axis=0), 1.0)
    gain: NDArray[Any] = np.clip(white.max() / white, 1.0, 3.0)
    return gain


def paper_like(colour: NDArray[Any], gains: NDArray[Any]) -> bool:
    """Whether ``colour`` (RGB), in the photo's light made neutral by ``gains``, is a
    card's paper: grey or white, not a colour (a tablecloth's square, a box's lid)."""
    seen = colour.astype(np.float32) * gains
    return bool((seen.max() - seen.min()) < 0.25 * max(float(seen.max()), 1.0))


def outlines(mask: NDArray[Any],
             penalty: float = 0.0) -> tuple[list[Candidate], list[Candidate]]:  # fmt: skip
    """The four-sided outlines among the regions of ``mask``: of a card's proportions, and
    of blocks (:data:`BLOCK`: any proportions, at least two cards' area)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    total = mask.shape[0] * mask.shape[1]
    found, blocks = [], []
    for contour in contours:
        area = cv2.contourArea(contour)
        if not AREA[0] * total <= area <= BLOCK[1] * total:
            continue
        quad = fit_quad(contour)
        if quad is None:
            continue
        quad_area = cv2.contourArea(quad)
        if quad_area <= 0:
            continue
        fill = area / quad_area
        ratio = aspect(quad)
        if fill < 0.85 or fill > 1.08 or not square_enough(quad):
            continue
        if area >= BLOCK[0] * total and ratio <= BLOCK[2]:
            blocks.append(Candidate(quad, fill))
        if ASPECT[0] <= ratio <= ASPECT[1] and area <= AREA[1] * total:
            # the region fills its outline: a region larger than the outline (fill over 1)
            # is cut by it, a side fitted across the card (a blurred corner, a neighbour's
            # edge), no better than one that leaves as much of it empty
            fit = 1.0 - abs(1.0 - fill)
            found.append(Candidate(quad, fit - abs(ratio - CARD) * 0.1 - penalty))
    return found, blocks


def square_enough(quad: Quad) -> bool:
    """Whether every corner of the outline is between 40 and 140 degrees: a card seen even
    from 40 degrees off straight down keeps its corners so; an outline that cuts across
    two cards on a slant does not."""
    for i in range(4):
        one, other = quad[i - 1] - quad[i], quad[(i + 1) % 4] - quad[i]
        cosine = float(one @ other) / max(float(np.hypot(*one) * np.hypot(*other)), 1e-6)
        if abs(cosine) > 0.766:  # cos 40 degrees
            return False
    return True


def fit_quad(contour: NDArray[Any]) -> Quad | None:
    """Four corners for a rounded-rectangle outline: the polygon of its hull, and each
    corner moved to the crossing of the lines fitted to its two sides."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for share in (0.02, 0.03, 0.05, 0.08):
        poly = cv2.approxPolyDP(hull, share * perimeter, True)
        if len(poly) == 4:
            break
    else:
        return None
    corners = clockwise(poly.reshape(4, 2).astype(np.float32))
    return refine(corners, contour.reshape(-1, 2).astype(np.float32))


def refine(corners: Quad, points: NDArray[Any]) -> Quad:
    """The corners where lines fitted to the contour's four sides cross (the middle part
    of each side only: the rounded ends would pull the line inwards)."""
    lines = []
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        side = b - a
        length = float(np.hypot(*side))
        if length < 4:
            return corners
        t = (points - a) @ side / length**2
        normal = np.array([-side[1], side[0]]) / length
        near = np.abs((points - a) @ normal) < max(3.0, 0.04 * length)
        chosen = points[near & (t > 0.15) & (t < 0.85)]
        if len(chosen) < 5:
            return corners
        vx, vy, x0, y0 = cv2.fitLine(chosen, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    crossed = []
    for i in range(4):
        (p, d), (q, e) = lines[i - 1], lines[i]
        det = d[0] * -e[1] - d[1] * -e[0]
        if abs(det) < 1e-6:
            return corners
        t = ((q - p)[0] * -e[1] - (q - p)[1] * -e[0]) / det
        crossed.append(p + t * d)
    result = np.array(crossed, dtype=np.float32)
    if np.abs(result - corners).max() > 0.15 * np.sqrt(cv2.contourArea(corners)):
        return corners  # the lines went astray: keep the polygon's own corners
    return result


def clockwise(points: Quad) -> Quad:
    """The four points in clockwise order on screen (y downwards), from the one whose
    angle around the centre comes first."""
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    return points[np.argsort(angles)]


def aspect(quad: Quad) -> float:
    """The long side over the short side, each the mean of two opposite sides."""
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    one, two = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return float(max(one, two) / max(min(one, two), 1e-6))


def separate(found: list[Candidate]) -> list[Candidate]:
    """The best candidate of each outline: one of about the same size as a better one, each
    holding the other's centre, is the same card found by another mask. (Nested outlines of
    other sizes, a symbol inside a card or two cards taken as one, are all kept: the reader
    tells which is a card, see :func:`overlapping`.)"""
    kept: list[tuple[Candidate, _Placed]] = []
    for candidate in sorted(found, key=lambda c: -c.score):
        placed = _Placed.of(candidate.quad)
        if not any(_same_placed(k, placed) for _, k in kept):
            kept.append((candidate, placed))
    return [candidate for candidate, _ in kept]


@dataclass(frozen=True)
class _Placed:
    """An outline with its area, centre and box worked out once: :func:`separate` compares
    every candidate with every one kept, which on a patterned cloth (hundreds of outlines)
    took seconds when each comparison measured both outlines again."""

    quad: Quad
    area: float
    centre: tuple[float, float]
    low: tuple[float, float]
    high: tuple[float, float]

    @classmethod
    def of(cls, quad: Quad) -> _Placed:
        (x0, y0), (x1, y1) = quad.min(axis=0), quad.max(axis=0)
        area = float(cv2.contourArea(quad))
        return cls(quad, area, _mean(quad), (float(x0), float(y0)), (float(x1), float(y1)))

    def boxes(self, point: tuple[float, float]) -> bool:
        """Whether ``point`` lies in this outline's box (it can lie inside it only then)."""
        return self.low[0] <= point[0] <= self.high[0] and self.low[1] <= point[1] <= self.high[1]


def _same_placed(one: _Placed, other: _Placed) -> bool:
    """:func:`same_place` of two outlines measured beforehand (the same answer)."""
    ratio = one.area / max(other.area, 1e-6)
    if not 0.7 < ratio < 1.43:
        return False
    return (one.boxes(other.centre) and _inside(one.quad, other.centre)) or (
        other.boxes(one.centre) and _inside(other.quad, one.centre))


def area(quad: Quad) -> float:
    """An outline's area (pixels)."""
    return float(cv2.contourArea(quad.astype(np.float32)))


def sizes(quads: list[Quad]) -> tuple[list[float], float | None]:
    """Each outline's area, and the middle one (the upper median; None without any): the
    size of a card on this table, against which a speck, a part or a union is told."""
    areas = [area(quad) for quad in quads]
    return areas, sorted(areas)[len(areas) // 2] if areas else None


def same_place(one: Quad, other: Quad) -> bool:
    """Whether two outlines are one card's: each holds the other's centre, and their areas
    differ by less than a third."""
    return _same_placed(_Placed.of(one), _Placed.of(other))


def overlapping(one: Quad, other: Quad) -> bool:
    """Whether either outline holds the other's centre."""
    return _inside(one, _mean(other)) or _inside(other, _mean(one))


def _mean(quad: Quad) -> tuple[float, float]:
    x, y = quad.mean(axis=0)
    return float(x), float(y)


def _inside(quad: Quad, point: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2), point, False) >= 0


def upright(quad: Quad, turned: bool = False) -> Quad:
    """The corners clockwise from the card's top left as it is read upright (long side
    vertical): the first side is a short one (``turned``: a long one, for a card so
    foreshortened that its long side looks the shorter); of the two ways up, the one whose
    first corner is nearer the photo's top left."""
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    start = 0 if sides[0] + sides[2] <= sides[1] + sides[3] else 1
    start = 1 - start if turned else start
    other = start + 2
    if quad[other].sum() < quad[start].sum():
        start = other
    return np.roll(quad, -start, axis=0)


def warp(rgb: NDArray[Any], quad: Quad, size: tuple[int, int]) -> NDArray[Any]:
    """The card inside ``quad`` (upright order) seen from above, ``size`` = (width, height)."""
    width, height = size
    target = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]],
                      dtype=np.float32)  # fmt: skip
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    return cv2.warpPerspective(rgb, matrix, (width, height), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)  # fmt: skip
