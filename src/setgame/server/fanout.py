"""One server message for every viewer of a room, encoded once.

The views a room sends with an update differ only in a few keys of ``state``
(:meth:`setgame.rules.game.Game.own_view`: who the viewer is, their own time penalty). Building
and encoding the whole view once per viewer was most of the server's work per action, so
:class:`Fanout` encodes the message once with a mark in place of each such value and, per
viewer, joins the encoded pieces around that viewer's own values. The text is the same,
byte for byte, as :func:`setgame.server.protocol.encode` of the message with those values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import msgspec

from setgame.server import protocol as p

MARK: Final = msgspec.Raw(b"\x00")
"""Written verbatim where a viewer's own value goes: a raw NUL byte cannot occur anywhere
else in JSON (inside strings the encoder writes control characters escaped, ``\\u0000``)."""

_encoder: Final = msgspec.json.Encoder()


class Fanout:
    """``message`` (whose ``state`` holds every key of ``own_keys``) encoded once; then
    :meth:`text` per viewer, with that viewer's values for those keys."""

    def __init__(self, message: p.Update | p.Welcome, own_keys: Mapping[str, Any]) -> None:
        state = message.state
        self._keys = [key for key in state if key in own_keys]  # in the order they are written
        saved = {key: state[key] for key in self._keys}
        state.update(dict.fromkeys(self._keys, MARK))
        try:
            data = _encoder.encode(message)
        finally:
            state.update(saved)
        self._parts = data.split(b"\x00")
        if len(self._parts) != len(self._keys) + 1:  # pragma: no cover - see MARK
            raise AssertionError(f"{len(self._parts) - 1} marks for the keys {self._keys}")

    def text(self, own: Mapping[str, Any]) -> str:
        """The message as a JSON text frame, with ``own``'s values for the viewer's keys."""
        parts = self._parts
        pieces = [parts[0]]
        for index, key in enumerate(self._keys, 1):
            pieces.append(_encoder.encode(own[key]))
            pieces.append(parts[index])
        return b"".join(pieces).decode()
