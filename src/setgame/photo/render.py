"""Photos of tables of known cards, made up: for the tests and the measurement of the reader.

A card face is drawn in the web game's geometry (``web/static/js/cards.js``: each symbol
upright in a 22 x 54 box, 28 apart, a stroke of 2.2, stripes 1.3 thick every 4, on a
100 x 64 card), or in another printing's (a rectangle for the diamond, a red the camera
shows as orange, thicker or thinner strokes). The cards are laid on a table (dark,
wooden, white, patterned), each turned any way, with clutter around them (a box, a sheet
of blank paper, a hand-coloured blob, coins), then the whole scene is seen through a
camera held at an angle (a perspective transform), lit unevenly, tinted warm or cool,
blurred, given sensor noise and encoded as a JPEG. Every random choice comes from one
seed, so a photo is made again the same from its :class:`Scene`.

Nothing here is used by :func:`setgame.photo.read_photo`; it only makes its test data.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any, Final

import cv2
import numpy as np
from numpy.typing import NDArray

from setgame.rules.cards import attributes, card_name

#: The kinds of photo the measurement reports on, each a set of choices (see :func:`scene`).
KINDS: Final = ("dark", "wood", "white", "pattern", "clutter", "warm", "cool", "webcam",
                "print", "steep")  # fmt: skip

#: Ink colours (RGB): the web game's, and other printings' as a camera may see them.
INKS: Final = {
    "web": ((226, 35, 42), (17, 154, 63), (93, 42, 145)),
    "print": ((238, 92, 30), (0, 140, 80), (120, 40, 140)),
}
#: The symbol outlines in card units (the web's paths; the squiggle's curves sampled).
SQUIGGLE: Final = (
    ((3, -26), (12, -27), (13, -14), (8, -6)), ((8, -6), (4, 0), (6, 8), (7, 14)),
    ((7, 14), (8, 22), (2, 27), (-3, 26)), ((-3, 26), (-12, 27), (-13, 14), (-8, 6)),
    ((-8, 6), (-4, 0), (-6, -8), (-7, -14)), ((-7, -14), (-8, -22), (-2, -27), (3, -26)),
)  # fmt: skip


def _bezier(points: tuple[tuple[int, int], ...], steps: int = 24) -> NDArray[Any]:
    p = np.array(points, dtype=np.float64)
    t = np.linspace(0, 1, steps, endpoint=False)[:, None]
    curve: NDArray[Any] = ((1 - t) ** 3 * p[0] + 3 * (1 - t) ** 2 * t * p[1]
                           + 3 * (1 - t) * t**2 * p[2] + t**3 * p[3])  # fmt: skip
    return curve


def outline(shape: int, rectangle: bool = False) -> NDArray[Any]:
    """The outline of a symbol (diamond 0, oval 1, squiggle 2) upright around (0, 0), in
    card units; ``rectangle``: the diamond as some printings draw it."""
    if shape == 0:
        if rectangle:
            return np.array([[-10, -24], [10, -24], [10, 24], [-10, 24]], dtype=np.float64)
        return np.array([[0, -26], [11, 0], [0, 26], [-11, 0]], dtype=np.float64)
    if shape == 1:
        t = np.linspace(np.pi, 2 * np.pi, 20)
        top = np.stack([11 * np.cos(t), -15 + 11 * np.sin(t)], axis=1)
        return np.concatenate([top, -top])
    return np.concatenate([_bezier(curve) for curve in SQUIGGLE])


@dataclass(frozen=True)
class Printing:
    """How a deck is printed: its inks, stroke and stripes (card units), its diamonds."""

    inks: tuple[tuple[int, int, int], ...] = INKS["web"]
    stroke: float = 2.2
    stripe: float = 1.3
    pitch: float = 4.0
    rectangle: bool = False
    paper: tuple[int, int, int] = (250, 250, 246)
    #: How much of the ink the stripes hold (1: full ink; less: a light, washed print).
    stripe_tint: float = 1.0


def face(card: int, printing: Printing, height: int = 320) -> NDArray[Any]:
    """The face of ``card``, upright (portrait: the symbols lie across, one above the
    other, as on a real card held upright), ``height`` pixels high, RGB."""
    scale = height / 100 * 4  # drawn 4 times larger, then shrunk: smooth edges
    n, c, s, h = attributes(card)
    big = np.full((round(64 * scale), round(100 * scale), 3), printing.paper, np.uint8)
    ink = printing.inks[c]
    for i in range(n + 1):
        x = (i - n / 2) * 28
        points = outline(h, printing.rectangle) + np.array([x, 0.0])
        poly = np.round((points + np.array([50.0, 32.0])) * scale).astype(np.int32)
        if s == 0:
            cv2.fillPoly(big, [poly], ink, cv2.LINE_AA)
        elif s == 1:
            stripes = np.zeros(big.shape[:2], np.uint8)
            for y in np.arange(-32, 32, printing.pitch):
                top = round((y + 32) * scale)
                cv2.rectangle(stripes, (0, top), (big.shape[1], top + round(printing.stripe *
                              scale)), 255, cv2.FILLED)  # fmt: skip
            inside = np.zeros(big.shape[:2], np.uint8)
            cv2.fillPoly(inside, [poly], 255)
            tint = printing.stripe_tint
            stripe_ink = np.array(ink) * tint + np.array(printing.paper) * (1 - tint)
            big[(stripes > 0) & (inside > 0)] = np.round(stripe_ink).astype(np.uint8)
        cv2.polylines(big, [poly], True, ink, max(1, round(printing.stroke * scale)), cv2.LINE_AA)
    small = cv2.resize(big, (height, round(height * 0.64)), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(np.rot90(small))


@dataclass
class Scene:
    """A made-up photo and what is in it: the cards (codes) and their corners in its pixels
    (clockwise, any start), the kind of photo and its seed."""

    kind: str
    seed: int
    image: NDArray[Any]
    codes: list[str] = field(default_factory=list)
    corners: list[NDArray[Any]] = field(default_factory=list)

    def jpeg(self, quality: int = 88) -> bytes:
        """The photo as a JPEG file."""
        ok, data = cv2.imencode(".jpg", cv2.cvtColor(self.image, cv2.COLOR_RGB2BGR),
                                [cv2.IMWRITE_JPEG_QUALITY, quality])  # fmt: skip
        assert ok
        return bytes(data)

    def png(self) -> bytes:
        buffer = io.BytesIO()
        ok, data = cv2.imencode(".png", cv2.cvtColor(self.image, cv2.COLOR_RGB2BGR))
        assert ok
        buffer.write(bytes(data))
        return buffer.getvalue()


def table(kind: str, rng: np.random.Generator, size: tuple[int, int]) -> NDArray[Any]:
    """A table top of ``size`` (width, height), RGB."""
    width, height = size
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    if kind == "wood":
        base = np.array(rng.choice([(150, 100, 60), (120, 80, 45), (190, 140, 90)]), np.float32)
        angle = rng.uniform(0, np.pi)
        u = xx * np.cos(angle) + yy * np.sin(angle)
        v = -xx * np.sin(angle) + yy * np.cos(angle)
        grain = np.sin(u / rng.uniform(6, 14) + 3 * np.sin(v / rng.uniform(80, 200)))
        shade = (0.8 + 0.15 * grain + 0.05 * np.sin(u / 61.0))[..., None]
        image = base * shade
    elif kind == "white":
        base = np.array(rng.choice([(238, 238, 235), (228, 230, 232), (245, 243, 238)]))
        image = np.broadcast_to(base.astype(np.float32), (height, width, 3)).copy()
    elif kind == "pattern":
        one = rng.integers(40, 230, 3).astype(np.float32)
        two = rng.integers(40, 230, 3).astype(np.float32)
        cell = rng.uniform(20, 60)
        checks = ((xx // cell + yy // cell) % 2)[..., None]
        lines = (np.sin((xx + yy) / rng.uniform(3, 8)) > 0.6)[..., None]
        image = np.where(checks > 0, one, two) * np.where(lines, 0.8, 1.0)
    else:  # dark
        base = np.array(rng.choice([(30, 30, 32), (20, 24, 40), (45, 40, 38)]), np.float32)
        image = np.broadcast_to(base, (height, width, 3)).copy()
    image = image + rng.normal(0, 6, image.shape)
    result: NDArray[Any] = np.clip(image, 0, 255).astype(np.uint8)
    return result


def clutter(image: NDArray[Any], rng: np.random.Generator, free: NDArray[Any]) -> None:
    """A box, a sheet of blank paper, a hand-coloured blob and coins, drawn where ``free``
    (a mask) is set, if there is room."""
    height, width = image.shape[:2]
    things = [
        ("paper", (245, 245, 240)), ("box", tuple(int(v) for v in rng.integers(0, 255, 3))),
        ("hand", (224, 172, 140)), ("coin", (200, 170, 90)), ("coin", (180, 180, 185)),
    ]  # fmt: skip
    for thing, color in things:
        for _ in range(30):
            cx, cy = rng.uniform(0, width), rng.uniform(0, height)
            shape: NDArray[Any]
            if thing == "coin":
                r = rng.uniform(0.02, 0.035) * width
                circle = cv2.ellipse2Poly((int(cx), int(cy)), (int(r), int(r)), 0, 0, 360, 10)
                shape = np.array(circle)
            else:
                w = rng.uniform(0.1, 0.22) * width
                h = w * (rng.uniform(1.2, 1.5) if thing == "paper" else rng.uniform(0.4, 1.0))
                box = ((cx, cy), (w, h), rng.uniform(0, 180))
                shape = cv2.boxPoints(box).astype(np.int32)
                if thing == "hand":
                    shape = np.array(cv2.ellipse2Poly((int(cx), int(cy)), (int(w / 2),
                                     int(h / 2)), int(rng.uniform(0, 180)), 0, 360, 10))
            mask = np.zeros((height, width), np.uint8)
            cv2.fillPoly(mask, [shape], 255)
            if (mask & ~free).any() or not mask.any():
                continue
            image[mask > 0] = color
            if thing == "box":  # a printed lid: a few bold letters and a stripe
                x, y, w2, h2 = cv2.boundingRect(shape)
                cv2.putText(image, "SET", (x + w2 // 6, y + h2 // 2), cv2.FONT_HERSHEY_SIMPLEX,
                            max(w2 / 120, 0.5), (250, 250, 250), 3)  # fmt: skip
            free &= ~mask
            break


def layout(count: int, rng: np.random.Generator, size: tuple[int, int],
           card: tuple[int, int]) -> list[NDArray[Any]]:  # fmt: skip
    """Where ``count`` cards lie on a table of ``size``: a loose grid, each card turned a
    little, or any way at all, and shifted, none overlapping."""
    width, height = size
    cw, ch = card
    columns = int(np.ceil(np.sqrt(count * 1.3)))
    rows = int(np.ceil(count / columns))
    any_way = rng.random() < 0.5
    cells = [(i % columns, i // columns) for i in range(count)]
    quads = []
    step_x, step_y = width / columns, height / rows
    for col, row in cells:
        cx = (col + 0.5) * step_x + rng.uniform(-0.08, 0.08) * step_x
        cy = (row + 0.5) * step_y + rng.uniform(-0.08, 0.08) * step_y
        upright = rng.choice([0.0, 90.0]) + rng.uniform(-12, 12)
        angle = rng.uniform(0, 360) if any_way else upright
        turn = np.radians(angle)
        rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        corners = np.array([[-cw, -ch], [cw, -ch], [cw, ch], [-cw, ch]]) / 2 @ rotation.T
        quads.append((corners + np.array([cx, cy])).astype(np.float32))
    return quads


def scene(kind: str, seed: int, count: int = 12) -> Scene:
    """A photo of the kind ``kind`` (one of :data:`KINDS`) with ``count`` distinct random
    cards, made from ``seed``."""
    rng = np.random.default_rng([seed, KINDS.index(kind)])
    codes = [card_name(int(c)) for c in rng.choice(81, size=count, replace=False)]
    printing = Printing()
    if kind == "print" or (kind not in ("dark",) and rng.random() < 0.3):
        printing = Printing(inks=INKS["print"], stroke=float(rng.uniform(1.4, 3.0)),
                            stripe=float(rng.uniform(0.8, 1.4)), pitch=float(rng.uniform(2.5, 4)),
                            rectangle=bool(rng.random() < 0.6 if kind == "print" else 0.2),
                            paper=(246, 244, 236))  # fmt: skip
    surface = {"wood": "wood", "white": "white", "pattern": "pattern"}.get(
        kind, str(rng.choice(["dark", "wood", "white", "pattern"])) if kind in
        ("clutter", "warm", "cool", "steep", "print") else "dark")  # fmt: skip
    out = (4000, 3000) if kind == "steep" else (960, 720) if kind == "webcam" else (1600, 1200)
    # the flat table, seen from above, then a camera's perspective
    width, height = (2000, 1500) if out[0] >= 1600 else (1200, 900)
    image = table(surface, rng, (round(width * 1.25), round(height * 1.25)))
    margin = 0.3 if kind == "clutter" else 0.06
    area = (int(width * (1 - margin)), int(height * (1 - 0.06)))
    card_h = min(area[0] / np.ceil(np.sqrt(count * 1.3)), area[1] / np.ceil(count / np.ceil(
        np.sqrt(count * 1.3)))) * 0.62  # fmt: skip
    card_w = card_h * 64 / 100
    quads = layout(count, rng, area, (card_w, card_h))
    offset = np.array([width * margin * (1.0 if kind == "clutter" else 0.5), height * 0.03])
    offset += [width * 0.125, height * 0.125]
    quads = [q + offset.astype(np.float32) for q in quads]
    if surface == "white" or rng.random() < 0.5:  # a soft shadow under each card
        shadow: NDArray[Any] = np.zeros(image.shape[:2], np.float32)
        for q in quads:
            cv2.fillPoly(shadow, [(q + 4).astype(np.int32)], 1.0)
        shadow = cv2.GaussianBlur(shadow, (0, 0), 5)
        image = (image * (1 - 0.25 * shadow[..., None])).astype(np.uint8)
    for code, quad in zip(codes, quads, strict=True):
        paste(image, face(_code(code), printing, int(card_h * 1.3)), quad)
    if kind == "clutter" or rng.random() < 0.3:
        free: NDArray[Any] = np.full(image.shape[:2], 255, np.uint8)
        for q in quads:
            cv2.fillPoly(free, [cv2.convexHull(q.astype(np.int32))], 0)
        free = cv2.erode(free, np.ones((width // 80, width // 80), np.uint8))
        clutter(image, rng, free)
    tilt = {"steep": 0.28, "webcam": 0.12}.get(kind, 0.16)
    image, quads = camera(image, quads, rng, tilt, out)
    image = light(image, rng, kind)
    return Scene(kind, seed, image, codes, quads)


def _code(code: str) -> int:
    from setgame.rules.cards import parse_card

    return parse_card(code)


def paste(image: NDArray[Any], card: NDArray[Any], quad: NDArray[Any]) -> None:
    """``card`` (an upright face) laid into ``image`` with its corners on ``quad``, its
    corners rounded."""
    h, w = card.shape[:2]
    alpha = np.zeros((h, w), np.uint8)
    radius = max(2, round(w * 0.07))
    cv2.rectangle(alpha, (radius, 0), (w - radius - 1, h - 1), 255, cv2.FILLED)
    cv2.rectangle(alpha, (0, radius), (w - 1, h - radius - 1), 255, cv2.FILLED)
    for x, y in ((radius, radius), (w - radius - 1, radius), (radius, h - radius - 1),
                 (w - radius - 1, h - radius - 1)):  # fmt: skip
        cv2.circle(alpha, (x, y), radius, 255, cv2.FILLED, cv2.LINE_AA)
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, image.shape[1]), min(y1, image.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    source = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    matrix = cv2.getPerspectiveTransform(source, (quad - [x0, y0]).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(card, matrix, size, flags=cv2.INTER_AREA)
    weight = cv2.warpPerspective(alpha, matrix, size, flags=cv2.INTER_AREA)[..., None] / 255.0
    part = image[y0:y1, x0:x1]
    part[:] = (part * (1 - weight) + warped * weight).astype(np.uint8)


def camera(image: NDArray[Any], quads: list[NDArray[Any]], rng: np.random.Generator, tilt: float,
           out: tuple[int, int]) -> tuple[NDArray[Any], list[NDArray[Any]]]:  # fmt: skip
    """The scene as a camera held at an angle sees it: its corners moved in by up to
    ``tilt`` of the size (one side nearer than the other), at ``out`` pixels."""
    height, width = image.shape[:2]
    ow, oh = out
    # The camera frames the middle of the table (the cards lie there, a pad around them);
    # the side furthest from it takes in more table, so it looks shrunk in the photo.
    pad = np.array([width, height], np.float32) * 0.1
    source = np.array([pad, [width - pad[0], pad[1]], [width, height] - pad,
                       [pad[0], height - pad[1]]], np.float32)  # fmt: skip
    far = rng.integers(0, 4)  # 0 top, 1 right, 2 bottom, 3 left
    outward = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)
    spread = rng.uniform(0, 0.15, 4).astype(np.float32) * tilt
    spread[far] = spread[(far + 1) % 4] = tilt
    source += outward * spread[:, None] * pad * 4 * [1, 1]
    source += rng.uniform(-0.2, 0.2, (4, 2)).astype(np.float32) * pad * 0.3
    target = np.array([[0, 0], [ow, 0], [ow, oh], [0, oh]], np.float32)
    matrix = cv2.getPerspectiveTransform(source.astype(np.float32), target)
    border = tuple(int(v) for v in np.median(image.reshape(-1, 3), axis=0))
    seen = cv2.warpPerspective(image, matrix, out, flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=border)  # fmt: skip
    moved = [cv2.perspectiveTransform(q.reshape(-1, 1, 2), matrix).reshape(4, 2) for q in quads]
    return seen, moved


def light(image: NDArray[Any], rng: np.random.Generator, kind: str) -> NDArray[Any]:
    """Uneven light, a colour cast, blur and sensor noise."""
    height, width = image.shape[:2]
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (xx * np.cos(angle) + yy * np.sin(angle)) / max(width, height)
    gain = 1.0 - rng.uniform(0.0, 0.3) * (ramp - ramp.min())
    cast = {"warm": (1.0, 0.86, 0.62), "cool": (0.78, 0.9, 1.0)}.get(kind)
    if cast is None:
        cast = tuple(1.0 - rng.uniform(0, 0.08, 3))
    result = image.astype(np.float32) * gain[..., None] * np.array(cast, np.float32)
    sigma = rng.uniform(0.3, 1.0) * (1.6 if kind == "webcam" else 1.0) * width / 1600
    result = cv2.GaussianBlur(result, (0, 0), max(sigma, 0.3))
    result += rng.normal(0, 5 if kind == "webcam" else 3, result.shape)
    done: NDArray[Any] = np.clip(result, 0, 255).astype(np.uint8)
    return done
