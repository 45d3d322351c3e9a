"""Decoding a photo into an RGB array, at the resolution the recognition needs.

A JPEG is decoded at a half, a quarter or an eighth of its size when that still leaves
:data:`WORKING` pixels on the long side (libjpeg's DCT scaling through Pillow's
:meth:`~PIL.Image.Image.draft`): a 12-megapixel photo decodes several times faster so, and
the cards keep a few hundred pixels each. The EXIF orientation is applied after decoding.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from setgame.photo.errors import MAX_BYTES, MAX_PIXELS, PhotoError
from setgame.photo.header import Header, open_lazily

if TYPE_CHECKING:
    from numpy.typing import NDArray
    from PIL import Image

#: The long side (pixels) a photo is decoded to at least, when it is larger.
WORKING: Final = 1800


def decode(data: bytes, *, max_pixels: int = MAX_PIXELS, max_bytes: int = MAX_BYTES,
           working: int = WORKING) -> tuple[NDArray[Any], Header]:  # fmt: skip
    """The picture as shown (EXIF rotation applied), RGB, at least ``working`` pixels on
    its long side when the file has that many, and the file's :class:`Header` (its
    full size)."""
    import numpy as np

    image, header = open_lazily(data, max_pixels=max_pixels, max_bytes=max_bytes)
    long_side = max(header.width, header.height)
    if image.format == "JPEG" and long_side > working:
        scale = long_side / working  # draft picks the smallest scale not below the size asked
        image.draft("RGB", (int(image.width / scale), int(image.height / scale)))
    try:
        rgb = image.convert("RGB")
    except (OSError, SyntaxError, ValueError) as error:
        raise PhotoError("truncated", f"the {header.format} data is damaged: {error}") from None
    finally:
        image.close()
    rgb = _upright(rgb, header.orientation)
    return np.asarray(rgb, dtype=np.uint8), header


def _upright(image: Image.Image, orientation: int) -> Image.Image:
    """The picture turned as its EXIF orientation says (as ``ImageOps.exif_transpose``)."""
    from PIL import Image

    turn = {
        2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
        4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE,
        6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
        8: Image.Transpose.ROTATE_90,
    }.get(orientation)  # fmt: skip
    return image if turn is None else image.transpose(turn)


def from_array(array: object) -> NDArray[Any]:
    """An RGB ``uint8`` array from a grey, RGB or RGBA one; a :class:`PhotoError`
    (``bad_array``) for anything else."""
    import numpy as np

    if not isinstance(array, np.ndarray) or array.dtype != np.uint8:
        what = getattr(array, "dtype", type(array).__name__)
        raise PhotoError("bad_array", f"an image array must be of uint8, not {what}")
    if array.ndim == 2:
        array = np.repeat(array[:, :, None], 3, axis=2)
    if array.ndim != 3 or array.shape[2] not in (3, 4) or min(array.shape[:2]) < 1:
        raise PhotoError("bad_array", f"an image array is H x W x 3 (RGB), not {array.shape}")
    return np.ascontiguousarray(array[:, :, :3])
