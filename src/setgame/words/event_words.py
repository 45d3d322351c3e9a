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
from collections.abc import Callable, Mapping
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
    return tr("unit.seconds", lang, n=format_number(lang, seconds, 1))


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
    """What the terminal says about one engine event (its lines), or None when the table
    shows it all."""
    kind = event.get("type")
    player = event.get("player")
    mine = player is not None and player == view.get("you")
    if kind in _TABLE_SHOWS or (kind == "cards_added" and event.get("why") == "request"):
        return None  # the table shows it (a request's cards: more_cards_asked said it)
    if kind in ("no_set_declared", "left") and mine:
        return None
    if kind == "round_over" and view.get("phase") != "round_over":
        return None  # the holder bar says to press Enter
    if kind == "error":
        return error_message(event.get("code"), str(event.get("message")), lang, view)
    if kind == "presence":
        if mine or not _seated(view, player):
            return None  # the server also reports the connection of a seat that has just left
        name = player_names(view, lang).get(str(player))
        if event.get("connected"):
            return tr("{name} is back", lang, name=name)
        return tr("{name} lost the connection", lang, name=name)
    if kind in ("disconnected", "reconnecting", "unreachable", "seat_elsewhere"):
        return connection_message(event, lang)
    if kind == "reconnected":
        return tr("Connected again", lang)
    lines = event_lines(event, view, lang, cards=_codes)
    if kind == "wrong_call" and len(lines) > 2:
        # what the wrong call cost, whole sentences, on one line under the explanation
        lines = [lines[0], " ".join(lines[1:])]
    return "\n".join(lines) if lines else None


#: Events the terminal's table shows by itself: no line for them there.
_TABLE_SHOWS: Final = frozenset(
    {"joined", "call_cancelled", "round_started", "called", "card_turned", "lockouts_lifted"}
)


def _codes(codes: object) -> str:
    """Cards as the terminal writes them: their codes."""
    return " ".join(str(code) for code in codes or ()) if isinstance(codes, list | tuple) else ""


class _Said:
    """One event as its lines see it: who, whether it is the viewer's, the variant."""

    def __init__(
        self,
        event: Mapping[str, Any],
        view: Mapping[str, Any],
        lang: str,
        cards: Callable[[object], str],
    ) -> None:
        self.event, self.view, self.lang, self.cards = event, view, lang, cards
        self.names = player_names(view, lang)
        player = event.get("player")
        self.name = self.names.get(str(player), str(player))
        self.mine = player is not None and player == view.get("you")
        self.variant = variant_of(view)

    def say(self, message: str, **fields: object) -> str:
        return tr(message, self.lang, **fields)

    def seconds(self, value: object) -> str:
        return seconds_text(float(value), self.lang) if isinstance(value, int | float) else ""


def event_lines(
    event: Mapping[str, Any],
    view: Mapping[str, Any],
    lang: str,
    cards: Callable[[object], str] = _codes,
) -> list[str]:
    """What one engine event says, line by line: each line is one whole catalog message
    with its fields filled in, never pieces joined. The web client words each event with
    the same messages (``web/static/js/events.js``, checked by ``tests/test_event_words.py``):
    a wording fix is one change in the catalog. ``cards`` writes a list of cards."""
    wording = _LINES.get(str(event.get("type")))
    return wording(_Said(event, view, lang, cards)) if wording else []


def _taken(s: _Said) -> list[str]:
    cards = s.cards(s.event.get("cards"))
    if s.variant.kind.name == "set":
        line = (
            s.say("ev.set.you", cards=cards)
            if s.mine
            else s.say("ev.set", name=s.name, cards=cards)
        )
    elif s.mine:
        line = s.say("ev.found.you", cards=cards)
    else:
        line = s.say("ev.found", name=s.name, cards=cards)
    return [line, s.say("ev.reshuffled")] if s.event.get("reshuffled") else [line]  # Shuffle


def _wrong_call(s: _Said) -> list[str]:
    event = s.event
    if event.get("reason") == "timeout":
        return [s.say("ev.late", name=s.name), *_costs(s)]
    cards = s.cards(event.get("cards"))
    flaws = event.get("flaws")
    if not flaws:
        return [s.say("ev.wrong", name=s.name), *_costs(s)]
    verdict = verdict_text(event, s.variant, s.lang)
    if s.mine:
        line = s.say("ev.wrong.you", cards=cards, verdict=verdict)
    else:
        line = s.say("ev.wrong.verdict", name=s.name, cards=cards, verdict=verdict)
    face_down = [s.say("ev.facedown")] if s.variant.flow.face_down else []  # Memory
    return [line, *face_down, *_costs(s)]


def _costs(s: _Said) -> list[str]:
    """What a wrong call cost, a line each: a point, time, a lockout, a wait."""
    event, lines = s.event, []
    if event.get("point_lost"):
        lines.append(s.say("ev.pointlost.you") if s.mine else s.say("ev.pointlost", name=s.name))
    elif event.get("penalty") in ("point", "both"):
        lines.append(s.say("ev.nopoint"))  # a point penalty, but no set won yet
    if isinstance(added := event.get("penalty_seconds"), int | float) and added > 0:
        lines.append(s.say("ev.penaltytime", seconds=s.seconds(added)))  # Puzzle: time
    if event.get("locked"):
        lines.append(lockout_text(s.view, None if s.mine else s.name, s.lang))
    if isinstance(wait := event.get("cooldown"), int | float) and wait > 0:  # fair call
        seconds = s.seconds(wait)
        if s.mine:
            lines.append(s.say("ev.cooldown.you", seconds=seconds))
        else:
            lines.append(s.say("ev.cooldown", name=s.name, seconds=seconds))
    return lines


def _more_asked(s: _Said) -> list[str]:
    penalty = s.event.get("penalty")
    if not isinstance(penalty, int) or penalty <= 0:
        return [s.say("ev.more.none")]
    if s.view.get("mode") == "solo":
        return [s.say("ev.more.solo")]
    return [ngettext(s.lang, "ev.more.one", "ev.more.other", penalty)]


def _cards_added(s: _Said) -> list[str]:
    """Three more cards; after a "no set" vote with a group on the table, which it was."""
    table = s.event.get("table")
    if not isinstance(table, list):  # an event from before it carried the table
        table = s.view.get("table") or []
    count = len(table)
    lines = [ngettext(s.lang, "ev.added.one", "ev.added.other", count)]
    if missed := s.event.get("missed"):
        cards = s.cards(missed)
        if s.variant.kind.name == "set":
            lines.append(s.say("ev.missed", cards=cards))
        else:
            lines.append(s.say("ev.missed.group", cards=cards))
    return lines


def _round_over(s: _Said) -> list[str]:
    scores, number = s.event.get("scores"), s.event.get("round", 1)
    if not isinstance(scores, Mapping) or not scores:
        return [s.say("ev.roundover", n=number)]
    said = ", ".join(f"{s.names.get(str(pid), str(pid))} {score}" for pid, score in scores.items())
    return [s.say("ev.roundover.scores", round=number, scores=said)]


def _match_over(s: _Said) -> list[str]:
    if isinstance(s.event.get("solo"), Mapping):
        return _solo_over(s)
    winners = [s.names.get(str(w), str(w)) for w in s.event.get("winners") or ()]
    # ties share the win: worded for as many winners as there are
    return [ngettext(s.lang, *MATCH_OVER, len(winners), names=", ".join(winners))]


def _round_started(s: _Said) -> list[str]:
    dealer = s.event.get("dealer")
    name = s.names.get(str(dealer), str(dealer))
    return [s.say("ev.round", n=s.event.get("round"), of=s.event.get("rounds"), name=name)]


#: Each event type's lines. The web client's ``events.js`` has one function per type with
#: the same messages (a test compares them).
_LINES: Final[dict[str, Callable[[_Said], list[str]]]] = {
    "joined": lambda s: [s.say("ev.joined", name=s.event.get("name") or s.name)],
    "left": lambda s: [s.say("ev.left", name=s.name)],
    "call_cancelled": lambda s: [s.say("ev.cancelled", name=s.name)],
    "round_started": _round_started,
    "called": lambda s: [s.say("ev.called", name=s.name)],
    "more_cards_asked": _more_asked,
    "no_set_declared": lambda s: [s.say("ev.declared", name=s.name)],
    "set_taken": _taken,
    "card_turned": lambda s: [s.say("ev.turned", name=s.name, card=s.cards([s.event.get("card")]))],
    "wrong_call": _wrong_call,
    "lockouts_lifted": lambda s: [s.say("ev.lifted")],
    "cards_added": _cards_added,
    "round_over": _round_over,
    "match_over": _match_over,
}


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
    if kind == "seat_elsewhere":
        return tr(
            "Your seat is now played in another window or terminal; this game has stopped "
            "here. Press q to leave.",
            lang,
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


def lockout_text(view: Mapping[str, Any], name: str | None, lang: str) -> str:
    """Who is locked out (``None``: the viewer) and until when, by the room's lockout rule."""
    settings = view.get("settings") or {}
    cards_too = isinstance(settings, Mapping) and settings.get("lockout_lift") == "set_or_cards"
    if name is None:
        return tr("ev.locked.you.cards", lang) if cards_too else tr("ev.locked.you", lang)
    if cards_too:
        return tr("ev.locked.cards", lang, name=name)
    return tr("ev.locked", lang, name=name)


def _solo_over(s: _Said) -> list[str]:
    """A game alone: the points and the time, won or not, the time penalties, and the
    daily puzzle's result to share; a line each."""
    solo = s.event["solo"]
    clock = format_clock(float(solo.get("seconds") or 0.0))
    score = int(solo.get("score", 0))
    lines = [ngettext(s.lang, "ev.solo.over.one", "ev.solo.over.other", score, clock=clock)]
    if solo.get("won"):
        lines.append(s.say("ev.solo.won"))
    else:
        left = int(solo.get("penalties", 0)) - int(solo.get("cancelled", 0))
        lines.append(ngettext(s.lang, "ev.solo.lost.one", "ev.solo.lost.other", left))
    penalty = solo.get("penalty_seconds")
    if isinstance(penalty, int | float) and penalty > 0:  # Puzzle: counted in the time
        lines.append(s.say("ev.solo.penalties", seconds=s.seconds(penalty)))
    day = (s.view.get("settings") or {}).get("day")
    if day:  # the daily puzzle: the day, the sets found and the time, no card (no spoiler)
        lines.append(
            ngettext(s.lang, "ev.daily.one", "ev.daily.other", score, day=day, clock=clock)
        )
    return lines


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
