"""The terminal game's own words: the key lines, the holder bar, the status bar's modes.
Every sentence about the game (events, results, refusals) comes from
:mod:`setgame.words.event_words`, card names and flaws from :mod:`setgame.words.i18n`; all of them
from the gettext catalog (:mod:`setgame.words.catalog`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from setgame.words.catalog import N_, ngettext
from setgame.words.event_words import (
    connection_message,
    cooldown_left,
    error_message,
    event_message,
    format_clock,
    lockout_text,
    player_name,
    player_names,
    seconds_text,
    tr,
    variant_of,
)

__all__ = [
    "HELP_LINES",
    "MODE_NAMES",
    "PHASE_LINES",
    "PREVIOUS_KEYS",
    "connection_message",
    "cooldown_left",
    "error_message",
    "event_message",
    "format_clock",
    "help_line",
    "holding_line",
    "lockout_text",
    "player_name",
    "player_names",
    "seconds_text",
    "tr",
    "variant_of",
]

#: What the status bar calls each mode.
MODE_NAMES: Final = {"solo": N_("solo"), "practice": N_("practice"), "multi": N_("match")}
#: The keys to press, per mode.
HELP_LINES: Final = {
    "multi": N_("Space: call SET · keys: pick · n: no set · q: quit"),
    "solo": N_("keys: pick three cards · n: three more cards (costs a point) · q: quit"),
    "practice": N_("keys: pick three cards · h: hint · n: three more cards · q: quit"),
}
#: What the n key does, per mode, in the variants' key lines.
NO_SET_KEYS: Final = {
    "multi": N_("n: no set"),
    "solo": N_("n: three more cards (costs a point)"),
    "practice": N_("n: three more cards"),
}
#: The keys of the previous claim's cards in a chain variant (shown apart from the table).
PREVIOUS_KEYS: Final = "mopr"
#: What the holder bar says between rounds.
PHASE_LINES: Final = {
    "lobby": N_("Waiting for the game to start. Press Enter to start"),
    "round_over": N_("Round over. Press Enter for the next round"),
    "match_over": N_("Game over. Enter: play again · q: leave"),
}


def help_line(view: Mapping[str, Any], lang: str) -> str:
    """The keys to press now, for the view's mode and variant."""
    mode, variant = str(view.get("mode", "solo")), variant_of(view)
    flow, n = variant.flow, variant.claim_size
    if n == 3 and flow.name == "normal":  # the classic lines, whole
        return tr(HELP_LINES.get(mode, HELP_LINES["solo"]), lang)
    parts = [tr("Space: call SET", lang)] if mode == "multi" else []
    if flow.face_down:
        parts.append(ngettext(lang, "keys: turn up {n} card", "keys: turn up {n} cards", n))
    else:
        parts.append(ngettext(lang, "keys: pick {n} card", "keys: pick {n} cards", n))
    if view.get("previous") is not None:
        keys = " ".join(PREVIOUS_KEYS[: len(view["previous"])])
        parts.append(tr("{keys}: previous group", lang, keys=keys))
    if mode == "practice" and not flow.face_down:
        parts.append(tr("h: hint", lang))
    if flow.removes_claims and not flow.face_down:  # Puzzle and Memory deal by themselves
        parts.append(tr(NO_SET_KEYS.get(mode, NO_SET_KEYS["solo"]), lang))
    parts.append(tr("q: quit", lang))
    return " · ".join(parts)


def holding_line(view: Mapping[str, Any], seconds: str, lang: str) -> str:
    """What the holder bar says to the player holding the board."""
    variant = variant_of(view)
    n = variant.claim_size
    if variant.flow.face_down:
        return ngettext(
            lang,
            "You hold the board: turn up {n} card within {seconds}",
            "You hold the board: turn up {n} cards within {seconds}",
            n,
            seconds=seconds,
        )
    if n == 3:
        return tr("You hold the board: pick three cards within {seconds}", lang, seconds=seconds)
    return ngettext(
        lang,
        "You hold the board: pick {n} card within {seconds}",
        "You hold the board: pick {n} cards within {seconds}",
        n,
        seconds=seconds,
    )
