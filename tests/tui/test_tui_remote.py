"""The terminal app in an online room, beside a protocol client (another player)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from conftest import free_port
from setgame.server.client import Client, create_room
from setgame.tui import remote
from setgame.tui.app import SetApp
from setgame.tui.remote import RemoteError, RemoteSession
from tui.tuikit import (
    FakeClock,
    a_set,
    keys_for,
    me,
    message,
    not_a_set,
    scores,
    table,
    until,
    wait_shown_whole,
)


@pytest.mark.slow
async def test_joining_a_running_servers_room(live_server: str, clock: FakeClock) -> None:
    room = await create_room(live_server, deck="beginner", rounds="single", pick_seconds=10)
    alice = await Client.connect(live_server, room)
    try:
        await alice.join("Alice")
        session = RemoteSession(f"{live_server}/room/{room}", name="Tess")
        app = SetApp(session, clock=clock, poll_seconds=3600)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(app, clock, lambda: len(app.view["players"]) == 2)
            assert app.view["you"] == app.view["players"][1]["id"]
            names = [p["name"] for p in app.view["players"]]
            assert names == ["Alice", "Tess"] and app.view["phase"] == "lobby"
            assert "Press Enter to start" in str(app.holder_bar.content)
            await pilot.press("enter")
            await until(app, clock, lambda: app.view["phase"] == "playing")
            assert len(table(app)) == 12 and app.view["deck"] == 15
            await alice.wait_update(lambda s: s["phase"] == "playing")
            assert table(app) == alice.table

            # no set on the table: both declare it (R11), three more cards come
            while (triple := a_set(app)) is None:
                size = len(table(app))
                await pilot.press("n")
                await alice.no_set()
                await until(app, clock, lambda: len(table(app)) == size + 3)  # noqa: B023

            # Tess calls SET and picks a set by keys: Alice sees the point
            await pilot.press("space")
            await until(app, clock, lambda: app.view["holder"] == app.view["you"])
            assert "You hold the board" in str(app.holder_bar.content)
            await pilot.press(*keys_for(app, triple))
            await until(app, clock, lambda: me(app)["score"] == 1)
            assert message(app) == "A set! " + " ".join(triple)
            await alice.wait_update(lambda s: any(p["score"] == 1 for p in s["players"]))

            # Alice calls and picks wrong: Tess reads why, in her language
            await alice.call()
            await until(app, clock, lambda: app.view["holder"] is not None)
            assert str(app.holder_bar.content).startswith("Alice holds the board: ")
            wrong = not_a_set(app)
            await alice.pick(list(wrong))
            await until(app, clock, lambda: "Not a set" in message(app))
            assert message(app).startswith("Alice: " + " ".join(wrong) + ": Not a set: ")

            # the server refuses a second "no set": the refusal is worded by the app
            await pilot.press("n")
            await until(app, clock, lambda: bool(me(app)["declared"]))
            await pilot.press("n")
            await until(app, clock, lambda: "already" in message(app))
            assert message(app) == "You have already said there is no set."
            await pilot.press("q", "y")
        assert session.client is not None and session.client.closed is not None
    finally:
        await alice.close()


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "There is no room “nosuchroom” on "),
        ("ru", "нет комнаты «nosuchroom»"),
        ("de", "gibt es keinen Raum „nosuchroom“"),
    ],
)
async def test_an_unknown_room_is_said_in_words_with_what_to_do(
    live_server: str, clock: FakeClock, lang: str, words: str
) -> None:
    """Issue 13 (8): not "connection closed with code 4004" on a blank screen."""
    session = RemoteSession(f"{live_server}/room/nosuchroom", name="Tess")
    with pytest.raises(RemoteError, match="4004") as refused:
        await session.open(0.0)
    assert refused.value.why == "no_room"
    app = SetApp(RemoteSession(f"{live_server}/room/nosuchroom"), lang=lang, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        said = message(app)
        assert words in said and live_server in said and "4004" not in said
        assert "q" in said and app.screen.has_class("failed")  # the whole screen says it
        assert app.message_bar.region.height > 10 and await wait_shown_whole(app, pilot)
        await pilot.press("q", "y")
    assert app.return_code == 2  # issue 21: a room that is not there is bad input


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "No game server answers at"), ("pl", "nie odpowiada")]
)
async def test_a_refused_connection_is_said_in_words(
    clock: FakeClock, lang: str, words: str
) -> None:
    """Nothing listens on the port (a real refused connection): no "[Errno 111]"."""
    base = f"http://127.0.0.1:{free_port()}"  # a port that was free a moment ago, now closed
    with pytest.raises(RemoteError) as refused:
        await RemoteSession(f"{base}/room/abc").open(0.0)
    assert refused.value.why == "refused"
    app = SetApp(RemoteSession(f"{base}/room/abc"), lang=lang, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        said = message(app)
        assert words in said and base in said and "setgame serve" in said
        assert "Errno" not in said and "111" not in said
        await pilot.press("q", "y")
    assert app.return_code == 1  # issue 21: the server could not be reached


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
        await until(app, clock, lambda: len(app.view["players"]) == 2)
        await pilot.press("enter")
        await until(app, clock, lambda: app.view["phase"] == "playing")
        before, you = table(app), app.view["you"]
        fresh_server.restart()  # kill -9, then the same port and database
        await until(app, clock, lambda: message(app).startswith("Connection to the server lost"))
        assert app.message_bar.has_class("warning") and "None" not in message(app)
        await until(app, clock, lambda: message(app) == "Connected again", timeout=30)
        assert app.view["you"] == you and table(app) == before
        await pilot.press("space")
        await until(app, clock, lambda: app.view["holder"] == you)
        await pilot.press("q", "y")


@pytest.mark.slow
async def test_a_server_gone_for_good_is_said_and_the_clock_stands_still(
    fresh_server: Any, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13 (8): no "Connection closed with code None"; the clock does not run offline;
    an action while offline says to wait; giving up says what to do."""
    monkeypatch.setattr(remote, "RETRY_DELAYS", (0.3, 0.3))
    room = await create_room(fresh_server, deck="beginner", rounds="single")
    app = SetApp(RemoteSession(f"{fresh_server}/room/{room}", name="Tess"), clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(app, clock, lambda: len(app.view["players"]) == 1)
        await pilot.press("enter")
        await until(app, clock, lambda: app.view["phase"] == "playing")
        clock.now += 3
        app.refresh_game()
        fresh_server.stop()
        await until(app, clock, lambda: "reconnecting" in message(app))
        assert message(app) == "Connection to the server lost; reconnecting…"
        shown = str(app.status_bar.content)
        clock.now += 30  # half a minute without a server
        await pilot.press("space")
        assert message(app) == "Not connected to the server: wait until it reconnects"
        assert str(app.status_bar.content) == shown
        await until(app, clock, lambda: "did not come back" in message(app))
        assert "Press q to leave" in message(app) and str(app.status_bar.content) == shown
        await pilot.press("q", "y")


@pytest.mark.slow
async def test_players_who_leave_or_drop_are_shown_gone(live_server: str, clock: FakeClock) -> None:
    """Issue 13 (8): a player who left no longer looks present; the lobby shows the link.

    A seat that leaves with points stays on the scoreboard marked [left]; one that leaves
    without points is dropped from ``players`` (DECISIONS 6) and is still named when it goes."""
    room = await create_room(live_server, deck="beginner", rounds="single")
    alice, bob, carol = [await Client.connect(live_server, room) for _ in range(3)]
    try:
        for client, name in ((alice, "Alice"), (bob, "Bob"), (carol, "Carol")):
            await client.join(name)
        app = SetApp(RemoteSession(f"{live_server}/room/{room}", name="Tess"), clock=clock)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(app, clock, lambda: len(app.view["players"]) == 4)
            link = f"Others join with this link: {live_server}/room/{room}"
            assert link in str(app.holder_bar.content).replace("\n", " ")
            await pilot.press("enter")
            await until(app, clock, lambda: app.view["phase"] == "playing")
            assert "link" not in str(app.holder_bar.content)
            await _alice_takes_a_set(app, pilot, clock, alice, bob, carol)
            await bob.close()  # Bob's connection drops
            await until(app, clock, lambda: "Bob lost the connection" in message(app))
            assert "Bob: 0 [offline]" in scores(app)
            said = _record_what_is_said(app)
            ids = {p["name"]: p["id"] for p in app.view["players"]}
            await carol.leave()  # Carol gives up her seat holding no points: dropped
            await until(app, clock, lambda: "Carol left" in message(app))
            assert "Carol" not in scores(app) and len(app.view["players"]) == 3
            await alice.leave()  # Alice gives up her seat holding a point: kept, shown gone
            await until(app, clock, lambda: "Alice left" in message(app))
            assert "Alice: 1 [left]" in scores(app) and "Bob: 0 [offline]" in scores(app)
            # the server also reports the leavers' connections (before Bob's return, which
            # comes after Alice's ping): a seat that left did not lose its connection
            await alice.ping()
            bob = await bob.reconnect()
            await until(app, clock, lambda: "Bob is back" in message(app))
            assert said == ["Carol left", "Alice left", "Bob is back"]
            assert not any(pid in text for pid in ids.values() for text in said)
            tess = app.view["you"]
            await pilot.press("q", "y")
        # Tess leaves: the others see it at once (Alice, now a spectator, still gets updates);
        # holding no points, Tess is dropped from the players (a lost connection is not)
        await alice.wait_update(lambda s: all(p["id"] != tess for p in s["players"]))
    finally:
        for client in (alice, bob, carol):
            await client.close()


def _record_what_is_said(app: SetApp) -> list[str]:
    """Every message the app says from now on, in order."""
    said: list[str] = []
    say = app.say

    def recording(text: str, **how: bool) -> None:
        said.append(text)
        say(text, **how)

    app.say = recording  # type: ignore[method-assign]
    return said


async def _alice_takes_a_set(
    app: SetApp, pilot: Any, clock: FakeClock, alice: Client, *others: Client
) -> None:
    """Alice calls SET and picks a set (everyone declares no set until one is dealt, R11)."""
    while (triple := a_set(app)) is None:
        size = len(table(app))
        await pilot.press("n")
        for client in (alice, *others):
            await client.no_set()
        await until(app, clock, lambda: len(table(app)) == size + 3)  # noqa: B023
    await alice.wait_update(lambda s: s["table"] == table(app))
    await alice.call()
    await until(app, clock, lambda: app.view["holder"] is not None)
    await alice.pick(list(triple))
    await until(app, clock, lambda: "Alice found a set" in message(app))
    assert "Alice: 1" in scores(app)


@pytest.mark.slow
async def test_an_app_that_ends_without_q_leaves_no_connection_open(
    live_server: str, clock: FakeClock
) -> None:
    """However the app ends, its socket is closed; without q the seat is kept (a drop)."""
    room = await create_room(live_server, deck="beginner", rounds="single")
    session = RemoteSession(f"{live_server}/room/{room}", name="Tess")
    app = SetApp(session, clock=clock)
    async with app.run_test(size=(80, 24)):
        await until(app, clock, lambda: len(app.view["players"]) == 1)
    assert session.client is not None and session.client.closed is not None
    async with await Client.connect(live_server, room) as watcher:
        assert [p["name"] for p in (watcher.state or {})["players"]] == ["Tess"]


@pytest.mark.slow
async def test_a_seat_played_elsewhere_stops_here_and_says_why(
    live_server: str, clock: FakeClock
) -> None:
    """The seat's token opens more sockets than ``SETGAME_SEAT_SOCKETS`` (4) elsewhere: the
    terminal's, the oldest, is closed with 4009; it says so and does not take the seat back
    (which would close the other window's socket, and so on for ever)."""
    room = await create_room(live_server, deck="beginner", rounds="single")
    session = RemoteSession(f"{live_server}/room/{room}", name="Tess")
    app = SetApp(session, clock=clock, poll_seconds=3600)
    others: list[Client] = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(app, clock, lambda: len(app.view["players"]) == 1)
            assert session.client is not None and session.client.token is not None
            token = session.client.token
            for _ in range(4):  # another window, four times: the terminal's socket makes way
                others.append(await Client.connect(live_server, room, token))
            await until(app, clock, lambda: "another window" in message(app))
            assert message(app).endswith("Press q to leave.")
            closed = session.client
            await asyncio.sleep(1.5)  # a retry would have begun by now (the first after 0.2 s)
            app.refresh_game()
            assert session.client is closed and closed.closed is not None
            assert "another window" in message(app)
            assert closed.closed.code == 4009
            assert all(other.closed is None for other in others)  # nobody else was closed
            await pilot.press("q", "y")
    finally:
        for other in others:
            await other.close()
