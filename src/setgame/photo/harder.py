"""Harder made-up photos: the conditions other photographers, decks and tables bring.

:mod:`setgame.photo.render` makes the photos the reader was first tuned and measured on;
this module makes others, for a measurement the reader was not tuned on (docs/photo.md,
"Harder conditions"). Each kind stresses one thing, on a table and under a light drawn at
random otherwise:

- ``touching``: cards laid edge to edge or slightly overlapping, and a hand or the box
  covering a corner of a card or two;
- ``shadows``: a hard-edged shadow (a person, a lamp's arm) across part of the table;
- ``glare``: a glossy highlight washing out part of a card or two;
- ``2700K`` and ``9000K``: a tungsten lamp's strong warm cast, a shade's strong cool one;
- ``tablecloth``: a gingham, striped or flowered cloth (white in it, like the cards);
- ``webcam``: a 960 x 720 frame, motion blur, noise, a low JPEG quality;
- ``tilt``: a phone held 30-40 degrees from flat (a pinhole camera: the far cards small);
- ``pale-print``: another printing: an orange red, rectangles for diamonds, thin strokes,
  stripes thin and light that the camera renders as a pale fill;
- ``many``: 18-21 cards, small in a large frame.

Every photo is seen through a pinhole camera tilted 5-25 degrees (``tilt``: 30-40) and
turned any way about the table's normal. Every random choice comes from the seed.
"""

from __future__ import annotations

from typing import Any, Final

import cv2
import numpy as np
from numpy.typing import NDArray

from setgame.photo.render import INKS, Printing, Scene, _code, face, paste, table
from setgame.rules.cards import card_name

KINDS: Final = ("touching", "shadows", "glare", "2700K", "9000K", "tablecloth", "webcam",
                "tilt", "pale-print", "many")  # fmt: skip
#: Light casts (RGB gains) of a tungsten lamp and of a blue shade, against daylight.
CASTS: Final = {"2700K": (1.0, 0.71, 0.40), "9000K": (0.70, 0.84, 1.0)}
PALE_INKS: Final = ((246, 112, 40), (20, 150, 90), (130, 60, 160))


def scene(kind: str, seed: int) -> Scene:
    """A photo of the kind ``kind`` (one of :data:`KINDS`) made from ``seed``."""
    rng = np.random.default_rng([seed, 100 + KINDS.index(kind)])
    count = int(rng.integers(18, 22)) if kind == "many" else 12
    codes = [card_name(int(c)) for c in rng.choice(81, size=count, replace=False)]
    printing = _printing(kind, rng)
    surface = _surface(kind, rng)
    width, height = 2400, 1800
    card_h = (150 if kind == "many" else 230) * rng.uniform(0.9, 1.1)
    card_w = card_h * 64 / 100
    quads = _layout(kind, count, rng, (width, height), (card_w, card_h))
    image = _table(surface, rng, (width, height))
    bare = image.copy()
    if rng.random() < 0.5 and kind != "touching":
        _soft_shadows(image, quads)
    for code, quad in zip(codes, quads, strict=True):
        card = face(_code(code), printing, int(card_h * 1.3)).astype(np.float32)
        card *= rng.uniform(0.93, 1.03)  # each card tilts a little differently to the light
        if kind == "touching":
            _drop_shadow(image, quad, rng)
        paste(image, np.clip(card, 0, 255).astype(np.uint8), quad)
    if kind == "touching" and rng.random() < 0.8:
        _cover_a_corner(image, quads, rng)
    if kind == "shadows":
        shade = _hard_shadow(image.shape[:2], rng)
        image, bare = (np.clip(i * shade, 0, 255).astype(np.uint8) for i in (image, bare))
    out = {"webcam": (960, 720), "many": (3000, 2250)}.get(kind, (2000, 1500))
    tilt = rng.uniform(30, 40) if kind == "tilt" else rng.uniform(5, 25)
    image, quads = _camera(image, bare, quads, rng, tilt, out, kind)
    if kind == "glare":
        image = _glare(image, quads, rng)
    image = _light(image, rng, kind)
    return Scene(kind, seed, image, codes, quads)


def _printing(kind: str, rng: np.random.Generator) -> Printing:
    if kind == "pale-print":
        stripe = float(rng.uniform(0.35, 0.6))
        return Printing(inks=PALE_INKS, stroke=float(rng.uniform(1.2, 1.8)), stripe=stripe,
                        pitch=float(rng.uniform(1.6, 2.4)), rectangle=bool(rng.random() < 0.7),
                        paper=(247, 245, 238), stripe_tint=float(rng.uniform(0.45, 0.8)))
    if rng.random() < 0.25:
        return Printing(inks=INKS["print"], stroke=float(rng.uniform(1.6, 2.8)),
                        rectangle=bool(rng.random() < 0.3), paper=(246, 244, 236))
    return Printing()


def _surface(kind: str, rng: np.random.Generator) -> str:
    if kind == "tablecloth":
        return str(rng.choice(["gingham", "stripes", "flowers"]))
    return str(rng.choice(["dark", "wood", "white", "pattern", "wood"]))


def _table(surface: str, rng: np.random.Generator, size: tuple[int, int]) -> NDArray[Any]:
    if surface in ("dark", "wood", "white", "pattern"):
        return table(surface, rng, size)
    width, height = size
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    colour = rng.integers(60, 220, 3).astype(np.float32)
    white = np.array([244, 242, 236], np.float32)
    cell = rng.uniform(25, 70)
    if surface == "gingham":
        a = (xx // cell) % 2
        b = (yy // cell) % 2
        share = ((a + b) / 2)[..., None]  # white, a half tint, the full colour
        image = white * (1 - share) + colour * share
    elif surface == "stripes":
        band = ((xx * 0.7 + yy * 0.7) // cell % 2)[..., None]
        image = np.where(band > 0, colour, white)
    else:  # flowers: white blossoms and leaves on a coloured ground
        image = np.broadcast_to(colour, (height, width, 3)).copy()
        for _ in range(int(width * height / cell**2 / 3)):
            x, y = int(rng.uniform(0, width)), int(rng.uniform(0, height))
            r = int(rng.uniform(0.2, 0.45) * cell)
            petal = white if rng.random() < 0.6 else rng.integers(40, 255, 3).astype(np.float32)
            for k in range(5):
                angle = 2 * np.pi * k / 5
                centre = (int(x + r * np.cos(angle)), int(y + r * np.sin(angle)))
                cv2.circle(image, centre, r, petal.tolist(), cv2.FILLED, cv2.LINE_AA)
            cv2.circle(image, (x, y), max(2, r // 2), (230, 190, 40), cv2.FILLED)
    image = image + rng.normal(0, 5, image.shape)
    result: NDArray[Any] = np.clip(image, 0, 255).astype(np.uint8)
    return result


def _layout(kind: str, count: int, rng: np.random.Generator, size: tuple[int, int],
            card: tuple[float, float]) -> list[NDArray[Any]]:  # fmt: skip
    """A grid of cards in the middle of the table: loose and turned (most kinds), or edge to
    edge, a few overlapping (``touching``)."""
    width, height = size
    cw, ch = card
    columns = int(np.ceil(np.sqrt(count * 1.3)))
    rows = int(np.ceil(count / columns))
    tight = kind == "touching"
    any_way = not tight and rng.random() < 0.5
    # apart: room for a card turned any way (its diagonal is 1.19 of its height), or
    # turned up to 12 degrees (1.30 of its width across, 1.11 of its height along)
    step_x, step_y = (cw, ch) if tight else (ch * 1.25, ch * 1.25) if any_way else (
        cw * 1.45, ch * 1.25)  # fmt: skip
    origin = np.array([width / 2 - step_x * (columns - 1) / 2,
                       height / 2 - step_y * (rows - 1) / 2])  # fmt: skip
    # edge to edge: each gap between two columns (rows) 3% apart to 8% (6%) overlapping
    shift_x = np.concatenate([[0.0], np.cumsum(rng.uniform(-0.08, 0.03, columns - 1))]) * cw
    shift_y = np.concatenate([[0.0], np.cumsum(rng.uniform(-0.06, 0.03, rows - 1))]) * ch
    quads: list[NDArray[Any]] = []
    for i in range(count):
        col, row = i % columns, i // columns
        centre = origin + np.array([col * step_x, row * step_y])
        if tight:
            centre = centre + [shift_x[col], shift_y[row]] + rng.uniform(-0.015, 0.015, 2) * cw
            angle = rng.uniform(-2, 2)
        else:
            centre = centre + rng.uniform(-0.04, 0.04, 2) * [step_x, step_y]
            angle = rng.uniform(0, 360) if any_way else rng.uniform(-12, 12)
        turn = np.radians(angle)
        rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        corners = np.array([[-cw, -ch], [cw, -ch], [cw, ch], [-cw, ch]]) / 2 @ rotation.T
        quads.append((corners + centre).astype(np.float32))
    if tight:  # the grid lies on the table at any angle
        turn = np.radians(rng.uniform(0, 360))
        rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        middle = np.array([width / 2, height / 2])
        quads = [((q - middle) @ rotation.T + middle).astype(np.float32) for q in quads]
    return quads


def _soft_shadows(image: NDArray[Any], quads: list[NDArray[Any]]) -> None:
    shadow: NDArray[Any] = np.zeros(image.shape[:2], np.float32)
    for q in quads:
        cv2.fillPoly(shadow, [(q + 5).astype(np.int32)], 1.0)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 6)
    image[:] = (image * (1 - 0.25 * shadow[..., None])).astype(np.uint8)


def _drop_shadow(image: NDArray[Any], quad: NDArray[Any], rng: np.random.Generator) -> None:
    """The faint shadow a card lying on another throws on it (or none)."""
    if rng.random() < 0.5:
        return
    mask: NDArray[Any] = np.zeros(image.shape[:2], np.float32)
    cv2.fillPoly(mask, [(quad + rng.uniform(1, 4, 2)).astype(np.int32)], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), 2)
    image[:] = (image * (1 - 0.18 * mask[..., None])).astype(np.uint8)


def _cover_a_corner(image: NDArray[Any], quads: list[NDArray[Any]],
                    rng: np.random.Generator) -> None:  # fmt: skip
    """A hand (palm and fingers) or the box's edge over a corner of one or two cards on the
    layout's rim (the corner furthest out: a thing reaching in from outside)."""
    middle = np.concatenate(quads).mean(axis=0)
    far = np.argsort([-float(np.hypot(*(q.mean(axis=0) - middle))) for q in quads])
    for index in rng.choice(far[: max(2, len(quads) // 2)], size=int(rng.integers(1, 3)),
                            replace=False):  # fmt: skip
        quad = quads[index]
        corner = quad[int(np.argmax(np.hypot(*(quad - middle).T)))]
        centre = quad.mean(axis=0)
        side = float(np.linalg.norm(quad[1] - quad[0]))
        outward = (corner - centre) / np.linalg.norm(corner - centre)
        # the covering thing reaches 15-30% of the card's side in along its diagonal
        reach = corner - outward * side * rng.uniform(0.15, 0.3)
        if rng.random() < 0.5:  # a hand: the palm outside, fingertips over the corner
            skin = tuple(int(v) for v in rng.choice([(224, 172, 140), (190, 130, 95),
                                                     (140, 95, 70)]))  # fmt: skip
            palm = reach + outward * side * 1.1
            cv2.ellipse(image, (int(palm[0]), int(palm[1])), (int(side * 0.8), int(side * 0.6)),
                        float(np.degrees(np.arctan2(*outward[::-1]))), 0, 360, skin,
                        cv2.FILLED, cv2.LINE_AA)  # fmt: skip
            for k in (-1.5, -0.5, 0.5, 1.5):
                across = np.array([-outward[1], outward[0]]) * k * side * 0.17
                tip = reach + across
                cv2.line(image, (int(palm[0] + across[0]), int(palm[1] + across[1])),
                         (int(tip[0]), int(tip[1])), skin, int(side * 0.15), cv2.LINE_AA)
        else:  # the box's corner: its edge cuts the card's corner off
            colour = tuple(int(v) for v in rng.integers(20, 200, 3))
            turn = np.radians(rng.uniform(-25, 25))
            out = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]]) @ outward
            along = np.array([-out[1], out[0]])
            box = [reach - along * side * 0.7, reach + along * side * 0.7,
                   reach + along * side * 0.7 + out * side * 1.5,
                   reach - along * side * 0.7 + out * side * 1.5]  # fmt: skip
            cv2.fillPoly(image, [np.array(box).astype(np.int32)], colour, cv2.LINE_AA)


def _hard_shadow(shape: tuple[int, ...], rng: np.random.Generator) -> NDArray[Any]:
    """The light left by a shadow with a sharp, wavy edge across a third to a half of the
    table, 35-60% of it taken away (a person standing by the lamp): per pixel, H x W x 1."""
    height, width = shape[0], shape[1]
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    along = (xx - width / 2) * np.cos(angle) + (yy - height / 2) * np.sin(angle)
    across = -(xx - width / 2) * np.sin(angle) + (yy - height / 2) * np.cos(angle)
    edge = rng.uniform(-0.15, 0.15) * width + 0.05 * width * np.sin(across / rng.uniform(80, 250))
    mask = (along > edge).astype(np.float32)
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(2, 10))
    light: NDArray[Any] = 1 - rng.uniform(0.35, 0.6) * mask[..., None]
    return light


def _camera(image: NDArray[Any], bare: NDArray[Any], quads: list[NDArray[Any]],
            rng: np.random.Generator, tilt: float, out: tuple[int, int],
            kind: str) -> tuple[NDArray[Any], list[NDArray[Any]]]:  # fmt: skip
    """The table as a pinhole camera sees it: tilted ``tilt`` degrees from looking straight
    down, turned any way, the cards framed with a margin, at ``out`` pixels. Where the view
    goes past the drawn table, the bare table (``bare``, no cards) is mirrored."""
    points = np.concatenate(quads)
    middle = (points.min(axis=0) + points.max(axis=0)) / 2
    extent = float(np.max(points.max(axis=0) - points.min(axis=0)))
    yaw, roll, pitch = np.radians([rng.uniform(0, 360), rng.uniform(-5, 5), tilt])
    rz = np.array([[np.cos(yaw), -np.sin(yaw), 0], [np.sin(yaw), np.cos(yaw), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, np.cos(pitch), -np.sin(pitch)], [0, np.sin(pitch),
                   np.cos(pitch)]])  # fmt: skip
    rr = np.array([[np.cos(roll), -np.sin(roll), 0], [np.sin(roll), np.cos(roll), 0], [0, 0, 1]])
    r = rr @ rx @ rz
    distance = extent / 2 / np.tan(np.radians(rng.uniform(24, 32)))  # a phone's field of view
    homography = np.column_stack([r[:, 0], r[:, 1], [0, 0, distance]])
    homography = homography @ np.array([[1, 0, -middle[0]], [0, 1, -middle[1]], [0, 0, 1]])
    moved = [cv2.perspectiveTransform(q.reshape(-1, 1, 2).astype(np.float64),
                                      homography).reshape(4, 2) for q in quads]  # fmt: skip
    seen = np.concatenate(moved)
    low, high = seen.min(axis=0), seen.max(axis=0)
    margin = rng.uniform(0.2, 0.3) if kind == "many" else rng.uniform(0.05, 0.15)
    ow, oh = out
    scale = min(ow * (1 - 2 * margin) / (high - low)[0], oh * (1 - 2 * margin) / (high - low)[1])
    shift = np.array([ow, oh]) / 2 - scale * (low + high) / 2
    fit = np.array([[scale, 0, shift[0]], [0, scale, shift[1]], [0, 0, 1]])
    matrix = fit @ homography
    seen_image = cv2.warpPerspective(image, matrix, out, flags=cv2.INTER_AREA)
    inside = cv2.warpPerspective(np.ones(image.shape[:2], np.float32), matrix, out,
                                 flags=cv2.INTER_AREA)[..., None]  # fmt: skip
    beyond = cv2.warpPerspective(bare, matrix, out, flags=cv2.INTER_AREA,
                                 borderMode=cv2.BORDER_REFLECT)  # fmt: skip
    seen_image = (seen_image * inside + beyond * (1 - inside)).astype(np.uint8)
    result = [cv2.perspectiveTransform(q.reshape(-1, 1, 2).astype(np.float64),
                                       matrix).reshape(4, 2).astype(np.float32) for q in quads]
    return seen_image, result


def _glare(image: NDArray[Any], quads: list[NDArray[Any]],
           rng: np.random.Generator) -> NDArray[Any]:  # fmt: skip
    """A glossy highlight (the lamp mirrored in the cards' varnish) over one to three cards,
    a bright blob whose middle is washed out."""
    height, width = image.shape[:2]
    result = image.astype(np.float32)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    for index in rng.choice(len(quads), size=int(rng.integers(1, 4)), replace=False):
        quad = quads[index]
        side = float(np.linalg.norm(quad[1] - quad[0]))
        centre = quad.mean(axis=0) + rng.uniform(-0.3, 0.3, 2) * side
        sx, sy = side * rng.uniform(0.2, 0.45), side * rng.uniform(0.15, 0.35)
        turn = rng.uniform(0, np.pi)
        u = (xx - centre[0]) * np.cos(turn) + (yy - centre[1]) * np.sin(turn)
        v = -(xx - centre[0]) * np.sin(turn) + (yy - centre[1]) * np.cos(turn)
        blob = np.exp(-((u / sx) ** 2 + (v / sy) ** 2) ** 1.5) * rng.uniform(0.6, 0.9)
        result = result * (1 - blob[..., None]) + 255 * blob[..., None]
    done: NDArray[Any] = np.clip(result, 0, 255).astype(np.uint8)
    return done


def _light(image: NDArray[Any], rng: np.random.Generator, kind: str) -> NDArray[Any]:
    """Uneven light, a colour cast, blur (a webcam's in motion), sensor noise, and JPEG's
    blocks for a webcam (its frames are compressed hard)."""
    height, width = image.shape[:2]
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (xx * np.cos(angle) + yy * np.sin(angle)) / max(width, height)
    gain = 1.0 - rng.uniform(0.0, 0.3) * (ramp - ramp.min())
    cast = CASTS.get(kind) or tuple(1.0 - rng.uniform(0, 0.1, 3))
    result = image.astype(np.float32) * gain[..., None] * np.array(cast, np.float32)
    if kind == "webcam":
        length = int(rng.integers(5, 11))
        kernel: NDArray[Any] = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5),
                                       rng.uniform(0, 180), 1.0)  # fmt: skip
        kernel = cv2.warpAffine(kernel, turn, (length, length))
        kernel = (kernel / max(float(kernel.sum()), 1e-6)).astype(np.float32)
        result = cv2.filter2D(result, -1, kernel)
    sigma = rng.uniform(0.4, 1.0) * width / 1600
    result = cv2.GaussianBlur(result, (0, 0), max(sigma, 0.3))
    result += rng.normal(0, 6 if kind == "webcam" else 3, result.shape)
    done: NDArray[Any] = np.clip(result, 0, 255).astype(np.uint8)
    if kind == "webcam":
        _, data = cv2.imencode(".jpg", cv2.cvtColor(done, cv2.COLOR_RGB2BGR),
                               [cv2.IMWRITE_JPEG_QUALITY, 60])  # fmt: skip
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
        assert decoded is not None
        done = cv2.cvtColor(decoded, cv2.COLOR_BGR2RGB)
    return done
