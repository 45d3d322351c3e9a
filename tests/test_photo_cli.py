"""``setgame photo IMAGE [--json] [--draw OUT.png] [--lang]`` (issue 24, docs/photo.md):
the cards and the sets of a photo in the player's language, the issue's JSON, the drawing,
and every hostile file refused with one line quoting its path and exit status 2."""

from __future__ import annotations

import json
import os
import struct
import zlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from clikit import assert_usage_error
from setgame.photo.render import Scene, scene
from setgame.rules.cards import parse_card
from setgame.words.i18n import card_label


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Scene]:
    """A made-up photo of twelve known cards on a dark table (read whole: see
    tests/test_photo_reading.py), as a JPEG file."""
    photo = scene("dark", 7)
    path = tmp_path_factory.mktemp("photo") / "table.jpg"
    path.write_bytes(photo.jpeg())
    return path, photo


def test_photo_prints_the_cards_and_the_sets(setgame: Any, table: tuple[Path, Scene]) -> None:
    path, photo = table
    code, out, err = setgame("photo", str(path), "--lang", "en")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"12 cards in {path}:"
    listed = [line.split()[0] for line in lines[1:13]]
    assert sorted(listed) == sorted(photo.codes)
    assert f"  {photo.codes[0]}  {card_label(parse_card(photo.codes[0]), 'en')}" in lines


def test_photo_speaks_the_players_language(setgame: Any, table: tuple[Path, Scene]) -> None:
    path, photo = table
    code, out, _ = setgame("photo", str(path), "--lang", "ru")
    assert code == 0
    assert out.splitlines()[0] == f"12 карт в {path}:"
    assert card_label(parse_card(photo.codes[0]), "ru") in out


def test_photo_json_is_the_issues_shape(setgame: Any, table: tuple[Path, Scene]) -> None:
    path, photo = table
    code, out, _ = setgame("photo", "--json", str(path))
    assert code == 0
    found = json.loads(out)
    assert set(found) == {"cards", "sets", "seconds"}
    assert sorted(c["code"] for c in found["cards"]) == sorted(photo.codes)
    assert all(len(c["corners"]) == 4 and 0 <= c["confidence"] <= 1 for c in found["cards"])
    from setgame.photo.reading import sets_of

    assert sorted(map(sorted, found["sets"])) == sorted(map(sorted, sets_of(photo.codes)))


def test_photo_draw_writes_the_photo_with_the_cards_outlined(
    setgame: Any, table: tuple[Path, Scene], tmp_path: Path
) -> None:
    path, photo = table
    out_path = tmp_path / "drawn.png"
    code, _, err = setgame("photo", str(path), "--draw", str(out_path))
    assert code == 0, err
    drawn = cv2.imread(str(out_path))
    assert drawn.shape[:2] == photo.image.shape[:2]
    # the outlines are drawn in black on every card's edge: the drawing differs from the photo
    # along each card's outline, and not far from the cards
    original = cv2.cvtColor(photo.image, cv2.COLOR_RGB2BGR)
    changed = np.abs(drawn.astype(int) - original.astype(int)).sum(axis=2) > 60
    for quad in photo.corners:
        mask = np.zeros(changed.shape, np.uint8)
        cv2.polylines(mask, [quad.astype(np.int32)], True, 1, 9)
        assert changed[mask > 0].mean() > 0.3


def test_photo_draw_to_a_folder_that_is_not_there(
    setgame: Any, table: tuple[Path, Scene], tmp_path: Path
) -> None:
    target = tmp_path / "no" / "such" / "folder.png"
    result = setgame("photo", str(table[0]), "--draw", str(target))
    assert_usage_error(result, str(target))


def png_claiming(width: int, height: int) -> bytes:
    def chunk(name: bytes, body: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(name + body))
        return struct.pack(">I", len(body)) + name + body + crc

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(bytes(99)))
            + chunk(b"IEND", b""))  # fmt: skip


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("cut.jpg", "truncated", "is damaged or cut short"),
        ("huge.png", png_claiming(20_000, 20_000), "too many pixels: 20000 x 20000"),
        ("notes.txt", b"shopping: milk, eggs\n", "is not a photo"),
        ("empty.jpg", b"", "is empty"),
        ("anim.gif", b"GIF89a" + bytes(40), "is a GIF file"),
    ],
)
def test_a_hostile_file_is_one_line_quoting_its_path(
    setgame: Any, table: tuple[Path, Scene], tmp_path: Path, name: str, content: Any, words: str
) -> None:
    path = tmp_path / name
    if content == "truncated":
        data = table[0].read_bytes()
        content = data[: len(data) // 3]
    path.write_bytes(content)
    assert_usage_error(setgame("photo", str(path)), str(path), words)


def test_a_missing_file_and_a_folder(setgame: Any, tmp_path: Path) -> None:
    assert_usage_error(setgame("photo", str(tmp_path / "gone.jpg")), "gone.jpg", "no such file")
    assert_usage_error(setgame("photo", str(tmp_path)), str(tmp_path), "is a folder")


def test_a_file_too_large_is_refused_before_it_is_read(setgame: Any, tmp_path: Path) -> None:
    path = tmp_path / "big.jpg"
    with path.open("wb") as file:  # a sparse file: 64 MB that take no room on the disk
        file.truncate(64 * 1024 * 1024)
    assert_usage_error(setgame("photo", str(path)), str(path), "too large")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file(setgame: Any, table: tuple[Path, Scene], tmp_path: Path) -> None:
    path = tmp_path / "secret.jpg"
    path.write_bytes(table[0].read_bytes())
    path.chmod(0)
    assert_usage_error(setgame("photo", str(path)), str(path))


def test_the_errors_speak_the_players_language(setgame: Any, tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a photo")
    code, _, err = setgame("photo", str(path), "--lang", "de")
    assert code == 2
    assert err == f"setgame: Fehler: {path} ist kein Foto (JPEG, PNG oder WebP)\n"


def test_a_photo_without_cards(setgame: Any, tmp_path: Path) -> None:
    path = tmp_path / "floor.png"
    _, data = cv2.imencode(".png", np.full((300, 400, 3), 60, np.uint8))
    path.write_bytes(bytes(data))
    code, out, _ = setgame("photo", str(path), "--lang", "en")
    assert code == 0
    assert out == f"0 cards in {path}:\n"
