"""A photo's kind and size, read from the first bytes of its file without decoding it.

Pillow's :func:`PIL.Image.open` is lazy: it parses the header (the JPEG frame, the PNG
IHDR, the WebP VP8 chunk) and stops, so a file of 100,000 x 100,000 pixels costs no more
than its header here and is refused before a pixel is decoded.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from setgame.photo.errors import MAX_BYTES, MAX_PIXELS, PhotoError

if TYPE_CHECKING:
    from PIL.Image import Image

#: The kinds we read, by their first bytes (WebP: "RIFF", 4 bytes of size, "WEBP").
OURS: Final = {b"\xff\xd8\xff": "JPEG", b"\x89PNG\r\n\x1a\n": "PNG"}
#: Images of other kinds, named in the error so that the user knows what to convert.
OTHERS: Final = {
    b"GIF87a": "GIF", b"GIF89a": "GIF", b"BM": "BMP", b"II*\x00": "TIFF", b"MM\x00*": "TIFF",
    b"\x00\x00\x01\x00": "ICO", b"%PDF": "PDF",
}  # fmt: skip
#: EXIF orientations that turn the picture a quarter (width and height swap).
SIDEWAYS: Final = frozenset({5, 6, 7, 8})


@dataclass(frozen=True)
class Header:
    """What the header says: the format, the size of the picture as shown (after its
    EXIF rotation) and that rotation (1 = none, as EXIF numbers them)."""

    format: str
    width: int
    height: int
    orientation: int = 1


def kind(data: bytes) -> str:
    """The format named by the file's first bytes; a :class:`PhotoError` when it is none
    of ours."""
    if not data:
        raise PhotoError("empty", "the file is empty")
    for magic, name in OURS.items():
        if data.startswith(magic):
            return name
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    if data[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftypavif"):
        raise PhotoError("unsupported", "a HEIC/AVIF image: convert it to JPEG, PNG or WebP",
                         kind="HEIC/AVIF")  # fmt: skip
    for magic, name in OTHERS.items():
        if data.startswith(magic):
            raise PhotoError("unsupported", f"a {name} file: only JPEG, PNG and WebP are read",
                             kind=name)  # fmt: skip
    raise PhotoError("not_an_image", f"not an image: the file starts with {data[:12]!r}")


def open_lazily(data: bytes, *, max_pixels: int = MAX_PIXELS, max_bytes: int = MAX_BYTES,
                ) -> tuple[Image, Header]:  # fmt: skip
    """The Pillow image (header parsed, nothing decoded) and its :class:`Header`, or a
    :class:`PhotoError` when the file is too large, of another kind, or of too many pixels."""
    from PIL import Image, UnidentifiedImageError

    if len(data) > max_bytes:
        raise PhotoError("too_large", f"the file has {len(data):,} bytes (at most {max_bytes:,})",
                         size=len(data), limit=max_bytes)  # fmt: skip
    name = kind(data)
    try:
        with warnings.catch_warnings():  # our own bound below is the one that counts
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=[name])
    except Image.DecompressionBombError as error:  # Pillow's own bound, far above ours
        size = declared_size(data)
        shown = f"{size[0]} x {size[1]} pixels" if size else str(error)
        raise PhotoError(
            "too_many_pixels", f"the image is {shown} (at most {max_pixels:,})",
            **({"width": size[0], "height": size[1]} if size else {}), limit=max_pixels,
        ) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        raise PhotoError("truncated", f"a damaged {name} header: {error}") from None
    width, height = image.size
    if width * height > max_pixels:
        raise PhotoError(
            "too_many_pixels",
            f"the image is {width} x {height} = {width * height:,} pixels "
            f"(at most {max_pixels:,})",
            width=width, height=height, limit=max_pixels,
        )  # fmt: skip
    if width < 1 or height < 1:
        raise PhotoError("truncated", f"the image is {width} x {height} pixels")
    orientation = _orientation(image)
    if orientation in SIDEWAYS:
        width, height = height, width
    return image, Header(name, width, height, orientation)


def declared_size(data: bytes) -> tuple[int, int] | None:
    """The width and height a PNG, JPEG or WebP file declares, read from its bytes (only
    to quote them when Pillow refuses the file as a bomb before saying its size)."""
    import struct

    if data.startswith(b"\x89PNG") and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if data[:4] == b"RIFF" and len(data) >= 30:
        chunk, body = data[12:16], data[20:30]
        if chunk == b"VP8X":
            return 1 + int.from_bytes(body[4:7], "little"), 1 + int.from_bytes(body[7:10], "little")
        if chunk == b"VP8 " and body[3:6] == b"\x9d\x01\x2a":
            width, height = struct.unpack("<HH", body[6:10])
            return width & 0x3FFF, height & 0x3FFF
        if chunk == b"VP8L" and body[0] == 0x2F:
            bits = int.from_bytes(body[1:5], "little")
            return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if data.startswith(b"\xff\xd8"):
        at = 2
        while at + 9 <= len(data) and data[at] == 0xFF:
            marker, length = data[at + 1], struct.unpack(">H", data[at + 2 : at + 4])[0]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # a frame header
                height, width = struct.unpack(">HH", data[at + 5 : at + 9])
                return width, height
            at += 2 + length
    return None


def _orientation(image: Image) -> int:
    """The EXIF orientation (1-8), 1 when there is none or it is nonsense."""
    try:
        value = image.getexif().get(0x0112, 1)
    except Exception:  # a damaged EXIF block does not spoil the picture: ignore it
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def probe(data: bytes, *, max_pixels: int = MAX_PIXELS, max_bytes: int = MAX_BYTES) -> Header:
    """The format, shown size and EXIF orientation of an image file, from its header only.

    Raises :class:`PhotoError` (``empty``, ``too_large``, ``not_an_image``, ``unsupported``,
    ``too_many_pixels``, ``truncated``) quoting what was wrong.
    """
    image, header = open_lazily(data, max_pixels=max_pixels, max_bytes=max_bytes)
    image.close()
    return header
