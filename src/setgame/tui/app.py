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

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.filter import Monochrome, NoColor
from textual.screen import ModalScreen
from textual.widgets import Static

from setgame.tui.clock import GameClock
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
)

Clock = Callable[[], float]
#: Events shown as warnings: something went wrong for someone.
_WARNINGS = frozenset({"wrong_call", "error", "reconnecting", "disconnected"})


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
        self.view: dict[str, Any] = {}
        self.status_bar = StatusBar(id="status")
        self.table_grid = TableGrid(lang)
        self.previous_row = PreviousRow(lang)
        self.found_bar = FoundBar(id="found")
        self.scoreboard = Scoreboard(id="scores")
        self.holder_bar = HolderBar(id="holder")
        self.message_bar = MessageBar(id="message")
        self.game_clock = GameClock()
        self._phase: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="main"):
            yield self.status_bar
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
        self.refresh_game()
        self.set_interval(self.poll_seconds, self.refresh_game)

    def _cannot_open(self, exc: ValueError) -> None:
        """The whole screen says why the game could not open, in the player's language."""
        event = getattr(exc, "event", None)
        base, room = getattr(self.session, "base_url", ""), getattr(self.session, "room_id", "")
        if callable(event):
            text = event_message(event(base, room), self.view, self.lang) or str(exc)
        else:
            text = str(exc)
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
            message = event_message(event, named, self.lang)
            if message is not None:
                self.say(message, warning=event.get("type") in _WARNINGS, keep=not fresh)
                fresh = False
        self._forget_gone_cards(view)
        offline = bool(getattr(self.session, "offline", False))
        view["clock"] = self.game_clock.shown(view, offline=offline)
        self.status_bar.show(view, self.lang)
        variant = variant_of(view)
        table = view.get("table", [])
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
        """Chain variants: take or put back a card of the previous claim."""
        view = self.view
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
            self.exit()

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
