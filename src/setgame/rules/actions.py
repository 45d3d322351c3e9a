"""The actions a game accepts, and their JSON form (cards in a deck's notation).

Every action carries the time ``at`` (seconds on the caller's clock). The JSON form is
``{"type": "pick", "at": 3.0, "player": "a", "cards": ["1RSD", ...]}``; the cards are
written in the notation of the game's deck (:meth:`setgame.rules.game.Game.parse_action`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Final, TypeAlias

from setgame.rules.cards import Card, CardError, card_names, parse_card
from setgame.rules.decks import Deck
from setgame.rules.errors import GameError

MAX_PICK: Final = 6  # the most cards a claim holds (GhostSet): longer picks are cut, then refused


@dataclass(frozen=True, slots=True)
class Join:
    at: float
    player: str
    name: str


@dataclass(frozen=True, slots=True)
class Leave:
    at: float
    player: str


@dataclass(frozen=True, slots=True)
class Start:
    at: float
    player: str


@dataclass(frozen=True, slots=True)
class Call:
    at: float
    player: str


@dataclass(frozen=True, slots=True)
class Pick:
    at: float
    player: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class NoSet:
    at: float
    player: str


@dataclass(frozen=True, slots=True)
class Away:
    """A seated player lost (``away=True``) or regained their connection: an absent player
    does not hold up a no-set vote (R11) nor an all-locked-out release (R10)."""

    at: float
    player: str
    away: bool


@dataclass(frozen=True, slots=True)
class Turn:
    """Memory: turn up the face-down card at ``position`` of the table."""

    at: float
    player: str
    position: int


@dataclass(frozen=True, slots=True)
class Tick:
    at: float


Action: TypeAlias = Join | Leave | Start | Call | Pick | NoSet | Away | Turn | Tick
_ACTION_TYPES: Final[dict[str, type[Action]]] = {
    "join": Join,
    "leave": Leave,
    "start": Start,
    "call": Call,
    "pick": Pick,
    "no_set": NoSet,
    "away": Away,
    "turn": Turn,
    "tick": Tick,
}
_ACTION_NAMES: Final = {cls: name for name, cls in _ACTION_TYPES.items()}


def action_to_dict(action: Action, deck: Deck | None = None) -> dict[str, Any]:
    """The JSON form of an action, cards in the notation of ``deck`` (default: the standard
    deck): ``{"type": "pick", "at": 3.0, ...}``; :meth:`Game.action_dict` uses the game's."""
    data: dict[str, Any] = {"type": _ACTION_NAMES[type(action)]}
    for name in _field_names(type(action)):
        value = getattr(action, name)
        if name == "cards":
            value = card_names(value) if deck is None else deck.names(value)
        data[name] = value
    return data


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """The fields of an action class, in order (``dataclasses.fields`` rebuilds them on every
    call; a server writes every action it accepts)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def action_from_dict(data: Mapping[str, Any], deck: Deck | None = None) -> Action:
    """Read an action written by :func:`action_to_dict`, cards in the notation of ``deck``
    (default: the standard deck; :meth:`Game.parse_action` uses the game's)."""
    kind = data.get("type")
    cls = _ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise GameError("bad_action", f"unknown action type: {kind!r}")
    args = {k: v for k, v in data.items() if k != "type"}
    if "cards" in args:
        if not isinstance(args["cards"], list | tuple):
            raise GameError("bad_action", f"cards must be a list, not {args['cards']!r}")
        read = parse_card if deck is None else deck.parse
        try:
            args["cards"] = tuple(read(c) for c in args["cards"][: MAX_PICK + 1])
        except CardError as exc:
            raise GameError("bad_card", str(exc)) from None
    try:
        return cls(**args)
    except TypeError:
        raise GameError("bad_action", f"bad fields for {kind!r}: {sorted(args)!r}") from None
