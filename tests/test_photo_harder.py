"""The photo reader under harder conditions (docs/photo.md, "Harder conditions"): each test
is a made-up photo (``setgame.photo.harder``, seeded) or card that the reader before these
changes got wrong, so that a fixed condition cannot quietly come back: a tungsten lamp's
cast on a white table, a phone 30-40 degrees from flat, cards laid edge to edge, a moving
webcam that runs the symbols together and blurs the stripes, a glare over a solid fill, a
tablecloth with white in it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from setgame.photo import read_photo
from setgame.photo.card import read_card
from setgame.photo.harder import scene
from setgame.photo.render import Printing, face
from setgame.rules.cards import CARDS, attributes, card_name, make_card, parse_card


def tally(kind: str, seed: int) -> tuple[int, int, list[str]]:
    """Read the made-up photo: the cards read right at their place, the cards reported,
    and what was reported where no card lies or read wrong."""
    photo = scene(kind, seed)
    reading = read_photo(photo.jpeg())
    right, wrong = 0, []
    for card in reading.cards:
        centre = np.mean(np.asarray(card.corners, np.float32), axis=0)
        inside = [i for i, q in enumerate(photo.corners)
                  if cv2.pointPolygonTest(q.reshape(-1, 1, 2).astype(np.float32),
                                          (float(centre[0]), float(centre[1])), False) >= 0]
        inside.sort(key=lambda i: float(np.hypot(*(photo.corners[i].mean(axis=0) - centre))))
        if not inside:
            wrong.append(f"{card.code} where no card lies")
        elif card.code != photo.codes[inside[0]]:
            wrong.append(f"{photo.codes[inside[0]]} read as {card.code}")
        else:
            right += 1
    return right, len(reading.cards), wrong


@pytest.mark.parametrize(("kind", "seed"), [
    ("2700K", 0),  # a white table under a tungsten lamp: nothing was pale (4 of 12 found)
    ("tilt", 1),  # a phone 30-40 degrees from flat: the far cards squarish (8 of 12)
    ("webcam", 1),  # a moving 960 x 720 webcam: two symbols run into one (9 of 12)
    ("tablecloth", 0),  # a gingham cloth: no card proposed on the cloth
    # a cool light on a pale blue table: a third of a card (its corner, round one open
    # oval) read as surely as the card and won; its neighbour proposed beside it (10 of 12)
    ("9000K", 3004),
    # cards edge to edge: two cards' outlines, proposed around their symbols, took in a
    # strip of the table beyond a side ("ink strewn over the paper") and were refused
    ("touching", 8),
])  # fmt: skip
def test_a_harder_table_is_read_whole(kind: str, seed: int) -> None:
    right, reported, wrong = tally(kind, seed)
    assert (right, reported, wrong) == (12, 12, [])


def test_touching_cards_are_found_from_their_neighbours() -> None:
    """Twelve cards edge to edge, some overlapping, a hand or the box over a corner: the
    reader before found 4 of them; the neighbours of each card found are proposed and
    read. Nothing is reported off the cards."""
    right, _, wrong = tally("touching", 2)
    assert right >= 8, wrong
    assert not [w for w in wrong if "no card" in w]


def test_symbols_run_together_by_blur_are_counted_apart() -> None:
    """Three solid ovals blurred until the gaps between them fill: three, not one."""
    card = face(parse_card("3RSO"), Printing(), 300)
    blurred = cv2.GaussianBlur(card, (0, 0), 6)
    reading = read_card(blurred)
    assert reading is not None
    assert card_name(make_card(*reading.values))[0] == "3"


def moving_webcam(card: int, length: int, angle: float) -> np.ndarray:
    """``card`` as a 960 x 720 webcam frame shows it (95 pixels tall), moved ``length``
    pixels at ``angle`` degrees while the shutter was open, with noise and JPEG 60."""
    image = face(card, Printing(), 95).astype(np.float32)
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    image = cv2.filter2D(image, -1, kernel / kernel.sum())
    image += np.random.default_rng(card).normal(0, 6, image.shape)
    ok, data = cv2.imencode(".jpg", np.clip(image, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, 60])  # fmt: skip
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_UNCHANGED)


def test_cards_blurred_by_a_moving_webcam_are_read_right() -> None:
    """All 81 cards moved 7 pixels diagonally: a blurred outline is weaker than the stripes
    inside it (read solid before: 29 of 81 read wrong, striped as solid, open as striped);
    stripes still seen inside are stripes."""
    wrong = []
    for card in CARDS:
        reading = read_card(moving_webcam(card, 7, 45))
        got = None if reading is None else card_name(make_card(*reading.values))
        if got != card_name(card):
            wrong.append(f"{card_name(card)} read as {got}")
    assert len(wrong) <= 3, wrong


@pytest.mark.parametrize(("length", "angle"), [(8, 20), (10, 0)])
def test_stripes_a_moving_webcam_spread_into_a_pale_fill_are_stripes(length: int,
                                                                    angle: float) -> None:
    """Striped cards moved across their stripes: the stripes blur into an even fill that
    the blurred outline does not outweigh, and no stripe is left to see (8 pixels at 20
    degrees: 12 of the 27 were read solid before; 10 at 0 degrees: 3). Even the fill's
    fullest part holds far less ink than the outline's sides along the motion, which a
    solid fill's does not: striped. Every solid card stays solid."""
    wrong = []
    for card in (c for c in CARDS if attributes(c)[2] != 2):
        reading = read_card(moving_webcam(card, length, angle))
        if reading is None or reading.shading != attributes(card)[2]:
            wrong.append(card_name(card))
    assert wrong == []


def test_a_webcams_blurred_stripes_are_read_striped_on_a_photo() -> None:
    """A moving webcam (tuning seed 2): 2PTS read as 2PSS before, and 2RTO, its stripes
    read solid, not proposed as a neighbour (9 of 12 read right). Nothing is reported off
    the cards."""
    right, _, wrong = tally("webcam", 2)
    assert right >= 11, wrong
    assert not [w for w in wrong if "no card" in w], wrong


def test_open_symbols_run_together_by_a_moving_webcam_are_cut_apart() -> None:
    """A moving webcam (seed 8): two open ovals whose outlines touch are one region that no
    threshold parts (read as one striped diamond before); it is cut at its waist. Striped
    symbols whose outline blurred are striped (read solid before). 6 of 12 were read right.
    The twelfth (2GTO), pieces of symbols with ink off them, is no longer reported (read
    1GTO)."""
    right, reported, wrong = tally("webcam", 8)
    assert right >= 11, wrong
    assert reported == right


def glared(card: int) -> np.ndarray:
    """``card`` with a glossy highlight (80% white at its middle) over its upper middle."""
    image = face(card, Printing(), 200).astype(np.float32)
    height, width = image.shape[:2]
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    reach = ((xx - width / 2) / (0.3 * width)) ** 2 + ((yy - 0.35 * height) / (0.2 * width)) ** 2
    blob = (0.8 * np.exp(-(reach**1.5)))[..., None]
    return np.clip(image * (1 - blob) + 255 * blob, 0, 255).astype(np.uint8)


def test_a_glare_over_a_solid_fill_leaves_it_solid() -> None:
    """A washed-out patch over part of a solid fill is no sign of stripes (6 of the 27
    solid cards were read striped before): the rest of the fill is still full."""
    wrong = []
    for card in (c for c in CARDS if attributes(c)[2] == 0):
        reading = read_card(glared(card))
        if reading is None or reading.shading != 0:
            wrong.append(card_name(card))
    assert wrong == []


def washed(card: int, end: int) -> np.ndarray:
    """``card`` with a glossy highlight (90% white at its middle) over the symbol at one
    ``end`` (-1 the top, 1 the bottom): a faint trace of it is left."""
    image = face(card, Printing(), 280).astype(np.float32)
    height, width = image.shape[:2]
    middle = height / 2 + end * attributes(card)[0] / 2 * 28 / 100 * height
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    reach = ((xx - width / 2) / (0.45 * width)) ** 2 + ((yy - middle) / (0.14 * height)) ** 2
    blob = (0.9 * np.exp(-(reach**2)))[..., None]
    return np.clip(image * (1 - blob) + 255 * blob, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("end", [-1, 1])
def test_a_symbol_washed_out_by_glare_is_counted_from_its_trace(end: int) -> None:
    """A glare washing out the symbol at one end of a card of two or three leaves the
    others off the card's middle by half a pitch, and a faint trace where it was: it is
    counted (37 of the 54 cards were read one symbol short before)."""
    wrong = []
    for card in (c for c in CARDS if attributes(c)[0] > 0):
        reading = read_card(washed(card, end))
        got = None if reading is None else card_name(make_card(*reading.values))
        if got != card_name(card):
            wrong.append(f"{card_name(card)} read as {got}")
    assert len(wrong) <= 2, wrong


def test_a_card_of_fewer_symbols_has_no_trace_of_more() -> None:
    """A card of one or two symbols, on clean paper, is not read with a symbol more."""
    wrong = []
    for card in (c for c in CARDS if attributes(c)[0] < 2):
        reading = read_card(face(card, Printing(), 280))
        if reading is None or reading.number != attributes(card)[0]:
            wrong.append(card_name(card))
    assert wrong == []


@pytest.mark.parametrize(("kind", "seed", "right"), [
    # two outlines over parts of two cards and the table between them, their symbols
    # pieces (never whole), ink off them or at their ends (read 2GOD and 2RSS, 0.6 sure:
    # 5 of 7 reported right before)
    ("webcam", 4, 8),
    # bands of a striped cloth between cards, read 1RSS and 1RSO (12 of 14)
    ("tablecloth", 6, 12),
])  # fmt: skip
def test_pieces_of_symbols_with_ink_off_them_are_no_card(kind: str, seed: int,
                                                          right: int) -> None:  # fmt: skip
    found, reported, wrong = tally(kind, seed)  # webcam 4: 10 since the ninth round
    assert found >= right and (reported, wrong) == (found, [])


def spaced(card: int, gaps: tuple[int, int]) -> np.ndarray:
    """A card of three symbols (``card``'s) laid with ``gaps`` rows of paper between them."""
    image = face(card, Printing(), 280)
    height = image.shape[0]
    pitch = round(28 / 100 * height)
    bands = [image[height // 2 + i * pitch - 35:height // 2 + i * pitch + 35] for i in (-1, 0, 1)]
    paper = np.full((1, *image.shape[1:]), image[3, image.shape[1] // 2], np.uint8)
    parts = [paper.repeat(30, axis=0), bands[0], paper.repeat(gaps[0], axis=0), bands[1],
             paper.repeat(gaps[1], axis=0), bands[2], paper.repeat(30, axis=0)]  # fmt: skip
    return np.concatenate(parts)


def test_three_symbols_spaced_unevenly_are_no_card() -> None:
    """A card's three symbols are evenly spaced: three symbols with one gap three times
    the other (halves of two cards read across) are no card; evenly spaced, they are."""
    for card in (c for c in CARDS if attributes(c)[0] == 2):
        assert read_card(spaced(card, (8, 8))) is not None, card_name(card)
        assert read_card(spaced(card, (8, 50))) is None, card_name(card)


@pytest.mark.parametrize(("kind", "seed", "right"), [
    # an outline over two touching cards, read sideways as three symbols unevenly
    # spaced (3PSD, 0.5 sure), kept the two cards' symbols from proposing them
    ("touching", 9, 10),
    # a band of a striped cloth read as three symbols (3PTS); the twelfth card is found
    # since its outline that fits wins over one that cuts its corner (eleventh round)
    ("tablecloth", 3, 12),
])  # fmt: skip
def test_symbols_spaced_unevenly_are_no_card_on_a_photo(kind: str, seed: int,
                                                        right: int) -> None:  # fmt: skip
    assert tally(kind, seed) == (right, right, [])


def test_open_symbols_cut_by_a_loose_outline_are_not_read_surely() -> None:
    """A card proposed beside another lands a sixth of its width off: its open symbols,
    cut by the outline's side, are pieces of line whose inside is no paper (read solid or
    striped 0.95 sure before, and taken as a card). Read right, or not surely."""
    sure_and_wrong = []
    for card in (c for c in CARDS if attributes(c)[2] == 2):
        image = face(card, Printing(), 280)
        sixth = image.shape[1] // 6
        off = np.concatenate([image[:, sixth:], np.full_like(image[:, :sixth], 250)], axis=1)
        reading = read_card(off)
        if reading is not None and card_name(make_card(*reading.values)) != card_name(card) \
                and reading.confidence >= 0.7:  # fmt: skip
            sure_and_wrong.append(card_name(card))
    assert sure_and_wrong == []


def test_a_block_of_touching_cards_with_no_seam_seen_is_cut_into_cards() -> None:
    """Twelve cards edge to edge in one block whose seams no mask sees (tuning seed 4): the
    reader before found no card of it but two taken as one (read as a card); the block, a
    whole number of cards long and wide, is cut into rows and columns, its corner cards
    read, and the rest found from them."""
    right, _, wrong = tally("touching", 4)
    assert right >= 8, wrong
    assert not [w for w in wrong if "no card" in w]


def test_blossoms_of_a_flowered_cloth_are_not_cards() -> None:
    """A flowered cloth with white blossoms (tuning seed 6): the reader before read seven
    blossoms as cards beside the twelve; an outline under 0.4 of the middle card's size
    read unsurely is no card (the cards of one table differ in size by perspective alone)."""
    right, _, wrong = tally("tablecloth", 6)
    assert right == 12, wrong
    assert len([w for w in wrong if "no card" in w]) <= 2, wrong


@pytest.mark.parametrize(("kind", "seed", "before", "now"), [
    ("touching", 6, 1, 8),  # a block whose rows are shifted and whose corner a box covers
    ("tablecloth", 4, 5, 9),  # cards on a striped cloth whose white stripes run into them
    # blurred cards on a white table: no outline closes (a fourth was read by a second
    # guess, right; a card read twice is now left out)
    ("webcam", 4, 2, 3),
    # outlines across two cards read (wrongly) as cards, in the way of the cards under
    # them: the outlines around the symbols are plain and win
    ("touching", 9, 1, 6),
    ("shadows", 5, 6, 8),  # cards in a hard shadow, whose ink is dimmed with the paper
])  # fmt: skip
def test_cards_whose_outline_no_mask_shows_are_found_by_their_symbols(
        kind: str, seed: int, before: int, now: int) -> None:  # fmt: skip
    """Tuning photos on which the reader before read only ``before`` cards right: no mask
    closed the others' outlines, and no card found beside them proposed them. Their
    symbols, grouped into cards, propose each card's outline (read under a proposed
    neighbour's checks); nothing is reported off the cards."""
    right, _, wrong = tally(kind, seed)
    assert right >= now > before, wrong
    assert not [w for w in wrong if "no card" in w]


@pytest.mark.parametrize("light", [1.0, 0.45])
def test_a_cards_symbols_propose_its_outline(light: float) -> None:
    """Three symbols of one card, on a card laid on a white table whose edge no mask sees,
    are one group, and the outline they propose lies on the card: about its size and
    place, its long side along the card's; in a hard shadow too (0.45 of the light left
    on the card, the table beside it in full light: the symbols' ink is dimmed with the
    paper, and its chroma falls under what ink has in full light)."""
    from setgame.photo.find import searched
    from setgame.photo.symbols import proposed, symbols

    photo = np.full((900, 1200, 3), 238, np.uint8)
    card = face(CARDS[parse_card("3GTO")], Printing(), 400)  # 256 x 400, upright
    quad = np.array([[500, 250], [756, 250], [756, 650], [500, 650]], np.float32)
    turn = cv2.getRotationMatrix2D((628, 450), 30, 1.0)
    quad = cv2.transform(quad.reshape(-1, 1, 2), turn).reshape(4, 2)
    source = np.array([[0, 0], [255, 0], [255, 399], [0, 399]], np.float32)
    matrix = cv2.getPerspectiveTransform(source, quad.astype(np.float32))
    cv2.warpPerspective(card, matrix, (1200, 900), photo, borderMode=cv2.BORDER_TRANSPARENT)
    photo[:, 380:] = (photo[:, 380:] * light).astype(np.uint8)  # the card's side of the table
    small, scale = searched(photo)
    outlines = proposed((symbols(small), scale), [])
    assert len(outlines) == 1
    ways, count = outlines[0]
    assert count == 3
    assert len(ways) == 1
    outline = ways[0]
    assert np.hypot(*(outline.mean(axis=0) - quad.mean(axis=0))) < 15
    ratio = cv2.contourArea(outline) / cv2.contourArea(quad)
    assert 0.8 < ratio < 1.25


@pytest.mark.parametrize("code", ["3ROS", "2GOS", "3PSD"])
@pytest.mark.parametrize("angle", [0, 30, 75])
def test_the_outline_of_a_cards_squiggles_lies_along_the_card(code: str, angle: int) -> None:
    """The outline proposed around two or three symbols lies along the line they stand on:
    a squiggle's own long axis (its moments') leans 7.5 degrees off the card's, and the
    outline taken along it (before) cut the outer symbols at the card's sides, so a card
    of three open squiggles between found neighbours was read one symbol (tuning seed 1
    of `touching`)."""
    from setgame.photo.find import searched
    from setgame.photo.symbols import proposed, symbols

    photo = np.full((900, 1200, 3), 238, np.uint8)
    card = face(CARDS[parse_card(code)], Printing(), 400)  # 256 x 400, upright
    quad = np.array([[500, 250], [756, 250], [756, 650], [500, 650]], np.float32)
    turn = cv2.getRotationMatrix2D((628, 450), angle, 1.0)
    quad = cv2.transform(quad.reshape(-1, 1, 2), turn).reshape(4, 2)
    source = np.array([[0, 0], [255, 0], [255, 399], [0, 399]], np.float32)
    matrix = cv2.getPerspectiveTransform(source, quad.astype(np.float32))
    cv2.warpPerspective(card, matrix, (1200, 900), photo, borderMode=cv2.BORDER_TRANSPARENT)
    small, scale = searched(photo)
    ((outline,), count), = proposed((symbols(small), scale), [])

    def long_side(q: np.ndarray) -> float:
        side = max((q[(i + 1) % 4] - q[i] for i in range(4)), key=lambda v: np.hypot(*v))
        return float(np.degrees(np.arctan2(side[1], side[0])))

    assert count == int(code[0])
    assert abs((long_side(outline) - long_side(quad) + 90) % 180 - 90) < 2.0


def test_a_card_read_twice_is_reported_once_on_a_cloth() -> None:
    """A flowered cloth (tuning seed 5): two outlines on the cloth read as cards already on
    the table (less surely) were reported under their second guess before; the less sure
    of two cards read alike is left out. Nothing is reported off the cards."""
    right, _, wrong = tally("tablecloth", 5)
    assert right >= 11, wrong
    assert not [w for w in wrong if "no card" in w], wrong


def test_a_card_in_a_hard_shadow_is_found_by_its_symbols() -> None:
    """A hard shadow's edge across the table (tuning seed 3): the symbols of the cards
    half in it proposed their outlines, but a border half in the shadow holds two levels
    of paper and was refused as not plain (9 of 12 read right before). The evenness of a
    border proposed by symbols is measured with each pixel's light made one (its colour
    stays: a cloth's band or the table beside it is still no paper)."""
    right, _, wrong = tally("shadows", 3)
    assert right >= 11, wrong
    assert not [w for w in wrong if "no card" in w], wrong


def test_a_hard_shadows_edge_across_a_card_is_no_seam() -> None:
    """A hard shadow's edge across a card (seed 3002, looked at in development): the
    outline its symbols proposed was refused as crossed by a seam (halves of two cards:
    a step of light with paper on both sides), 10 of 12 read right before. The step is
    looked for with each pixel's light made one, where a shadow's edge is gone."""
    right, _, wrong = tally("shadows", 3002)
    assert right >= 11, wrong
    assert not [w for w in wrong if "no card" in w], wrong


def test_solid_symbols_touching_in_a_shadow_are_one_blob_read_as_many() -> None:
    """Three solid ovals touching, half in a hard shadow (tuning seed 5): one blob, whose
    outline, centred on it, read as three ovals 0.91 sure and was refused for reading
    more symbols than were grouped (9 of 12 read right before). Around a single blob a
    card read surely (0.7) may hold more."""
    right, _, wrong = tally("shadows", 5)
    assert right >= 10, wrong
    assert not [w for w in wrong if "no card" in w], wrong


@pytest.mark.parametrize(("kind", "seed", "before"), [
    ("touching", 9, 5),  # the box over a card's corner; a single open squiggle's outline
    ("tablecloth", 1, 6),  # a striped cloth's white bands running into the cards
])  # fmt: skip
def test_a_card_found_by_its_symbols_may_hold_a_box_over_its_ends(
        kind: str, seed: int, before: int) -> None:  # fmt: skip
    """Tuning photos on which the reader before read ``before`` cards right: the outlines
    proposed around cards' symbols were refused because something ran into their ends (the
    box over a corner, the table beyond a side a few degrees off), as a part of a card's
    would. An outline proposed around its own symbols, read as many as were grouped and
    centred on them, is no part of a card: it is now taken. Nothing is reported off the
    cards."""
    right, _, wrong = tally(kind, seed)
    assert right >= before + 2, wrong
    assert not [w for w in wrong if "no card" in w], wrong


@pytest.mark.parametrize(("kind", "seed", "before"), [
    ("webcam", 9, 8),  # a moving webcam: outlines strong in pieces only, halos of blur
    ("pale-print", 8, 10),  # thin strokes of another printing on a pale table
])  # fmt: skip
def test_symbols_of_faint_ink_propose_their_cards(kind: str, seed: int, before: int) -> None:
    """Tuning photos on which the reader before read ``before`` cards right: no outline
    closed the others, and their symbols were not seen as blobs (an open outline's ink
    strong in pieces only, a solid symbol's halo of blur neither ink nor paper). The last
    look for cards by their symbols takes the fainter ink joined to the strong ink as the
    blob's. Nothing is reported off the cards."""
    right, _, wrong = tally(kind, seed)
    assert right >= before + 2, wrong
    assert not [w for w in wrong if "no card" in w], wrong


def test_a_faint_open_outline_is_one_symbol() -> None:
    """An open oval whose outline a motion blur leaves strong in pieces only: as strong
    ink, it is no blob shaped like a symbol; with the fainter ink joined to it, one."""
    from setgame.photo.symbols import WEAK, symbols

    photo = np.full((750, 1000, 3), 236, np.uint8)
    cv2.ellipse(photo, (500, 375), (110, 45), 0, 0, 360, (198, 140, 150), 5)  # faint red
    for start in (0, 90, 180, 270):  # pieces of it stronger
        cv2.ellipse(photo, (500, 375), (110, 45), 0, start + 20, start + 55, (200, 60, 70), 5)
    photo = cv2.blur(photo, (3, 3))
    assert symbols(photo) == []
    found = symbols(photo, WEAK)
    assert len(found) == 1
    assert abs(found[0].length - 225) < 15


def test_two_symbols_run_together_into_a_square_blob_propose_a_card_both_ways() -> None:
    """Two open ovals a motion blur across their length ran into one blob about as wide
    as long: no symbol's shape (2-4 times as long as wide); in the last look (the fainter
    ink taken in) a pair, which proposes a card of two symbols around it, lying either
    way (which side is the symbols' length is not known)."""
    from setgame.photo.find import searched
    from setgame.photo.symbols import WEAK, proposed, symbols

    photo = np.full((720, 960, 3), 236, np.uint8)
    for middle in (345, 405):
        cv2.ellipse(photo, (480, middle), (60, 24), 0, 0, 360, (200, 60, 70), 5)
    kernel = np.zeros((25, 25), np.float32)
    kernel[:, 12] = 1 / 25  # a moving camera: up and down, across the ovals' length
    photo = cv2.filter2D(photo, -1, kernel)
    small, scale = searched(photo)
    assert proposed((symbols(small), scale), []) == []
    outlines = proposed((symbols(small, WEAK), scale), [])
    assert len(outlines) == 1
    ways, count = outlines[0]
    assert count == 2
    assert len(ways) == 2
    for outline in ways:
        assert np.hypot(*(outline.mean(axis=0) - (480, 375))) < 10
    def long_side(way: np.ndarray) -> np.ndarray:
        one, other = way[1] - way[0], way[2] - way[1]
        side = one if np.hypot(*one) > np.hypot(*other) else other
        return side / np.hypot(*side)

    # the two ways lie turned a right angle from each other
    assert abs(float(long_side(ways[0]) @ long_side(ways[1]))) < 0.2


@pytest.mark.parametrize(("kind", "seed", "before"), [
    ("webcam", 4, 10),  # a moving webcam over a white table: two open ovals run together
    ("webcam", 5, 10),  # two striped ovals, two open diamonds
])  # fmt: skip
def test_cards_of_two_symbols_run_together_are_found(kind: str, seed: int, before: int) -> None:
    """Tuning photos on which the reader before read ``before`` cards right: on a white
    table no outline closed a blurred card, and its two symbols, run together into one
    square blob, were no symbol. A square blob now proposes a card of two symbols both
    ways; the surer reading stays. Nothing more is reported off the cards."""
    right, _, wrong = tally(kind, seed)
    assert right >= before + 1, wrong
    assert len([w for w in wrong if "no card" in w]) <= 1, wrong  # as before (webcam 5)


def test_symbols_of_two_cards_end_to_end_are_two_groups() -> None:
    """Cards edge to edge, overlapping a little, end to end: the symbols of one lie in a
    line with the other's (five alike, seed 3004 of `touching`), a chain no card has. It
    is cut where two neighbours lie further apart than a card's symbols: the card of
    three solid ovals beside the box is found (9 cards read right before, all of them
    right)."""
    right, _, wrong = tally("touching", 3004)
    assert right >= 10
    assert wrong == []


@pytest.mark.parametrize(("kind", "seed", "before"), [
    ("webcam", 8, 11),  # a blurred card: one mask's outline cut across its corners
    ("tablecloth", 3, 11),
    ("many", 3002, 18),
])  # fmt: skip
def test_an_outline_that_cuts_its_region_is_no_better_fit(kind: str, seed: int,
                                                          before: int) -> None:  # fmt: skip
    """Photos on which the reader before read ``before`` cards right: of one card's
    outlines found by several masks, the one whose region overflowed it (a side fitted
    across the card: the region fills more than the outline, up to 1.08) counted as the
    best fit, and its card was not read. An outline that cuts its region is now as poor
    a fit as one its region leaves as empty, and the outline that fits wins."""
    right, _, wrong = tally(kind, seed)
    assert right >= before + 1, wrong
    assert wrong == []


def test_two_symbols_two_cards_apart_are_no_card() -> None:
    """Two cards of one symbol each, laid edge to edge (tuning seed 7 of `touching`, a
    hand over one's corner): one outline over both read as a card of two symbols (2PTD,
    10 cards read right before), and hid both from the look for cards by their symbols.
    A card's symbols lie about half their length apart; these lie more than twice it
    apart, so the outline is no card, and each card is found by its own symbol."""
    right, reported, wrong = tally("touching", 7)
    assert (right, reported, wrong) == (12, 12, [])


def test_symbols_far_apart_are_no_cards() -> None:
    """Two diamonds of one card are half their length apart; the same two moved apart to
    a card's width (two cards' symbols seen through one outline) are no card."""
    card = face(CARDS[parse_card("2GSD")], Printing(), 280)
    paper = np.full_like(card, card[5, 5])
    height = card.shape[0]
    top, bottom = card[: height // 2].copy(), card[height // 2:].copy()
    assert read_card(card) is not None
    apart = paper.copy()  # the upper diamond moved up, the lower down, by a fifth
    shift = height // 5
    apart[: height // 2 - shift] = top[shift:]
    apart[height // 2 + shift:] = bottom[: height - height // 2 - shift]
    assert read_card(apart) is None
