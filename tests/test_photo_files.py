"""Hostile and odd image files: each refused with its own code and a message quoting it,
before anything big is decoded (issue 24's bounds)."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from setgame.photo import PhotoError, probe, read_photo


def encoded(array: np.ndarray, kind: str = "PNG", **options: object) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, kind, **options)
    return buffer.getvalue()


def png_header(width: int, height: int) -> bytes:
    """A PNG file that claims ``width`` x ``height`` pixels and holds almost nothing: a
    decompression bomb's header."""
    def chunk(name: bytes, body: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(name + body))
        return struct.pack(">I", len(body)) + name + body + crc

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(bytes(1000))  # a little of what would decode to gigabytes
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


GREY = np.full((60, 80, 3), 90, np.uint8)


def test_probe_reads_the_size_from_the_header() -> None:
    header = probe(encoded(GREY))
    assert (header.format, header.width, header.height) == ("PNG", 80, 60)


@pytest.mark.parametrize(
    ("width", "height", "quoted"),
    [(9_000, 9_000, "9000 x 9000"), (60_000, 60_000, "60000 x 60000")],
)
def test_a_decompression_bomb_is_refused_before_decoding(width: int, height: int,
                                                         quoted: str) -> None:  # fmt: skip
    bomb = png_header(width, height)
    assert len(bomb) < 200
    with pytest.raises(PhotoError) as caught:
        read_photo(bomb)
    assert caught.value.code == "too_many_pixels"
    assert quoted in str(caught.value)


def test_not_an_image_quotes_the_first_bytes() -> None:
    with pytest.raises(PhotoError) as caught:
        read_photo(b"hello, this is text")
    assert caught.value.code == "not_an_image"
    assert "hello" in str(caught.value)


def test_a_truncated_jpeg_is_truncated() -> None:
    noise = np.random.default_rng(1).integers(0, 255, (200, 200, 3), dtype=np.uint8)
    data = encoded(noise, "JPEG")
    with pytest.raises(PhotoError) as caught:
        read_photo(data[: len(data) // 2])
    assert caught.value.code == "truncated"


def test_an_empty_file_and_a_blank_photo() -> None:
    with pytest.raises(PhotoError) as caught:
        read_photo(b"")
    assert caught.value.code == "empty"
    reading = read_photo(encoded(GREY))
    assert reading.cards == [] and reading.sets == []
    assert reading.to_json()["cards"] == []


@pytest.mark.parametrize(("kind", "options"), [("JPEG", {}), ("PNG", {}), ("WEBP", {}),
                                               ("WEBP", {"lossless": True})])  # fmt: skip
def test_the_declared_size_is_read_from_each_kind(kind: str, options: dict[str, object]) -> None:
    from setgame.photo.header import declared_size

    data = encoded(np.zeros((123, 456, 3), np.uint8), kind, **options)
    assert declared_size(data) == (456, 123)
    assert (probe(data).width, probe(data).height) == (456, 123)


def test_a_webp_bomb_is_refused_quoting_its_size() -> None:
    """A WebP whose extended header (VP8X) claims 16000 x 16000 pixels."""
    exif = Image.Exif()
    exif[0x0112] = 1
    data = bytearray(encoded(np.zeros((8, 8, 3), np.uint8), "WEBP", lossless=True,
                             exif=exif.tobytes()))  # fmt: skip
    assert data[12:16] == b"VP8X"
    data[24:27] = (16000 - 1).to_bytes(3, "little")
    data[27:30] = (16000 - 1).to_bytes(3, "little")
    with pytest.raises(PhotoError) as caught:
        probe(bytes(data))
    assert caught.value.code == "too_many_pixels"
    assert "16000 x 16000" in str(caught.value)


def test_a_large_file_is_refused_before_its_header_is_parsed() -> None:
    with pytest.raises(PhotoError) as caught:
        read_photo(b"\xff\xd8\xff" + bytes(2000), max_bytes=1000)
    assert caught.value.code == "too_large" and "2,003 bytes" in str(caught.value)


@pytest.mark.parametrize("array", [np.zeros((10, 10), np.float32), np.zeros((4, 4, 2), np.uint8),
                                   "pixels"])  # fmt: skip
def test_a_bad_array_is_refused(array: object) -> None:
    with pytest.raises(PhotoError) as caught:
        read_photo(array)  # type: ignore[arg-type]
    assert caught.value.code == "bad_array"
