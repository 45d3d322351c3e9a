"""Card arithmetic shared by the kinds of set (the card completing a pair is
:func:`setgame.rules.sets.third_table`'s).

A card of a three-valued deck is a vector over Z/3: three cards form a set
exactly when they sum to zero in every attribute, so the card completing a
pair is ``-(a + b)``. A card of a four-valued deck has two bits per attribute,
so XOR of the ints is XOR of every attribute's values at once.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

Digits = npt.NDArray[np.int8]


@cache
def digits(radix: int, width: int) -> Digits:
    """``digits(r, w)[card]`` is the card's attribute values, most significant first."""
    cards = np.arange(radix**width)
    powers = radix ** np.arange(width - 1, -1, -1)
    return (cards[:, None] // powers % radix).astype(np.int8)


def encode(values: npt.NDArray[np.int64], radix: int) -> npt.NDArray[np.int64]:
    """The card ints of rows of attribute values (the last axis)."""
    width = values.shape[-1]
    powers = radix ** np.arange(width - 1, -1, -1)
    return values @ powers  # type: ignore[no-any-return]
