"""The game's sentences: what happened (a set found, a wrong call, a lockout, the round's
and the match's result), refused actions and connection trouble, in each language, from the
gettext catalog. The terminal shows them as they are; the server sends a wrong call's
verdict in every language with the event (:func:`annotate`), so that the web client shows
the same sentence and composes none itself.

>>> tr("Deck: {count}", "de", count=12)
'Stapel: 12'
>>> seconds_text(4.25, "ru")
'4,2 с'
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from typing import Any, Final

from setgame.rules.variants import CLASSIC, Variant, VariantError, find_variant
from setgame.words import flaw_words
from setgame.words.catalog import LANGUAGES, N_, check_language, format_number, gettext, ngettext
from setgame.words.i18n import explain_text

#: The name the server and the local game give a bot ("Bot 2"), said in the player's language.
_BOT_NAME: Final = re.compile(r"Bot (\d{1,2})")


def variant_of(view: Mapping[str, Any]) -> Variant:
    """The variant a view is of (Classic for a view from before variants)."""
    try:
        return find_variant((view.get("variant") or {}).get("name", "classic"))
    except VariantError:
        return CLASSIC


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
        return tr("bot.name", lang, n=int(bot.group(1)))
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
        return tr("ev.declared", lang, name=name)
    if kind == "round_over" and view.get("phase") == "round_over":
        # the holder bar says to press Enter: here, the round's scores (at the match's end
        # the match's result says it all)
        return _round_over(event, names, lang)
    if kind == "match_over":
        return _match_over(event, names, lang) + _daily_result(event, view, lang)
    if kind == "error":
        return error_message(event.get("code"), str(event.get("message")), lang, view)
    if kind == "left" and not mine:
        return tr("ev.left", lang, name=name)
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
            text = tr("ev.set", lang, name=name) + ": " + cards
    elif mine:
        text = tr("Found! {cards}", lang, cards=cards)
    else:
        text = tr("{name} found: {cards}", lang, name=name, cards=cards)
    if event.get("reshuffled"):  # Shuffle
        text += "\n" + tr("ev.reshuffled", lang) + "."
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
        return tr("ev.roundover", lang, n=event.get("round", 1))
    said = ", ".join(f"{names.get(str(pid), str(pid))} {score}" for pid, score in scores.items())
    return tr("Round {round} over: {scores}", lang, round=event.get("round", 1), scores=said)


def _cards_added(event: Mapping[str, Any], view: Mapping[str, Any], lang: str) -> str:
    """Three more cards; after a "no set" vote with a group on the table, which it was."""
    text = tr("Three more cards", lang)
    missed = event.get("missed")
    if missed:
        cards = " ".join(str(code) for code in missed)
        if variant_of(view).kind.name == "set":
            text += ". " + tr("ev.missed", lang, cards=cards)
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
        verdict = verdict_text(event, variant, lang)
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
    winners = [names.get(str(w), str(w)) for w in event.get("winners") or ()]
    # ties share the win: worded for as many winners as there are (the web's message too)
    return ngettext(lang, *MATCH_OVER, len(winners), names=", ".join(winners))


#: The match's end, a plural on the number of winners (the keyword ``tn:1,2`` extracts it).
MATCH_OVER: Final = flaw_words.tn("ev.matchover.one", "ev.matchover.other")


#: Engine and server error codes the screen words itself (the web client's messages where it
#: says the same: one message per sentence); others show the error's text.
_ERRORS: Final = {
    "not_holder": N_("Press Space to call SET first"),
    "already_declared": N_("err.already_declared"),
    "deck_empty": N_("The deck is empty: no more cards"),
    "table_full": N_("err.table_full"),
    "no_hints": N_("err.no_hints"),
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


# --- a wrong call's verdict, for every client --------------------------------------------


def verdict_text(event: Mapping[str, Any], variant: Variant, lang: str) -> str:
    """The verdict on a wrong call's pick from its typed flaws: "Not an UltraSet: ..."."""
    flaws = list(event.get("flaws") or ())
    return explain_text(flaws, lang, kind=variant.kind.name, deck=variant.deck)


def annotate(events: list[dict[str, Any]], variant: Variant) -> list[dict[str, Any]]:
    """Add to each wrong call with flaws its ``verdict`` in every language (``{lang: text}``),
    so the web client shows this module's sentence. Every viewer of a room gets the same
    events, encoded once for all of them (``server/fanout.py``), whatever their language:
    five short texts, on a wrong call only."""
    for event in events:
        if event.get("type") == "wrong_call" and event.get("flaws"):
            flaws = json.dumps(event["flaws"], sort_keys=True)
            event["verdict"] = dict(_verdicts(variant, flaws))
    return events


@functools.lru_cache(maxsize=4096)
def _verdicts(variant: Variant, flaws: str) -> tuple[tuple[str, str], ...]:
    """The five verdicts on a pick with these flaws (a JSON text), worded once: a room's
    wrong calls repeat few flaws, and a server restores rooms by replaying their logs."""
    event = {"flaws": json.loads(flaws)}
    return tuple((lang, verdict_text(event, variant, lang)) for lang in LANGUAGES)
