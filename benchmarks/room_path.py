"""The game server's own work per action, without the network.

    python3 benchmarks/room_path.py [--rooms 50] [--actions 20000] [--together 2] [--json]
    PYTHONPATH=../other/src python3 benchmarks/room_path.py   # another checkout (A/B)

Rooms of four seats on a real SQLite file (a temporary folder), each seat's socket a
``SocketConnection`` over a stand-in websocket that only counts what it is given; the
actions go in as client frames through the socket layer (``sockets.dispatch`` of a decoded
frame), so the path is the server's own from the decoded frame to the last send: the
rules, the commit, the views and their encoding, the sends. Seats call SET and pick a set
(or declare no set, start the next round, play again), ``--together`` rooms at once (their
commits group as on a loaded server). Reported: CPU microseconds per action (the process's
CPU time over the actions accepted), the median of ``--rounds`` rounds with the lowest and
highest. What uvicorn and the websocket protocol add per message is measured by
``load.py`` beside its bare stack; this is the part the game server can cut.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from setgame.rules.cards import card_names
from setgame.rules.game import GameError
from setgame.rules.sets import find_sets
from setgame.server import protocol as p
from setgame.server.limits import Limits
from setgame.server.registry import Rooms
from setgame.server.rooms import Room
from setgame.server.sockets import SocketConnection, dispatch
from setgame.server.storage import Storage


class CountingSocket:
    """Starlette's WebSocket as a connection uses it, writing nowhere."""

    client = ("127.0.0.1", 1)

    def __init__(self) -> None:
        self.bytes = 0

    async def send_text(self, text: str) -> None:
        self.bytes += len(text)

    async def close(self, code: int) -> None:
        pass


class Table:
    """One room and its four seated sockets."""

    def __init__(self, room: Room, seats: list[SocketConnection]) -> None:
        self.room, self.seats = room, seats

    async def step(self) -> int:
        """One turn of play; the number of actions the room accepted."""
        room, first = self.room, self.seats[0]
        phase = room.phase
        if phase in ("lobby", "round_over"):
            return await _send(room, first, {"type": "start"})
        if phase == "match_over":
            return await _send(room, first, {"type": "again"})
        sets = find_sets(list(room.game.table))
        if not sets:
            done = 0
            for conn in self.seats:
                done += await _send(room, conn, {"type": "no_set"})
            return done
        caller = self.seats[room.version % len(self.seats)]
        done = await _send(room, caller, {"type": "call", "version": room.version})
        cards = card_names(sets[0])
        return done + await _send(
            room, caller, {"type": "pick", "cards": cards, "version": room.version}
        )


async def _send(room: Room, conn: SocketConnection, message: dict[str, Any]) -> int:
    before = room.version
    try:
        await dispatch(room, conn, p.decode(json.dumps(message)))
    except GameError:
        return 0
    return int(room.version > before)


async def _seat(rooms: Rooms, index: int) -> tuple[Table, list[asyncio.Task[None]]]:
    room = await rooms.create(p.RoomSettings(public=False), f"10.0.{index // 250}.{index % 250}")
    seats, pumps = [], []
    for k in range(4):
        conn = SocketConnection(CountingSocket(), rooms.limits)  # type: ignore[arg-type]
        pumps.append(asyncio.create_task(conn.pump()))
        conn.greeted = True
        room.attach(conn)
        await room.join(conn, f"P{k}", f"10.1.{index % 250}.{k}")
        seats.append(conn)
    return Table(room, seats), pumps


async def measure(rooms_count: int, actions: int, together: int, rounds: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="setgame-room-path-") as tmp:
        storage = Storage(str(Path(tmp) / "path.db"), create=True)
        await storage.open()
        rooms = Rooms(storage, Limits())
        await rooms.start(restore=False)
        made = [await _seat(rooms, i) for i in range(rooms_count)]
        tables = [table for table, _ in made]
        per_action: list[float] = []
        for _ in range(rounds):
            done, k = 0, 0
            cpu = time.process_time()
            while done < actions:
                group = [tables[(k + j) % len(tables)] for j in range(together)]
                k += together
                done += sum(await asyncio.gather(*(t.step() for t in group)))
                await asyncio.sleep(0)  # queued sends (if any) go out, as on a server
            per_action.append((time.process_time() - cpu) / done * 1e6)
        for _, pumps in made:
            for pump in pumps:
                pump.cancel()
        await rooms.close()
        await storage.close()
    return {
        "rooms": rooms_count,
        "actions_per_round": actions,
        "together": together,
        "rounds": rounds,
        "cpu_us_per_action": round(statistics.median(per_action), 1),
        "lowest": round(min(per_action), 1),
        "highest": round(max(per_action), 1),
        "setgame": str(Path(sys.modules["setgame"].__file__ or "").parent),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--actions", type=int, default=20_000, help="actions per round")
    parser.add_argument("--together", type=int, default=2, help="rooms acting at once")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    for name in ("rooms", "actions", "together", "rounds"):
        if not 1 <= getattr(args, name) <= 1_000_000:
            parser.error(f"--{name} must be 1-1000000, got {getattr(args, name)!r}")
    args.together = min(args.together, args.rooms)
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvicorn[standard] brings it
        result = asyncio.run(measure(args.rooms, args.actions, args.together, args.rounds))
    else:
        result = uvloop.run(measure(args.rooms, args.actions, args.together, args.rounds))
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['cpu_us_per_action']} us of CPU per action (median of {args.rounds} "
            f"rounds of {args.actions}: lowest {result['lowest']}, highest {result['highest']}); "
            f"{args.rooms} rooms of 4, {result['together']} acting at once; "
            f"setgame from {result['setgame']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
