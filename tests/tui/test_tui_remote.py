"""The terminal app in an online room, beside a protocol client (another player)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from setgame.server.client import Client, create_room
from setgame.tui.app import SetApp
from setgame.tui.remote import RemoteSession
from tui.tuikit import FakeClock, a_set, keys_for, me, message, not_a_set, table


async def _until(
    app: SetApp, clock: FakeClock, done: Callable[[], bool], timeout: float = 10
) -> None:
    """Redraw from the session until ``done()``; the fake clock follows real time."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while loop.time() < give_up:
        clock.now += 0.05
        app.refresh_game()
        if done():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out; view: {app.view!r}")


@pytest.mark.slow
async def test_joining_a_running_servers_room(live_server: str, clock: FakeClock) -> None:
    room = await create_room(live_server, deck="beginner", rounds="single", pick_seconds=10)
    alice = await Client.connect(live_server, room)
    try:
        await alice.join("Alice")
        session = RemoteSession(f"{live_server}/room/{room}", name="Tess")
        app = SetApp(session, clock=clock, poll_seconds=3600)
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(app, clock, lambda: len(app.view["players"]) == 2)
            assert app.view["you"] == app.view["players"][1]["id"]
            names = [p["name"] for p in app.view["players"]]
            assert names == ["Alice", "Tess"] and app.view["phase"] == "lobby"
            assert "Press Enter to start" in str(app.holder_bar.content)
            await pilot.press("enter")
            await _until(app, clock, lambda: app.view["phase"] == "playing")
            assert len(table(app)) == 12 and app.view["deck"] == 15
            await alice.wait_update(lambda s: s["phase"] == "playing")
            assert table(app) == alice.table

            # no set on the table: both declare it (R11), three more cards come
            while (triple := a_set(app)) is None:
                size = len(table(app))
                await pilot.press("n")
                await alice.no_set()
                await _until(app, clock, lambda: len(table(app)) == size + 3)  # noqa: B023

            # Tess calls SET and picks a set by keys: Alice sees the point
            await pilot.press("space")
            await _until(app, clock, lambda: app.view["holder"] == app.view["you"])
            assert "You hold the board" in str(app.holder_bar.content)
            await pilot.press(*keys_for(app, triple))
            await _until(app, clock, lambda: me(app)["score"] == 1)
            assert message(app) == "A set! " + " ".join(triple)
            await alice.wait_update(lambda s: any(p["score"] == 1 for p in s["players"]))

            # Alice calls and picks wrong: Tess reads why, in her language
            await alice.call()
            await _until(app, clock, lambda: app.view["holder"] is not None)
            assert str(app.holder_bar.content).startswith("Alice holds the board: ")
            wrong = not_a_set(app)
            await alice.pick(list(wrong))
            await _until(app, clock, lambda: "Not a set" in message(app))
            assert message(app).startswith("Alice: " + " ".join(wrong) + ": Not a set: ")

            # the server refuses a second "no set": the refusal is worded by the app
            await pilot.press("n")
            await _until(app, clock, lambda: bool(me(app)["declared"]))
            await pilot.press("n")
            await _until(app, clock, lambda: "already" in message(app))
            assert message(app) == "You have already said there is no set"
            await pilot.press("q", "y")
        assert session.client is not None and session.client.closed is not None
    finally:
        await alice.close()


async def test_an_unknown_room_is_reported(live_server: str, clock: FakeClock) -> None:
    session = RemoteSession(f"{live_server}/room/nosuchroom", name="Tess")
    with pytest.raises(ValueError, match="4004"):
        await session.open(0.0)
    app = SetApp(RemoteSession(f"{live_server}/room/nosuchroom"), clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        assert message(app).startswith("Connection lost: ") and "4004" in message(app)
        await pilot.press("q", "y")


@pytest.mark.slow
async def test_the_seat_comes_back_after_a_server_restart(
    fresh_server: Any, clock: FakeClock
) -> None:
    room = await create_room(fresh_server, deck="beginner", rounds="single")
    alice = await Client.connect(fresh_server, room)
    await alice.join("Alice")
    await alice.close()
    app = SetApp(RemoteSession(f"{fresh_server}/room/{room}", name="Tess"), clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(app, clock, lambda: len(app.view["players"]) == 2)
        await pilot.press("enter")
        await _until(app, clock, lambda: app.view["phase"] == "playing")
        before, you = table(app), app.view["you"]
        fresh_server.restart()  # kill -9, then the same port and database
        await _until(app, clock, lambda: message(app).startswith("Connection lost"))
        assert app.message_bar.has_class("warning")
        await _until(app, clock, lambda: message(app) == "Connected again", timeout=30)
        assert app.view["you"] == you and table(app) == before
        await pilot.press("space")
        await _until(app, clock, lambda: app.view["holder"] == you)
        await pilot.press("q", "y")
