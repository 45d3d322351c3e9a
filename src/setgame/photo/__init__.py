"""A photo of a real table: the SET cards in it and the sets among them (issue 24).

The interface (everything a caller needs; ``import setgame.photo`` is light: OpenCV,
Pillow and NumPy are imported by :func:`read_photo` when it first runs)::

    read_photo(data: bytes | numpy.ndarray, *, max_pixels=MAX_PIXELS, max_bytes=MAX_BYTES)
        -> Reading

- ``data``: the bytes of a JPEG, PNG or WebP file (EXIF orientation honoured), or an image
  already decoded: a NumPy ``uint8`` array, ``H x W x 3`` in **RGB** order (or ``H x W``
  grey, or ``H x W x 4`` RGBA).
- :class:`Reading`: ``cards`` (a list of :class:`FoundCard`, top to bottom, left to right),
  ``sets`` (each a tuple of three card codes, found by the rules' own judge,
  :func:`setgame.rules.sets.find_sets`), ``width`` and ``height`` (of the image as shown,
  after its EXIF rotation), ``seconds`` (the time the reading took), and ``to_json()``:
  ``{"cards": [{"code", "corners", "confidence"}], "sets": [[...]], "seconds"}``.
- :class:`FoundCard`: ``code`` (``"2RTD"``, the project's notation: number 1-3, color R/G/P,
  shading S/T/O, shape D/O/S), ``corners`` (four ``[x, y]`` in the pixels of the image as
  shown, at its full size, clockwise from the card's top left as a reader holding the card
  upright sees it; a card lying sideways starts at whichever of its corners is top left in
  the photo), ``confidence`` (0-1: how sure the reading of its four values is).
- :class:`PhotoError` (a ``ValueError``): the image cannot be read. ``.code`` is one of
  :data:`ERROR_CODES` (``empty``, ``too_large``, ``not_an_image``, ``unsupported``,
  ``too_many_pixels``, ``truncated``, ``bad_array``); the message quotes what was wrong.
- :func:`probe` reads a file's format, width and height from its header without decoding
  it, so that a decompression bomb (a small file of huge dimensions) is refused before any
  pixel is decoded: :func:`read_photo` calls it first; a server may call it on its own.
- :func:`draw_reading` draws a reading over its photo: each
  card's outline and code, each set in its own colour.
"""

from __future__ import annotations

from setgame.photo.draw import draw_reading
from setgame.photo.errors import ERROR_CODES, MAX_BYTES, MAX_PIXELS, UPLOAD_BYTES, PhotoError
from setgame.photo.header import Header, probe
from setgame.photo.reading import FoundCard, Reading, read_photo

__all__ = [
    "ERROR_CODES",
    "MAX_BYTES",
    "MAX_PIXELS",
    "UPLOAD_BYTES",
    "FoundCard",
    "Header",
    "PhotoError",
    "Reading",
    "draw_reading",
    "probe",
    "read_photo",
]
