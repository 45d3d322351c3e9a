"""An arena of many players on one process (issue 23): what a round of pairing and a
standings broadcast cost.

    python3 benchmarks/arena.py [--players 1000] [--rounds 5] [--json] [--quick]

In-process, on a real SQLite file (a temporary folder) and the server's own objects: the
registry of rooms, an :class:`setgame.server.arenas.Arena` whose participants entered as over
the protocol (each stored), each with a connection that only counts what it is sent (the load
generator's players, without the network: what uvicorn and the websocket add per message is
``load.py``'s to measure). Reported, each the median of ``--rounds`` with the lowest and highest:

- ``pair``: the pure pairing (``setgame.arena.pair``) of every player waiting at once, players of
  mixed points, ratings and last opponents;
- ``round``: a whole round of pairing with everyone waiting: the pairing plus opening every
  room through the registry, seating its players, storing it and telling each player
  (``paired``, ``queue``): the work of the busiest moment, when the arena starts;
- ``score``: one game's result counted and stored, the standings made again;
- ``broadcast``: the standings sent to every connection (the first 100 rows shared, each
  one's own row spliced in): milliseconds and bytes per connection, beside the baseline of
  encoding the whole message for each connection (the ratio: how much the splice saves).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from setgame.arena import Waiting, pair
from setgame.server.arena_settings import ArenaLimits, ArenaSettings
from setgame.server.arenas import Arena, Record
from setgame.server.limits import Limits
from setgame.server.registry import Rooms
from setgame.server.storage import Storage


class Counting:
    """A connection that counts what it is sent."""

    def __init__(self, player: str) -> None:
        self.player: str | None = player
        self.sent = 0
        self.bytes = 0

    def send(self, text: str) -> None:
        self.sent += 1
        self.bytes += len(text)

    def close(self, code: int) -> None:
        pass


def _waiting(n: int, rng: random.Random) -> list[Waiting]:
    keys = [f"g:p{i}" for i in range(n)]
    return [
        Waiting(key, rng.randrange(0, 40), rng.randrange(800, 1800), rng.random() * 10,
                frozenset({rng.choice(keys)}))
        for key in keys
    ]


def _spread(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 3), "low": round(min(values), 3),
            "high": round(max(values), 3)}


async def _arena(rooms: Rooms, players: int) -> tuple[Arena, list[Counting]]:
    now = time.time()
    settings = ArenaSettings(deck="beginner", minutes=180, starts_in_seconds=0)
    record = Record("bench", settings, "running", now, now + 3 * 3600, True)
    limits = ArenaLimits(players=players, start_seconds=600, standings_seconds=0.0)
    arena = Arena(record, rooms, limits)
    await asyncio.gather(  # entered together, as over many sockets (their writes group)
        *(arena.enter(f"g:p{i}", f"P{i}", None, 1000 + (i * 7) % 600) for i in range(players))
    )
    conns = [Counting(f"g:p{i}") for i in range(players)]
    for conn in conns:
        arena.attach(conn)
    return arena, conns


async def run(players: int, rounds: int) -> dict[str, Any]:
    rng = random.Random(23)
    pure = []
    for _ in range(rounds):
        waiting = _waiting(players, rng)
        start = time.perf_counter()
        pair(waiting, 2, 20.0, bot_after=20.0, repeat_after=10.0, last_start=1e12)
        pure.append((time.perf_counter() - start) * 1000)
    whole, scores, ranks, sends, naive, sizes = [], [], [], [], [], []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(rounds):
            storage = Storage(str(Path(folder) / f"a{len(whole)}.db"))
            await storage.open()
            rooms = Rooms(storage, Limits(room_cap=100_000))
            arena, conns = await _arena(rooms, players)
            start = time.perf_counter()
            opened = await arena.pair_round(time.time() + 30)
            whole.append((time.perf_counter() - start) * 1000)
            assert opened == players // 2, opened
            for game in list(arena.games.values())[:20]:
                start = time.perf_counter()
                await arena.score(game, time.time())
                arena.standings()
                scores.append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                arena.changed()  # the standings made again, as after every game
                arena.standings()
                ranks.append((time.perf_counter() - start) * 1000)
            for conn in conns:
                conn.sent = conn.bytes = 0
            start = time.perf_counter()
            arena.changed(now=True)
            sends.append((time.perf_counter() - start) * 1000)
            sizes.append(sum(c.bytes for c in conns) / len(conns))
            start = time.perf_counter()  # the baseline: the whole message encoded per socket
            for conn in conns:
                conn.send(arena.standings_text(conn.player))
            naive.append((time.perf_counter() - start) * 1000)
            await arena.close()
            await rooms.close()
            await storage.close()
    return {
        "players": players, "rounds": rounds, "load": os.getloadavg()[0],
        "pair_ms": _spread(pure), "round_ms": _spread(whole),
        "room_ms": round(statistics.median(whole) / (players // 2), 3),
        "score_ms": _spread(scores), "rank_ms": _spread(ranks), "broadcast_ms": _spread(sends),
        "broadcast_bytes_per_connection": round(statistics.median(sizes)),
        "broadcast_naive_ms": _spread(naive),
        "broadcast_ratio": round(statistics.median(naive) / statistics.median(sends), 2),
    }


def show(result: dict[str, Any]) -> str:
    return "\n".join([
        f"arena of {result['players']} players, {result['rounds']} rounds "
        f"(load average {result['load']:.2f} before)",
        f"pair      {result['pair_ms']['median']} ms (pure pairing of everyone waiting)",
        f"round     {result['round_ms']['median']} ms ({result['room_ms']} ms a room: "
        "created, seated, stored, told)",
        f"score     {result['score_ms']['median']} ms (one game counted and stored)",
        f"rank      {result['rank_ms']['median']} ms (the standings sorted again)",
        f"broadcast {result['broadcast_ms']['median']} ms to every connection, "
        f"{result['broadcast_bytes_per_connection']} bytes each",
        f"ratio broadcast: {result['broadcast_ratio']}x (the baseline: the whole message "
        f"encoded for each socket, {result['broadcast_naive_ms']['median']} ms)",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quick", action="store_true", help="100 players, 2 rounds")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.rounds = 100, 2
    result = asyncio.run(run(args.players, args.rounds))
    print(json.dumps(result) if args.json else show(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
