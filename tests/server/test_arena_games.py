"""An arena's games on the server, in process (issue 23; ``docs/rules.md``, "Arenas (ours)"):
a game not over at its cap counts as it stands, a player who leaves forfeits (the win goes to
who stayed), a player who waited too long plays a computer player, and nobody is paired when a
game could no longer finish."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from setgame.rules.cards import card_names
from setgame.rules.sets import find_sets
from setgame.server.arena_registry import Arenas
from setgame.server.arena_settings import ArenaLimits, ArenaSettings
from setgame.server.arena_tables import arena_players
from setgame.server.arenas import Arena, Record, restored
from setgame.server.registry import Rooms

from .roomkit import FakeConnection, registry


@pytest.fixture
async def rooms(tmp_path: Path) -> AsyncIterator[Rooms]:
    async with registry(tmp_path / "g.db") as found:
        yield found


async def _arena(
    rooms: Rooms, names: list[str], **limits: float
) -> tuple[Arena, dict[str, FakeConnection]]:
    now = time.time()
    settings = ArenaSettings(deck="beginner", minutes=10, game_minutes=1, starts_in_seconds=0)
    record = Record("t" + str(len(names)), settings, "running", now, now + 600, True)
    arena = Arena(record, rooms, ArenaLimits(start_seconds=600, **limits))  # type: ignore[arg-type]
    conns = {}
    for name in names:
        await arena.enter(f"g:{name.lower()}", name, None, 1000)
        conns[name] = FakeConnection()
        conns[name].player = f"g:{name.lower()}"
        arena.attach(conns[name])
    return arena, conns


def _paired(conn: FakeConnection) -> dict[str, object]:
    (message,) = [json.loads(m) for m in conn.sent if '"type":"paired"' in m]
    return message


async def test_a_game_at_its_cap_counts_as_it_stands(rooms: Rooms) -> None:
    arena, conns = await _arena(rooms, ["Ann", "Bob"])
    assert await arena.pair_round(time.time()) == 1
    (game,) = arena.games.values()
    room = game.room
    ann = next(pid for pid, key in game.seats.items() if key == "g:ann")
    await room.start(ann)
    await room.call(ann, room.version)
    await room.pick(ann, card_names(find_sets(list(room.game.table))[0]), room.version)
    assert game.cap_at is not None and game.cap_at - game.started == pytest.approx(60)
    await arena._cap_games(game.cap_at + 0.1)  # still being played: counted as it stands
    standings = {row["name"]: (row["points"], row["games"], row["state"]) for row in arena.rows()}
    assert standings == {"Ann": (2, 1, "waiting"), "Bob": (0, 1, "waiting")}
    assert _paired(conns["Ann"])["opponents"] == ["Bob"]
    await arena.close()


async def test_a_player_who_leaves_forfeits(rooms: Rooms) -> None:
    arena, _ = await _arena(rooms, ["Ann", "Bob"])
    await arena.pair_round(time.time())
    (game,) = arena.games.values()
    room = game.room
    seat = {key: pid for pid, key in game.seats.items()}
    await room.start(seat["g:ann"])
    await room.call(seat["g:ann"], room.version)
    await room.pick(seat["g:ann"], card_names(find_sets(list(room.game.table))[0]), room.version)
    leaver = FakeConnection()
    leaver.player = seat["g:ann"]
    await room.leave(leaver)  # Ann leads, then leaves: Bob wins
    await arena.score(game, time.time())
    points = {row["name"]: row["points"] for row in arena.rows()}
    assert points == {"Bob": 2, "Ann": 0}
    await arena.close()


async def test_a_lone_player_gets_a_computer_player_after_the_wait(rooms: Rooms) -> None:
    arena, conns = await _arena(rooms, ["Ann"], bot_seconds=5.0)
    assert await arena.pair_round(time.time() + 1) == 0  # not yet
    assert await arena.pair_round(time.time() + 5.5) == 1
    paired = _paired(conns["Ann"])
    assert paired["bot"] is True and paired["opponents"] == ["Bot 1"]
    (game,) = arena.games.values()
    assert list(game.bots.values()) == [1]  # the level closest to a rating of 1000
    await arena.close()


async def test_nobody_is_paired_when_a_game_could_not_finish(rooms: Rooms) -> None:
    arena, _ = await _arena(rooms, ["Ann", "Bob"])
    arena.record.ends_at = time.time() + 59  # the cap is a minute
    assert await arena.pair_round(time.time()) == 0
    await arena.close()


async def test_a_game_over_while_nobody_ran_the_arena_counts_from_its_stored_log(
    rooms: Rooms,
) -> None:
    """The arena's owner went away mid-game; its room's game ended (Bob won) and another
    began in the room before a new owner took the arena over: the new owner counts the
    game from its stored actions (``stored_play``), not as lost."""
    arena, _ = await _arena(rooms, ["Ann", "Bob"])
    await arena.pair_round(time.time())
    (game,) = arena.games.values()
    room, seat = game.room, {key: pid for pid, key in game.seats.items()}
    room.on_change.remove(arena._room_changed)  # the owner is gone: nobody watches the room
    await arena.close()
    await room.start(seat["g:ann"])
    while room.phase == "playing":
        sets = find_sets(list(room.game.table))
        if not sets:  # three more cards come by themselves
            await asyncio.sleep(0.05)
            continue
        await room.call(seat["g:bob"], room.version)
        await room.pick(seat["g:bob"], card_names(sets[0]), room.version)
    await room.new_game()  # "again": the room's current game is another now
    assert room.game_id != game.game
    owner = Arenas(rooms, arena.limits)  # the process that takes the arena over
    async with rooms.storage.reading() as conn:
        people = (await conn.execute(
            arena_players.select().where(arena_players.c.arena == arena.id))).all()
    again = restored(arena.record, people, rooms, arena.limits)
    await owner._watch_again(again)
    points = {row["name"]: (row["points"], row["games"]) for row in again.rows()}
    assert points == {"Bob": (2, 1), "Ann": (0, 1)}
    assert not again.games
