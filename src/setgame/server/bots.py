"""Computer opponents on the server: one asyncio task per bot seat.

The policy is :class:`setgame.bots.Bot`; this module only carries its plans
out, through the same room actions a person's messages use (so the room checks
and orders them like anyone's). A bot re-plans whenever the table changes and
waits while someone else holds the board.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from typing import Final

from setgame.bots import Bot, Plan
from setgame.cards import card_names
from setgame.game import GameError
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
    if plan.kind != "set":
        return plan.at
    end = room.game.cooldown_end(player, room.now())
    return plan.at if end is None else max(plan.at, end)


def _playing(room: Room, player: str) -> bool:
    me = room.game.players.get(player)
    return room.game.phase == "playing" and me is not None and me.present


async def drive(room: Room, player: str, bot: Bot) -> None:
    """Play ``player``'s seat in ``room`` until the seat or the room goes away."""
    plan: Plan | None = None
    planned_for: tuple[int, ...] = ()
    while not room.broken and player in room.seats:
        version = room.version
        if not _playing(room, player):
            plan = None
            await room.wait_change(version)
            continue
        table = tuple(room.game.table)
        if plan is None or table != planned_for:
            plan, planned_for = bot.plan(table, room.now()), table
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
        return
    if plan.cards is None:
        return
    await room.call(player, room.version)
    pick_seconds = room.game.settings.pick_seconds
    await asyncio.sleep(min(bot.pick_delay, pick_seconds * PICK_SHARE))
    if room.game.holder == player:
        await room.pick(player, card_names(plan.cards), room.version)
