"""What the terminal says about an arena (``setgame play --arena URL``): the standings
between games, one line beside a game, the keys, and the arena's own messages (a new
pairing, a refusal, an arena that is not there). Every word from the gettext catalog."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from rich.text import Text
from textual.widgets import Static

from setgame.rules.variants import VARIANTS
from setgame.words.catalog import N_, ngettext
from setgame.words.event_words import connection_message, format_clock, tr

#: The holder bar's line in an arena, by phase (the room's own lines elsewhere).
ARENA_PHASE_LINES: Final = {
    "arena": N_("p: pause or play on · q: leave the arena"),
    "lobby": N_("Your game starts when every player is here"),
    "match_over": N_("Game over: the arena pairs you again by itself · q: leave the arena"),
}

#: Refusals of joining an arena that the terminal words itself (else the server's text).
_REFUSALS: Final = {
    "arena_over": N_("This arena is over. Press q to leave."),
    "arena_closing": N_(
        "Too little time is left for another game in this arena. Press q to leave."
    ),
    "arena_full": N_("This arena has as many players as it can take. Press q to leave."),
    "rated_arena": N_(
        "A rated arena is for signed-in players: give your claimed name with --name. "
        "Press q to leave."
    ),
    "name_taken": N_(
        "Another player in this arena has that name: choose another with --name. Press q to leave."
    ),
}


def variant_title(name: object) -> str:
    """A variant's title (a proper name, the same in every language)."""
    variant = VARIANTS.get(str(name))
    return variant.title if variant is not None else str(name or "")


def when_text(arena: Mapping[str, Any], lang: str) -> str:
    """ "12:05 left", "starts in 4:32" or "finished", by the arena's times and the wall clock."""
    now = float(arena.get("now") or 0.0)
    status = arena.get("status")
    if status == "finished":
        return tr("finished", lang)
    if status == "waiting":
        left = float(arena.get("starts_at") or now) - now
        return tr("starts in {time}", lang, time=format_clock(max(0.0, left)))
    left = float(arena.get("ends_at") or now) - now
    return tr("{time} left", lang, time=format_clock(max(0.0, left)))


def _points(n: int, lang: str) -> str:
    return ngettext(lang, "{n} point", "{n} points", n)


def row_line(row: Mapping[str, Any], lang: str) -> str:
    """One standings row: "3. Ann — 6 points, 4 games [on a streak]"."""
    games = ngettext(lang, "{n} game", "{n} games", int(row.get("games", 0)))
    figures = ", ".join((_points(int(row.get("points", 0)), lang), games))
    place, name = row.get("place"), row.get("name")
    line = tr("{place}. {name} — {figures}", lang, place=place, name=name, figures=figures)
    if row.get("fire"):
        line += " [" + tr("on a streak: the next win counts double", lang) + "]"
    if row.get("state") == "paused":
        line += " [" + tr("paused", lang) + "]"
    return line


def you_line(arena: Mapping[str, Any], lang: str) -> str:
    """Where this player stands and what comes next."""
    you = arena.get("you") or {}
    state, status = you.get("state"), arena.get("status")
    if status == "finished":
        if you.get("place"):
            return tr("The arena is over: your place is {place}.", lang, place=you["place"])
        return tr("The arena is over.", lang)
    if state == "paused" or (arena.get("paused") and state != "playing"):
        return tr("Paused: press p to play on.", lang)
    if state == "playing":
        return tr("Your game is in progress.", lang)
    if status == "waiting":
        return tr("You are in: your first game comes when the arena starts.", lang)
    return tr("Waiting for your next game…", lang)


def podium_line(arena: Mapping[str, Any], lang: str) -> str | None:
    podium = arena.get("podium") or []
    if not podium:
        return None
    names = ", ".join(f"{i}. {row.get('name')}" for i, row in enumerate(podium[:3], 1))
    return tr("Podium: {names}", lang, names=names)


def standings_text(arena: Mapping[str, Any], lang: str, rows: int = 100) -> Text:
    """Between games: the arena, this player's next step, the podium, the standings (this
    player's row marked as the scoreboard marks them)."""
    title = tr("Arena: {variant}", lang, variant=variant_title(arena.get("variant")))
    text = Text()
    text.append(f"{title} · {when_text(arena, lang)}\n", style="bold")
    text.append(you_line(arena, lang) + "\n")
    podium = podium_line(arena, lang)
    if podium:
        text.append(podium + "\n", style="bold")
    standings = list(arena.get("standings") or [])
    text.append(tr("Standings:", lang))
    me = (arena.get("you") or {}).get("name")
    for row in standings[:rows]:
        text.append("\n")
        text.append(row_line(row, lang), style="bold reverse" if row.get("name") == me else "")
    if not standings:
        text.append("\n" + tr("Nobody has joined yet.", lang))
    return text


def game_line(arena: Mapping[str, Any], lang: str) -> str:
    """Beside a game: "Arena: Classic · place 3 · 4 points · 12:05 left"."""
    parts = [tr("Arena: {variant}", lang, variant=variant_title(arena.get("variant")))]
    you = arena.get("you") or {}
    if you.get("place"):
        parts.append(tr("place {place}", lang, place=you["place"]))
        parts.append(_points(int(you.get("points", 0)), lang))
    if arena.get("paused"):  # no new game after this one
        parts.append(tr("paused", lang))
    parts.append(when_text(arena, lang))
    return " · ".join(parts)


class ArenaBoard(Static):
    """The arena: its standings between games (the table's place), one line during one."""

    def show(self, view: Mapping[str, Any], lang: str) -> None:
        arena = view.get("arena")
        self.display = arena is not None
        if arena is None:
            return
        between = view.get("phase") == "arena"
        self.set_class(between, "between")
        if between:
            self.update(standings_text(arena, lang))
        else:
            self.update(Text(game_line(arena, lang), no_wrap=True, overflow="ellipsis"))


def arena_message(event: Mapping[str, Any], lang: str) -> str | None:
    """The arena's own events in words (None: not an arena event)."""
    kind = event.get("type")
    if kind == "arena_paired":
        names = ", ".join(str(n) for n in event.get("opponents") or ())
        return tr("A new game against {names}", lang, names=names)
    if kind != "arena_unreachable":
        return None
    code = event.get("code")
    if isinstance(code, str) and code in _REFUSALS:
        return tr(_REFUSALS[code], lang)
    if event.get("why") == "no_room":
        return tr(
            "There is no arena “{arena}” on {server}: check the link. Press q to leave.",
            lang,
            arena=event.get("room", ""),
            server=event.get("server", ""),
        )
    if event.get("why") == "refused_join":
        return str(event.get("message") or "")
    return connection_message({**event, "type": "unreachable"}, lang)
