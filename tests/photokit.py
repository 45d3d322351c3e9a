"""Photos of tables of known cards for the tests of ``/api/photo`` and the ``/photo`` page.

Drawn with OpenCV like the web game's own cards (``web/static/js/cards.js``: a 100 x 64 card,
upright symbols 22 x 54 side by side, 28 apart; solid, striped or open), laid out in rows on a
wooden table, and seen by a camera held at an angle (a perspective warp), with a little blur and
noise, as a JPEG. The corners of every card in the photo are known, so a test can check both
what was read and where.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

CARD_W, CARD_H = 100, 64
INK = {"R": (40, 30, 220), "G": (60, 150, 20), "P": (140, 40, 100)}  # BGR
SQUIGGLE = [
    (3, -26),
    (12, -27),
    (13, -14),
    (8, -6),
    (4, 0),
    (6, 8),
    (7, 14),
    (8, 22),
    (2, 27),
    (-3, 26),
    (-12, 27),
    (-13, 14),
    (-8, 6),
    (-4, 0),
    (-6, -8),
    (-7, -14),
    (-8, -22),
    (-2, -27),
    (3, -26),
]  # cards.js's S: a start point, then six cubic curves of three points each


@dataclass(frozen=True)
class TablePhoto:
    """A photo (JPEG bytes) and, per card, its code and its corners in the photo."""

    jpeg: bytes
    codes: list[str]
    corners: list[list[tuple[float, float]]]
    width: int
    height: int


def _bezier(points: list[tuple[int, int]], steps: int = 12) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = [points[0]]
    for i in range(1, len(points) - 2, 3):
        p0, p1, p2, p3 = (np.array(p, float) for p in points[i - 1 : i + 3])
        for k in range(1, steps + 1):
            t = k / steps
            q = (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t**2 * p2 + t**3 * p3
            out.append((float(q[0]), float(q[1])))
    return out


def _outline(shape: str) -> list[tuple[float, float]]:
    """A symbol's outline in card units, centred on (0, 0)."""
    if shape == "D":
        return [(0, -26), (11, 0), (0, 26), (-11, 0)]
    if shape == "O":
        top = [(11 * np.cos(a), -15 - 11 * np.sin(a)) for a in np.linspace(0, np.pi, 16)]
        bottom = [(-11 * np.cos(a), 15 + 11 * np.sin(a)) for a in np.linspace(0, np.pi, 16)]
        return top + bottom
    return _bezier(SQUIGGLE)


def draw_card(code: str, scale: int = 4) -> np.ndarray:
    """One card face (BGR), ``CARD_W * scale`` x ``CARD_H * scale`` pixels."""
    w, h = CARD_W * scale, CARD_H * scale
    card = np.full((h, w, 3), 250, np.uint8)
    count, color, shading, shape = int(code[0]), INK[code[1]], code[2], code[3]
    for i in range(count):
        cx = (i - (count - 1) / 2) * 28
        pts = np.array([((x + cx + 50) * scale, (y + 32) * scale) for x, y in _outline(shape)])
        poly = np.round(pts).astype(np.int32)
        if shading == "S":
            cv2.fillPoly(card, [poly], color, cv2.LINE_AA)
        elif shading == "T":
            mask = np.zeros((h, w), np.uint8)
            cv2.fillPoly(mask, [poly], 255)
            lines = np.zeros_like(card)
            for y in range(0, h, max(2, int(2.6 * scale))):
                cv2.line(lines, (0, y), (w, y), color, max(1, scale // 2))
            card[mask > 0] = np.where(lines[mask > 0] > 0, lines[mask > 0], card[mask > 0])
        cv2.polylines(card, [poly], True, color, max(2, int(1.6 * scale)), cv2.LINE_AA)
    return card


def table_photo(
    codes: list[str],
    *,
    columns: int = 4,
    size: tuple[int, int] = (1600, 1200),
    seed: int = 1,
    angle: float = 0.12,
) -> TablePhoto:
    """The cards in rows of ``columns`` on a wooden table, photographed at an angle."""
    rng = random.Random(seed)
    width, height = size
    flat = _wood(width, height, rng)
    rows = (len(codes) + columns - 1) // columns
    scale = max(2, int(min(width * 0.9 / columns / 106, height * 0.85 / rows / 74)))
    cw, ch = CARD_W * scale, CARD_H * scale
    gap_x, gap_y = cw // 6, ch // 4
    left = (width - columns * cw - (columns - 1) * gap_x) // 2
    top = (height - rows * ch - (rows - 1) * gap_y) // 2
    placed: list[np.ndarray] = []
    for i, code in enumerate(codes):
        x, y = left + (i % columns) * (cw + gap_x), top + (i // columns) * (ch + gap_y)
        face = draw_card(code, scale)
        cv2.rectangle(flat, (x + 3, y + 5), (x + cw + 3, y + ch + 5), (30, 40, 50), -1)  # shadow
        flat[y : y + ch, x : x + cw] = face
        placed.append(np.array([[x, y], [x + cw, y], [x + cw, y + ch], [x, y + ch]], float))
    warp = _camera(width, height, angle)
    photo = cv2.warpPerspective(flat, warp, (width, height), borderMode=cv2.BORDER_REFLECT)
    photo = cv2.GaussianBlur(photo, (3, 3), 0.8)
    noise = np.random.default_rng(seed).normal(0, 3, photo.shape)
    photo = np.clip(photo + noise, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    corners = [
        [(float(px), float(py)) for px, py in cv2.perspectiveTransform(q[None], warp)[0]]
        for q in placed
    ]
    return TablePhoto(jpeg.tobytes(), list(codes), corners, width, height)


def _wood(width: int, height: int, rng: random.Random) -> np.ndarray:
    """A brown table with a grain."""
    ys = np.arange(height)[:, None]
    xs = np.arange(width)[None, :]
    grain = np.sin(ys / 7.0 + np.sin(xs / 150.0) * 3 + rng.random() * 6) * 12
    base = np.stack([40 + grain, 80 + grain, 130 + grain], axis=-1)
    return np.clip(base, 0, 255).astype(np.uint8)


def _camera(width: int, height: int, angle: float) -> Any:
    """A camera tilted towards the far edge: the top of the table looks narrower."""
    d = angle * width
    src = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    dst = np.float32([[d, d * 0.4], [width - d, d * 0.4], [width, height], [0, height]])
    return cv2.getPerspectiveTransform(src, dst)


def centre(points: list[tuple[float, float]] | list[list[float]]) -> tuple[float, float]:
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return sum(xs) / len(xs), sum(ys) / len(ys)


def png_header_bomb(width: int, height: int) -> bytes:
    """A PNG file of a few hundred bytes whose header claims ``width`` x ``height`` pixels
    (grey, all zero rows compressed away): a decompression bomb if anyone decoded it."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = zlib.compressobj(9)
    idat = b"".join(rows.compress(b"\x00" * (width + 1)) for _ in range(min(height, 64)))
    idat += rows.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def padded(jpeg: bytes, megabytes: float) -> bytes:
    """The same JPEG made heavier by comment segments after its start (as a camera's large
    metadata would): the same pixels, ``megabytes`` more to send."""
    segment = b"\xff\xfe" + (65535).to_bytes(2, "big") + b"x" * 65533
    count = int(megabytes * 1024 * 1024 / len(segment)) + 1
    return jpeg[:2] + segment * count + jpeg[2:]
