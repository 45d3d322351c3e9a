"""Reading one card, seen from above (:data:`SIZE`): its number, color, shading and shape.

The card's own white is the reference: each channel is scaled so that the card's paper
is neutral grey-white (a warm lamp or a cool shade changes the paper as much as the
ink). Ink is what has colour (Lab chroma) or is darker than the paper; the symbols are
the large regions of ink, their holes filled. Then:

- number: how many symbols of about the same size;
- color: the hue angle of the strongest ink in Lab (red, including a camera's orange,
  around +40 degrees; purple around -50; green around +150);
- shading: how much ink the inside of a symbol holds against its outline: all of it
  (solid), none (open), some (striped, also when the stripes blur into a pale fill);
- shape: the silhouette's convexity (a squiggle has hollows) and how much of its
  rotated bounding box it fills (a diamond half of it; an oval most of it; a
  rectangle, which some printings draw for the diamond, all of it with sharp corners).

Each reading has a margin: how far its measure lies from the nearest boundary; the
card's confidence is made from the smallest of them.
"""

from __future__ import annotations

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


@dataclass(frozen=True)
class CardReading:
    """The values (0-2 each, in the notation's order) and how sure each is (0-1)."""

    number: int
    color: int
    shading: int
    shape: int
    sureness: tuple[float, float, float, float]

    @property
    def values(self) -> tuple[int, int, int, int]:
        return (self.number, self.color, self.shading, self.shape)

    @property
    def confidence(self) -> float:
        return float(min(self.sureness))


def balanced(card: NDArray[Any]) -> NDArray[Any]:
    """The card with its paper made neutral: each channel scaled so that its bright
    majority (the paper) reaches 235."""
    white = np.percentile(card.reshape(-1, 3), 75, axis=0).astype(np.float32)
    gain = 235.0 / np.maximum(white, 20.0)
    result: NDArray[Any] = np.clip(card.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    return result


def ink_map(card: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Per pixel, how much ink it holds (chroma and darkness against the paper), and the
    Lab image (float, a and b centred on 0)."""
    lab = cv2.cvtColor(card, cv2.COLOR_RGB2LAB).astype(np.float32)
    lab[:, :, 1:] -= 128.0
    paper_l = float(np.percentile(lab[:, :, 0], 75))
    chroma = np.hypot(lab[:, :, 1], lab[:, :, 2])
    dark = np.maximum(paper_l - lab[:, :, 0], 0.0)
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
    threshold = max(12.0, strong * 0.3)
    raw = ((ink > threshold) & (inner > 0)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(raw, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    symbols = _symbols(mask)
    if not symbols:
        return None
    areas = [cv2.contourArea(c) for c in symbols]
    alike = [a for a in areas if a >= 0.5 * areas[0]]
    kept = symbols[: len(alike)]
    silhouette = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(silhouette, kept, -1, 255, cv2.FILLED)
    return {
        "areas": [a / areas[0] for a in areas],
        "count": len(alike),
        **_hue(lab, ink, silhouette),
        **_fill(ink, lab, silhouette, inner),
        **_outline(kept),
    }


def read_card(card: NDArray[Any]) -> CardReading | None:
    """The reading of a card seen from above (RGB, any size: it is resized to
    :data:`SIZE`), or None when it does not look like a SET card."""
    measures = measure(card)
    if measures is None or measures["count"] > 3:
        return None
    number, number_sure = _number(measures["areas"])
    color, color_sure = _color(measures["angle"])
    shading, shading_sure = _shading(measures["tint"])
    shape, shape_sure = _shape(measures)
    return CardReading(number, color, shading, shape,
                       (number_sure, color_sure, shading_sure, shape_sure))  # fmt: skip


def _symbols(mask: NDArray[Any]) -> list[NDArray[Any]]:
    """The outer outlines of the ink regions large enough to be symbols, largest first."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    least = 0.02 * SIZE[0] * SIZE[1]
    big = [c for c in contours if cv2.contourArea(c) >= least]
    return sorted(big, key=cv2.contourArea, reverse=True)


def _number(areas: list[float]) -> tuple[int, float]:
    """How many symbols (0-2 for one to three) of about the largest one's size (``areas``:
    each region's area over the largest's, largest first)."""
    alike = [a for a in areas if a >= 0.5]
    nearest_other = max(areas[len(alike):], default=0.0)
    sure = _sure(min(min(alike) - 0.5, 0.5 - nearest_other), 0.3)
    return len(alike) - 1, sure


def _hue(lab: NDArray[Any], ink: NDArray[Any], silhouette: NDArray[Any]) -> dict[str, float]:
    """The hue angle (degrees, Lab a-b plane), chroma and lightness of the strongest ink."""
    inside = silhouette > 0
    cut = np.percentile(ink[inside], 70)
    chosen = inside & (ink >= cut)
    a = float(np.mean(lab[:, :, 1][chosen]))
    b = float(np.mean(lab[:, :, 2][chosen]))
    return {"angle": math.degrees(math.atan2(b, a)), "chroma": math.hypot(a, b),
            "lightness": float(np.mean(lab[:, :, 0][chosen]))}  # fmt: skip


def _fill(ink: NDArray[Any], lab: NDArray[Any], silhouette: NDArray[Any],
          inner: NDArray[Any]) -> dict[str, float]:  # fmt: skip
    """How much of the ink's colour the inside of the symbols holds (their outline worn
    away), against the paper around them (0) and the outline (1): ``fill`` by the ink
    measure, ``tint`` by the Lab colour along the ink's own direction (noise of other
    hues cancels out)."""
    size = max(3, round(0.05 * SIZE[0])) | 1
    depth = cv2.distanceTransform(silhouette, cv2.DIST_L2, 3)
    core = depth > _stroke(ink, depth) * 1.4 + 1.5
    rim = (depth > 0) & (depth <= 2.5)
    paper = (cv2.dilate(silhouette, np.ones((size, size), np.uint8)) == 0) & (inner > 0)
    if not core.any() or not rim.any() or not paper.any():
        return {"fill": 1.0, "tint": 1.0}
    edge = float(np.percentile(ink[rim], 90))
    base = float(np.mean(ink[paper]))
    fill = (float(np.mean(ink[core])) - base) / max(edge - base, 1.0)
    strong = rim & (ink >= np.percentile(ink[rim], 75))
    colour = np.array([lab[:, :, i][strong].mean() for i in range(3)])
    white = np.array([lab[:, :, i][paper].mean() for i in range(3)])
    inside = np.array([lab[:, :, i][core].mean() for i in range(3)])
    span = colour - white
    tint = float((inside - white) @ span / max(float(span @ span), 1.0))
    return {"fill": fill, "tint": tint}


def _stroke(ink: NDArray[Any], depth: NDArray[Any]) -> float:
    """How thick the symbols' outline is (pixels): the depth inside the silhouette at which
    the ink first falls below half of the outline's; their whole depth when it never does
    (a solid symbol)."""
    deepest = int(depth.max())
    levels = np.minimum(depth, deepest + 1).astype(np.int32)
    sums = np.bincount(levels.ravel(), weights=ink.ravel(), minlength=deepest + 2)
    counts = np.bincount(levels.ravel(), minlength=deepest + 2)
    profile = sums[1:] / np.maximum(counts[1:], 1)
    top = float(profile[:3].max())
    low = np.nonzero(profile < 0.5 * top)[0]
    return float(low[0]) if len(low) else float(deepest)


def _outline(symbols: list[NDArray[Any]]) -> dict[str, float]:
    """The silhouettes' median solidity (area over convex hull), extent (area over the
    rotated bounding box) and corners (of a coarse polygon)."""
    solidity, extent, corners = [], [], []
    for contour in symbols:
        area = cv2.contourArea(contour)
        hull = cv2.contourArea(cv2.convexHull(contour))
        (_, _), (w, h), _ = cv2.minAreaRect(contour)
        solidity.append(area / max(hull, 1.0))
        extent.append(area / max(w * h, 1.0))
        poly = cv2.approxPolyDP(contour, 0.04 * cv2.arcLength(contour, True), True)
        corners.append(len(poly))
    return {"solidity": float(np.median(solidity)), "extent": float(np.median(extent)),
            "corners": float(np.median(corners))}  # fmt: skip


def _color(angle: float) -> tuple[int, float]:
    """Red (0), green (1) or purple (2) from the hue angle of the strongest ink."""
    # boundaries: purple | red at -12 degrees, red | green at 100, green | purple at -120
    bounds = {0: (-12.0, 100.0), 1: (100.0, 240.0), 2: (-120.0, -12.0)}
    for value, (low, high) in bounds.items():
        turned = angle if low <= angle < high else angle + 360
        if low <= turned < high:
            return value, _sure(min(turned - low, high - turned), 25.0)
    return 0, 0.0


def _shading(fill: float) -> tuple[int, float]:
    """Solid (0), striped (1) or open (2) from the ink inside the symbols."""
    if fill >= 0.7:
        return 0, _sure(fill - 0.7, 0.1)
    if fill <= 0.135:
        return 2, _sure(0.135 - fill, 0.04)
    return 1, _sure(min(fill - 0.135, 0.7 - fill), 0.04)


def _shape(measures: dict[str, Any]) -> tuple[int, float]:
    """Diamond (0), oval (1) or squiggle (2) from the symbols' silhouettes."""
    s, e = measures["solidity"], measures["extent"]
    if s < 0.9:
        return 2, _sure(0.9 - s, 0.04)
    if e < 0.68:
        return 0, _sure(0.68 - e, 0.08)
    if e > 0.93 and measures["corners"] <= 4:
        return 0, _sure(e - 0.93, 0.03)  # a rectangle: some printings' diamond
    return 1, _sure(min(s - 0.9, e - 0.68), 0.04)


def _sure(margin: float, scale: float) -> float:
    """0.5 at the boundary, towards 1 as the measure moves ``scale`` away from it."""
    return float(0.5 + 0.5 * math.tanh(max(margin, 0.0) / scale))
