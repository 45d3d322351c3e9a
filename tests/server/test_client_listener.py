"""The client's listener hook (``setgame.server.client.Listener``) over a real server: a
listener sees every message with its arrival time, and one that returns True takes the
message, which then never reaches the queue of ``next_message`` (the load benchmark's
players are driven this way). Replies to requests are answered either way."""

from __future__ import annotations

import time
from typing import Any

import pytest

from setgame.server.client import Client, Message, create_room


async def test_a_listener_that_takes_updates_keeps_them_out_of_the_queue(
    live_server: Any,
) -> None:
    taken: list[tuple[Message, float]] = []

    def take(_client: Client, message: Message, at: float) -> bool:
        if message["type"] != "update":
            return False
        taken.append((message, at))
        return True

    room = await create_room(str(live_server), mode="solo")
    async with await Client.connect(str(live_server), room, listener=take) as ann:
        assert await ann.join("Ann")  # a direct reply: answered though the listener saw it
        await ann.start()
        await ann.ping()  # the start's update was sent before the pong
        assert taken, "the listener saw no update"
        assert taken[-1][0]["state"]["phase"] == "playing"
        assert all(at <= time.perf_counter() for _, at in taken)
        assert ann.state is not None and ann.state["phase"] == "playing"  # still followed
        queued: list[str] = []
        with pytest.raises(TimeoutError):
            while True:
                queued.append((await ann.next_message(0.3))["type"])
        assert "update" not in queued, queued


async def test_a_listener_that_returns_nothing_leaves_messages_queued(live_server: Any) -> None:
    seen: list[str] = []

    def look(_client: Client, message: Message, _at: float) -> None:
        seen.append(message["type"])

    room = await create_room(str(live_server), mode="solo")
    async with await Client.connect(str(live_server), room, listener=look) as ann:
        await ann.join("Ann")
        await ann.start()
        await ann.wait_update(lambda state: state["phase"] == "playing")  # from the queue
        assert "update" in seen
