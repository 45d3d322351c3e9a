"""Room chat over the real protocol (``server/chat.py``, issue 11): who hears a message,
what is refused with which code, and that chat is durable (a restart, the replay)."""

from __future__ import annotations

import asyncio
import gc
import json
import weakref
from pathlib import Path
from typing import Any

import httpx
import pytest

from setgame.server.app import build
from setgame.server.chat import BURST, MAX_CHARS, stored_lines
from setgame.server.chat import chat_of as room_chat
from setgame.server.client import Client, ServerError, create_room, table_sets
from setgame.server.limits import Limits
from setgame.server.protocol import RoomSettings
from setgame.server.rooms import Room
from setgame.server.storage import Storage

from .accountkit import PASSWORD, TestClient, claim
from .roomkit import FakeConnection, registry

Message = dict[str, Any]


async def chat_of(client: Client, timeout: float = 5.0) -> Message:
    """The next ``chat`` line this client hears (an error on the way raises it)."""
    message = await client.wait_for(lambda m: m["type"] in ("chat", "error"), timeout)
    if message["type"] == "error":
        raise ServerError(message)
    lines: list[Message] = message["messages"]
    assert len(lines) == 1, lines
    return lines[0]


async def refused(client: Client, text: Any) -> ServerError:
    await client.send("chat", text=text)
    error = await client.wait_error()
    assert error.reply["request"] == "chat", error.reply
    return error


async def two_and_a_watcher(server: Any, **settings: Any) -> tuple[list[Client], Client]:
    room = await create_room(str(server), **settings)
    ann = await Client.connect(str(server), room)
    await ann.join("Ann")
    bob = await Client.connect(str(server), room)
    await bob.join("Bob")
    watcher = await Client.connect(str(server), room)
    return [ann, bob], watcher


async def close(*clients: Client) -> None:
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)


async def test_a_message_reaches_the_other_player_and_a_spectator(live_server: Any) -> None:
    (ann, bob), watcher = await two_and_a_watcher(live_server)
    try:
        await ann.send("chat", text="  good luck, Bob  ")
        heard = [await chat_of(c) for c in (ann, bob, watcher)]
        assert heard[0] == heard[1] == heard[2]
        line = heard[0]
        assert line["text"] == "good luck, Bob"  # trimmed, otherwise as said
        assert (line["from"], line["name"], line["seq"]) == (ann.player, "Ann", 1)
        await watcher.send("chat", text="go Ann")
        said = await chat_of(bob)
        assert said["name"] is None and said["from"].startswith("w")  # a spectator
        assert said["seq"] == 2
    finally:
        await close(ann, bob, watcher)


async def test_html_is_kept_as_text_not_escaped_or_run(live_server: Any) -> None:
    (ann, bob), watcher = await two_and_a_watcher(live_server)
    try:
        text = '<img src=x onerror="alert(1)"><b>&amp;</b>'
        await bob.send("chat", text=text)
        assert (await chat_of(ann))["text"] == text  # the client renders it as text
    finally:
        await close(ann, bob, watcher)


async def test_too_long_is_refused_quoting_its_start(live_server: Any) -> None:
    (ann, bob), watcher = await two_and_a_watcher(live_server)
    try:
        error = await refused(ann, "x" * (MAX_CHARS + 1))
        assert error.code == "chat_too_long"
        assert f"at most {MAX_CHARS}" in str(error) and "'xxxxxxxx" in str(error)
        # the longest allowed still goes, counted in characters, not bytes
        await ann.send("chat", text="é" * MAX_CHARS)
        assert (await chat_of(bob))["text"] == "é" * MAX_CHARS
        assert (await chat_of(ann))["text"] == "é" * MAX_CHARS  # the sender hears it too
        # a frame over the wire's bound closes the socket (1009), the others stay
        await watcher.send("chat", text="y" * 5000)
        assert (await watcher.wait_closed()).code == 1009
        await bob.send("chat", text="still here")
        assert (await chat_of(ann))["text"] == "still here"
    finally:
        await close(ann, bob, watcher)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("bell\x07", "chat_bad_text"),
        ("two\nlines", "chat_bad_text"),
        ("nul\x00", "chat_bad_text"),
        ("\u202eevil", "chat_bad_text"),
        ("   ", "chat_empty"),
        (5, "bad_message"),
        (["a"], "bad_message"),
        (None, "bad_message"),
    ],
)
async def test_bad_text_is_refused_with_a_named_code(
    live_server: Any, text: Any, code: str
) -> None:
    (ann, bob), watcher = await two_and_a_watcher(live_server)
    try:
        error = await refused(ann, text)
        assert error.code == code, error.reply
        await bob.send("chat", text="fine")  # the room keeps serving
        assert (await chat_of(watcher))["text"] == "fine"  # and nothing of Ann's before it
    finally:
        await close(ann, bob, watcher)


async def test_too_fast_is_refused_after_a_burst(live_server: Any) -> None:
    (ann, bob), watcher = await two_and_a_watcher(live_server)
    try:
        for i in range(int(BURST)):
            await ann.send("chat", text=f"spam {i}")
        error = await refused(ann, "one too many")
        assert error.code == "chat_too_fast" and "wait" in str(error)
        heard = [(await chat_of(bob))["text"] for _ in range(int(BURST))]
        assert heard == [f"spam {i}" for i in range(int(BURST))]
        await bob.send("chat", text="my own allowance")  # per connection
        assert (await chat_of(ann))["text"] == "my own allowance"
    finally:
        await close(ann, bob, watcher)


async def test_a_players_only_room_refuses_a_spectator(live_server: Any) -> None:
    (ann, bob), watcher = await two_and_a_watcher(live_server, chat="players")
    try:
        error = await refused(watcher, "let me talk")
        assert error.code == "chat_players_only"
        await ann.send("chat", text="players only")
        assert (await chat_of(watcher))["text"] == "players only"  # spectators still read
    finally:
        await close(ann, bob, watcher)


async def test_a_bad_chat_setting_is_refused(live_server: Any) -> None:
    async with httpx.AsyncClient(trust_env=False) as http:
        answer = await http.post(f"{live_server}/api/rooms", json={"chat": "everyone"})
    assert answer.status_code == 400 and "everyone" in answer.text


@pytest.mark.slow
async def test_chat_survives_a_restart_and_is_in_the_replay(fresh_server: Any) -> None:
    room = await create_room(str(fresh_server), mode="practice", deck="beginner")
    ann = await Client.connect(str(fresh_server), room)
    await ann.join("Ann")
    await ann.send("chat", text="<i>before</i> the kill")
    said = await chat_of(ann)  # heard: so it is stored
    token = ann.token
    fresh_server.kill()
    await ann.close()
    fresh_server.restart()
    ann = await Client.connect(str(fresh_server), room, token=token)
    try:
        history = await ann.wait_for(lambda m: m["type"] == "chat")
        assert history["messages"] == [said]
        await ann.send("chat", text="after")
        assert (await chat_of(ann))["seq"] == 2
        await ann.start()
        await ann.wait_update(lambda s: s["phase"] == "playing")
        while ann.state is not None and ann.state["phase"] == "playing":
            found = table_sets(ann.state)
            assert found, "practice deals until a set lies"
            version = ann.version
            await ann.pick(found[0])
            await ann.wait_update(lambda s, v=version: s["version"] > v)  # type: ignore[misc]
        game = ann.state["game"] if ann.state else ""
        async with httpx.AsyncClient(trust_env=False) as http:
            replay = (await http.get(f"{fresh_server}/api/games/{game}/replay")).json()
        assert [line["text"] for line in replay["chat"]] == ["<i>before</i> the kill", "after"]
        assert replay["chat"][0] == said
    finally:
        await ann.close()


def test_a_deleted_account_takes_its_chat_lines_along(tmp_path: Path) -> None:
    """What a signed-in player said is personal data: deleting the account deletes it;
    the others' lines stay."""
    db = tmp_path / "a.db"
    with TestClient(build(Storage(str(db)), restore=True, limits=Limits())) as ann:
        claim(ann, "Ann")
        room = ann.post("/api/rooms", json={}).json()["id"]
        with ann.websocket_connect(f"/ws/{room}") as ws:
            ws.send_json({"type": "hello"})
            ws.send_json({"type": "join", "name": "Ann"})
            ws.send_json({"type": "chat", "text": "mine, then gone"})
            while (message := ws.receive_json())["type"] != "chat":
                pass
        with ann.websocket_connect(f"/ws/{room}") as ws:  # now a spectator's (no token)
            ws.send_json({"type": "hello"})
            ws.send_json({"type": "chat", "text": "a watcher's, kept"})
            while (message := ws.receive_json())["type"] != "chat" or (
                message["messages"][-1]["name"] is not None
            ):
                pass
        game = ann.get(f"/api/rooms/{room}").json()["game"]
        assert ann.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200

    async def kept() -> list[str]:
        storage = Storage(str(db), create=False)
        await storage.open()
        try:
            return [line["text"] for line in await stored_lines(storage, game)]
        finally:
            await storage.close()

    assert asyncio.run(kept()) == ["a watcher's, kept"]


async def test_retention_deletes_a_games_chat_with_the_game(tmp_path: Path) -> None:
    async with registry(tmp_path / "r.db") as rooms:
        room = await rooms.create(RoomSettings(), "10.0.0.1")
        conn = FakeConnection()
        room.attach(conn)
        await room.join(conn, "Ann", "10.0.0.1")
        await room_chat(room).say(conn, "soon gone")
        assert '"soon gone"' in conn.sent[-1]  # heard after it was stored
        assert [line["text"] for line in await stored_lines(rooms.storage, room.game_id)] == [
            "soon gone"
        ]
        await rooms.storage.delete_games([room.game_id], [room.id])
        assert await stored_lines(rooms.storage, room.game_id) == []


def test_a_room_chat_does_not_keep_its_room_alive() -> None:
    """The chat of a room is found through the room (weakly): a closed room is freed."""
    room = Room("gone", RoomSettings(), None)  # type: ignore[arg-type]
    chat = room_chat(room)
    assert room_chat(room) is chat
    freed = weakref.ref(room)
    del room, chat
    gc.collect()
    assert freed() is None


def _seqs(conn: FakeConnection) -> list[int]:
    """The numbers of the chat lines ``conn`` was sent, in the order it got them."""
    return [
        line["seq"]
        for text in conn.sent
        if (message := json.loads(text))["type"] == "chat"
        for line in message["messages"]
    ]


async def test_a_line_stored_while_a_newcomer_arrives_reaches_it_once(tmp_path: Path) -> None:
    """A line being stored when a newcomer is greeted is in its history (read after the
    line's commit, under the chat's lock) and heard live: it was sent twice, now once."""
    async with registry(tmp_path / "chat.db") as rooms:
        room = await rooms.create(RoomSettings(), "10.0.0.1")
        ann = FakeConnection()
        room.attach(ann)
        await room.join(ann, "Ann", "10.0.0.1")
        chat = room_chat(room)
        await chat.say(ann, "one")
        stored, storing = asyncio.Event(), asyncio.Event()
        write = room.storage.write

        async def slow_write(*args: Any, **kwargs: Any) -> None:
            storing.set()
            await stored.wait()
            await write(*args, **kwargs)

        room.storage.write = slow_write  # type: ignore[method-assign]
        saying = asyncio.create_task(chat.say(ann, "two"))
        await storing.wait()  # line 2 is being stored, under the chat's lock
        newcomer = FakeConnection()
        room.attach(newcomer)  # as sockets.hello: attached, then its history at once
        history = asyncio.create_task(chat.history(newcomer))
        await asyncio.sleep(0)
        stored.set()
        await asyncio.gather(saying, history)
        await chat.say(ann, "three")
        assert _seqs(newcomer) == [1, 2, 3]
        await chat.history(newcomer)  # a hello again on the same socket: nothing new
        assert _seqs(newcomer) == [1, 2, 3]


async def test_a_line_heard_while_the_history_is_read_waits_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mirror reads a newcomer's history from the database; the owner's line published
    meanwhile is stored already, so it is in that history too. It is held while the history
    is read and sent after it, once: before, it came first, then again in the history."""
    from setgame.server import chat as chat_module

    async with registry(tmp_path / "chat.db") as rooms:
        room = await rooms.create(RoomSettings(), "10.0.0.1")
        ann = FakeConnection()
        room.attach(ann)
        await room.join(ann, "Ann", "10.0.0.1")
        chat = room_chat(room)
        await chat.say(ann, "one")
        chat.game = ""  # read the history from the database, as a mirror does each time
        reading, read = asyncio.Event(), asyncio.Event()

        async def slow_lines(storage: Storage, game: str) -> list[dict[str, Any]]:
            reading.set()
            await read.wait()
            return await stored_lines(storage, game)

        monkeypatch.setattr(chat_module, "stored_lines", slow_lines)
        newcomer = FakeConnection()
        room.attach(newcomer)
        history = asyncio.create_task(chat.history(newcomer))
        await reading.wait()
        line = {"seq": 2, "game": room.game_id, "at": 0.0, "from": "p1", "name": "Ann",
                "text": "two"}  # fmt: skip
        await chat._store(line)  # stored by the owner, then heard here
        chat.heard(line)
        assert _seqs(newcomer) == []  # held until the history is sent
        read.set()
        await history
        chat.heard(line)  # a late copy (a mirror's gap read crossing it): not sent again
        assert _seqs(newcomer) == [1, 2]
        assert _seqs(ann) == [1, 2]
