"""A connection's outgoing messages (``sockets.SocketConnection``): written at once while the
socket has room, else queued behind the one that waits, in order; a client that has left or
that falls too far behind stops costing the room anything."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from setgame.server import protocol as p
from setgame.server.sockets import BACKLOG, SocketConnection


class FakeSocket:
    """Starlette's WebSocket as a connection uses it; ``full`` makes sends wait (a client
    that does not read), ``gone`` makes them fail (a client that left)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: list[int] = []
        self.full: asyncio.Future[None] | None = None
        self.gone = False
        self.client = ("127.0.0.1", 5000)

    async def send_text(self, text: str) -> None:
        while self.full is not None:
            await self.full
        if self.gone:
            raise OSError("client disconnected")
        self.sent.append(text)

    async def close(self, code: int) -> None:
        self.closed.append(code)


def connection() -> tuple[SocketConnection, FakeSocket]:
    ws = FakeSocket()
    return SocketConnection(ws), ws  # type: ignore[arg-type]


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_message_is_written_at_once_while_the_socket_has_room() -> None:
    conn, ws = connection()
    conn.send("a")
    conn.send("b")
    assert ws.sent == ["a", "b"]  # before any other task ran: no pump needed
    assert conn._out.empty()


async def test_messages_wait_in_order_behind_a_send_that_waits() -> None:
    conn, ws = connection()
    pump = asyncio.create_task(conn.pump())
    ws.full = asyncio.get_running_loop().create_future()
    conn.send("first")  # begins, then waits for room
    conn.send("second")
    conn.send("third")
    await settle()
    assert ws.sent == []
    full, ws.full = ws.full, None
    full.set_result(None)
    await settle()
    assert ws.sent == ["first", "second", "third"]
    conn.send("fourth")  # the queue is empty again: written at once
    assert ws.sent[-1] == "fourth"
    conn.close(1000)
    await asyncio.wait_for(pump, 1)
    assert ws.closed == [1000]


async def test_a_client_too_far_behind_is_closed_with_1008() -> None:
    conn, ws = connection()
    pump = asyncio.create_task(conn.pump())
    ws.full = asyncio.get_running_loop().create_future()
    for k in range(BACKLOG + 2):
        conn.send(f"m{k}")
    assert conn.closing == p.CLOSE_POLICY
    conn.send("later")  # closing: dropped
    full, ws.full = ws.full, None
    full.set_result(None)
    await asyncio.wait_for(pump, 1)
    assert ws.closed == [p.CLOSE_POLICY]
    assert ws.sent == [f"m{k}" for k in range(BACKLOG)]  # BACKLOG waited, in order


@pytest.mark.parametrize("waiting", [False, True])
async def test_a_client_that_left_ends_the_pump_without_a_close_frame(waiting: bool) -> None:
    conn, ws = connection()
    pump = asyncio.create_task(conn.pump())
    if waiting:  # it leaves while a send waits for room
        ws.full = asyncio.get_running_loop().create_future()
        conn.send("x")
        await settle()
    ws.gone = True
    if waiting:
        full, ws.full = ws.full, None
        full.set_result(None)
    else:
        conn.send("x")
    await asyncio.wait_for(pump, 1)
    assert conn.closing == 1006 and ws.closed == [] and ws.sent == []
    conn.send("y")  # nothing more is tried
    assert ws.sent == []


async def test_cancelling_the_pump_closes_a_waiting_send() -> None:
    conn, ws = connection()
    pump = asyncio.create_task(conn.pump())
    ws.full = asyncio.get_running_loop().create_future()
    conn.send("x")
    await settle()
    unfinished: Any = conn._out  # the pump holds it now
    assert unfinished.empty() and conn._pumping
    pump.cancel()
    with pytest.raises(asyncio.CancelledError):
        await pump
    assert not conn._pumping


async def test_an_unexpected_failure_drops_only_that_connection(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A send runs inside a room's broadcast: whatever it raises must not reach the room."""
    conn, ws = connection()

    async def broken(text: str) -> None:
        raise ValueError("broken stack")

    ws.send_text = broken  # type: ignore[method-assign]
    pump = asyncio.create_task(conn.pump())
    conn.send("x")
    await asyncio.wait_for(pump, 1)
    assert conn.closing == 1006 and "sending to 127.0.0.1 failed" in caplog.text
