"""The terminal game's words: every message comes from the gettext catalog
(:mod:`setgame.words.catalog`); card names and the reasons a pick is not a set come
from :mod:`setgame.words.i18n`.

>>> tr("Deck: {count}", "de", count=12)
'Stapel: 12'
>>> seconds_text(4.25, "ru")
'4,2 с'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from setgame.rules.variants import CLASSIC, Variant, VariantError, find_variant
from setgame.tui.deckwords import flaws_text
from setgame.words.catalog import N_, check_language, format_number, gettext, ngettext

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
#: The name the server and the local game give a bot ("Bot 2"), said in the player's language.
_BOT_NAME: Final = re.compile(r"Bot (\d{1,2})")


def variant_of(view: Mapping[str, Any]) -> Variant:
    """The variant a view is of (Classic for a view from before variants)."""
    try:
        return find_variant((view.get("variant") or {}).get("name", "classic"))
    except VariantError:
        return CLASSIC


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


def tr(message: str, lang: str = "en", /, **fields: object) -> str:
    """``message`` (an English message id of the catalog) in ``lang``, ``fields`` filled in."""
    return gettext(check_language(lang), message, **fields)


def seconds_text(seconds: float, lang: str) -> str:
    """Seconds with one decimal, as ``lang`` writes numbers: "4,2 с"."""
    return tr("{seconds} s", lang, seconds=format_number(lang, seconds, 1))


def player_name(player: Mapping[str, Any], you: object, lang: str) -> str:
    """A player's name as the screen shows it: "you" for the viewer, bots in ``lang``."""
    if player.get("id") == you:
        return tr("You", lang)
    name = str(player.get("name") or player.get("id"))
    bot = _BOT_NAME.fullmatch(name)
    if bot and (player.get("bot") or str(player.get("id", "")).startswith("bot")):
        return tr("Bot {n}", lang, n=int(bot.group(1)))
    return name


def format_clock(seconds: float) -> str:
    """Seconds as ``m:ss`` (or ``h:mm:ss`` past an hour).

    >>> format_clock(75.9), format_clock(3601)
    ('1:15', '1:00:01')
    """
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def player_names(view: Mapping[str, Any], lang: str) -> dict[str, str]:
    """Each player's name as the screen shows it: "you" for the viewer."""
    you = view.get("you")
    return {str(p["id"]): player_name(p, you, lang) for p in view.get("players", [])}


def event_message(event: Mapping[str, Any], view: Mapping[str, Any], lang: str) -> str | None:
    """What the screen says about one engine event, or None when the table shows it all."""
    names = player_names(view, lang)
    kind = event.get("type")
    player = event.get("player")
    name = names.get(str(player), str(player))
    cards = " ".join(event.get("cards") or ())
    mine = player is not None and player == view.get("you")
    if kind == "set_taken":
        return _taken(event, view, name, cards, mine, lang)
    if kind == "wrong_call":
        return _wrong_call(event, view, name, cards, mine, lang)
    if kind == "more_cards_asked":
        if event.get("penalty") and view.get("mode") == "solo":
            return tr("Three more cards: you lose a point", lang)
        return tr("Three more cards", lang)
    if kind == "cards_added" and event.get("why") != "request":
        return _cards_added(event, view, lang)
    if kind == "no_set_declared" and not mine:
        return tr("{name} says there is no set", lang, name=name)
    if kind == "round_over" and view.get("phase") == "round_over":
        # the holder bar says to press Enter: here, the round's scores (at the match's end
        # the match's result says it all)
        return _round_over(event, names, lang)
    if kind == "match_over":
        return _match_over(event, names, lang) + _daily_result(event, view, lang)
    if kind == "error":
        return error_message(event.get("code"), str(event.get("message")), lang, view)
    if kind == "left" and not mine:
        return tr("{name} left the game", lang, name=name)
    if kind == "presence" and not mine and _seated(view, player):
        # the server also reports the connection of a seat that has just left: not a drop
        if event.get("connected"):
            return tr("{name} is back", lang, name=name)
        return tr("{name} lost the connection", lang, name=name)
    if kind in ("disconnected", "reconnecting", "unreachable"):
        return connection_message(event, lang)
    if kind == "reconnected":
        return tr("Connected again", lang)
    return None


def _taken(
    event: Mapping[str, Any], view: Mapping[str, Any], name: str, cards: str, mine: bool, lang: str
) -> str:
    if variant_of(view).kind.name == "set":
        if mine:
            text = tr("A set! {cards}", lang, cards=cards)
        else:
            text = tr("{name} found a set: {cards}", lang, name=name, cards=cards)
    elif mine:
        text = tr("Found! {cards}", lang, cards=cards)
    else:
        text = tr("{name} found: {cards}", lang, name=name, cards=cards)
    if event.get("reshuffled"):  # Shuffle
        text += "\n" + tr("The table is shuffled into the deck and dealt anew.", lang)
    return text


def _seated(view: Mapping[str, Any], player: object) -> bool:
    """``player`` still holds a seat: in ``players`` and not departed."""
    return any(
        p.get("id") == player and p.get("present") is not False for p in view.get("players") or ()
    )


def connection_message(event: Mapping[str, Any], lang: str) -> str:
    """What went wrong with the connection to a room, and what to do, without raw errors."""
    kind, why = event.get("type"), event.get("why")
    if kind == "reconnecting":
        return tr("Connection to the server lost; reconnecting…", lang)
    if kind == "disconnected":
        return tr(
            "The server did not come back. Press q to leave, and try again when it runs.", lang
        )
    server, room = event.get("server", ""), event.get("room", "")
    if why == "refused":
        return tr(
            "No game server answers at {server}. Check the address, or start one with "
            "“setgame serve”. Press q to leave.",
            lang,
            server=server,
        )
    if why == "no_room":
        return tr(
            "There is no room “{room}” on {server}: check the link, or create a new room. "
            "Press q to leave.",
            lang,
            room=room,
            server=server,
        )
    return tr(
        "Could not connect to {server}: the connection was closed. Press q to leave, "
        "and try again.",
        lang,
        server=server,
    )


def _round_over(event: Mapping[str, Any], names: Mapping[str, str], lang: str) -> str:
    scores = event.get("scores")
    if not isinstance(scores, Mapping) or not scores:
        return tr("Round {round} over", lang, round=event.get("round", 1))
    said = ", ".join(f"{names.get(str(pid), str(pid))} {score}" for pid, score in scores.items())
    return tr("Round {round} over: {scores}", lang, round=event.get("round", 1), scores=said)


def _cards_added(event: Mapping[str, Any], view: Mapping[str, Any], lang: str) -> str:
    """Three more cards; after a "no set" vote with a group on the table, which it was."""
    text = tr("Three more cards", lang)
    missed = event.get("missed")
    if missed:
        cards = " ".join(str(code) for code in missed)
        if variant_of(view).kind.name == "set":
            text += ". " + tr("There was a set on the table: {cards}", lang, cards=cards)
        else:
            text += ". " + tr("There was a group on the table: {cards}", lang, cards=cards)
    return text


def _wrong_call(
    event: Mapping[str, Any], view: Mapping[str, Any], name: str, cards: str, mine: bool, lang: str
) -> str:
    if event.get("reason") == "timeout":
        text = tr("{name} picked nothing in time.", lang, name=name)
    else:
        variant = variant_of(view)
        verdict = flaws_text(list(event.get("flaws") or ()), lang, variant)
        if mine:
            text = tr("{cards}: {verdict}", lang, cards=cards, verdict=verdict)
        else:
            text = tr("{name}: {cards}: {verdict}", lang, name=name, cards=cards, verdict=verdict)
    penalty = []  # on a line of its own, under the explanation
    if variant_of(view).flow.face_down and event.get("reason") != "timeout":
        penalty.append(tr("The cards turn face down again.", lang))
    added = event.get("penalty_seconds")
    if isinstance(added, int | float) and added > 0:  # Puzzle: time, not a point
        seconds = seconds_text(float(added), lang)
        penalty.append(tr("{seconds} added to your time.", lang, seconds=seconds))
    if event.get("point_lost"):
        penalty.append(
            tr("You lose a point.", lang) if mine else tr("{name} loses a point.", lang, name=name)
        )
    if event.get("locked"):
        penalty.append(lockout_text(view, name if not mine else None, lang))
    wait = event.get("cooldown")
    if isinstance(wait, int | float) and wait > 0:  # fair call: the others go first
        seconds = seconds_text(float(wait), lang)
        if mine:
            penalty.append(tr("You may call again in {seconds}.", lang, seconds=seconds))
        else:
            penalty.append(
                tr("{name} may call again in {seconds}.", lang, name=name, seconds=seconds)
            )
    return "\n".join([text, " ".join(penalty)]) if penalty else text


def lockout_text(view: Mapping[str, Any], name: str | None, lang: str) -> str:
    """Who is locked out (``None``: the viewer) and until when, by the room's lockout rule."""
    settings = view.get("settings") or {}
    cards_too = isinstance(settings, Mapping) and settings.get("lockout_lift") == "set_or_cards"
    if name is None:
        if cards_too:
            return tr("You are locked out until someone finds a set or cards are added.", lang)
        return tr("You are locked out until someone finds a set.", lang)
    if cards_too:
        return tr(
            "{name} is locked out until someone finds a set or cards are added.", lang, name=name
        )
    return tr("{name} is locked out until someone finds a set.", lang, name=name)


def _daily_result(event: Mapping[str, Any], view: Mapping[str, Any], lang: str) -> str:
    """The daily puzzle's result on a line of its own, to share: the day, the sets found
    and the time, no card (no spoiler)."""
    day, solo = (view.get("settings") or {}).get("day"), event.get("solo")
    if not day or not isinstance(solo, Mapping):
        return ""
    clock = format_clock(float(solo.get("seconds") or 0.0))
    found = int(solo.get("score", 0))
    return "\n" + ngettext(
        lang,
        "SET daily puzzle {day}: {n} set in {clock}",
        "SET daily puzzle {day}: {n} sets in {clock}",
        found,
        day=day,
        clock=clock,
    )


def _match_over(event: Mapping[str, Any], names: Mapping[str, str], lang: str) -> str:
    solo = event.get("solo")
    if solo is not None:
        clock = format_clock(float(solo.get("seconds") or 0.0))
        left = int(solo.get("penalties", 0)) - int(solo.get("cancelled", 0))
        if solo.get("won"):
            outcome = tr("won", lang)
        else:
            outcome = ngettext(
                lang,
                "not won: {n} more-cards penalty not cancelled",
                "not won: {n} more-cards penalties not cancelled",
                left,
            )
        score = int(solo.get("score", 0))
        text = ngettext(
            lang,
            "Game over: {n} point in {clock}, {outcome}.",
            "Game over: {n} points in {clock}, {outcome}.",
            score,
            clock=clock,
            outcome=outcome,
        )
        penalty = solo.get("penalty_seconds")
        if isinstance(penalty, int | float) and penalty > 0:  # Puzzle: counted in the time
            seconds = seconds_text(float(penalty), lang)
            text += " " + tr("Penalties included: {seconds}.", lang, seconds=seconds)
        return text
    winners = ", ".join(names.get(str(w), str(w)) for w in event.get("winners") or ())
    return tr("Game over. {winners} won.", lang, winners=winners)


#: Engine and server error codes the screen words itself; others show the error's text.
_ERRORS: Final = {
    "not_holder": N_("Press Space to call SET first"),
    "already_declared": N_("You have already said there is no set"),
    "deck_empty": N_("The deck is empty: no more cards"),
    "table_full": N_("21 cards always hold a set"),
    "no_hints": N_("Hints are for practice games"),
    "stale_version": N_("The table changed: look again"),
    "not_seated": N_("You are watching: the seats are taken"),
    "offline": N_("Not connected to the server: wait until it reconnects"),
    "already_found": N_("You found that one already: look for another"),
    "face_down": N_("The cards lie face down: press a card's key to turn it up"),
    "auto_deal": N_("There is always a group to find here: keep looking"),
}


def cooldown_left(view: Mapping[str, Any]) -> float | None:
    """Seconds until the viewer may call again (fair call), from their player entry."""
    you = view.get("you")
    for player in view.get("players") or ():
        if player.get("id") == you:
            left = player.get("cooldown_in")
            return float(left) if isinstance(left, int | float) and left > 0 else None
    return None


def error_message(code: object, text: str, lang: str, view: Mapping[str, Any] | None = None) -> str:
    """A refused action in words: ours for the codes we know, else the error's own text."""
    view = view or {}
    if code == "locked_out":
        return lockout_text(view, None, lang)
    if code == "cooling_down":
        left = cooldown_left(view)
        if left is not None:
            return tr(
                "You called without a set: others may call first. Call again in {seconds}.",
                lang,
                seconds=seconds_text(float(left), lang),
            )
        return tr("You called without a set: others may call first.", lang)
    if code == "auto_deal" and variant_of(view).flow.face_down:  # Memory: misses deal
        return tr("Misses in a row bring three more cards: keep turning", lang)
    message = _ERRORS.get(code) if isinstance(code, str) else None
    return tr(message, lang) if message else text
