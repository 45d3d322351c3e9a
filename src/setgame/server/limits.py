"""Every limit of the public server in one place, each read from its environment variable.

A field ``room_cap`` is set by ``SETGAME_ROOM_CAP``; ``docs/deploy.md`` lists them all. Each
field's metadata gives its bounds (``min``, ``max``) and a one-line ``doc``; :meth:`Limits.from_env`
refuses a value out of bounds or of the wrong type with an error that quotes it.

Two groups, kept apart so that the edge (connections, bodies, sockets) and the rooms (players,
rooms, storage) can grow independently.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

ENV_PREFIX = "SETGAME_"


class LimitError(ValueError):
    """A limit set to a value it cannot take; the message quotes the variable and value."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's limits; the defaults suit a public server on a small machine."""

    # -- the edge: connections, request bodies, sockets -----------------------------------

    rooms_per_minute: float = field(
        default=120.0,
        metadata={"min": 0.1, "max": 1e6, "doc": "rooms one address may create per minute"},
    )
    rooms_burst: int = field(
        default=500,
        metadata={"min": 1, "max": 1_000_000, "doc": "rooms one address may create at once"},
    )

    # -- rooms, players and storage --------------------------------------------------------

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Limits:
        """The defaults, overridden by every ``SETGAME_<NAME>`` variable present in ``env``."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            key = ENV_PREFIX + f.name.upper()
            if key in env:
                values[f.name] = _parse(key, env[key], f.default, f.metadata)
        return cls(**values)


def _parse(key: str, raw: str, default: Any, meta: Mapping[str, Any]) -> Any:
    kind = type(default)
    try:
        value = kind(raw.strip()) if kind is not bool else _parse_bool(raw)
    except ValueError:
        raise LimitError(f"{key} must be a {kind.__name__}, not {raw!r}") from None
    low, high = meta.get("min"), meta.get("max")
    if (low is not None and value < low) or (high is not None and value > high):
        raise LimitError(f"{key} must be between {low} and {high}, not {raw!r}")
    return value


def _parse_bool(raw: str) -> bool:
    text = raw.strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(raw)
