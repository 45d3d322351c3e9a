"""A game on this machine: the engine, and the bots driven at the times their plans name.

The session has no clock: the app passes ``now`` (seconds on its own clock) to
every call, and :meth:`LocalSession.poll` carries out whatever has come due by
then (an expired pick window, a bot's call, its pick, its "no set", its turns).

Every variant plays here (``variant``, and ``day`` for the daily puzzle). A bot
plans from what its own seat sees (its view: face-down cards are unknown) and,
in Memory, from the cards it saw turned up: the session keeps, per bot, the
cards it saw; where they lie now is public (cards move by the rules' public
moves), so the bot is told their positions, and forgets as its level says.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from setgame.bots.policy import Bot, Plan
from setgame.rules.cards import Card
from setgame.rules.game import (
    Call,
    Event,
    Game,
    GameError,
    Join,
    NoSet,
    Pick,
    Settings,
    Start,
    Turn,
)
from setgame.rules.puzzle import PUBLIC_SEED
from setgame.rules.variants import Variant, find_variant

YOU = "you"
MODES = ("solo", "practice", "bots")
#: The share of the pick window a bot's turns in Memory may take (the rest is a margin).
TURN_SHARE = 0.8


@dataclass(slots=True)
class _Seat:
    """A bot's plan for what it last saw, and its pick (or its turns) once it holds the board."""

    bot: Bot
    looked_at: tuple[Any, ...] = ()
    plan: Plan | None = None
    pick_at: float | None = None
    seen: set[Card] = field(default_factory=set)  # Memory: cards it saw turned up
    turns: list[int] = field(default_factory=list)  # Memory: positions still to turn
    agreeing: bool = False  # its "no set" plan was hastened: another player said so first


class LocalSession:
    """One player (``"you"``) alone, in practice, or against ``bots`` computer opponents."""

    def __init__(
        self,
        mode: str = "solo",
        *,
        bots: int = 1,
        level: int = 2,
        deck: str = "full",
        seed: int | None = None,
        name: str = "You",
        variant: str = "classic",
        day: str = "",
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if mode == "bots" and not 1 <= bots <= 7:
            raise ValueError(f"a game against bots takes 1-7 bots, not {bots!r}")
        settings = Settings(
            mode="multi" if mode == "bots" else mode, deck=deck, variant=variant, day=day
        )
        self.seed = seed if seed is not None else _fresh_seed()
        if day:  # offline there is no server key: the day's public table (PUBLIC_SEED)
            self.seed = PUBLIC_SEED
        self.game = Game(settings, seed=self.seed)
        self.you = YOU
        self.name = name
        count = bots if mode == "bots" else 0
        self.seats = {
            f"bot{i}": _Seat(Bot(level, seed=f"{self.seed}:{i}")) for i in range(1, count + 1)
        }
        self._events: list[Event] = []
        self._hint: tuple[tuple[Any, ...], list[Card]] | None = None

    @property
    def mode(self) -> str:
        return self.game.settings.mode

    @property
    def variant(self) -> Variant:
        return find_variant(self.game.settings.variant)

    # -- the player's actions ------------------------------------------------------------

    async def open(self, now: float) -> None:
        """Seat everyone and deal."""
        self._apply(Join(now, self.you, self.name))
        for i, pid in enumerate(self.seats, start=1):
            self._apply(Join(now, pid, f"Bot {i}"))
        self._apply(Start(now, self.you))

    async def start(self, now: float) -> None:
        """Deal the next round."""
        self._apply(Start(now, self.you))

    async def again(self, now: float) -> None:
        """After the match: a new one with the same players, on the next seed (a daily
        puzzle: the same day's table again)."""
        if not self.game.settings.day:
            self.seed += 1
        self.game = Game(self.game.settings, seed=self.seed)
        for i, (pid, seat) in enumerate(self.seats.items(), start=1):
            self.seats[pid] = _Seat(Bot(seat.bot.level, seed=f"{self.seed}:{i}"))
        self._hint = None
        await self.open(now)

    async def call(self, now: float) -> None:
        self._apply(Call(now, self.you))

    async def pick(self, codes: tuple[str, ...], now: float) -> None:
        deck = self.variant.deck
        self._apply(Pick(now, self.you, tuple(deck.parse(code) for code in codes)))

    async def turn(self, position: int, now: float) -> None:
        """Memory: turn up the card at ``position``."""
        self._apply(Turn(now, self.you, position))

    async def no_set(self, now: float) -> None:
        self._apply(NoSet(now, self.you))

    async def hint(self, now: float) -> list[str]:
        """Practice: one more card of a group on the table (all of it after as many asks
        as a claim has cards; in Puzzle, of a group not found yet)."""
        if self.mode != "practice":
            raise GameError("no_hints", "hints are for practice games")
        view, deck = self.game.view(self.you, now), self.variant.deck
        found = {frozenset(group) for group in view.get("found") or ()}
        groups = [g for g in self.game.groups_on_table() if frozenset(deck.names(g)) not in found]
        if not groups:
            return []
        key = (tuple(view["table"]), tuple(view.get("previous") or ()), len(found))
        if self._hint is None or self._hint[0] != key:
            self._hint = (key, [])
        shown = self._hint[1]
        if len(shown) < len(groups[0]):
            shown.append(groups[0][len(shown)])
        return deck.names(shown)

    async def close(self) -> None:
        """Nothing to release: the game lives in memory."""

    async def hang_up(self) -> None:
        """Nothing to release: the game lives in memory."""

    # -- time passing ----------------------------------------------------------------------

    def poll(self, now: float) -> list[Event]:
        """Carry out what has come due by ``now``; return every event since the last poll."""
        self._note(self.game.advance(now))
        for _ in range(4 * len(self.seats) * self.variant.claim_size):  # a few acts per bot
            if not self._bots_act(now):
                break
        events, self._events = self._events, []
        return events

    def view(self, now: float) -> dict[str, Any]:
        """What the player sees at ``now``."""
        return self.game.view(self.you, now)

    def _apply(self, action: Any) -> None:
        self._note(self.game.apply(action))

    def _note(self, events: list[Event]) -> None:
        """Keep the events for the app; every bot sees the cards turned up (Memory)."""
        self._events += events
        deck = self.variant.deck
        for event in events:
            if event.get("type") == "card_turned":
                for seat in self.seats.values():
                    seat.seen.add(deck.parse(event["card"]))

    def _bots_act(self, now: float) -> bool:
        game = self.game
        if game.phase != "playing":
            return False
        self._replan(now)
        holder = game.holder
        if holder in self.seats:
            return self._bot_pick(holder, now)
        if holder is not None:
            return False
        for pid, seat in self.seats.items():
            plan = seat.plan
            if plan is not None and plan.at <= now and self._bot_plays(pid, plan, now):
                return True
        return False

    def _replan(self, now: float) -> None:
        for pid, seat in self.seats.items():
            if seat.turns or self.game.holder == pid:
                continue  # carrying out its plan: its own turns change what it sees
            view = self.game.view(pid, now)
            looked = looked_at(view)
            if seat.looked_at != looked:
                seat.looked_at, seat.plan = looked, self._plan_for(seat, view, now)
                seat.agreeing = False
            if not seat.agreeing and self._others_declared(pid):
                seat.plan, seat.agreeing = seat.bot.agreeing(seat.plan, now), True

    def _others_declared(self, pid: str) -> bool:
        """Someone else has said there is no set on this table (a vote under way)."""
        return any(p.declared for other, p in self.game.players.items() if other != pid)

    def _plan_for(self, seat: _Seat, view: dict[str, Any], now: float) -> Plan | None:
        """The bot's plan from what its seat sees (and, in Memory, what it saw)."""
        variant, deck = self.variant, self.variant.deck
        table = [None if code is None else deck.parse(code) for code in view["table"]]
        previous = view.get("previous")
        seen = {
            pos: card
            for pos, card in enumerate(self.game.table)
            if card in seat.seen and pos < len(table) and table[pos] is None
        }
        return seat.bot.plan(
            table,
            now,
            variant=variant,
            previous=None if previous is None else tuple(deck.parse_many(previous)),
            seen=seen if variant.flow.face_down else None,
            found=[deck.parse_many(group) for group in view.get("found") or ()],
        )

    def _bot_plays(self, pid: str, plan: Plan, now: float) -> bool:
        """Carry out a due plan; False when the rules do not let the bot act on it now."""
        player = self.game.players[pid]
        if player.locked or (
            plan.kind == "no_set" and (player.declared or not self.game.deck_left)
        ):
            return False
        if plan.kind != "no_set" and self.game.cooldown_end(pid, now) is not None:
            return False  # fair call: the bot waits for its cooldown to end
        if plan.kind == "no_set":
            self._apply(NoSet(now, pid))
            return True
        self._apply(Call(now, pid))
        seat = self.seats[pid]
        seat.pick_at = now + self._step(seat)
        seat.turns = list(plan.positions or ()) if plan.kind == "turn" else []
        return True

    def _step(self, seat: _Seat) -> float:
        """Seconds between calling and picking, and between two turns in Memory: the bot's
        own pace, hurried so that every turn fits in the pick window."""
        if not self.variant.flow.face_down:
            return seat.bot.pick_delay
        window = self.game.settings.pick_seconds * TURN_SHARE
        return min(seat.bot.pick_delay, window / self.variant.claim_size)

    def _bot_pick(self, pid: str, now: float) -> bool:
        seat = self.seats[pid]
        if seat.pick_at is None or seat.pick_at > now or seat.plan is None:
            return False
        if seat.turns:
            return self._bot_turn(pid, seat, now)
        cards = seat.plan.cards
        self._forget_plan(seat)  # a wrong pick leaves the table as it was: think again
        if cards is not None:
            self._apply(Pick(now, pid, cards))
        return True

    def _bot_turn(self, pid: str, seat: _Seat, now: float) -> bool:
        position = seat.turns.pop(0)
        seat.pick_at = now + self._step(seat)
        if not seat.turns:
            self._forget_plan(seat)
        try:
            self._apply(Turn(now, pid, position))
        except GameError:  # the board was lost meanwhile: look again
            self._forget_plan(seat)
        return True

    @staticmethod
    def _forget_plan(seat: _Seat) -> None:
        seat.pick_at, seat.plan, seat.looked_at, seat.turns = None, None, (), []


def looked_at(view: dict[str, Any]) -> tuple[Any, ...]:
    """What a bot's plan depends on in its view: the table (face-down cards as None), the
    previous claim (chains) and how many groups were found on this table (Puzzle)."""
    return tuple(view["table"]), tuple(view.get("previous") or ()), len(view.get("found") or ())


def _fresh_seed() -> int:
    import secrets

    return secrets.randbelow(2**31)
