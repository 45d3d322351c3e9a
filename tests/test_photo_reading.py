"""The photo reader on photos of known cards: each card face read right under colour casts
and perspective, whole tables found and read, the sets by the rules' own judge, corners in
the photo's pixels, EXIF rotation honoured (issue 24; docs/photo.md)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from setgame.photo import Reading, read_photo
from setgame.photo.card import SIZE, read_card
from setgame.photo.reading import sets_of
from setgame.photo.render import INKS, Printing, face, scene
from setgame.rules.cards import CARDS, card_name, make_card, parse_card
from setgame.rules.sets import find_sets

PRINTINGS = {
    "web": Printing(),
    "other print": Printing(inks=INKS["print"], stroke=1.6, stripe=1.0, pitch=3.0,
                            rectangle=True, paper=(246, 244, 236)),
}  # fmt: skip
CASTS = {"neutral": (1.0, 1.0, 1.0), "warm": (1.0, 0.85, 0.62), "cool": (0.78, 0.9, 1.0)}


def seen(card: np.ndarray, cast: tuple[float, float, float], angle: float) -> np.ndarray:
    """``card`` under a coloured light, turned by ``angle`` degrees and shrunk, as a camera
    would give it after the reader's own perspective correction (a little blur)."""
    tinted = np.clip(card.astype(np.float32) * np.array(cast, np.float32), 0, 255)
    small = cv2.resize(tinted.astype(np.uint8), (SIZE[0], SIZE[1]), interpolation=cv2.INTER_AREA)
    turned = np.rot90(small, 2) if angle == 180 else small
    return cv2.GaussianBlur(np.ascontiguousarray(turned), (3, 3), 0.8)


@pytest.mark.parametrize("printing", list(PRINTINGS))
@pytest.mark.parametrize("cast", list(CASTS))
def test_every_card_face_is_read_right(printing: str, cast: str) -> None:
    """All 81 cards, in the web game's printing and in another (rectangles for diamonds, a
    red gone orange, thin strokes and dense stripes), under neutral, warm and cool light."""
    wrong = []
    for card in CARDS:
        image = seen(face(card, PRINTINGS[printing], 300), CASTS[cast], 180 * (card % 2))
        reading = read_card(image)
        got = None if reading is None else card_name(make_card(*reading.values))
        if got != card_name(card):
            wrong.append(f"{card_name(card)} read as {got}")
    assert wrong == []


def shadowed(card: np.ndarray) -> np.ndarray:
    """``card`` with a soft shadow across its upper half (a hand or the phone above it)."""
    height = card.shape[0]
    ramp = np.clip((np.arange(height) - 0.4 * height) / (0.2 * height), 0, 1)
    light = (0.55 + 0.45 * ramp)[:, None, None]
    return (card.astype(np.float32) * light).astype(np.uint8)


def test_every_card_face_is_read_right_under_a_shadow() -> None:
    wrong = []
    for card in CARDS:
        image = seen(shadowed(face(card, PRINTINGS["web"], 300)), CASTS["neutral"], 0)
        reading = read_card(image)
        got = None if reading is None else card_name(make_card(*reading.values))
        if got != card_name(card):
            wrong.append(f"{card_name(card)} read as {got}")
    assert wrong == []


def test_a_card_read_twice_is_reported_once() -> None:
    """A deck holds each card once: of two cards read alike, the less sure one is left out
    (no card, or a card misread: its second guess was seldom right)."""
    from setgame.photo.card import CardReading
    from setgame.photo.reading import _distinct

    corners = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    sure = CardReading(1, 0, 1, 0, (0.9, 0.9, 0.9, 0.9), (0, 1, 2, 1))
    unsure = CardReading(1, 0, 1, 0, (0.9, 0.9, 0.55, 0.9), (0, 1, 2, 1))
    other = ((5.0, 0.0), (6.0, 0.0), (6.0, 1.0), (5.0, 1.0))
    cards = _distinct([(other, unsure), (corners, sure)])
    assert [(c.code, c.corners, c.confidence) for c in cards] == [("2RTD", corners, 0.9)]


def test_a_card_read_upside_down_is_the_same_card() -> None:
    card = parse_card("3GTS")
    image = face(card, Printing(), 300)
    one, other = read_card(image), read_card(np.ascontiguousarray(np.rot90(image, 2)))
    assert one is not None and other is not None and one.values == other.values


def test_blank_paper_is_no_card() -> None:
    assert read_card(np.full((280, 180, 3), 240, np.uint8)) is None


def centre_inside(corners: object, quad: np.ndarray) -> bool:
    x, y = np.mean(np.asarray(corners, dtype=np.float32), axis=0)
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (float(x), float(y)), False) >= 0


def check_table(kind: str, seed: int, least_right: int) -> Reading:
    """A made-up table of 12 cards: at least ``least_right`` found at their place and read
    right, nothing reported off the cards."""
    photo = scene(kind, seed)
    reading = read_photo(photo.jpeg())
    right = 0
    for card in reading.cards:
        inside = [i for i, q in enumerate(photo.corners) if centre_inside(card.corners, q)]
        assert inside, f"{card.code} reported where no card lies"
        right += card.code == photo.codes[inside[0]]
    assert right >= least_right, (kind, seed, [c.code for c in reading.cards], photo.codes)
    return reading


@pytest.mark.parametrize(("kind", "seed"), [("dark", 7), ("cool", 3), ("webcam", 5)])
def test_a_made_up_table_is_read_whole(kind: str, seed: int) -> None:
    reading = check_table(kind, seed, least_right=12)
    assert len(reading.cards) == 12


@pytest.mark.parametrize(("kind", "seed"), [("wood", 11), ("clutter", 4), ("warm", 9)])
def test_a_harder_table_is_read_mostly_right(kind: str, seed: int) -> None:
    check_table(kind, seed, least_right=11)


def test_the_sets_are_the_rules_own_among_the_codes_read() -> None:
    photo = scene("dark", 21)
    reading = read_photo(photo.jpeg())
    codes = [card.code for card in reading.cards]
    expected = [tuple(card_name(c) for c in t) for t in find_sets([parse_card(c) for c in codes])]
    assert reading.sets == expected
    assert sorted(map(sorted, reading.sets)) == sorted(map(sorted, sets_of(photo.codes)))


def test_the_corners_are_the_cards_own_in_the_photos_pixels() -> None:
    photo = scene("pattern", 2)
    reading = read_photo(photo.jpeg())
    assert reading.width == photo.image.shape[1] and reading.height == photo.image.shape[0]
    for card in reading.cards:
        truth = next(q for q in photo.corners if centre_inside(card.corners, q))
        corners = np.array(card.corners)
        # each found corner is within 2% of the photo's width of one true corner
        distance = np.hypot(*(corners[:, None, :] - truth[None, :, :]).transpose(2, 0, 1))
        assert distance.min(axis=1).max() < 0.02 * photo.image.shape[1], (card.code, corners)
        # clockwise on screen: the signed area (y down) is positive
        x, y = corners[:, 0], corners[:, 1]
        assert np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)) > 0


def test_the_json_is_the_issues_shape() -> None:
    photo = scene("cool", 1)
    found = read_photo(photo.png()).to_json()
    assert set(found) == {"cards", "sets", "seconds"}
    for card in found["cards"]:
        assert set(card) == {"code", "corners", "confidence"}
        parse_card(card["code"])
        assert len(card["corners"]) == 4 and all(len(p) == 2 for p in card["corners"])
        assert 0 <= card["confidence"] <= 1
    assert all(len(group) == 3 for group in found["sets"])
    json.dumps(found)


def test_an_array_reads_as_its_file_does() -> None:
    photo = scene("dark", 3)
    from_array = read_photo(photo.image)
    from_file = read_photo(photo.png())
    assert [c.code for c in from_array.cards] == [c.code for c in from_file.cards]


def test_exif_rotation_is_honoured() -> None:
    """A phone stores the picture sideways and says so in EXIF (orientation 6: turn it a
    quarter clockwise to show it): the cards are read in the picture as shown, and the
    corners are in its pixels."""
    photo = scene("dark", 8)
    sideways = np.ascontiguousarray(np.rot90(photo.image, 1))  # as the sensor stored it
    buffer = io.BytesIO()
    exif = Image.Exif()
    exif[0x0112] = 6
    Image.fromarray(sideways).save(buffer, "JPEG", quality=90, exif=exif)
    reading = read_photo(buffer.getvalue())
    assert (reading.width, reading.height) == (photo.image.shape[1], photo.image.shape[0])
    right = sum(
        card.code == photo.codes[i]
        for card in reading.cards
        for i, q in enumerate(photo.corners)
        if centre_inside(card.corners, q)
    )
    assert right >= 11


PHOTOS = next(
    (p for p in (Path(__file__).resolve().parents[1].parent / "shared" / "photos",
                 Path(__file__).resolve().parents[3] / "shared" / "photos")
     if (p / "labels.json").exists()),
    None,
)  # fmt: skip


@pytest.mark.skipif(PHOTOS is None, reason="../shared/photos is not beside the repository")
@pytest.mark.parametrize("board", ["boards/red-3-20170101_124914.jpg",
                                   "boards/green-2-20170101_125057.jpg",
                                   "boards/purple-1-20170101_164036.jpg"])  # fmt: skip
def test_a_real_photo_of_nine_cards(board: str) -> None:
    """Phone photos of real cards (another deck and photographer than the made-up ones; the
    reader was not tuned on the boards): at least eight of nine read right."""
    assert PHOTOS is not None
    truth = json.loads((PHOTOS / "labels.json").read_text())["boards"][board]
    reading = read_photo((PHOTOS / board).read_bytes())
    codes = [card.code for card in reading.cards]
    assert len(codes) <= 9
    assert len(set(codes) & set(truth)) >= 8, codes
