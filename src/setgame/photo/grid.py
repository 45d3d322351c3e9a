"""Cards laid edge to edge: found from their neighbours.

Players lay a table out in rows, often with the cards touching or overlapping a little.
Two touching cards are one bright region, and the seam between them is a faint line,
often broken: the finder (:mod:`setgame.photo.find`) then finds no four-sided outline of
either. But a card found beside them tells where they lie: a card's neighbour in a row
or a column is the card's own outline moved by one card's width or height (less what
the two overlap). So each card found proposes its four neighbours, each moved until its
symbols lie in its middle (the two overlap a little, or lie a little askew) and read; a
proposal read as a card, surely, on no card found already, is a card found, and proposes
its own neighbours in turn.
"""

from __future__ import annotations

from typing import Any, Final

import cv2
import numpy as np
from numpy.typing import NDArray

from setgame.photo.card import SIZE, CardReading, border, measure, reading_of
from setgame.photo.find import (
    CARD,
    area,
    overlapping,
    paper_like,
    same_place,
    sizes,
    upright,
    warp,
)
from setgame.photo.symbols import Symbol
from setgame.photo.symbols import proposed as around_symbols

#: How sure a proposed neighbour's reading must be to count as a card found.
SURE: Final = 0.7
#: How sure the reading of a card proposed around its symbols must be, when it counts as
#: many symbols as were grouped: the two agree, and a moving webcam's blur leaves a
#: single symbol's shading a little less sure; still above what symbols never whole read
#: (:data:`setgame.photo.card.BROKEN`).
SEED_SURE: Final = 0.65
#: How much ink strewn over a proposed card's paper (:func:`setgame.photo.card.measure`'s
#: ``stray``) is allowed: a neighbour's; a card proposed around its own symbols may hold
#: more (an outline a few degrees off takes in a strip of the table, the box or a hand),
#: if read surely (:data:`SURE`).
STRAY: Final = (0.05, 0.12)
#: How far nearer than a card's size a neighbour is first tried (the two overlap a little).
NEARER: Final = 0.03
#: At most this many cards are proposed in one photo (a bound on the time it takes).
MOST: Final = 120

#: How far a block's cells may stray from a card's proportions (:data:`CARD`: perspective,
#: and cards overlapping a little).
CELL: Final = (1.2, 2.1)
#: At most this many ways of cutting one block into cards are tried.
WAYS: Final = 6

Quad = NDArray[Any]
Found = list[tuple[Quad, CardReading]]


def split_blocks(rgb: NDArray[Any], blocks: list[Quad], found: Found,
                 gains: NDArray[Any]) -> Found:  # fmt: skip
    """``found`` with the cards found by cutting blocks into rows and columns: a block of
    cards laid edge to edge with no seam seen is one four-sided region, a whole number of
    cards long and wide. Each way of cutting it into cells of a card's proportions (and of
    the size of the cards found, if any) is tried on its corner cells, each read as a
    proposed neighbour is (:func:`_place`: surely, centred, a plain paper border); the way
    whose corners read best gives its corner cards (at least two: one may be chance), and
    :func:`grow` finds the rest from them. ``blocks`` are in ``rgb``'s pixels."""
    cards = list(found)
    typical = sizes([quad for quad, _ in found])[1]
    for block in sorted(blocks, key=lambda q: -area(q)):
        if typical is not None and area(block) < 1.7 * typical:
            continue
        if any(same_place(block, quad) for quad, _ in cards):
            continue  # a card's outline, found already
        best: Found = []
        for cells in _ways(block, typical)[:WAYS]:
            placed: Found = []
            for cell in cells:
                paper = border(warp(rgb, cell, SIZE))[0]
                if not paper_like(paper, gains):
                    continue
                card = _place(rgb, cell, paper, cards + placed)
                if card is not None:
                    placed.append(card)
            if len(placed) > len(best):
                best = placed
        if len(best) >= 2:
            cards.extend(best)
    return cards


def _ways(block: Quad, typical: float | None) -> list[list[Quad]]:
    """The ways of cutting ``block`` into ``across`` x ``down`` cells of a card's
    proportions (and about the ``typical`` card's area, when known), likeliest first,
    each as its corner cells (upright order)."""
    corners = block.astype(np.float32)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    matrix = cv2.getPerspectiveTransform(unit, corners)
    sides = np.hypot(*(np.roll(corners, -1, axis=0) - corners).T)
    one, two = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    whole = area(block)
    ways = []
    for across in range(1, 6):
        for down in range(1, 6):
            if across * down < 2:
                continue
            ratio = max(one / across, two / down) / max(min(one / across, two / down), 1e-6)
            if not CELL[0] <= ratio <= CELL[1]:
                continue
            cost = abs(np.log(ratio / CARD))
            if typical is not None:
                size = whole / (across * down) / typical
                if not 0.55 <= size <= 1.6:
                    continue
                cost += abs(np.log(size))
            ways.append((cost, across, down))
    result = []
    for _, across, down in sorted(ways):
        cells = []
        for i, j in {(0, 0), (across - 1, 0), (across - 1, down - 1), (0, down - 1)}:
            square = (unit + np.array([i, j], np.float32)) / np.array([across, down], np.float32)
            cell = cv2.perspectiveTransform(square.reshape(-1, 1, 2).astype(np.float32), matrix)
            cells.append(upright(cell.reshape(4, 2)))
        result.append(cells)
    return result


#: How much smaller or larger than the middle card found (with three or more found) a card
#: proposed around symbols may be: a cloth's blossom or a box's print is no card's symbol,
#: and proposes an outline of another size.
SEEDED: Final = (0.55, 2.2)


def by_symbols(rgb: NDArray[Any], found: Found, gains: NDArray[Any],
               marks: tuple[list[Symbol], float]) -> Found:  # fmt: skip
    """``found`` with the cards found around groups of the symbols ``marks`` on no card
    found (:func:`setgame.photo.symbols.proposed`), each held to what a proposed neighbour is
    (:func:`_place`), its border's paper its own (no card found proposed it) but paper
    in the photo's light made neutral (``gains``), and of about the size of the cards
    found (:data:`SEEDED`); read as many symbols as were grouped, it may be a little less
    sure (:data:`SEED_SURE`); one blob may read as more (:func:`_as_grouped`). Of the
    ways a pair of symbols run together may lie, the surest reading stays."""
    cards = list(found)
    typical = sizes([quad for quad, _ in found])[1] if len(found) >= 3 else None
    for ways, count in around_symbols(marks, [quad for quad, _ in found]):
        placed = [card for card in (_seeded(rgb, upright(outline), cards, gains, typical)
                                    for outline in ways)
                  if card is not None and _as_grouped(card[1], count)]  # fmt: skip
        if placed:
            cards.append(max(placed, key=lambda card: card[1].confidence))
    return cards


def _seeded(rgb: NDArray[Any], quad: Quad, cards: Found, gains: NDArray[Any],
            typical: float | None) -> tuple[Quad, CardReading] | None:  # fmt: skip
    """The card proposed around its symbols at ``quad``, if one is there (see
    :func:`by_symbols`)."""
    if typical is not None and not SEEDED[0] <= area(quad) / typical <= SEEDED[1]:
        return None  # the cards of one table differ in size by perspective alone
    paper = border(warp(rgb, quad, SIZE))[0]
    if not paper_like(paper, gains):
        return None
    return _place(rgb, quad, paper, cards, SEED_SURE, seeded=True)


def _as_grouped(reading: CardReading, count: int) -> bool:
    """Whether a card proposed around ``count`` symbols read as a card: as many symbols as
    were grouped or, around a single blob, more read surely (:data:`SURE`): solid symbols
    touching in a shadow or run together by blur are one blob, and the outline centred on
    it holds them all."""
    symbols = reading.number + 1
    return symbols == count or (count == 1 and reading.confidence >= SURE)


def proposals(quad: Quad, nearer: float) -> list[Quad]:
    """The outlines of the card's four neighbours (right, below, left, above), each moved
    ``nearer`` of a card's size towards it. ``quad`` is clockwise from the top left."""
    q0, q1, q2, q3 = quad.astype(np.float64)
    step = 1.0 - nearer
    across_top, across_bottom = (q1 - q0) * step, (q2 - q3) * step
    down_left, down_right = (q3 - q0) * step, (q2 - q1) * step
    return [
        np.array([q0 + across_top, q1 + across_top, q2 + across_bottom, q3 + across_bottom]),
        np.array([q0 + down_left, q1 + down_right, q2 + down_right, q3 + down_left]),
        np.array([q0 - across_top, q1 - across_top, q2 - across_bottom, q3 - across_bottom]),
        np.array([q0 - down_left, q1 - down_right, q2 - down_right, q3 - down_left]),
    ]


def grow(rgb: NDArray[Any], found: list[tuple[Quad, CardReading]],
         gains: NDArray[Any]) -> list[tuple[Quad, CardReading]]:  # fmt: skip
    """``found`` (cards' outlines in ``rgb``'s pixels, upright order, and their readings)
    with the touching neighbours found from them added (``gains``: what makes the photo's
    light neutral, :func:`setgame.photo.find.light_gains`)."""
    cards = list(found)
    queue = [quad for quad, _ in found]
    tried = 0
    while queue and tried < MOST:
        quad = queue.pop(0)
        paper = border(warp(rgb, quad, SIZE))[0]
        if not paper_like(paper, gains):
            continue
        for proposed in proposals(quad, NEARER):
            tried += 1
            placed = _place(rgb, proposed.astype(np.float32), paper, cards)
            if placed is not None:
                cards.append(placed)
                queue.append(placed[0])
    return cards


def _place(rgb: NDArray[Any], proposed: Quad, paper: NDArray[Any],
           cards: list[tuple[Quad, CardReading]], sure: float = SURE,
           seeded: bool = False) -> tuple[Quad, CardReading] | None:  # fmt: skip
    """The card at a proposed place, if one is there: held to more than a card found by its
    outline (its border all paper like the card that proposed it, not a tablecloth's
    pattern nor the table between two cards; no ink strewn about; no seam across its
    middle: halves of two cards; its symbols clear of its ends, unless ``seeded``: proposed
    around its own symbols), and moved until its symbols lie in its middle (a neighbour
    overlaps a little, or lies a little askew: a place a few pixels off cuts its symbols),
    then read, surely, or not at all."""
    height, width = rgb.shape[:2]
    for _ in range(4):
        if not _on_photo(proposed, width, height) or any(
                overlapping(proposed, other) for other, _ in cards):  # fmt: skip
            return None
        card = warp(rgb, proposed, SIZE)
        own, even = border(card)
        unshaded = None
        if seeded:  # a hard shadow across the card: its paper is of one colour, two lights
            unshaded = _unshaded(card)  # and the shadow's edge is no seam between two cards
            even = border(unshaded)[1]
        if even < 0.7 or float(np.abs(own - paper).max()) > 40 or crossed(card, unshaded):
            return None
        measures = measure(card)
        if measures is None or measures["stray"] > (STRAY[1] if seeded else STRAY[0]):
            return None
        if measures["stray"] > STRAY[0]:  # a little of the table or the box in it: surely
            sure = max(sure, SURE)
        dx, dy = measures["dx"], measures["dy"]
        if abs(dx) <= 3 and abs(dy) <= 3:
            # symbols running into the card's ends: a part of a card, or halves of two;
            # but the outline its own symbols propose is neither (as many symbols read as
            # were grouped, centred), and what runs into its ends is a box or a hand over
            # its corner, or the table beyond a side a few degrees off
            if measures["cut"] and not seeded:
                return None
            reading = reading_of(measures)
            return None if reading is None or reading.confidence < sure else (proposed, reading)
        proposed = (proposed + dx / SIZE[0] * (proposed[1] - proposed[0])
                    + dy / SIZE[1] * (proposed[3] - proposed[0])).astype(np.float32)  # fmt: skip
    return None


def _unshaded(card: NDArray[Any]) -> NDArray[Any]:
    """``card`` with each pixel scaled so that its brightest channel is 235: a shadow's
    step in the light is gone, a colour stays."""
    light = np.maximum(card.max(axis=2, keepdims=True).astype(np.float32), 30.0)
    result: NDArray[Any] = np.clip(card * (235.0 / light), 0, 255).astype(np.uint8)
    return result


#: A seam is a line of paper-to-paper edge this many times stronger than the card's median
#: (and at least this many grey levels a pixel, Sobel's).
SEAM: Final = (5.0, 5.0)
#: How near a side (share of the card's width or height) a seam may lie: the edge of a
#: neighbour overlapping it a little.
NEAR_SIDE: Final = 0.2


def crossed(card: NDArray[Any], unshaded: NDArray[Any] | None = None) -> bool:
    """Whether a seam runs across the middle of ``card`` (at :data:`SIZE`) along its rows or
    columns: a straight line of brightness step or shadow over the paper, with paper on
    both sides (a symbol's edge has ink on one): the outline holds halves of two cards.
    Given ``unshaded`` (:func:`_unshaded`), the steps are looked for in it, where a hard
    shadow's edge is gone; ink is what is ink in either (a dark ink's dim pixels are lifted
    to paper's light in it), and how strong a seam must be is still measured on ``card``
    (its light made one, a webcam's grain is gone too, and a blur's edge would stand out)."""
    ink = _ink(card) if unshaded is None else _ink(card) | _ink(unshaded)
    paper = cv2.dilate(ink, np.ones((9, 9), np.uint8)) == 0
    plains = _steps(card, paper)
    steps = plains if unshaded is None else _steps(unshaded, paper)
    for profile, plain in zip(steps, plains, strict=True):
        if not (plain > 0).any():
            continue
        floor = max(SEAM[0] * float(np.median(plain[plain > 0])), SEAM[1])
        near = round(NEAR_SIDE * len(profile))
        if (profile[near:len(profile) - near] > floor).any():
            return True
    return False


def _steps(card: NDArray[Any], paper: NDArray[Any]) -> list[NDArray[Any]]:
    """How strong a step of light ``card`` has on its ``paper``, per column and per row
    (0 where under half of it is paper), smoothed over 5: a seam is a few pixels wide
    (blurred); a symbol's edge past the ink's margin, one."""
    grey = cv2.GaussianBlur(cv2.cvtColor(card, cv2.COLOR_RGB2GRAY).astype(np.float32),
                            (0, 0), 1.5)  # fmt: skip
    profiles = []
    for axis, gradient in ((0, cv2.Sobel(grey, cv2.CV_32F, 1, 0)),
                           (1, cv2.Sobel(grey, cv2.CV_32F, 0, 1))):  # fmt: skip
        counts = paper.sum(axis=axis)  # per column (axis 0) or row (axis 1)
        profile = np.where(counts > 0.5 * paper.shape[axis],
                           (np.abs(gradient) * paper).sum(axis=axis) / np.maximum(counts, 1),
                           0.0)  # fmt: skip
        profiles.append(np.convolve(profile, np.ones(5) / 5, mode="same"))
    return profiles


def _ink(card: NDArray[Any]) -> NDArray[Any]:
    """Where ``card`` is ink: coloured, or darker than its paper."""
    grey = cv2.GaussianBlur(cv2.cvtColor(card, cv2.COLOR_RGB2GRAY).astype(np.float32),
                            (0, 0), 1.5)  # fmt: skip
    lab = cv2.cvtColor(card, cv2.COLOR_RGB2LAB).astype(np.float32)
    chroma = np.hypot(lab[:, :, 1] - 128, lab[:, :, 2] - 128)
    ink: NDArray[Any] = ((chroma > 20) | (grey < 0.75 * np.percentile(grey, 90))).astype(np.uint8)
    return ink


def _on_photo(quad: Quad, width: int, height: int) -> bool:
    """Whether the outline lies within the photo (a card cut by its edge is not read)."""
    x, y = quad[:, 0], quad[:, 1]
    return bool(x.min() >= -2 and y.min() >= -2 and x.max() <= width + 2 and y.max() <= height + 2)

