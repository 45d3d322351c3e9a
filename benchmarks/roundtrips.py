"""Count round trips between a server and PostgreSQL or Redis, on the wire.

A TCP proxy on loopback that forwards everything and counts, per connection, each burst of
bytes the client sends after the database last spoke (or first): one request and its answer,
however many statements or commands it carries (a pipeline or an ``executemany`` is one).
Bytes the database sends unasked (Redis pub/sub deliveries) are counted as ``pushes``. It
measures the server from outside, so it counts what the server does, not what its code says
it does (``tests/server/test_round_trips.py``, ``docs/benchmarks.md``).

    python3 benchmarks/roundtrips.py 127.0.0.1:5432     # prints a free port to use instead
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from dataclasses import dataclass, field


@dataclass
class Counts:
    """What went through the proxy so far (all its connections together)."""

    trips: int = 0  # client bursts that followed an answer (or opened the connection)
    pushes: int = 0  # server bursts that followed another server burst (unasked)
    sent: int = 0  # bytes client -> server
    received: int = 0  # bytes server -> client
    connections: int = 0

    def copy(self) -> Counts:
        return Counts(self.trips, self.pushes, self.sent, self.received, self.connections)

    def minus(self, other: Counts) -> Counts:
        return Counts(
            self.trips - other.trips,
            self.pushes - other.pushes,
            self.sent - other.sent,
            self.received - other.received,
            self.connections - other.connections,
        )


@dataclass
class _Turn:
    """Who spoke last on one connection: 'c' (client), 's' (server) or '' (nobody yet)."""

    last: str = ""


@dataclass
class Proxy:
    """Forward ``127.0.0.1:<port>`` to ``target_host:target_port``, counting."""

    target_host: str
    target_port: int
    counts: Counts = field(default_factory=Counts)
    port: int = 0
    _server: asyncio.Server | None = None
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self.port

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def snapshot(self) -> Counts:
        return self.counts.copy()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(
                self.target_host, self.target_port
            )
        except OSError:
            writer.close()
            return
        self.counts.connections += 1
        turn = _Turn()
        for src, dst, side in ((reader, up_writer, "c"), (up_reader, writer, "s")):
            task = asyncio.create_task(self._pipe(src, dst, side, turn))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pipe(
        self, src: asyncio.StreamReader, dst: asyncio.StreamWriter, side: str, turn: _Turn
    ) -> None:
        try:
            while data := await src.read(65536):
                self._count(side, turn, len(data))
                dst.write(data)
                await dst.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            dst.close()

    def _count(self, side: str, turn: _Turn, size: int) -> None:
        if side == "c":
            self.counts.sent += size
            if turn.last != "c":
                self.counts.trips += 1
        else:
            self.counts.received += size
            if turn.last == "s":
                self.counts.pushes += 1
        turn.last = side


async def _main(target: str) -> None:
    host, _, port = target.rpartition(":")
    proxy = Proxy(host or "127.0.0.1", int(port))
    print(await proxy.start(), flush=True)
    try:
        while True:
            await asyncio.sleep(5)
            print(proxy.counts, flush=True)
    finally:
        await proxy.close()


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_main(sys.argv[1]))
