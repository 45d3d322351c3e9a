"""``setgame photo IMAGE``: the cards and the sets in a photo of a table (docs/photo.md).

The Typer command is in :mod:`setgame.cli.commands`; the work is here: read the file
(bounded before it is read), ask :func:`setgame.photo.read_photo`, print the reading in
the player's language or as JSON, draw it. Every failure is a :class:`PhotoFailure`
whose message, in the player's language, quotes the path; the command turns it into one
line on standard error and exit status 2. OpenCV is imported only when a photo is read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

from setgame.photo import MAX_BYTES, PhotoError, Reading, read_photo
from setgame.rules.cards import parse_card
from setgame.words.catalog import gettext, ngettext
from setgame.words.i18n import card_label

#: Below this confidence a card's line says that its reading is unsure.
UNSURE = 0.75


class PhotoFailure(Exception):
    """A photo that cannot be read or a drawing that cannot be written: the message is
    the player's words, quoting the path."""


def read_file(path: Path, lang: str) -> bytes:
    """The bytes of ``path``, at most :data:`MAX_BYTES` of them (a larger file is refused
    before it is read)."""
    shown = str(path)
    try:
        if path.is_dir():
            raise PhotoFailure(gettext(lang, "{path} is a folder, not a photo", path=shown))
        if not path.exists():
            raise PhotoFailure(gettext(lang, "{path}: no such file", path=shown))
        if not path.is_file():
            raise PhotoFailure(gettext(lang, "{path} is not a regular file", path=shown))
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise _failure(PhotoError("too_large", "", size=size, limit=MAX_BYTES), shown, lang)
        with path.open("rb") as file:
            return file.read(MAX_BYTES + 1)
    except OSError as error:
        reason = error.strerror or str(error)
        raise PhotoFailure(
            gettext(lang, "cannot read {path}: {reason}", path=shown, reason=reason)
        ) from None


def _failure(error: PhotoError, path: str, lang: str) -> PhotoFailure:
    """The player's words for ``error`` about the file ``path``."""
    d = error.details
    if error.code == "too_large":
        size, limit = _mb(int(d["size"]), lang), _mb(int(d["limit"]), lang)
        text = gettext(lang, "{path} is too large: {size} MB (at most {limit} MB)", path=path,
                       size=size, limit=limit)  # fmt: skip
    elif error.code == "too_many_pixels" and "width" in d:
        text = gettext(lang, "{path} has too many pixels: {width} x {height} (at most {limit} "
                       "megapixels)", path=path, width=d["width"], height=d["height"],
                       limit=int(d["limit"]) // 1_000_000)  # fmt: skip
    elif error.code == "too_many_pixels":
        text = gettext(lang, "{path} has too many pixels (at most {limit} megapixels)",
                       path=path, limit=int(d["limit"]) // 1_000_000)  # fmt: skip
    elif error.code == "unsupported":
        text = gettext(lang, "{path} is a {kind} file: only JPEG, PNG and WebP photos are read",
                       path=path, kind=d.get("kind", "?"))  # fmt: skip
    elif error.code == "truncated":
        text = gettext(lang, "{path} is damaged or cut short", path=path)
    elif error.code == "empty":
        text = gettext(lang, "{path} is empty", path=path)
    else:
        text = gettext(lang, "{path} is not a photo (JPEG, PNG or WebP)", path=path)
    return PhotoFailure(text)


def _mb(size: int, lang: str) -> str:
    """Megabytes (of 2**20 bytes), as ``lang`` writes a number with one decimal."""
    from setgame.words.catalog import format_number

    return format_number(lang, size / 1024 / 1024, 1)


def read(path: Path, lang: str) -> tuple[bytes, Reading]:
    """The file's bytes and what :func:`read_photo` sees in them."""
    data = read_file(path, lang)
    try:
        return data, read_photo(data)
    except PhotoError as error:
        raise _failure(error, str(path), lang) from None


def print_reading(reading: Reading, path: str, lang: str, out: TextIO) -> None:
    """The cards (code, name, a word when unsure) and the sets, in ``lang``."""
    count = len(reading.cards)
    print(ngettext(lang, "{n} card in {path}:", "{n} cards in {path}:", count, path=path),
          file=out)  # fmt: skip
    unsure = gettext(lang, "(not sure)")
    for card in reading.cards:
        name = card_label(parse_card(card.code), lang)
        mark = f"  {unsure}" if card.confidence < UNSURE else ""
        print(f"  {card.code}  {name}{mark}", file=out)
    if count < 3:
        return
    if not reading.sets:
        print(gettext(lang, "No set among them."), file=out)
        return
    print(ngettext(lang, "{n} set:", "{n} sets:", len(reading.sets)), file=out)
    for group in reading.sets:
        print("  " + " ".join(group), file=out)


def print_json(reading: Reading, out: TextIO) -> None:
    print(json.dumps(reading.to_json()), file=out)


def draw(data: bytes, reading: Reading, target: Path, lang: str) -> None:
    """The photo with the reading drawn over it, written as a PNG to ``target``."""
    from setgame.photo.draw import draw_reading, picture, png

    drawn = png(draw_reading(picture(data), reading))
    try:
        target.write_bytes(drawn)
    except OSError as error:
        reason = error.strerror or str(error)
        raise PhotoFailure(
            gettext(lang, "cannot write {path}: {reason}", path=str(target), reason=reason)
        ) from None
