"""What can be wrong with a photo, and the bounds a photo is held to."""

from __future__ import annotations

from typing import Final

#: At most this many pixels (width x height, checked from the header before decoding).
MAX_PIXELS: Final = 50_000_000
#: At most this many bytes of file given to :func:`setgame.photo.read_photo` by default
#: (a 50-megapixel JPEG of a phone is some 20 MB).
MAX_BYTES: Final = 40 * 1024 * 1024
#: The bound of an upload to the web game's ``/photo`` (issue 24: 15 MB).
UPLOAD_BYTES: Final = 15 * 1024 * 1024

#: Every :attr:`PhotoError.code`, with what it means.
ERROR_CODES: Final = {
    "empty": "the file is empty",
    "too_large": "the file has more bytes than allowed",
    "not_an_image": "the bytes are not an image of a kind we read",
    "unsupported": "an image of a kind we do not read (JPEG, PNG and WebP only)",
    "too_many_pixels": "the image has more pixels than allowed (checked before decoding)",
    "truncated": "the image file is cut short or damaged",
    "bad_array": "a NumPy array that is not an 8-bit image",
}


class PhotoError(ValueError):
    """An image that cannot be read; :attr:`code` says why (one of :data:`ERROR_CODES`),
    the message (English) quotes what was wrong, and :attr:`details` holds the figures a
    translated message needs (``size`` and ``limit`` bytes for ``too_large``; ``width``,
    ``height`` (when known) and ``limit`` pixels for ``too_many_pixels``; ``kind`` for
    ``unsupported``)."""

    def __init__(self, code: str, message: str, **details: int | str) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown photo error code: {code!r}")
        super().__init__(message)
        self.code = code
        self.details = details
