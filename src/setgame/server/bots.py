"""Computer opponents on the server: one asyncio task per bot seat.

The policy is :class:`setgame.bots.policy.Bot`; this module only carries its plans
out, through the same room actions a person's messages use (so the room checks
and orders them like anyone's). A bot re-plans whenever what it sees changes and
waits while someone else holds the board.

A bot sees what a person in its seat sees: the table as it lies (in
Memory, ``None`` for a face-down card), the previous claim of a chain, the groups
a puzzle has found, and in Memory the cards it saw turned up earlier, by position
(:class:`Sightings`, read from the room's public events).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from typing import Any, Final

from setgame.bots.policy import Bot, Plan
from setgame.rules.cards import Card
from setgame.rules.game import GameError
from setgame.server.registry import Rooms
from setgame.server.rooms import Room

log = logging.getLogger(__name__)

PICK_SHARE: Final = 0.6
"""A bot picks within this share of the room's pick window, whatever its level."""


class BotPlayers:
    """Starts a driver for every bot seat of every room, now and later."""

    def __init__(self, rooms: Rooms) -> None:
        self.tasks: dict[tuple[str, str], asyncio.Task[None]] = {}
        rooms.on_room.append(self.watch)
        for room in rooms.rooms.values():
            self.watch(room)

    def watch(self, room: Room) -> None:
        room.on_change.append(self._seats_changed)
        self._seats_changed(room)

    def _seats_changed(self, room: Room) -> None:
        for seat in room.seats.values():
            key = (room.id, seat.player)
            if seat.bot_level is None or key in self.tasks:
                continue
            bot = Bot(seat.bot_level, seed=f"{room.id}:{seat.player}")
            task = asyncio.create_task(drive(room, seat.player, bot), name=f"bot {key}")
            self.tasks[key] = task
            task.add_done_callback(functools.partial(self._done, key))

    def _done(self, key: tuple[str, str], _task: asyncio.Task[None]) -> None:
        self.tasks.pop(key, None)

    async def close(self) -> None:
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


class Sightings:
    """Memory: the cards a bot saw turned up, by table position, from the room's events
    (``card_turned``: anyone's turns are public). Forgotten when the table changes under
    them: a claim taken in place forgets its positions; a new round, or a claim after
    which the table closes up (positions move), forgets everything."""

    def __init__(self) -> None:
        self.seen: dict[int, Card] = {}
        self.version = 0

    def catch_up(self, room: Room) -> None:
        """Read the events after the last version read."""
        recent = room.recent
        if recent and recent[0][0] > self.version + 1:  # fell behind what the room keeps
            self.seen.clear()
        deck = room.game.variant.deck
        for version, events in recent:
            if version > self.version:
                for event in events:
                    self._note(event, deck.parse)
        self.version = room.version

    def _note(self, event: dict[str, Any], parse: Any) -> None:
        kind = event.get("type")
        if kind == "card_turned":
            self.seen[int(event["position"])] = parse(event["card"])
        elif kind == "round_started":
            self.seen.clear()
        elif kind == "set_taken":
            positions = event.get("positions") or []
            if len(event.get("replaced") or []) != len(positions):
                self.seen.clear()  # the table closed up: every position may have moved
            for position in positions:
                self.seen.pop(position, None)


def _sight(room: Room, sightings: Sightings) -> tuple[Any, ...]:
    """What the bot sees: table (face-down cards None), previous claim, groups found, and
    in Memory the cards it saw turned up. A new plan is made whenever this changes."""
    game = room.game
    table: tuple[Card | None, ...] = tuple(game.table)
    if game.variant.flow.face_down:
        up = set(game.turned)
        table = tuple(c if i in up else None for i, c in enumerate(table))
    previous = tuple(game.previous) if game.previous is not None else None
    found = tuple(tuple(group) for group in game.found)
    return table, previous, found, tuple(sorted(sightings.seen.items()))


def _plan(bot: Bot, room: Room, sight: tuple[Any, ...]) -> Plan | None:
    table, previous, found, seen = sight
    return bot.plan(
        table, room.now(), variant=room.game.variant, previous=previous, seen=dict(seen),
        found=found,
    )


def _blocked(room: Room, player: str, plan: Plan) -> bool:
    """Whether the plan cannot be carried out until something changes."""
    game = room.game
    me = game.players[player]
    if game.holder is not None or me.locked:
        return True
    if plan.kind == "no_set":
        return me.declared or game.settings.no_set == "auto" or game.deck_left == 0
    return False


def _due(room: Room, player: str, plan: Plan) -> float:
    """When to carry the plan out: at its time, and not before a fair-call cooldown that
    binds the bot ends (a call before then would only be refused)."""
    if plan.kind == "no_set":
        return plan.at
    end = room.game.cooldown_end(player, room.now())
    return plan.at if end is None else max(plan.at, end)


def _others_declared(room: Room, player: str) -> bool:
    """Someone else has said there is no set on this table (a vote under way): a bot that
    sees none agrees within its agree time, not after the long look of declaring first."""
    return any(p.declared for other, p in room.game.players.items() if other != player)


def _playing(room: Room, player: str) -> bool:
    me = room.game.players.get(player)
    return room.game.phase == "playing" and me is not None and me.present


async def drive(room: Room, player: str, bot: Bot) -> None:
    """Play ``player``'s seat in ``room`` until the seat or the room goes away."""
    plan: Plan | None = None
    planned_for: tuple[Any, ...] = ()
    agreeing = False  # its "no set" plan was hastened: another player said so first
    sightings = Sightings()
    while not room.broken and player in room.seats:
        version = room.version
        sightings.catch_up(room)
        if not _playing(room, player):
            plan = None
            await room.wait_change(version)
            continue
        sight = _sight(room, sightings)
        if plan is None or sight != planned_for:
            plan, planned_for, agreeing = _plan(bot, room, sight), sight, False
        if not agreeing and _others_declared(room, player):
            plan, agreeing = bot.agreeing(plan, room.now()), True
        if plan is None or _blocked(room, player, plan):
            await room.wait_change(version)
            continue
        if await room.wait_change(version, max(0.0, _due(room, player, plan) - room.now())):
            continue  # something happened first: look again (same table, same plan)
        try:
            await _carry_out(room, player, bot, plan)
        except GameError as exc:
            log.debug("bot %s in room %s: %s", player, room.id, exc)
        plan = None  # after acting, look at the table afresh


async def _carry_out(room: Room, player: str, bot: Bot, plan: Plan) -> None:
    if plan.kind == "no_set":
        await room.no_set(player)
    elif plan.kind == "turn":
        await _turn_up(room, player, bot, plan.positions or ())
    elif plan.cards is not None:
        await _call(room, player)
        pick_seconds = room.game.settings.pick_seconds
        await asyncio.sleep(min(bot.pick_delay, pick_seconds * PICK_SHARE))
        if _holds(room, player):
            await room.pick(player, room.game.names(plan.cards), room.version)


async def _call(room: Room, player: str) -> None:
    if not room.game.settings.solitary:
        await room.call(player, room.version)


def _holds(room: Room, player: str) -> bool:
    return room.game.settings.solitary or room.game.holder == player


async def _turn_up(room: Room, player: str, bot: Bot, positions: tuple[int, ...]) -> None:
    """Memory: call, then turn the cards up one by one, ``pick_delay`` apart and all
    within the share of the pick window a pick may take (the window covers the turning)."""
    if not positions:
        return
    await _call(room, player)
    window = room.game.settings.pick_seconds * PICK_SHARE
    step = min(bot.pick_delay, window / len(positions))
    for position in positions:
        await asyncio.sleep(step)
        if not _holds(room, player):
            return
        await room.turn(player, position)
