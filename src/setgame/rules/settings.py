"""Room settings: where the rulebooks differ (RULES.md), and which variant is played.

Each setting is checked when the settings are made, so a :class:`Settings` is always valid;
a bad value is a :class:`~setgame.rules.errors.GameError` ``bad_setting`` quoting it. The variant
settings (``docs/variants.md``): ``variant`` (stored by its canonical name),
``table`` (cards dealt, 0 for the variant's size) and ``day`` (the daily puzzle); and
``start``, this project's own: the cards a practice table starts with (a photo of a real
table, issue 24).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Final

from setgame.rules import decks as variant_decks
from setgame.rules.cards import CardError, card_name, parse_cards, parse_deck
from setgame.rules.errors import GameError
from setgame.rules.puzzle import PuzzleError, parse_day
from setgame.rules.variants import PUZZLE, Variant, VariantError, find_variant

MODES: Final = ("multi", "solo", "practice")
PENALTIES: Final = ("point", "lockout", "both", "none")
NO_SET_RULES: Final = ("vote", "auto")
ROUND_RULES: Final = ("match", "single")
LOCKOUT_LIFTS: Final = ("set", "set_or_cards")  # R10: 002 and 000's option; 003

RULES_VERSION: Final = 2
"""The rules the engine plays now. A game is played, stored and replayed under one version
(``Game(rules=...)``), so a rule changed later never changes a game already played:

1. the first rules: a leaving seat dropped its lockout and fair-call wait (and was dropped
   when it held no points); a solo game was won when each more-cards penalty was cancelled
   by its own set found among the last 12 cards;
2. a leaving seat keeps its lockout and wait for its return (R10); one set found
   among the last 12 cards cancels the solo penalty, however many were taken (R15).
"""
RULES_VERSIONS: Final = (1, 2)
MAX_START: Final = 21
"""The most cards ``start`` may lay: any 21 cards hold a set (R11), so no real table holds more."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Room settings where the rulebooks differ (see RULES.md)."""

    mode: str = "multi"
    penalty: str = "point"
    no_set: str = "vote"
    deck: str = "full"
    pick_seconds: float = 5.0
    rounds: str = "match"
    lockout_lift: str = "set"
    variant: str = "classic"  # any spelling find_variant reads; stored canonical
    table: int = 0  # cards dealt: 0 is the variant's table size
    day: str = ""  # puzzle: "YYYY-MM-DD" plays that day's daily puzzle
    start: tuple[str, ...] = ()  # practice: the cards each round starts with, in notation

    def __post_init__(self) -> None:
        for name, allowed in (
            ("mode", MODES),
            ("penalty", PENALTIES),
            ("no_set", NO_SET_RULES),
            ("rounds", ROUND_RULES),
            ("lockout_lift", LOCKOUT_LIFTS),
        ):
            value = getattr(self, name)
            if value not in allowed:
                raise GameError(
                    "bad_setting", f"{name} must be one of {', '.join(allowed)}, not {value!r}"
                )
        try:
            parse_deck(self.deck)
        except CardError as exc:
            raise GameError("bad_setting", str(exc)) from None
        seconds = self.pick_seconds
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not 1 <= seconds <= 60
        ):
            raise GameError("bad_setting", f"pick_seconds must be 1-60, not {seconds!r}")
        _check_variant(self)
        _check_start(self)

    def to_dict(self) -> dict[str, Any]:
        # Not dataclasses.asdict: it deep-copies field by field, and every view sent to every
        # player carries the settings (a third of the view's time in the load benchmark).
        data = {name: getattr(self, name) for name in _SETTING_NAMES}
        if not self.start:  # as before the setting was made: views and replays unchanged
            del data["start"]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise GameError("bad_setting", f"unknown setting(s): {unknown!r}")
        return cls(**data)

    @property
    def solitary(self) -> bool:
        """Solo and practice: one player, no call."""
        return self.mode != "multi"


_SETTING_NAMES: Final = tuple(f.name for f in fields(Settings))


def _check_variant(settings: Settings) -> None:
    """The variant settings: a known variant (stored by its canonical name), a
    table size it offers, a daily puzzle day only for the puzzle, and a deck filter only on
    the standard deck."""
    try:
        variant = find_variant(settings.variant)
    except VariantError as exc:
        raise GameError("bad_setting", str(exc)) from None
    object.__setattr__(settings, "variant", variant.name)  # frozen: canonical once, here
    sizes = (variant.table_size, *variant.table_sizes)
    table = settings.table
    if isinstance(table, bool) or not isinstance(table, int) or table not in (0, *sizes):
        raise GameError(
            "bad_setting",
            f"table must be 0 or {' or '.join(map(str, sizes))} for {variant.title}, not {table!r}",
        )
    if settings.day != "":
        if (variant.deck, variant.kind, variant.flow) != (PUZZLE.deck, PUZZLE.kind, PUZZLE.flow):
            raise GameError("bad_setting", f"day {settings.day!r} needs the puzzle variant")
        try:
            parse_day(settings.day)
        except PuzzleError as exc:
            raise GameError("bad_setting", f"day: {exc}") from None
    if variant.deck is not variant_decks.STANDARD and settings.deck.strip().lower() != "full":
        raise GameError(
            "bad_setting",
            f"deck {settings.deck!r} filters the standard deck: {variant.title} needs 'full'",
        )


def _check_start(settings: Settings) -> None:
    """``start`` (ours): in a classic practice game only, at most :data:`MAX_START` distinct
    cards of the game's deck, stored as a tuple of canonical codes (``2RTD``)."""
    start: object = settings.start  # as given: from JSON, a list
    if isinstance(start, str) or not isinstance(start, list | tuple):
        raise GameError("bad_setting", f"start must be a list of card codes, not {start!r}")
    if not start:
        object.__setattr__(settings, "start", ())
        return
    if settings.mode != "practice" or settings.variant != "classic":
        raise GameError(
            "bad_setting",
            f"start lays cards in a classic practice game only, not in {settings.mode} "
            f"{settings.variant}",
        )
    if len(start) > MAX_START:
        raise GameError(
            "bad_setting", f"start holds {len(start)} cards: at most {MAX_START} (R11)"
        )
    try:
        cards = parse_cards(start)  # distinct
    except CardError as exc:
        raise GameError("bad_setting", f"start: {exc}") from None
    deck = set(parse_deck(settings.deck))
    for code, card in zip(start, cards, strict=True):
        if card not in deck:
            raise GameError("bad_setting", f"start: {code!r} is not in the deck {settings.deck!r}")
    object.__setattr__(settings, "start", tuple(card_name(c) for c in cards))


def variant_of(settings: Settings) -> Variant:
    """The variant the settings name."""
    return find_variant(settings.variant)
