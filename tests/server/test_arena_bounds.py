"""Arenas under hostile input (issue 23, "Bounds"): every field of ``POST /api/arenas`` is
bounded and a bad one is refused quoting it, creations are limited per account and per
address, and the arena socket refuses bad frames by name (the server serving on)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from setgame.server.app import build
from setgame.server.arena_settings import ArenaLimits
from setgame.server.storage import Storage

from .accountkit import PASSWORD, Browser, TestClient, claim

LIMITS = ArenaLimits(per_account=2, per_client=3, players=3, time_scale=0.01)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(build(Storage(str(tmp_path / "a.db")), arena_limits=LIMITS)) as c:
        yield c


def _signed_in(client: TestClient, name: str = "Maker") -> TestClient:
    assert claim(client, name).status_code == 201
    return client


def _arena(client: TestClient, **settings: Any) -> str:
    answer = client.post("/api/arenas", json={"starts_in_seconds": 0} | settings)
    assert answer.status_code == 201, answer.text
    assert answer.json()["url"] == f"/arena/{answer.json()['id']}"
    return str(answer.json()["id"])


def test_creating_needs_a_signed_in_player(client: TestClient) -> None:
    answer = client.post("/api/arenas", json={})
    assert (answer.status_code, answer.json()["code"]) == (401, "not_signed_in")


@pytest.mark.parametrize(
    ("body", "quoted"),
    [
        ({"minutes": 9}, "minutes"),
        ({"minutes": 181}, "minutes"),
        ({"minutes": 10**30}, "minutes"),
        ({"minutes": "30"}, "minutes"),
        ({"room_size": 5}, "room_size"),
        ({"room_size": 1}, "room_size"),
        ({"game_minutes": 0}, "game_minutes"),
        ({"starts_in_seconds": -1}, "starts_in_seconds"),
        ({"starts_in_seconds": 86401}, "starts_in_seconds"),
        ({"variant": "x" * 33}, "variant"),
        ({"variant": "chess"}, "chess"),
        ({"deck": "color=R"}, "deck"),
        ({"variant": "megaset", "deck": "beginner"}, "beginner"),
        ({"variant": "puzzle", "rated": True}, "puzzle"),
        ({"private": False}, "private"),
        ({"rated": "yes"}, "rated"),
        ({"prize": 100}, "prize"),
    ],
)
def test_bad_settings_are_refused_quoting_them(
    client: TestClient, body: dict[str, Any], quoted: str
) -> None:
    answer = _signed_in(client).post("/api/arenas", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["code"] == "bad_arena" and quoted in answer.json()["message"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"{not json", 400, "bad_json"),
        (b'{"variant": "\xff"}', 400, "bad_encoding"),
        (b"[" * 40 + b"]" * 40, 400, "too_deep"),
        (b'{"variant": "' + b"a" * 9000 + b'"}', 413, "too_big"),
    ],
)
def test_bad_bodies(client: TestClient, body: bytes, status: int, code: str) -> None:
    answer = _signed_in(client).post("/api/arenas", content=body)
    assert (answer.status_code, answer.json()["code"]) == (status, code)


def test_arenas_per_account_and_per_address(client: TestClient) -> None:
    _signed_in(client)
    _arena(client)
    _arena(client)
    answer = client.post("/api/arenas", json={})
    assert (answer.status_code, answer.json()["code"]) == (429, "too_many_arenas")
    with Browser(client) as other:  # another account, the same address: 3 at most
        _signed_in(other, "Second")
        _arena(other)
        answer = other.post("/api/arenas", json={})
        assert (answer.status_code, answer.json()["code"]) == (429, "too_many_arenas")
        assert "address" in answer.json()["message"]


def test_lists_and_unknown_arenas(client: TestClient) -> None:
    arena = _arena(_signed_in(client), variant="UltraSet")
    detail = client.get(f"/api/arenas/{arena}").json()
    assert detail["variant"] == "ultraset" and detail["private"] is True
    assert detail["standings"] == [] and detail["podium"] is None
    assert client.get("/api/arenas").json()["arenas"] == []  # private: only by its link
    for bad in ("nope", "x" * 200):
        answer = client.get(f"/api/arenas/{bad}")
        assert (answer.status_code, answer.json()["code"]) == (404, "no_arena")


def _until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "bad_json"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "hello", "name": ""}', "bad_message"),
        ('{"type": "hello", "name": "' + "x" * 25 + '"}', "bad_message"),
        ('{"type": "hello", "token": "' + "t" * 65 + '"}', "bad_message"),
        ('{"type": "join", "name": "Eve"}', "bad_message"),
        ('{"type": "join"}', "hello_first"),
        ('{"type": "hello", "extra": 1}', "bad_message"),
    ],
)
def test_bad_frames_are_refused_by_name(client: TestClient, frame: str, code: str) -> None:
    arena = _arena(_signed_in(client))
    with client.websocket_connect(f"/ws/arena/{arena}") as ws:
        ws.send_text(frame)
        error = _until(ws, "error")
        assert error["code"] == code, error
        ws.send_json({"type": "ping"})
        assert _until(ws, "pong") == {"type": "pong"}  # the socket goes on


def test_unknown_arena_socket_closes_4004(client: TestClient) -> None:
    with (
        client.websocket_connect("/ws/arena/nope") as ws,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        ws.receive_json()
    assert closed.value.code == 4004


def test_a_flood_closes_1008_and_a_big_frame_1009(client: TestClient) -> None:
    arena = _arena(_signed_in(client))
    with client.websocket_connect(f"/ws/arena/{arena}") as ws:
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(40):
                ws.send_json({"type": "ping"})
            while True:
                ws.receive_json()
        assert closed.value.code == 1008
    with client.websocket_connect(f"/ws/arena/{arena}") as ws:
        ws.send_text('{"type": "ping", "x": "' + "a" * 5000 + '"}')
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_json()
        assert closed.value.code == 1009


def test_joining_names_full_and_rated(client: TestClient) -> None:
    arena = _arena(_signed_in(client))
    rated = _arena(client, rated=True)
    with Browser(client) as guest:
        with guest.websocket_connect(f"/ws/arena/{arena}") as ws:
            ws.send_json({"type": "hello"})
            assert _until(ws, "welcome")["you"] is None
            ws.send_json({"type": "join"})
            assert _until(ws, "error")["code"] == "name_needed"
            ws.send_json({"type": "pause"})
            assert _until(ws, "error")["code"] == "not_entered"
            ws.send_json({"type": "hello", "name": "Maker"})  # a claimed name
            _until(ws, "welcome")
            ws.send_json({"type": "join"})
            assert _until(ws, "error")["code"] == "name_claimed"
        with guest.websocket_connect(f"/ws/arena/{rated}") as ws:
            ws.send_json({"type": "hello", "name": "Gus"})
            _until(ws, "welcome")
            ws.send_json({"type": "join"})
            assert _until(ws, "error")["code"] == "rated_arena"
        tokens = []
        for name in ("Ann", "Bob", "ANN.", "Cy", "Dee"):  # a lookalike of Ann is refused
            with guest.websocket_connect(f"/ws/arena/{arena}") as ws:
                ws.send_json({"type": "hello", "name": name})
                _until(ws, "welcome")
                ws.send_json({"type": "join"})
                reply = ws.receive_json()
                while reply["type"] not in ("entered", "error"):
                    reply = ws.receive_json()
                tokens.append(reply.get("token") or reply["code"])
        assert tokens[2] == "name_taken" and tokens[4] == "arena_full"  # 3 players at most
        with guest.websocket_connect(f"/ws/arena/{arena}") as ws:  # Ann comes back
            ws.send_json({"type": "hello", "token": tokens[0]})
            assert _until(ws, "welcome")["you"]["name"] == "Ann"
            ws.send_json({"type": "pause"})
            assert _until(ws, "queue")["state"] == "paused"
    names = [row["name"] for row in client.get(f"/api/arenas/{arena}").json()["standings"]]
    assert sorted(names) == ["Ann", "Bob", "Cy"]


def test_a_deleted_account_leaves_its_rows_nameless(client: TestClient, tmp_path: Path) -> None:
    arena = _arena(_signed_in(client))
    with client.websocket_connect(f"/ws/arena/{arena}") as ws:
        ws.send_json({"type": "hello"})  # signed in: the account's name
        assert _until(ws, "welcome")["you"] is None
        ws.send_json({"type": "join"})
        assert _until(ws, "entered")["name"] == "Maker"
    assert client.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
    with sqlite3.connect(tmp_path / "a.db") as db:
        rows = db.execute("SELECT name, account FROM arena_players WHERE arena = ?", (arena,))
        assert rows.fetchall() == [("Deleted player", None)]
