"""A game on this machine: the engine, and the bots driven at the times their plans name.

The session has no clock: the app passes ``now`` (seconds on its own clock) to
every call, and :meth:`LocalSession.poll` carries out whatever has come due by
then (an expired pick window, a bot's call, its pick, its "no set").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from setgame.bots import Bot, Plan
from setgame.cards import Card, card_name, parse_card
from setgame.game import Call, Event, Game, GameError, Join, NoSet, Pick, Settings, Start
from setgame.sets import find_sets

YOU = "you"
MODES = ("solo", "practice", "bots")


@dataclass(slots=True)
class _Seat:
    """A bot's plan for the table it last saw, and its pick once it holds the board."""

    bot: Bot
    table: tuple[Card, ...] = ()
    plan: Plan | None = None
    pick_at: float | None = None


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
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if mode == "bots" and not 1 <= bots <= 7:
            raise ValueError(f"a game against bots takes 1-7 bots, not {bots!r}")
        settings = Settings(mode="multi" if mode == "bots" else mode, deck=deck)
        self.seed = seed if seed is not None else _fresh_seed()
        self.game = Game(settings, seed=self.seed)
        self.you = YOU
        self.name = name
        count = bots if mode == "bots" else 0
        self.seats = {
            f"bot{i}": _Seat(Bot(level, seed=f"{self.seed}:{i}")) for i in range(1, count + 1)
        }
        self._events: list[Event] = []
        self._hint: tuple[tuple[Card, ...], list[Card]] | None = None

    @property
    def mode(self) -> str:
        return self.game.settings.mode

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
        """After the match: a new one with the same players, on the next seed."""
        self.seed += 1
        self.game = Game(self.game.settings, seed=self.seed)
        for i, seat in enumerate(self.seats.values(), start=1):
            seat.bot = Bot(seat.bot.level, seed=f"{self.seed}:{i}")
            seat.table, seat.plan, seat.pick_at = (), None, None
        self._hint = None
        await self.open(now)

    async def call(self, now: float) -> None:
        self._apply(Call(now, self.you))

    async def pick(self, codes: tuple[str, ...], now: float) -> None:
        self._apply(Pick(now, self.you, tuple(parse_card(code) for code in codes)))

    async def no_set(self, now: float) -> None:
        self._apply(NoSet(now, self.you))

    async def hint(self, now: float) -> list[str]:
        """Practice: one more card of a set on the table (all of it after three asks)."""
        if self.mode != "practice":
            raise GameError("no_hints", "hints are for practice games")
        table = tuple(self.game.table)
        sets = find_sets(table)
        if not sets:
            return []
        if self._hint is None or self._hint[0] != table:
            self._hint = (table, [])
        shown = self._hint[1]
        if len(shown) < 3:
            shown.append(sets[0][len(shown)])
        return [card_name(c) for c in shown]

    async def close(self) -> None:
        """Nothing to release: the game lives in memory."""

    async def hang_up(self) -> None:
        """Nothing to release: the game lives in memory."""

    # -- time passing ----------------------------------------------------------------------

    def poll(self, now: float) -> list[Event]:
        """Carry out what has come due by ``now``; return every event since the last poll."""
        self._events += self.game.advance(now)
        for _ in range(4 * len(self.seats)):  # each bot acts at most a few times per poll
            if not self._bots_act(now):
                break
        events, self._events = self._events, []
        return events

    def view(self, now: float) -> dict[str, Any]:
        """What the player sees at ``now``."""
        return self.game.view(self.you, now)

    def _apply(self, action: Any) -> None:
        self._events += self.game.apply(action)

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
        table = tuple(self.game.table)
        for seat in self.seats.values():
            if seat.table != table:
                seat.table, seat.plan = table, seat.bot.plan(table, now)

    def _bot_plays(self, pid: str, plan: Plan, now: float) -> bool:
        """Carry out a due plan; False when the rules do not let the bot act on it now."""
        player = self.game.players[pid]
        if player.locked or (
            plan.kind == "no_set" and (player.declared or not self.game.deck_left)
        ):
            return False
        if plan.kind == "set" and self.game.cooldown_end(pid, now) is not None:
            return False  # fair call: the bot waits for its cooldown to end
        if plan.kind == "no_set":
            self._apply(NoSet(now, pid))
            return True
        self._apply(Call(now, pid))
        self.seats[pid].pick_at = now + self.seats[pid].bot.pick_delay
        return True

    def _bot_pick(self, pid: str, now: float) -> bool:
        seat = self.seats[pid]
        if seat.pick_at is None or seat.pick_at > now or seat.plan is None:
            return False
        cards = seat.plan.cards
        seat.pick_at = None
        seat.plan = None  # a wrong pick leaves the table as it was: think again
        seat.table = ()
        if cards is not None:
            self._apply(Pick(now, pid, cards))
        return True


def _fresh_seed() -> int:
    import secrets

    return secrets.randbelow(2**31)
