"""Computer opponents in variant rooms (issue 10): the server's driver gives the policy what
a person in the seat sees (the previous claim of a chain, the groups a puzzle found, the
cards Memory showed) and carries out its plans, Memory's turns included. In process, over a
real SQLite file, with the bots' reaction times shortened so that whole games take seconds."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from pathlib import Path
from typing import Any

import pytest

from setgame.bots import policy as bots
from setgame.server.bots import BotPlayers, Sightings
from setgame.server.protocol import RoomSettings
from setgame.server.rooms import Room

from .roomkit import FakeConnection, registry


@pytest.fixture
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots that think and pick 200 times faster (the policy's choices stay)."""
    for number, level in list(bots.LEVELS.items()):
        quick = dataclasses.replace(level, median=level.median / 200, pick_delay=0.005)
        monkeypatch.setitem(bots.LEVELS, number, quick)


def events_of(room: Room) -> list[dict[str, Any]]:
    return [event for _, events in room.recent for event in events]


async def bot_match(path: Path, timeout: float = 60.0, **settings: Any) -> Room:
    """A room of one bot (level 5) alone, started and played to the end of its match."""
    async with registry(path) as rooms:
        players = BotPlayers(rooms)
        try:
            room = await rooms.create(RoomSettings(bots=1, bot_level=5, **settings), "10.0.0.1")
            watcher = FakeConnection()
            room.attach(watcher)
            await room.start(next(iter(room.seats)))
            async with asyncio.timeout(timeout):
                while room.phase != "match_over":
                    await room.wait_change(room.version)
            return room
        finally:
            await players.close()


async def test_a_bot_plays_a_set_chain_match_to_the_end(tmp_path: Path, quick_bots: None) -> None:
    room = await bot_match(tmp_path / "chain.db", variant="set-chain", no_set="auto")
    taken = [e for e in events_of(room) if e["type"] == "set_taken"]
    assert len(taken) >= 10
    for before, claim in itertools.pairwise(taken):  # chained, as the flow says
        assert sorted(claim["previous"]) == sorted(claim["cards"])  # the claim lies apart now
        assert len(set(before["cards"]) & set(claim["cards"])) == 1
    bot = next(iter(room.seats))
    assert room.game.players[bot].sets == len(taken) and room.game.deck_left == 0


async def test_a_bot_plays_an_ultraset_match_to_the_end(tmp_path: Path, quick_bots: None) -> None:
    room = await bot_match(tmp_path / "ultra.db", variant="ultraset", no_set="auto")
    taken = [e for e in events_of(room) if e["type"] == "set_taken"]
    assert taken and all(len(e["cards"]) == 4 for e in taken)


async def test_a_bot_plays_memory_by_turning_cards(tmp_path: Path, quick_bots: None) -> None:
    room = await bot_match(tmp_path / "memory.db", variant="memory")
    events = events_of(room)
    turned = [e for e in events if e["type"] == "card_turned"]
    calls = [e for e in events if e["type"] == "called"]
    taken = [e for e in events if e["type"] == "set_taken"]
    assert taken and len(turned) >= 3 * len(taken) and len(calls) * 3 >= len(turned)
    assert room.game.deck_left == 0


async def test_a_bot_finds_every_group_of_the_daily_puzzle(
    tmp_path: Path, quick_bots: None
) -> None:
    room = await bot_match(tmp_path / "puzzle.db", variant="puzzle", day="2026-03-14",
                           rounds="single")
    taken = [e for e in events_of(room) if e["type"] == "set_taken"]
    assert len({frozenset(e["cards"]) for e in taken}) == len(taken) == 6  # none twice


def test_sightings_remember_turned_cards_and_forget_when_the_table_changes() -> None:
    class Stub:
        def __init__(self) -> None:
            from setgame.rules.game import Game, Settings

            self.game = Game(Settings(variant="memory"), 1)
            self.recent: list[tuple[int, list[dict[str, Any]]]] = []
            self.version = 0

        def add(self, *events: dict[str, Any]) -> None:
            self.version += 1
            self.recent.append((self.version, list(events)))

    room: Any = Stub()
    eyes = Sightings()
    room.add({"type": "card_turned", "position": 4, "card": "1RSD"},
             {"type": "card_turned", "position": 7, "card": "2GTO"})
    eyes.catch_up(room)
    deck = room.game.variant.deck
    assert eyes.seen == {4: deck.parse("1RSD"), 7: deck.parse("2GTO")}
    room.add({"type": "set_taken", "positions": [4, 1, 2], "replaced": [None, None, None]})
    eyes.catch_up(room)
    assert eyes.seen == {7: deck.parse("2GTO")}  # replaced in place: only position 4 forgotten
    room.add({"type": "set_taken", "positions": [0, 1, 2], "replaced": []})
    eyes.catch_up(room)
    assert eyes.seen == {}  # the table closed up: positions moved
    room.add({"type": "card_turned", "position": 0, "card": "3POS"})
    room.add({"type": "round_started", "table": [None] * 12})
    eyes.catch_up(room)
    assert eyes.seen == {}
