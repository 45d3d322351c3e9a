"""A reading drawn over its photo: each card's outline and code, each set in its colour."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from setgame.photo.reading import Reading

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: The colours of the sets, in turn (RGB): distinct from each other and from the cards'.
SET_COLORS: Final = (
    (255, 196, 0), (0, 170, 255), (255, 64, 160), (120, 220, 60), (255, 120, 0),
    (160, 100, 255), (0, 220, 200), (255, 255, 255),
)  # fmt: skip
#: The colour of a card's outline and code (RGB).
CARD_COLOR: Final = (0, 0, 0)


def draw_reading(rgb: NDArray[Any], reading: Reading) -> NDArray[Any]:
    """A copy of ``rgb`` (the photo as shown, at any size: the corners are scaled to it)
    with each card outlined and its code written on it, and each set drawn as rings of its
    own colour around its three cards, one ring further out per set a card belongs to."""
    import cv2
    import numpy as np

    out = np.ascontiguousarray(rgb.copy())
    scale = out.shape[1] / max(reading.width, 1)
    line = max(2, round(max(out.shape[:2]) / 400))
    quads = [np.array(card.corners, dtype=np.float32) * scale for card in reading.cards]
    first: dict[str, int] = {}  # a code read twice: its sets go on its first card
    for index, card in enumerate(reading.cards):
        first.setdefault(card.code, index)
    rings = [0] * len(quads)
    for number, group in enumerate(reading.sets):
        color = SET_COLORS[number % len(SET_COLORS)]
        for code in group:
            index = first[code]
            rings[index] += 1
            grown = _grown(quads[index], rings[index] * line * 2.5)
            cv2.polylines(out, [grown.astype(np.int32)], True, color, line, cv2.LINE_AA)
    for card, quad in zip(reading.cards, quads, strict=True):
        cv2.polylines(out, [quad.astype(np.int32)], True, CARD_COLOR, line, cv2.LINE_AA)
        _label(out, card.code, quad, line)
    return out


def _grown(quad: NDArray[Any], by: float) -> NDArray[Any]:
    """The quad moved ``by`` pixels outwards from its centre."""
    import numpy as np

    centre = quad.mean(axis=0)
    away = quad - centre
    length = np.maximum(np.hypot(away[:, 0], away[:, 1]), 1e-6)[:, None]
    result: NDArray[Any] = (quad + away / length * by).astype(np.float32)
    return result


def _label(out: NDArray[Any], text: str, quad: NDArray[Any], line: int) -> None:
    """The code written in the middle of the card, white on a black box."""
    import cv2

    height = float(abs(quad[:, 1].max() - quad[:, 1].min()))
    scale = max(0.4, height / 300)
    thickness = max(1, line // 2 + 1)
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    x, y = (int(v) for v in quad.mean(axis=0))
    x0, y0 = x - w // 2, y + h // 2
    cv2.rectangle(out, (x0 - 4, y0 - h - 4), (x0 + w + 4, y0 + base + 2), (0, 0, 0), cv2.FILLED)
    cv2.putText(out, text, (x0, y0), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255),
                thickness, cv2.LINE_AA)  # fmt: skip


def picture(data: bytes, *, longest: int = 2400) -> NDArray[Any]:
    """The photo (file bytes) as shown, RGB, at most ``longest`` pixels on its long side,
    to draw on."""
    import cv2

    from setgame.photo.decode import decode

    rgb, _ = decode(data, working=longest)
    if max(rgb.shape[:2]) > longest:
        factor = longest / max(rgb.shape[:2])
        size = (round(rgb.shape[1] * factor), round(rgb.shape[0] * factor))
        rgb = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)
    return rgb


def png(rgb: NDArray[Any]) -> bytes:
    """``rgb`` encoded as PNG."""
    import cv2

    ok, encoded = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    if not ok:
        raise ValueError("the drawing could not be encoded as PNG")
    return bytes(encoded)
