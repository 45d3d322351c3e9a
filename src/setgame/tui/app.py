"""The terminal game: a Textual app over a session (a local game or an online room).

The app owns the clock and the player's selection; the session owns the game.
A timer polls the session a few times a second, shows what happened and
redraws the widgets from the session's view.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final, Protocol

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.filter import Monochrome, NoColor
from textual.screen import ModalScreen
from textual.widgets import Static

from setgame.tui.arenaboard import ArenaBoard, arena_message
from setgame.tui.clock import GameClock
from setgame.tui.helpscreen import HelpScreen
from setgame.tui.layouts import latin_key
from setgame.tui.strings import PREVIOUS_KEYS, error_message, event_message, tr, variant_of
from setgame.tui.widgets import (
    KEYS,
    FoundBar,
    HolderBar,
    MessageBar,
    PreviousRow,
    Scoreboard,
    StatusBar,
    TableGrid,
    table_rows,
)

Clock = Callable[[], float]
#: Seconds the cards of a miss in Memory stay up on screen (the engine turns them down at
#: once): long enough to remember them; the player's next key turns them down sooner.
REVEAL_SECONDS: Final = 1.5
#: Events shown as warnings: something went wrong for someone.
_WARNINGS = frozenset({"wrong_call", "error", "reconnecting", "disconnected", "seat_elsewhere"})


class Session(Protocol):
    """What the app plays through: :class:`~setgame.tui.local.LocalSession` or
    :class:`~setgame.tui.remote.RemoteSession`. Failed actions raise ``ValueError``."""

    async def open(self, now: float) -> None: ...
    async def start(self, now: float) -> None: ...
    async def again(self, now: float) -> None: ...
    async def call(self, now: float) -> None: ...
    async def pick(self, codes: tuple[str, ...], now: float) -> None: ...
    async def turn(self, position: int, now: float) -> None: ...
    async def no_set(self, now: float) -> None: ...
    async def hint(self, now: float) -> list[str]: ...
    async def close(self) -> None: ...
    async def hang_up(self) -> None: ...
    def poll(self, now: float) -> list[dict[str, Any]]: ...
    def view(self, now: float) -> dict[str, Any]: ...


#: Terminals known to show no color (``TERM`` values, and ``*-mono``/``*-m`` variants).
_MONO_TERMS: Final = frozenset({"dumb", "vt52", "vt100", "vt102", "vt220", "vt320"})


def no_color_wanted(environ: Mapping[str, str]) -> bool:
    """True when the screen must have no color: ``NO_COLOR`` set (to anything, as
    no-color.org says), or a monochrome ``TERM`` such as ``xterm-mono``.

    >>> no_color_wanted({"TERM": "xterm-mono"}), no_color_wanted({"TERM": "xterm-256color"})
    (True, False)
    >>> no_color_wanted({"TERM": "xterm", "NO_COLOR": ""})
    True
    """
    if "NO_COLOR" in environ:
        return True
    term = environ.get("TERM", "").lower()
    return term in _MONO_TERMS or term.endswith(("-mono", "-m"))


def monotonic_clock() -> Clock:
    """Seconds since this call, on the monotonic clock."""
    origin = time.monotonic()
    return lambda: time.monotonic() - origin


class QuitScreen(ModalScreen[bool]):
    """Leave the game? y / n."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "yes"),
        Binding("n,escape,q", "answer(False)", "no"),
    ]

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        yield Static(tr("Leave the game? (y/n)", self.lang), id="quit-box")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class SetApp(App[None]):
    """SET in the terminal."""

    CSS_PATH = "setgame.tcss"
    TITLE = "SET"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "call", "SET!"),
        Binding("n", "no_set", "no set"),
        Binding("h", "hint", "hint"),
        Binding("question_mark", "help", "help"),
        Binding("enter", "start", "start"),
        Binding("left", "move_focus(-1)", show=False),
        Binding("right", "move_focus(1)", show=False),
        Binding("q", "quit_game", "quit"),
        Binding("ctrl+q", "quit_game", "quit", show=False, priority=True),
        *(Binding(key, f"select({i})", show=False) for i, key in enumerate(KEYS)),
        *(Binding(key, f"select_previous({i})", show=False) for i, key in enumerate(PREVIOUS_KEYS)),
    ]

    def __init__(
        self,
        session: Session,
        *,
        lang: str = "en",
        clock: Clock | None = None,
        poll_seconds: float = 0.1,
    ) -> None:
        super().__init__()
        if no_color_wanted(os.environ):  # NO_COLOR (no-color.org) or a terminal without color
            self.no_color = True
            self._filters = [f for f in self._filters if not isinstance(f, Monochrome)]
            self._filters.append(NoColor())
        self.session = session
        self.lang = lang
        self.clock = clock or monotonic_clock()
        self.poll_seconds = poll_seconds
        self.selected: list[str] = []  # card codes, in the order picked
        self.hinted: set[str] = set()
        self.focus_at: int | None = None  # the arrows' card; Enter takes (or turns) it
        self.revealed: dict[int, str] = {}  # Memory: a miss's cards still shown face up
        self._revealed_until = 0.0
        self.view: dict[str, Any] = {}
        self.status_bar = StatusBar(id="status")
        self.arena_board = ArenaBoard(id="arena")  # shown in an arena only
        self.table_grid = TableGrid(lang)
        self.previous_row = PreviousRow(lang)
        self.found_bar = FoundBar(id="found")
        self.scoreboard = Scoreboard(id="scores")
        self.holder_bar = HolderBar(id="holder")
        self.message_bar = MessageBar(id="message")
        self.game_clock = GameClock()
        self._phase: str | None = None
        self._failure = 0  # the exit status: the game could not open, or its server went away

    def compose(self) -> ComposeResult:
        with Vertical(id="main"):
            yield self.status_bar
            yield self.arena_board
            yield self.previous_row
            yield self.table_grid
            yield self.found_bar
            yield self.scoreboard
            yield self.holder_bar
            yield self.message_bar

    async def on_mount(self) -> None:
        try:
            await self.session.open(self.clock())
        except ValueError as exc:  # a room that cannot be reached: say why and what to do
            self._cannot_open(exc)
            return
        await self.table_grid.lay_out(table_rows(variant_of(self.session.view(self.clock()))))
        self.refresh_game()
        self.set_interval(self.poll_seconds, self.refresh_game)

    def _cannot_open(self, exc: ValueError) -> None:
        """The whole screen says why the game could not open, in the player's language."""
        event = getattr(exc, "event", None)
        base, room = getattr(self.session, "base_url", ""), getattr(self.session, "room_id", "")
        if callable(event):
            text = _words(event(base, room), self.view, self.lang) or str(exc)
        else:
            text = str(exc)
        # the exit status when the player leaves: 2 for a room that is not there (bad
        # input), 1 for a server that cannot be reached
        self._failure = 2 if getattr(exc, "why", "address") in ("no_room", "address") else 1
        self.screen.add_class("failed")
        self.status_bar.update(tr("SET", self.lang))
        self.say(text, warning=True)

    async def on_unmount(self) -> None:
        """However the app ends (q closed the session already), no connection is left open."""
        await self.session.hang_up()

    # -- drawing ---------------------------------------------------------------------------

    def refresh_game(self) -> None:
        """Poll the session, say what happened, redraw from the view."""
        now = self.clock()
        events = self.session.poll(now)
        before, self.view = self.view, self.session.view(now)
        view = self.view
        if view.get("phase") == "playing" and self._phase not in (None, "playing"):
            self.message_bar.clear()  # a new round or game: what was said before is over
        self._phase = view.get("phase")
        fresh = True
        named = _naming_departed(view, before)
        for event in events:
            self._note_reveal(event, now)
            if event.get("type") in ("disconnected", "reconnected", "seat_elsewhere"):
                self._failure = 0 if event["type"] == "reconnected" else 1
            message = _words(event, named, self.lang)
            if message is not None and _asks_to_agree(event, view):
                message += ". " + tr("Press n if you agree.", self.lang)
            if message is not None:
                self.say(message, warning=event.get("type") in _WARNINGS, keep=not fresh)
                fresh = False
        self._forget_gone_cards(view)
        offline = bool(getattr(self.session, "offline", False))
        view["clock"] = self.game_clock.shown(view, offline=offline)
        self.status_bar.show(view, self.lang)
        self.arena_board.show(view, self.lang)  # an arena between games: its standings
        self.screen.set_class(view.get("phase") == "arena", "arena-between")
        variant = variant_of(view)
        if table_rows(variant) != self.table_grid.rows:  # a room's next game, another variant
            self.call_later(self._lay_out_table, table_rows(variant))
        table = self._with_revealed(view, now)
        if self.focus_at is not None and self.focus_at >= len(table):
            self.focus_at = len(table) - 1 if table else None
        self.table_grid.show(
            table, self._selected_positions(), self.hinted, variant.deck, self.focus_at
        )
        self.previous_row.show(
            view.get("previous"), variant.flow.links, self.selected, self.hinted, variant.deck
        )
        self.found_bar.show(view, self.lang)
        self.scoreboard.show(view, self.lang)
        self.holder_bar.show(view, self.lang)

    def _note_reveal(self, event: Mapping[str, Any], now: float) -> None:
        """Memory: a miss's cards stay up a moment on screen; a card turned ends it."""
        kind = event.get("type")
        if kind == "card_turned":
            self.revealed = {}
        elif kind == "wrong_call" and event.get("positions") and event.get("cards"):
            self.revealed = dict(zip(event["positions"], event["cards"], strict=False))
            self._revealed_until = now + REVEAL_SECONDS

    def _with_revealed(self, view: Mapping[str, Any], now: float) -> list[str | None]:
        """The table to draw: the view's, a miss's cards shown up until their time is over."""
        table = list(view.get("table") or [])
        if now >= self._revealed_until or view.get("phase") != "playing":
            self.revealed = {}
        return [self.revealed.get(i) if code is None else code for i, code in enumerate(table)]

    def on_key(self, event: events.Key) -> None:
        """Any key turns a miss's cards down (before the key's own action); a key typed
        under another layout (й for q) is the Latin key at its place."""
        if self.revealed:
            self.revealed = {}
            self.refresh_game()
        latin = latin_key(event.character)
        if latin is not None:
            event.stop()
            self.simulate_key(latin)

    async def _lay_out_table(self, rows: int) -> None:
        await self.table_grid.lay_out(rows)
        self.refresh_game()

    def say(self, message: str, *, warning: bool = False, keep: bool = False) -> None:
        """Show ``message`` whole; ``keep``: below what this same moment already said."""
        self.message_bar.say(message[:1].upper() + message[1:], warning=warning, keep=keep)

    def _forget_gone_cards(self, view: dict[str, Any]) -> None:
        shown = {*view.get("table", []), *(view.get("previous") or ())} - {None}
        self.selected = [code for code in self.selected if code in shown]
        self.hinted &= shown
        if view.get("mode") == "multi" and view.get("holder") != view.get("you"):
            self.selected = []

    def _selected_positions(self) -> set[int]:
        table = self.view.get("table", [])
        return {table.index(code) for code in self.selected if code in table}

    # -- the player's commands -------------------------------------------------------------

    async def action_select(self, position: int) -> None:
        """Take or put back the card at ``position``; the claim's last card picks. In
        Memory the key turns the card up."""
        view = self.view
        table = view.get("table", [])
        if view.get("phase") != "playing" or position >= len(table):
            return
        if not self._may_pick(view):
            self._explain_no_pick(view)
            return
        if variant_of(view).flow.face_down:
            if table[position] is None:  # a face-up card stays up until the turn is judged
                self._catch_up()
                await self._act(self.session.turn(position, self.clock()))
                self.refresh_game()
            return
        await self._toggle(table[position])

    async def action_select_previous(self, index: int) -> None:
        """Chain variants: take or put back a card of the previous claim. In an arena,
        ``p`` pauses or plays on where no previous claim lies (between games too)."""
        view = self.view
        pause = getattr(self.session, "toggle_pause", None)
        if PREVIOUS_KEYS[index] == "p" and view.get("previous") is None and pause is not None:
            await self._act(pause())
            return
        previous = view.get("previous") or []
        if view.get("phase") != "playing" or index >= len(previous):
            return
        if not self._may_pick(view):
            self._explain_no_pick(view)
            return
        await self._toggle(previous[index])

    async def _toggle(self, code: str) -> None:
        if code in self.selected:
            self.selected.remove(code)
        else:
            self.selected.append(code)
        if len(self.selected) == variant_of(self.view).claim_size:
            cards, self.selected = tuple(self.selected), []
            self._catch_up()
            if self._may_pick(self.view):  # the pick window may have closed meanwhile
                await self._act(self.session.pick(cards, self.clock()))
        self.refresh_game()

    @staticmethod
    def _may_pick(view: dict[str, Any]) -> bool:
        return view.get("phase") == "playing" and (
            view.get("mode") != "multi" or view.get("holder") == view.get("you")
        )

    def _explain_no_pick(self, view: dict[str, Any]) -> None:
        holder = view.get("holder")
        if holder is None:
            self.say(tr("Press Space to call SET first", self.lang), warning=True)
            return
        names = {p["id"]: p.get("name") for p in view.get("players", [])}
        self.say(
            tr("{name} holds the board", self.lang, name=names.get(holder, holder)), warning=True
        )

    async def action_call(self) -> None:
        """Call SET (multiplayer): hold the board, then pick three cards in time."""
        if self.view.get("mode") != "multi" or self.view.get("phase") != "playing":
            return
        self._catch_up()
        await self._act(self.session.call(self.clock()))
        self.refresh_game()

    async def action_no_set(self) -> None:
        """Declare no set (multiplayer), or ask for three more cards (solo, practice)."""
        if self.view.get("phase") != "playing":
            return
        self._catch_up()
        await self._act(self.session.no_set(self.clock()))
        self.refresh_game()

    async def action_hint(self) -> None:
        """Practice: show one more card of a set on the table."""
        if self.view.get("mode") != "practice":
            self.say(tr("err.no_hints", self.lang), warning=True)
            return
        if variant_of(self.view).flow.face_down:
            self.say(tr("No hints in Memory: the cards lie face down", self.lang), warning=True)
            return
        cards = await self._act(self.session.hint(self.clock()))
        if cards is None:
            return
        self.hinted = set(cards)
        self.say(
            tr("Hint: {cards}", self.lang, cards=" ".join(cards))
            if cards
            else tr("No set on the table: press n for three more cards", self.lang)
        )
        self.refresh_game()

    def action_move_focus(self, step: int) -> None:
        """Move the focus to the next (or previous) card of the table, in table order."""
        cards = len(self.view.get("table") or ())
        if self.view.get("phase") != "playing" or not cards:
            return
        self.focus_at = 0 if self.focus_at is None else (self.focus_at + step) % cards
        self.refresh_game()

    async def action_start(self) -> None:
        """Deal the next round, start a game waiting in its lobby, or play again; while
        playing, take (or in Memory turn up) the focused card."""
        phase = self.view.get("phase")
        if phase == "playing" and self.focus_at is not None:
            await self.action_select(self.focus_at)
        elif phase in ("lobby", "round_over"):
            await self._act(self.session.start(self.clock()))
        elif phase == "match_over":
            await self._act(self.session.again(self.clock()))
            self.hinted, self.selected = set(), []
        self.refresh_game()

    def action_help(self) -> None:
        """The variant's rule, the keys and the legend of the cards (``?``)."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.view, self.lang))

    def action_help_quit(self) -> None:
        """Ctrl+C does not quit (Textual's rule): say how to leave, in the player's language."""
        self.notify(
            tr("Press q to leave the game.", self.lang),
            title=tr("Do you want to quit?", self.lang),
        )

    def action_quit_game(self) -> None:
        """Ask, then leave (Ctrl+Q asks too; a second Ctrl+Q answers yes)."""
        if isinstance(self.screen, QuitScreen):
            self.screen.dismiss(True)
            return
        self.push_screen(QuitScreen(self.lang), self._quit_answered)

    async def _quit_answered(self, answer: bool | None) -> None:
        if answer:
            await self.session.close()
            self.exit(return_code=self._failure)

    def _catch_up(self) -> None:
        """Let the session carry out what is due before acting (an expired window first)."""
        self.refresh_game()

    async def _act(self, action: Any) -> Any:
        try:
            return await action
        except ValueError as exc:
            self.say(
                error_message(getattr(exc, "code", None), str(exc), self.lang, self.view),
                warning=True,
            )
            return None


def _words(event: Mapping[str, Any], view: Mapping[str, Any], lang: str) -> str | None:
    """An event in words: an arena's own (``arena_*``), else the game's."""
    if str(event.get("type", "")).startswith("arena_"):
        return arena_message(event, lang)
    return event_message(event, view, lang)


def _asks_to_agree(event: Mapping[str, Any], view: Mapping[str, Any]) -> bool:
    """Another player said there is no set, and the viewer, who has not, may vote too."""
    if event.get("type") != "no_set_declared" or event.get("player") == view.get("you"):
        return False
    you = next((p for p in view.get("players") or () if p.get("id") == view.get("you")), None)
    return you is not None and not you.get("declared") and not you.get("locked")


def _naming_departed(view: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    """``view`` that still knows the players of ``before`` it dropped (a seat that leaves
    without points is removed from ``players``), so "Alice left the game" names her; they
    are marked departed (``present`` false), as a seat that left with points is."""
    now_seated = {p.get("id") for p in view.get("players") or ()}
    gone = [
        {**p, "present": False}
        for p in before.get("players") or ()
        if p.get("id") not in now_seated
    ]
    return {**view, "players": [*(view.get("players") or ()), *gone]} if gone else view
