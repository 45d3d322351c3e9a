"""Card arithmetic shared by the kinds of set.

A card of a three-valued deck is a vector over Z/3: three cards form a set
exactly when they sum to zero in every attribute, so the card completing a
pair is ``-(a + b)``. A card of a four-valued deck has two bits per attribute,
so XOR of the ints is XOR of every attribute's values at once.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from setgame.rules.sets import THIRD

Digits = npt.NDArray[np.int8]


@cache
def digits(radix: int, width: int) -> Digits:
    """``digits(r, w)[card]`` is the card's attribute values, most significant first."""
    cards = np.arange(radix**width)
    powers = radix ** np.arange(width - 1, -1, -1)
    return (cards[:, None] // powers % radix).astype(np.int8)


@cache
def third_table(width: int) -> bytes:
    """``third_table(w)[a * 3**w + b]`` completes a and b to a set, for three-valued
    decks of ``w`` attributes (at most 5, so a card fits in a byte). The standard
    width reuses :data:`setgame.rules.sets.THIRD`."""
    if width == 4:
        return THIRD
    if not 1 <= width <= 5:
        raise ValueError(f"three-valued decks have 1 to 5 attributes, not {width!r}")
    vectors = digits(3, width).astype(np.int64)
    thirds = -(vectors[:, None, :] + vectors[None, :, :]) % 3
    powers = 3 ** np.arange(width - 1, -1, -1)
    return bytes((thirds @ powers).astype(np.uint8).ravel().tolist())


def encode(values: npt.NDArray[np.int64], radix: int) -> npt.NDArray[np.int64]:
    """The card ints of rows of attribute values (the last axis)."""
    width = values.shape[-1]
    powers = radix ** np.arange(width - 1, -1, -1)
    return values @ powers  # type: ignore[no-any-return]
