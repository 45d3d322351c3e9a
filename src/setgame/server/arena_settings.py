"""What an arena is made of: its settings (``POST /api/arenas``, the host's schedule), the
host's arena limits (``SETGAME_ARENA_*``) and the schedule file (``SETGAME_ARENAS_FILE``).

Every field has a bound; a bad one is refused with a message quoting it (``bad_arena`` over
HTTP, :class:`ArenaError` for the host's file: the server does not start).
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import msgspec

from setgame.rules.game import GameError
from setgame.server import protocol as p
from setgame.server.limits import LimitError, read_fields
from setgame.server.registry import _check_settings

MAX_SCHEDULE: Final = 20
"""Entries a schedule file may hold."""
MAX_SCHEDULE_BYTES: Final = 65536


class ArenaError(ValueError):
    """Bad arena settings; ``code`` is the answer's, the message quotes the input."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class ArenaSettings(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """An arena's settings, as posted (``docs/protocol.md``, "Arenas")."""

    variant: Annotated[str, msgspec.Meta(min_length=1, max_length=32)] = "classic"
    deck: Literal["full", "beginner"] = "full"
    minutes: Annotated[int, msgspec.Meta(ge=10, le=180)] = 30
    game_minutes: Annotated[int, msgspec.Meta(ge=1, le=30)] | None = None
    room_size: Annotated[int, msgspec.Meta(ge=2, le=4)] = 2
    starts_in_seconds: Annotated[int, msgspec.Meta(ge=0, le=86400)] = 60
    rated: bool = False
    private: bool = True


_decoder: Final = msgspec.json.Decoder(ArenaSettings)


def decode(body: bytes, size: int = p.MAX_FRAME) -> ArenaSettings:
    """A POST body -> checked settings (the variant by its canonical name), or
    :class:`ArenaError` / :class:`setgame.server.protocol.ProtocolError` quoting it."""
    if len(body) > size:
        raise p.ProtocolError("too_big", f"settings of {len(body)} bytes exceed {size}")
    if not body:
        body = b"{}"
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise p.ProtocolError(
            "bad_encoding", f"the body is not UTF-8: byte {body[exc.start]:#04x} at {exc.start}"
        ) from None
    p.check_depth(body)
    try:
        settings = _decoder.decode(body)
    except msgspec.ValidationError as exc:
        raise ArenaError("bad_arena", f"{exc} in {text[:200]!r}") from None
    except msgspec.DecodeError:
        raise p.ProtocolError("bad_json", f"not a JSON object: {text[:200]!r}") from None
    if not settings.private:
        raise ArenaError(
            "bad_arena", "private: false: public arenas are the host's (its schedule)"
        )
    return checked(settings)


def checked(settings: ArenaSettings) -> ArenaSettings:
    """The settings with the variant checked by the rooms' own checks (the deck it allows,
    a rating family when rated) and named canonically."""
    try:
        room = _check_settings(room_settings(settings))
    except GameError as exc:
        raise ArenaError("bad_arena", str(exc)) from None
    return msgspec.structs.replace(settings, variant=room.variant)


def room_settings(settings: ArenaSettings, bot: int | None = None) -> p.RoomSettings:
    """The settings of a room of the arena: one round, three cards dealt by themselves when
    no set lies (nobody waits on votes), hidden from the public list (the arena lists its
    games), rated as the arena is; ``bot``: the level of a computer opponent."""
    return p.RoomSettings(
        mode="multi",
        rounds="single",
        no_set="auto",
        variant=settings.variant,
        deck=settings.deck,
        rated=settings.rated,
        public=False,
        bots=0 if bot is None else 1,
        bot_level=bot or 3,
    )


def as_dict(settings: ArenaSettings) -> dict[str, Any]:
    return msgspec.to_builtins(settings)  # type: ignore[no-any-return]


def from_dict(data: Mapping[str, Any]) -> ArenaSettings:
    return msgspec.convert(dict(data), ArenaSettings)


# --- the host's limits -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ArenaLimits:
    """The host's arena settings, each from ``SETGAME_ARENA_<NAME>`` (``docs/deploy.md``)."""

    time_scale: float = field(default=1.0, metadata={"min": 0.001, "max": 1.0})
    """Every arena time (start, duration, game estimate and cap) times this: for tests."""
    bot_seconds: float = field(default=20.0, metadata={"min": 0.1, "max": 600.0})
    repeat_seconds: float = field(default=10.0, metadata={"min": 0.0, "max": 600.0})
    pair_seconds: float = field(default=2.0, metadata={"min": 0.05, "max": 60.0})
    game_seconds: float = field(default=180.0, metadata={"min": 1.0, "max": 3600.0})
    start_seconds: float = field(default=15.0, metadata={"min": 0.1, "max": 120.0})
    standings_seconds: float = field(default=1.0, metadata={"min": 0.0, "max": 60.0})
    players: int = field(default=1000, metadata={"min": 2, "max": 100_000})
    per_account: int = field(default=3, metadata={"min": 0, "max": 1000})
    per_client: int = field(default=5, metadata={"min": 0, "max": 1000})
    cap: int = field(default=200, metadata={"min": 1, "max": 100_000})
    file: str = field(default="", metadata={})

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ArenaLimits:
        """The defaults, overridden by ``SETGAME_ARENA_<NAME>`` (``SETGAME_ARENAS_FILE``,
        ``SETGAME_ARENAS_PER_ACCOUNT``, ``SETGAME_ARENAS_PER_CLIENT``); :class:`LimitError`
        quoting a bad one."""
        env = os.environ if env is None else env
        return cls(**read_fields(cls, env, env_name))

    def scaled(self, seconds: float) -> float:
        return seconds * self.time_scale


def env_name(name: str) -> str:
    if name in ("file", "per_account", "per_client"):
        return f"SETGAME_ARENAS_{name.upper()}"
    return f"SETGAME_ARENA_{name.upper()}"


# --- the host's schedule -----------------------------------------------------------------


class Scheduled(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """One recurring public arena: every ``every_minutes`` from midnight UTC plus
    ``offset_minutes`` (an hourly one: 60 and 0; a daily one at 20:00 UTC: 1440 and 1200),
    shown ``announce_minutes`` before it starts."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[a-z0-9-]+$")]
    every_minutes: Annotated[int, msgspec.Meta(ge=10, le=10080)]
    offset_minutes: Annotated[int, msgspec.Meta(ge=0, le=10079)] = 0
    announce_minutes: Annotated[int, msgspec.Meta(ge=1, le=10080)] = 60
    variant: Annotated[str, msgspec.Meta(min_length=1, max_length=32)] = "classic"
    deck: Literal["full", "beginner"] = "full"
    minutes: Annotated[int, msgspec.Meta(ge=10, le=180)] = 30
    game_minutes: Annotated[int, msgspec.Meta(ge=1, le=30)] | None = None
    room_size: Annotated[int, msgspec.Meta(ge=2, le=4)] = 2
    rated: bool = True

    def settings(self) -> ArenaSettings:
        return checked(
            ArenaSettings(
                variant=self.variant, deck=self.deck, minutes=self.minutes,
                game_minutes=self.game_minutes, room_size=self.room_size, starts_in_seconds=0,
                rated=self.rated, private=False,
            )
        )

    def next_start(self, now: float) -> float:
        """The first start at or after ``now`` (Unix seconds)."""
        every, offset = self.every_minutes * 60, (self.offset_minutes % self.every_minutes) * 60
        return math.ceil((now - offset) / every) * every + offset


class _File(msgspec.Struct, forbid_unknown_fields=True):
    arena: Annotated[list[Scheduled], msgspec.Meta(max_length=MAX_SCHEDULE)] = []


def schedule(path: str) -> list[Scheduled]:
    """The host's recurring arenas from a TOML file (``[[arena]]`` tables; ``docs/deploy.md``);
    :class:`LimitError` naming the file and quoting what is wrong."""
    if not path:
        return []
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise LimitError(f"SETGAME_ARENAS_FILE {path!r} cannot be read: {exc.strerror}") from None
    if len(data) > MAX_SCHEDULE_BYTES:
        raise LimitError(f"SETGAME_ARENAS_FILE {path!r}: over {MAX_SCHEDULE_BYTES} bytes")
    try:
        entries = msgspec.convert(tomllib.loads(data.decode("utf-8")), _File).arena
        for entry in entries:
            entry.settings()
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, msgspec.ValidationError) as exc:
        raise LimitError(f"SETGAME_ARENAS_FILE {path!r}: {exc}") from None
    except ArenaError as exc:
        raise LimitError(f"SETGAME_ARENAS_FILE {path!r}: {exc}") from None
    names = [entry.name for entry in entries]
    if len(set(names)) != len(names):
        raise LimitError(f"SETGAME_ARENAS_FILE {path!r}: two entries share a name: {names}")
    return entries
