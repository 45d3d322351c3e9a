"""The game engine: one match of SET as a pure state machine (R06-R16).

A game is its settings, a seed and the ordered list of actions it accepted.
Every action carries the time ``at`` (seconds on the caller's clock: the engine
has no clock of its own), and applying it returns the events it caused as
JSON-ready dicts. Replaying the same actions on the same seed rebuilds the same
state and the same events (:meth:`Game.replay`).

Modes:

* ``multi``: everyone plays at once (R07); a player calls SET, holds the board
  and must pick three cards within ``pick_seconds`` (R08).
* ``solo``: one player against the clock (R15); no call, the player picks.
* ``practice``: like solo, without penalties; hints are offered by the driver.

Solo scoring (R15), as this project implements it: the score is the sets found
minus the penalties; each request for three more cards is a penalty of one
point (``000``); a wrong pick costs one set when ``penalty`` is ``point`` or
``both`` (never below zero sets). The game is *won* when no more cards were asked
for, or when a set was found once the deck is empty and at most 12 cards lie on
the table: it cancels the penalty ("among the last 12 cards", ``001``, ``004``; in
a variant, the last ``table`` cards; :func:`setgame.rules.penalties.solo_won`). The
seconds from start to end are recorded (a puzzle played alone adds 10 s per wrong
pick instead of taking a point).

A game is played under one rules version (``rules``, :data:`RULES_VERSION`): a game
stored by an earlier release replays under the rules it was played with.

This project's own rules, beside the rulebooks': the fair-call cooldown
(:mod:`setgame.rules.penalties`), "when every player is locked out, all lockouts lift"
(also when a player leaves or goes away), the match following the seated
players (:mod:`setgame.rules.seating`), and the ``missed`` set named when three cards
are dealt while a set lay on the table.

Variants (``docs/variants.md``): ``Settings.variant`` names one of
:mod:`setgame.rules.variants`; its kind judges claims (3, 4 or 6 cards, ``_judge``) and
explains wrong ones (:mod:`setgame.rules.claims`), and its flow of play lives in
:mod:`setgame.rules.table`, which holds the cards. This module keeps players, phases and
actions; it never asks which variant is played, only what the variant says.
Settings are in :mod:`setgame.rules.settings`, actions in :mod:`setgame.rules.actions`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Final, TypeAlias

from setgame.rules import seating
from setgame.rules.actions import (
    MAX_PICK,
    Action,
    Away,
    Call,
    Join,
    Leave,
    NoSet,
    Pick,
    Start,
    Tick,
    Turn,
    action_from_dict,
    action_to_dict,
)
from setgame.rules.cards import Card, parse_card
from setgame.rules.claims import flaw_dicts
from setgame.rules.errors import GameError
from setgame.rules.kind import Group
from setgame.rules.penalties import PUZZLE_PENALTY_SECONDS, Outcome, outcome, solo_won
from setgame.rules.settings import (
    LOCKOUT_LIFTS,
    MODES,
    NO_SET_RULES,
    PENALTIES,
    ROUND_RULES,
    RULES_VERSION,
    RULES_VERSIONS,
    Settings,
    variant_of,
)
from setgame.rules.table import MAX_TABLE, TABLE_SIZE, Table, daily_layout, deck_of, remove_compact

__all__ = [  # what the engine's users import from here (the parts live in their modules)
    "LOCKOUT_LIFTS",
    "MAX_NAME",
    "MAX_PLAYERS",
    "MAX_TABLE",
    "MODES",
    "NO_SET_RULES",
    "PENALTIES",
    "PHASES",
    "ROUND_RULES",
    "RULES_VERSION",
    "TABLE_SIZE",
    "Action",
    "Away",
    "Call",
    "Event",
    "Game",
    "GameError",
    "Join",
    "Leave",
    "NoSet",
    "Pick",
    "Player",
    "Settings",
    "Start",
    "Tick",
    "Turn",
    "action_from_dict",
    "action_to_dict",
]

Event: TypeAlias = dict[str, Any]

PHASES: Final = ("lobby", "playing", "round_over", "match_over")

MAX_PLAYERS: Final = 8
MAX_NAME: Final = 24
_COUNTS: Final = {3: "three", 4: "four", 6: "six"}


# --- state ----------------------------------------------------------------------------------


@dataclass(slots=True)
class Player:
    id: str
    name: str
    present: bool = True
    sets: int = 0  # sets held this round (a point penalty returns one to the box)
    total: int = 0  # points of the rounds already over (R13, R14)
    locked: bool = False  # R10 lockout
    declared: bool = False  # R11 "no set" declaration
    away: bool = False  # connection lost: does not hold up votes
    wrong: int = 0  # wrong calls this round
    penalty_seconds: float = 0  # puzzle alone: seconds added by wrong picks this round
    penalties: int = 0  # solo: more-cards requests this round (R15)
    cancelled: int = 0  # solo: sets found among the last cards (12, or the table size)
    misses: int = 0  # fair call: calls in a row that ended without a set
    cooldown_until: float | None = None  # fair call: no call before this time

    @property
    def score(self) -> int:
        """This round's points: sets held, less solo more-cards penalties."""
        return self.sets - self.penalties


@dataclass(slots=True)
class _State:
    phase: str = "lobby"
    round: int = 0
    dealer: str | None = None  # this round's dealer
    dealt: list[str] = field(default_factory=list)  # R14: who has dealt, in order
    holder: str | None = None
    deadline: float | None = None
    started_at: float | None = None  # the match's first deal
    ended_at: float | None = None
    last_at: float = float("-inf")


class Game:
    """One match of SET, driven by actions that carry the time."""

    def __init__(
        self, settings: Settings | None = None, seed: int = 0, rules: int = RULES_VERSION
    ) -> None:
        self.settings = settings or Settings()
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise GameError("bad_setting", f"seed must be an int, not {seed!r}")
        if isinstance(rules, bool) or rules not in RULES_VERSIONS:
            raise GameError("bad_setting", f"rules must be one of {RULES_VERSIONS}, not {rules!r}")
        self.seed = seed
        self.rules: Final = rules  # the rules version it is played under (RULES_VERSION)
        self.variant: Final = variant_of(self.settings)
        self.deck: Final = deck_of(self.variant, self.settings.deck)
        self._t = Table(self.variant, self.settings.table or self.variant.table_size)
        self._variant_view: Final = {
            "name": self.variant.name,
            "title": self.variant.title,
            "claim": self.variant.claim_size,
            "links": self.variant.flow.links,
            "flow": self.variant.flow.name,
            "kind": self.variant.kind.name,  # "set", or a group of another kind: the words
        }
        self.players: dict[str, Player] = {}
        self.order: list[str] = []  # seats, clockwise
        self.log: list[Action] = []
        self._s = _State()

    # -- replay and inspection ------------------------------------------------------------

    @classmethod
    def replay(
        cls, settings: Settings, seed: int, actions: Iterable[Action], rules: int = RULES_VERSION
    ) -> Game:
        """The game that results from applying ``actions`` in order (they must all be legal),
        under the rules version ``rules`` it was played with."""
        game = cls(settings, seed, rules)
        for action in actions:
            game.apply(action)
        return game

    def __repr__(self) -> str:
        return f"<Game {self.settings.mode} seed={self.seed} version={self.version} {self.phase}>"

    @property
    def version(self) -> int:
        """How many actions the game has accepted."""
        return len(self.log)

    @property
    def phase(self) -> str:
        return self._s.phase

    @property
    def table(self) -> list[Card]:
        """The cards on the table, face up or down (a face-down one is no player's business:
        views show :meth:`Table.shown`)."""
        return list(self._t.cards)

    @property
    def previous(self) -> list[Card] | None:
        """Chain flows: the last good claim, lying apart from the table."""
        return None if self._t.previous is None else list(self._t.previous)

    @property
    def found(self) -> list[Group]:
        """Puzzle: the groups found on the current table."""
        return list(self._t.found)

    @property
    def turned(self) -> list[int]:
        """Memory: the positions of the cards turned up now."""
        return list(self._t.turned)

    @property
    def deck_left(self) -> int:
        return len(self._t.stock)

    def names(self, cards: Iterable[Card]) -> list[str]:
        """Cards in the notation of the game's deck."""
        return self.variant.deck.names(cards)

    def parse_action(self, data: Mapping[str, Any]) -> Action:
        """:func:`action_from_dict` with the notation of the game's deck."""
        return action_from_dict(data, self.variant.deck)

    def action_dict(self, action: Action) -> dict[str, Any]:
        """:func:`action_to_dict` with the notation of the game's deck."""
        return action_to_dict(action, self.variant.deck)

    @property
    def holder(self) -> str | None:
        return self._s.holder

    @property
    def deadline(self) -> float | None:
        return self._s.deadline

    @property
    def round(self) -> int:
        return self._s.round

    @property
    def rounds(self) -> int:
        """The rounds of the match as now planned (R14): dealt, plus those still to deal."""
        single = self.settings.rounds == "single" or self.settings.solitary
        return seating.planned_rounds(single, self._seated_ids(), self._s.dealt)

    @property
    def dealt(self) -> list[str]:
        """Who has dealt in this match, in order (R14)."""
        return list(self._s.dealt)

    @property
    def dealer(self) -> str | None:
        """This round's dealer, while they are in ``players`` (a departed seat may be gone)."""
        dealer = self._s.dealer
        return dealer if dealer in self.players else None

    def _seated_ids(self) -> list[str]:
        return [p.id for p in self.present()]

    def present(self) -> list[Player]:
        return [self.players[p] for p in self.order if self.players[p].present]

    def active(self) -> list[Player]:
        """Seated players who are not away."""
        return [p for p in self.present() if not p.away]

    def snapshot(self) -> dict[str, Any]:
        """The whole internal state, the undealt deck included (for tests and debugging only:
        never send it to a player)."""
        return {
            "state": {**asdict(self._s), **self._t.snapshot()},
            "players": {pid: asdict(p) for pid, p in self.players.items()},
            "order": list(self.order),
            "version": self.version,
        }

    def view(self, player: str | None = None, now: float | None = None) -> dict[str, Any]:
        """What ``player`` (or a spectator, ``None``) may see: never the undealt deck or seed.

        It is :meth:`public_view` with the keys of :meth:`own_view` filled in for ``player``."""
        view = self.public_view(now)
        view.update(self.own_view(player))  # the keys exist already: their order stays
        return view

    def public_view(self, now: float | None = None) -> dict[str, Any]:
        """The view every viewer shares: a spectator's (``view(None, now)``). A server builds
        it once per update for all the players of a room, then only :meth:`own_view` per seat."""
        s = self._s
        clock_end = s.ended_at if s.ended_at is not None else now
        view: dict[str, Any] = {
            "version": self.version,
            "phase": s.phase,
            "mode": self.settings.mode,
            "settings": self.settings.to_dict(),
            "round": s.round,
            "rounds": self.rounds,
            "dealer": self.dealer,
            "variant": dict(self._variant_view),
            **self._t.view(),
            "deck": len(self._t.stock),
            "players": [self._player_view(self.players[p], now) for p in self.order],
            "holder": s.holder,
            "deadline": s.deadline,
            "deadline_in": None
            if s.deadline is None or now is None
            else max(0.0, round(s.deadline - now, 3)),
            "no_set_votes": [p for p in self.order if self.players[p].declared],
            "clock": None
            if s.started_at is None or clock_end is None
            else round(clock_end - s.started_at, 3),
            "you": None,
        }
        if not self.variant.flow.removes_claims:  # puzzle: the viewer's own time penalty
            view["penalty_seconds"] = None
        if s.phase == "match_over":
            view["result"] = self.result()
        return view

    def own_view(self, player: str | None) -> dict[str, Any]:
        """The keys of the view that differ from one viewer to another, for ``player``: who
        they are and (puzzle) their own time penalty. Everything else is public."""
        you = self.players.get(player) if player is not None else None
        own: dict[str, Any] = {"you": None if you is None else player}
        if not self.variant.flow.removes_claims:
            own["penalty_seconds"] = None if you is None else you.penalty_seconds
        return own

    def _player_view(self, p: Player, now: float | None) -> dict[str, Any]:
        until = self._cooldown(p, now)
        entry = {
            "id": p.id,
            "name": p.name,
            "present": p.present,
            "score": p.score,
            "sets": p.sets,
            "total": p.total + (p.score if self._s.phase == "playing" else 0),
            "locked": p.locked,
            "declared": p.declared,
            "away": p.away,
            "wrong": p.wrong,
            "penalties": p.penalties,
            "cooldown_until": until,
            "cooldown_in": None if until is None or now is None else round(until - now, 3),
        }
        if not self.variant.flow.removes_claims:  # puzzle: wrong picks alone cost time
            entry["penalty_seconds"] = p.penalty_seconds
        return entry

    def cooldown_end(self, player: str, now: float | None = None) -> float | None:
        """When ``player`` may call again under the fair-call rule, if a cooldown binds them
        now (``None``: they may call as far as the cooldown goes)."""
        p = self.players.get(player)
        return None if p is None else self._cooldown(p, now)

    def _cooldown(self, p: Player, now: float | None) -> float | None:
        """The end of ``p``'s fair-call cooldown while it binds (at ``now`` if given): only
        while another player here could call; alone, nobody need wait."""
        until = p.cooldown_until
        if until is None or (now is not None and now >= until):
            return None
        others = [q for q in self.active() if q is not p and not q.locked]
        return until if others else None

    def result(self) -> dict[str, Any]:
        """Final standings: totals, winners (ties share the win), and solo figures."""
        totals = {pid: self.players[pid].total for pid in self.order}
        best = max(totals.values(), default=0)
        result: dict[str, Any] = {
            "totals": totals,
            "winners": [pid for pid, t in totals.items() if t == best] if totals else [],
        }
        s = self._s
        if self.settings.solitary and self.order:
            p = self.players[self.order[0]]
            result["solo"] = {
                "sets": p.sets,
                "penalties": p.penalties,
                "score": p.score,
                "cancelled": p.cancelled,
                "won": solo_won(self.rules, p.penalties, p.cancelled),
                "seconds": None
                if s.ended_at is None or s.started_at is None
                else round(s.ended_at - s.started_at + p.penalty_seconds, 3),
            }
            if not self.variant.flow.removes_claims:  # puzzle: the time includes the penalty
                result["solo"]["penalty_seconds"] = p.penalty_seconds
        return result

    def groups_on_table(self) -> list[Group]:
        """Every group that may be claimed now: public information while the table lies face
        up (in a chain, groups may hold cards of the previous claim); none in memory."""
        return self._t.public_groups()

    sets_on_table = groups_on_table  # the name from before the variants

    # -- applying actions -----------------------------------------------------------------

    def due(self, now: float) -> bool:
        """Whether a pick window has expired by ``now`` (so a Tick would be accepted)."""
        return self._s.deadline is not None and now >= self._s.deadline

    def advance(self, now: float) -> list[Event]:
        """Apply ``Tick(now)`` if a pick window has expired; else nothing."""
        return self.apply(Tick(now)) if self.due(now) else []

    def apply(self, action: Action) -> list[Event]:
        """Apply one action; return the events it caused. Raises GameError, state unchanged."""
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise GameError("bad_action", f"not an action: {action!r}")
        at = action.at
        if isinstance(at, bool) or not isinstance(at, int | float) or at != at:
            raise GameError("bad_action", f"at must be a number of seconds, not {at!r}")
        if at < self._s.last_at:
            raise GameError("time_backwards", f"action at {at!r} is before {self._s.last_at!r}")
        if not isinstance(action, Tick) and self.due(at):
            raise GameError(
                "expired", f"the pick window closed at {self._s.deadline!r}: tick first"
            )
        events: list[Event] = handler(self, action)
        self._s.last_at = at
        self.log.append(action)
        return events

    # each handler checks everything before it changes anything

    def _seat(self, player: str, *, present: bool = True) -> Player:
        p = self.players.get(player)
        if p is None or (present and not p.present):
            raise GameError("unknown_player", f"no such player: {player!r}")
        return p

    def _need_phase(self, *phases: str) -> None:
        if self._s.phase not in phases:
            raise GameError(
                "not_playing" if "playing" in phases else "bad_phase",
                f"not allowed while the game is {self._s.phase!r}",
            )

    def _join(self, a: Join) -> list[Event]:
        self._need_phase("lobby", "playing", "round_over")
        name = a.name.strip() if isinstance(a.name, str) else ""
        if not name or len(name) > MAX_NAME:
            raise GameError("bad_name", f"a name is 1-{MAX_NAME} characters, not {a.name!r}")
        if not isinstance(a.player, str) or not a.player:
            raise GameError("bad_action", f"bad player id: {a.player!r}")
        seat = self.players.get(a.player)
        if seat is not None and seat.present:
            raise GameError("already_seated", f"player {a.player!r} is already seated")
        limit = 1 if self.settings.solitary else MAX_PLAYERS
        if len(self.present()) >= limit:
            raise GameError("room_full", f"the room is full ({limit} players)")
        if seat is not None:  # R10, R14: the same seat comes back as it left
            return self._return(seat, name, a.at)
        if self.settings.solitary and self._s.phase != "lobby":
            raise GameError("bad_phase", "a solo game takes its player before it starts")
        if len(self.players) >= seating.MAX_SEATED:
            raise GameError(
                "room_full", f"this match has kept {seating.MAX_SEATED} players: no more seats"
            )
        self.players[a.player] = Player(a.player, name)
        self.order.append(a.player)
        return [{"type": "joined", "at": a.at, "player": a.player, "name": name}]

    def _return(self, p: Player, name: str, at: float) -> list[Event]:
        """A departed seat taken again by the same player (the driver knows who is who):
        their points, lockout and fair-call wait are as they left them (R10), and the deal
        passes them by if they have dealt (R14)."""
        p.present, p.away, p.name = True, False, name
        return [{"type": "joined", "at": at, "player": p.id, "name": name, "returned": True}]

    def _leave(self, a: Leave) -> list[Event]:
        p = self._seat(a.player)
        s = self._s
        if not _worth_keeping(p, self.rules):
            # nothing to keep (always so in the lobby): the seat leaves no trace (bounded state)
            del self.players[a.player]
            self.order.remove(a.player)
        else:  # R10, R13-R14: points, lockout and wait stay; the seat shows as departed
            p.present = False
            p.declared = False
            if self.rules < 2:  # rules 1: leaving wiped the lockout and the wait
                p.locked = False
                p.cooldown_until = None
        events: list[Event] = [{"type": "left", "at": a.at, "player": a.player}]
        if s.holder == a.player:
            s.holder = s.deadline = None
            self._t.turned = []  # memory: cards the holder turned up lie face down again
            events.append({"type": "call_cancelled", "at": a.at, "player": a.player})
        if s.phase == "playing":
            events += self._lift_if_all_locked(a.at) or self._check_votes(a.at)
        elif s.phase == "round_over" and self._match_done():
            events += self._end_match(a.at)  # R14: the last player still to deal has left
        return events

    def _start(self, a: Start) -> list[Event]:
        self._seat(a.player)
        self._need_phase("lobby", "round_over")
        s = self._s
        if s.phase == "lobby":
            s.started_at = a.at
        # R14: the deal passes clockwise to the next seated player who has not dealt
        s.dealer = seating.next_dealer(self._seated_ids(), s.dealt)
        if s.dealer is not None:
            s.dealt.append(s.dealer)
        s.round += 1
        return self._deal_round(a.at)

    def _deal_round(self, at: float) -> list[Event]:
        s = self._s
        day = self.settings.day
        layout = daily_layout(day, self.seed) if day else ()  # the daily puzzle: no stock
        start = tuple(parse_card(code) for code in self.settings.start)  # a photo's table
        self._t.deal(self.deck, f"setgame:{self.seed}:{s.round}", layout, start)  # R06
        s.phase = "playing"
        s.holder = s.deadline = None
        for p in self.players.values():
            p.sets = p.wrong = p.penalties = p.cancelled = p.misses = 0
            p.penalty_seconds = 0
            p.locked = p.declared = False
            p.cooldown_until = None
        events: list[Event] = [
            {
                "type": "round_started",
                "at": at,
                "round": s.round,
                "rounds": self.rounds,
                "dealer": self.dealer,
                **self._cards_fields(),
            }
        ]
        return events + self._settle(at)

    def _cards_fields(self) -> dict[str, Any]:
        """The ``table`` and ``deck`` fields of an event, as players may see them."""
        return {"table": self._t.names(self._t.shown()), "deck": len(self._t.stock)}

    def _call(self, a: Call) -> list[Event]:
        p = self._seat(a.player)
        self._need_phase("playing")
        s = self._s
        if self.settings.solitary:
            raise GameError("no_call", "in a solo game you pick cards without calling")
        if s.holder is not None:
            raise GameError("board_held", f"{self.players[s.holder].name!r} holds the board")
        if p.locked:
            raise GameError(
                "locked_out", f"{p.name!r} is locked out until another player finds a set"
            )
        until = self._cooldown(p, a.at)
        if until is not None:  # fair call: the others get the first chance
            raise GameError(
                "cooling_down",
                f"{p.name!r} may call again in {until - a.at:.1f} s: the others go first",
            )
        s.holder = p.id
        s.deadline = a.at + self.settings.pick_seconds
        return [{"type": "called", "at": a.at, "player": p.id, "deadline": s.deadline}]

    def _pick(self, a: Pick) -> list[Event]:
        p = self._seat(a.player)
        self._need_phase("playing")
        if self.variant.flow.face_down:
            raise GameError("face_down", "the cards lie face down: turn them up one by one")
        self._need_board(p)
        cards = self._claim(a.cards)
        if self._t.already_found(cards):
            raise GameError("already_found", f"already found: {self.names(cards)!r}")
        return self._judge(p, cards, a.at)

    def _need_board(self, p: Player) -> None:
        """R08: in a multiplayer room only the player who called may take cards."""
        holder = self._s.holder
        if not self.settings.solitary and holder != p.id:
            if holder is None:
                raise GameError("not_holder", "call SET before picking cards")
            raise GameError("board_held", f"{self.players[holder].name!r} holds the board")

    def _claim(self, cards: object) -> tuple[Card, ...]:
        """The picked cards, checked: ``claim_size`` different cards that a claim may use."""
        size = self.variant.claim_size
        if not isinstance(cards, tuple | list) or len(cards) != size or len(set(cards)) != size:
            shown = cards[: MAX_PICK + 1] if isinstance(cards, tuple | list) else cards
            count = _COUNTS.get(size, size)
            raise GameError("bad_pick", f"a pick is {count} different cards, not {shown!r}")
        missing = self._t.missing(cards)
        if missing:
            deck = self.variant.deck.card_set
            names = [self._t.names([c])[0] if c in deck else c for c in missing]
            raise GameError("not_on_table", f"not on the table: {names!r}")
        return tuple(cards)

    def _judge(self, p: Player, cards: tuple[Card, ...], at: float) -> list[Event]:
        """A claim's verdict (R09, R10): the variant's kind, linked as its flow says."""
        if self.variant.is_claim(cards, self._t.previous):
            return self._take(p, cards, at)
        return self._wrong(p, cards, at)

    def _away(self, a: Away) -> list[Event]:
        p = self._seat(a.player)
        if not isinstance(a.away, bool):
            raise GameError("bad_action", f"away must be true or false, not {a.away!r}")
        if p.away == a.away:
            raise GameError("no_change", f"{p.name!r} is already {'away' if p.away else 'here'}")
        p.away = a.away
        events: list[Event] = [{"type": "away" if a.away else "back", "at": a.at, "player": p.id}]
        if self._s.phase == "playing" and a.away:
            events += self._lift_if_all_locked(a.at) or self._check_votes(a.at)
        return events

    def _turn(self, a: Turn) -> list[Event]:
        """Memory: turn up one face-down card; the last of a claim's cards is judged."""
        p = self._seat(a.player)
        self._need_phase("playing")
        t = self._t
        if not self.variant.flow.face_down:
            raise GameError("face_up", f"{self.variant.title}: the cards lie face up: pick them")
        self._need_board(p)
        pos = a.position
        if isinstance(pos, bool) or not isinstance(pos, int) or not 0 <= pos < len(t.cards):
            raise GameError("bad_position", f"no card lies at position {pos!r}")
        if pos in t.turned:
            raise GameError("already_turned", f"the card at position {pos} is already up")
        t.turned.append(pos)
        events: list[Event] = [
            {
                "type": "card_turned",
                "at": a.at,
                "player": p.id,
                "position": pos,
                "card": t.names([t.cards[pos]])[0],
            }
        ]
        if len(t.turned) < self.variant.claim_size:
            return events
        return events + self._judge(p, tuple(t.cards[i] for i in t.turned), a.at)

    def _tick(self, a: Tick) -> list[Event]:
        s = self._s
        if not self.due(a.at) or s.holder is None:
            raise GameError("not_due", f"no pick window has expired at {a.at!r}")
        return self._wrong(self.players[s.holder], None, a.at)

    def _no_set(self, a: NoSet) -> list[Event]:
        p = self._seat(a.player)
        self._need_phase("playing")
        s = self._s
        if self.variant.flow.face_down:
            raise GameError(
                "auto_deal",
                f"{self.variant.title} deals three more cards by itself after misses in a row",
            )
        if self._t.auto_grows:
            raise GameError(
                "auto_deal", f"{self.variant.title} deals more cards by itself when needed"
            )
        if not self._t.stock:
            raise GameError("deck_empty", "the deck is empty: no more cards to deal")
        if self._t.full():
            raise GameError("table_full", f"{MAX_TABLE} cards always hold a set")
        if self.settings.solitary:  # R15: three more cards at the cost of a point
            if self.settings.mode == "solo":
                p.penalties += 1
            events: list[Event] = [
                {"type": "more_cards_asked", "at": a.at, "player": p.id, "penalty": p.penalties}
            ]
            return events + self._add_cards(a.at, "request") + self._settle(a.at)
        if self.settings.no_set == "auto":
            raise GameError(
                "auto_deal", "this room deals more cards by itself when there is no set"
            )
        if s.holder is not None:
            raise GameError("board_held", f"{self.players[s.holder].name!r} holds the board")
        if p.locked:
            raise GameError("locked_out", f"{p.name!r} is locked out")
        if p.declared:
            raise GameError("already_declared", f"{p.name!r} has already declared no set")
        p.declared = True
        return [{"type": "no_set_declared", "at": a.at, "player": p.id}, *self._check_votes(a.at)]

    # -- consequences ------------------------------------------------------------------

    def _take(self, p: Player, cards: tuple[Card, ...], at: float) -> list[Event]:
        """R09: a good claim. The caller keeps it; the table takes it as the flow says
        (:meth:`Table.take`: at the table's size its cards are replaced in place)."""
        s = self._s
        # R15: only a set among the last cards (deck empty) cancels a solo penalty
        last_cards = self._t.last_cards()
        fields = self._t.take(cards)
        p.sets += 1
        p.cancelled += last_cards
        p.misses = 0
        s.holder = s.deadline = None
        for q in self.players.values():
            q.declared = False
            q.locked = False  # R10: another player found a set
        events: list[Event] = [
            {
                "type": "set_taken",
                "at": at,
                "player": p.id,
                "cards": self._t.names(cards),
                **fields,
                "replaced": self._t.names(fields.get("replaced", [])),
                **self._cards_fields(),
                "score": p.score,
            }
        ]
        return events + self._settle(at)

    def _wrong(self, p: Player, cards: tuple[Card, ...] | None, at: float) -> list[Event]:
        """R10: a wrong call (not a set, or nothing picked in time): cards stay; penalty;
        and the fair-call cooldown (this project's own rule)."""
        s = self._s
        p.misses += 1
        result, extra = self._miss(p)
        if result.point_lost:
            p.sets -= 1  # one won set goes back to the box
        p.wrong += 1
        if result.cooldown:
            p.cooldown_until = at + result.cooldown
        s.holder = s.deadline = None
        event: Event = {
            "type": "wrong_call",
            "at": at,
            "player": p.id,
            "cards": None if cards is None else self._t.names(cards),
            "reason": "timeout" if cards is None else "not_a_set",
            "flaws": [] if cards is None else flaw_dicts(self.variant, cards, self._t.previous),
            "penalty": result.penalty,
            "point_lost": result.point_lost,
            "locked": result.locked,
            "cooldown": result.cooldown,
            "score": p.score,
        }
        event.update(extra)
        events = [event]
        if result.locked:
            p.locked = True
            p.declared = False
            events += self._lift_if_all_locked(at) or self._check_votes(at)
        if self.variant.flow.face_down:
            events += self._blind_deal(at)
        return events

    def _blind_deal(self, at: float) -> list[Event]:
        """Memory, after a miss: three more cards, or the round's end once the deck is empty,
        when enough misses came in a row (:meth:`Table.blind_deal_due`); never because of
        what lies face down."""
        t = self._t
        t.blind_misses += 1
        if not t.blind_deal_due():
            return []
        if not t.stock:
            return self._end_round(at)
        if len(t.cards) >= MAX_TABLE:  # 21 cards hold a set (R11): no more cards
            return []
        return self._add_cards(at, "misses")

    def _miss(self, p: Player) -> tuple[Outcome, dict[str, Any]]:
        """What a call without a good claim costs (R10, :func:`outcome`), as the flow says,
        and the flow's extra ``wrong_call`` fields (this project's own rules)."""
        rules = self.settings
        result = outcome(rules.mode, rules.penalty, rules.pick_seconds, p.sets, p.misses)
        flow = self.variant.flow
        if flow.face_down:  # memory: missing is the game's normal course; the cards turn back
            positions, self._t.turned = self._t.turned, []
            return replace(result, penalty="none", point_lost=False, locked=False), {
                "positions": positions
            }
        if rules.solitary and not flow.removes_claims:  # puzzle alone: time, not a point
            p.penalty_seconds += PUZZLE_PENALTY_SECONDS
            return replace(result, penalty="time", point_lost=False), {
                "penalty_seconds": PUZZLE_PENALTY_SECONDS
            }
        return result, {}

    def _lift_if_all_locked(self, at: float) -> list[Event]:
        """R10: when every player (who is here) is locked out, all lockouts lift."""
        active = self.active()
        if not active or not all(q.locked for q in active):
            return []
        for q in self.players.values():
            q.locked = False
        return [{"type": "lockouts_lifted", "at": at, "reason": "all_locked"}]

    def _check_votes(self, at: float) -> list[Event]:
        """R11 vote: when every player not locked out has declared no set, deal three more."""
        voters = [q for q in self.active() if not q.locked]
        if self.settings.solitary or not voters or not all(q.declared for q in voters):
            return []
        if not self._t.stock or self._t.full():
            return []
        return self._add_cards(at, "vote") + self._settle(at)

    def _add_cards(self, at: float, why: str) -> list[Event]:
        # R11: the rulebooks deal even when a set was there; the players are told which
        missed = self._t.public_groups()
        new = self._t.grow()
        lift = self.settings.lockout_lift == "set_or_cards"  # 003: also on added cards
        lifted = lift and any(q.locked for q in self.players.values())
        for q in self.players.values():
            q.declared = False
            q.locked = q.locked and not lift
        events: list[Event] = [
            {
                "type": "cards_added",
                "at": at,
                "why": why,
                "cards": self._t.names(self._t.shown()[-len(new) :] if new else []),
                **self._cards_fields(),
                "missed": self._t.names(missed[0]) if missed else None,
            }
        ]
        if lifted:
            events.append({"type": "lockouts_lifted", "at": at, "reason": "cards_added"})
        return events

    def _settle(self, at: float) -> list[Event]:
        """After the table changed: deal by itself (``auto``) or end the round (R12), until
        a group may be claimed (R11 generalized)."""
        t = self._t
        events: list[Event] = []
        if self.variant.flow.face_down:  # memory: what lies face down decides nothing
            if not t.stock and len(t.cards) < self.variant.claim_size:
                events += self._end_round(at)
            return events
        auto = self.settings.no_set == "auto" or t.auto_grows
        while auto and t.stock and t.needs_more():
            events += self._add_cards(at, "auto")
        if not t.stock and t.needs_more():
            events += self._end_round(at)
        return events

    def _end_round(self, at: float) -> list[Event]:
        s = self._s
        s.holder = s.deadline = None
        for p in self.players.values():
            p.total += p.score
            p.declared = p.locked = False
        scores = {pid: self.players[pid].score for pid in self.order}
        events: list[Event] = [
            {
                "type": "round_over",
                "at": at,
                "round": s.round,
                "scores": scores,
                "leftover": self._t.names(self._t.shown()),
            }
        ]
        if self._match_done():
            return events + self._end_match(at)
        s.phase = "round_over"
        return events

    def _match_done(self) -> bool:
        """R14: every seated player has dealt (or the game is a single round)."""
        return self._s.round >= self.rounds

    def _end_match(self, at: float) -> list[Event]:
        s = self._s
        s.phase = "match_over"
        s.ended_at = at
        return [{"type": "match_over", "at": at, **self.result()}]


def _worth_keeping(p: Player, rules: int) -> bool:
    """Whether a leaving seat holds something its player must find again on return: points
    (R13-R14), a lockout (R10) or a fair-call wait (this project's own; rules 1: points only)."""
    if rules < 2:
        return bool(p.sets or p.penalties or p.total)
    return bool(p.sets or p.penalties or p.total or p.locked or p.misses)


_remove_compact = remove_compact  # its name from before the table had a module of its own

_HANDLERS: Final[dict[type, Any]] = {
    Join: Game._join,
    Leave: Game._leave,
    Start: Game._start,
    Call: Game._call,
    Pick: Game._pick,
    NoSet: Game._no_set,
    Away: Game._away,
    Turn: Game._turn,
    Tick: Game._tick,
}
