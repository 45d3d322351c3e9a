"""Draw the web app's icons: ``python3 scripts/icons.py`` (from the repository root).

Writes ``src/setgame/web/static/icons/``: ``icon.svg``, ``icon-192.png``, ``icon-512.png`` and
``maskable-512.png`` (its drawing inside the middle 80% circle that any mask keeps, on a
full-bleed background). The drawing is the favicon's: a card with three diamonds in the cards'
red, green and purple. The PNGs are drawn from the same shapes as the SVG with NumPy (4x4
samples a pixel for smooth edges) and written with zlib: no image library is needed.
``tests/server/test_delivery.py`` checks that the committed files are what this writes.
"""

from __future__ import annotations

import struct
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

OUT = Path(__file__).resolve().parent.parent / "src" / "setgame" / "web" / "static" / "icons"
BACKGROUND = "#f4f1ea"  # the pages' light background (app.css --bg)
CARD, EDGE = "#ffffff", "#5d2a91"
COLORS = ("#e2232a", "#119a3f", "#5d2a91")  # the cards' red, green, purple (light theme)
SAMPLES = 4  # per pixel side


@dataclass(frozen=True)
class Layout:
    """Where the card lies in the 64-unit square, and the square's corner radius."""

    scale: float = 1.0
    corner: float = 12.0

    def at(self, value: float) -> float:
        return 32 + (value - 32) * self.scale


PLAIN, MASKABLE = Layout(), Layout(scale=0.68, corner=0.0)
CARD_BOX = (3.0, 10.0, 58.0, 44.0, 7.0)  # x, y, width, height, corner (favicon.svg)
STROKE = 3.0
DIAMONDS = (20.0, 32.0, 44.0)  # centres; each 12 wide and 28 tall, at y = 32


def svg(layout: Layout = PLAIN) -> str:
    x, y, w, h, r = CARD_BOX
    s, at = layout.scale, layout.at
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">',
        f'<rect width="64" height="64" rx="{layout.corner:g}" fill="{BACKGROUND}"/>',
        f'<rect x="{at(x):g}" y="{at(y):g}" width="{w * s:g}" height="{h * s:g}" '
        f'rx="{r * s:g}" fill="{CARD}" stroke="{EDGE}" stroke-width="{STROKE * s:g}"/>',
    ]
    for cx, color in zip(DIAMONDS, COLORS, strict=True):
        points = [(cx - 6, 32), (cx, 18), (cx + 6, 32), (cx, 46)]
        path = " ".join(f"{at(px):g},{at(py):g}" for px, py in points)
        parts.append(f'<polygon points="{path}" fill="{color}"/>')
    return "".join(parts) + "</svg>\n"


def _rounded(
    px: NDArray[np.float64], py: NDArray[np.float64], box: tuple[float, ...]
) -> NDArray[np.bool_]:
    """Inside a rounded rectangle (x, y, width, height, corner radius)."""
    x, y, w, h, r = box
    ax, ay = np.abs(px - (x + w / 2)), np.abs(py - (y + h / 2))
    dx, dy = np.maximum(ax - (w / 2 - r), 0), np.maximum(ay - (h / 2 - r), 0)
    result: NDArray[np.bool_] = (ax <= w / 2) & (ay <= h / 2) & (dx * dx + dy * dy <= r * r)
    return result


def _rgb(color: str) -> NDArray[np.float64]:
    return np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.float64)


def raster(size: int, layout: Layout = PLAIN) -> NDArray[np.uint8]:
    """The icon as RGBA pixels, ``size`` square (the SVG's shapes, sampled)."""
    n = size * SAMPLES
    grid = (np.arange(n) + 0.5) * (64 / n)
    px, py = np.meshgrid(grid, grid)
    s, at = layout.scale, layout.at
    x, y, w, h, r = CARD_BOX
    half = STROKE * s / 2
    card = (at(x), at(y), w * s, h * s, r * s)
    layers = [
        (_rounded(px, py, (0, 0, 64, 64, layout.corner)), BACKGROUND),
        (_rounded(px, py, (card[0] - half, card[1] - half, card[2] + 2 * half,
                           card[3] + 2 * half, card[4] + half)), EDGE),
        (_rounded(px, py, (card[0] + half, card[1] + half, card[2] - 2 * half,
                           card[3] - 2 * half, card[4] - half)), CARD),
    ]  # fmt: skip
    for cx, color in zip(DIAMONDS, COLORS, strict=True):
        inside = np.abs(px - at(cx)) / (6 * s) + np.abs(py - at(32)) / (14 * s) <= 1
        layers.append((inside, color))
    rgb, alpha = np.zeros((n, n, 3)), np.zeros((n, n))
    for mask, color in layers:  # each layer opaque where it lies: painted over what is below
        rgb[mask], alpha[mask] = _rgb(color), 1.0
    rgba = np.concatenate([rgb * alpha[..., None], alpha[..., None] * 255], axis=2)
    pixels = rgba.reshape(size, SAMPLES, size, SAMPLES, 4).mean(axis=(1, 3))
    covered = np.maximum(pixels[..., 3:] / 255, 1e-9)  # colors un-premultiplied at the edges
    pixels[..., :3] = np.where(pixels[..., 3:] > 0, pixels[..., :3] / covered, 0)
    out: NDArray[np.uint8] = np.clip(np.rint(pixels), 0, 255).astype(np.uint8)
    return out


def png(pixels: NDArray[np.uint8]) -> bytes:
    """An RGBA PNG (8 bits a channel, no filter: zlib does the rest)."""
    height, width, _ = pixels.shape
    rows = np.concatenate([np.zeros((height, 1), np.uint8), pixels.reshape(height, -1)], axis=1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    head = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"".join([
        b"\x89PNG\r\n\x1a\n",
        chunk(b"IHDR", head),
        chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)),
        chunk(b"IEND", b""),
    ])  # fmt: skip


def icons() -> dict[str, bytes]:
    """Every icon file's name and bytes."""
    return {
        "icon.svg": svg().encode(),
        "icon-192.png": png(raster(192)),
        "icon-512.png": png(raster(512)),
        "maskable-512.png": png(raster(512, MASKABLE)),
    }


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in icons().items():
        (OUT / name).write_bytes(data)
        print(f"{OUT / name}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
