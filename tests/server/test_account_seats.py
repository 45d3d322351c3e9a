"""One seat per account (docs/protocol.md, "Seats and names"): a signed-in player who joins a
room again from another browser (or with cookies cleared) takes their own seat back, with its
score and cards, under a new token; the old token seats nobody from then on, and the seat's
oldest sockets past ``SETGAME_SEAT_SOCKETS`` close with 4009. A guest cannot be told apart
from another person: a second browser's guest gets a seat of its own, under another name."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from starlette.websockets import WebSocketDisconnect

from setgame.server.accounts import Accounts
from setgame.server.app import build
from setgame.server.client import table_sets
from setgame.server.limits import Limits
from setgame.server.protocol import RoomSettings
from setgame.server.storage import Storage, StorageError

from .accountkit import PASSWORD, Browser, TestClient, claim
from .roomkit import FakeConnection, registry

if TYPE_CHECKING:  # accountkit imports the test client without its deprecation warning
    from starlette.testclient import WebSocketTestSession


def _client(db: Path, **limits: Any) -> TestClient:
    return TestClient(build(Storage(str(db)), restore=True, limits=Limits(**limits)))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with _client(tmp_path / "a.db", seat_sockets=1) as c:
        yield c


def _room(client: TestClient, **settings: Any) -> str:
    answer = client.post("/api/rooms", json=settings)
    assert answer.status_code == 201
    room: str = answer.json()["id"]
    return room


def _until(ws: WebSocketTestSession, *kinds: str) -> dict[str, Any]:
    while (message := ws.receive_json())["type"] not in kinds:
        pass
    return message  # type: ignore[no-any-return]


def _state(ws: WebSocketTestSession, ok: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The state of the first update that satisfies ``ok``."""
    while not ok(state := _until(ws, "update")["state"]):
        pass
    return state


def _hello(ws: WebSocketTestSession, token: str | None = None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    return _until(ws, "welcome")


def _join(ws: WebSocketTestSession, name: str) -> dict[str, Any]:
    ws.send_json({"type": "join", "name": name})
    return _until(ws, "joined", "error")


def _closed(ws: WebSocketTestSession) -> tuple[int, str]:
    """The close code and reason of ``ws``, after whatever it was sent before."""
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            ws.receive_json()
    return closed.value.code, closed.value.reason


def _take_a_set(ws: WebSocketTestSession, state: dict[str, Any], me: str) -> dict[str, Any]:
    """Call and pick a set of the table: the state after it is taken."""
    ws.send_json({"type": "call", "version": state["version"]})
    state = _state(ws, lambda s: s["holder"] == me)
    cards = list(table_sets(state)[0])
    ws.send_json({"type": "pick", "cards": cards, "version": state["version"]})
    while True:
        update = _until(ws, "update")
        if any(event["type"] == "set_taken" for event in update["events"]):
            return update["state"]  # type: ignore[no-any-return]


def _signed_in_elsewhere(client: TestClient, name: str) -> Browser:
    """A second browser of the same account (signed in there)."""
    other = Browser(client)
    with other as c:
        answer = c.post("/api/account/signin", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 200, answer.text
    return other


def test_a_second_browser_of_one_account_takes_the_same_seat_back(client: TestClient) -> None:
    assert claim(client, "Ann").status_code == 201
    room = _room(client, no_set="auto")
    with client.websocket_connect(f"/ws/{room}") as first:
        _hello(first)
        seat = _join(first, "Ann")
        first.send_json({"type": "start"})
        state = _state(first, lambda s: s["phase"] == "playing" and bool(table_sets(s)))
        state = _take_a_set(first, state, seat["player"])
        mine = next(p for p in state["players"] if p["id"] == seat["player"])
        assert mine["score"] == 1
        other = _signed_in_elsewhere(client, "Ann")
        with other, client.websocket_connect(f"/ws/{room}") as second:
            assert _hello(second)["you"] is None
            again = _join(second, "Ann")
            assert again["type"] == "joined" and again["player"] == seat["player"]
            assert again["token"] != seat["token"]  # one token per seat: a new one
            # SETGAME_SEAT_SOCKETS=1: the first browser's socket made way, as a tab's does
            assert _closed(first) == (4009, "seat_elsewhere")
            welcome = _until(second, "welcome")  # the seat's view: no version moved
            assert welcome["you"] == seat["player"]
            state = welcome["state"]
            players = [p for p in state["players"] if p["present"]]
            assert [(p["id"], p["name"], p["score"]) for p in players] == [
                (seat["player"], "Ann", 1)
            ]
    with client.websocket_connect(f"/ws/{room}") as third:  # the old token seats nobody
        assert _hello(third, seat["token"])["you"] is None
        assert _hello(third, again["token"])["you"] == seat["player"]


def test_the_new_token_is_stored_and_the_old_one_stays_refused_after_a_restart(
    tmp_path: Path,
) -> None:
    db = tmp_path / "a.db"
    with _client(db) as client:
        assert claim(client, "Ann").status_code == 201
        room = _room(client)
        with client.websocket_connect(f"/ws/{room}") as first:
            _hello(first)
            old = _join(first, "Ann")
        with _signed_in_elsewhere(client, "Ann"), client.websocket_connect(f"/ws/{room}") as ws:
            _hello(ws)
            new = _join(ws, "Ann")
            assert new["player"] == old["player"]
    with _client(db) as client, client.websocket_connect(f"/ws/{room}") as ws:
        assert _hello(ws, old["token"])["you"] is None
        welcome = _hello(ws, new["token"])
        assert welcome["you"] == old["player"]
        assert [p["id"] for p in welcome["state"]["players"]] == [old["player"]]


def test_within_seat_sockets_the_old_socket_stays_and_plays_on(tmp_path: Path) -> None:
    """The default SETGAME_SEAT_SOCKETS (4): both browsers' sockets are the seat's."""
    with _client(tmp_path / "a.db") as client:
        assert claim(client, "Ann").status_code == 201
        room = _room(client)
        with client.websocket_connect(f"/ws/{room}") as first:
            _hello(first)
            seat = _join(first, "Ann")
            with (
                _signed_in_elsewhere(client, "Ann"),
                client.websocket_connect(f"/ws/{room}") as second,
            ):
                _hello(second)
                assert _join(second, "Ann")["player"] == seat["player"]
                first.send_json({"type": "start"})  # the old socket still acts as the seat
                assert _state(first, lambda s: s["phase"] == "playing")
                assert _state(second, lambda s: s["phase"] == "playing")


def test_the_address_bound_counts_the_seat_taken_back_once(tmp_path: Path) -> None:
    """SETGAME_SEATS_PER_CLIENT=1: the address holds the account's one seat; taking it back
    adds none, so it is not refused; a second person at that address is."""
    with _client(tmp_path / "a.db", seats_per_client=1) as client:
        assert claim(client, "Ann").status_code == 201
        room = _room(client)
        with client.websocket_connect(f"/ws/{room}") as first:
            _hello(first)
            seat = _join(first, "Ann")
        with _signed_in_elsewhere(client, "Ann"), client.websocket_connect(f"/ws/{room}") as ws:
            _hello(ws)
            assert _join(ws, "Ann")["player"] == seat["player"]
        with Browser(client), client.websocket_connect(f"/ws/{room}") as guest:
            _hello(guest)
            assert _join(guest, "Bob")["code"] == "too_many_seats"


def test_a_guest_in_a_second_browser_gets_a_second_seat_under_another_name(
    client: TestClient,
) -> None:
    """Today's rule for guests: nothing says two browsers' guests are one person, so each
    gets a seat; only a lookalike name is refused (``name_taken``)."""
    room = _room(client)
    with client.websocket_connect(f"/ws/{room}") as first:
        _hello(first)
        ann = _join(first, "Ann")
        with Browser(client), client.websocket_connect(f"/ws/{room}") as second:
            _hello(second)
            assert _join(second, "ann")["code"] == "name_taken"
            bob = _join(second, "Bob")
            assert bob["type"] == "joined" and bob["player"] != ann["player"]
            state = _until(second, "update")["state"]
            assert sorted(p["name"] for p in state["players"]) == ["Ann", "Bob"]


def test_a_hello_with_another_browsers_session_does_not_take_the_seat(
    client: TestClient,
) -> None:
    """Only ``join`` takes a seat back: a signed-in hello without the token watches."""
    assert claim(client, "Ann").status_code == 201
    room = _room(client)
    with client.websocket_connect(f"/ws/{room}") as first:
        _hello(first)
        _join(first, "Ann")
        with (
            _signed_in_elsewhere(client, "Ann"),
            client.websocket_connect(f"/ws/{room}") as second,
        ):
            assert _hello(second)["you"] is None
            first.send_json({"type": "ping"})
            assert _until(first, "pong")["type"] == "pong"  # not closed: nothing taken


async def test_a_take_back_the_database_refuses_changes_nothing(tmp_path: Path) -> None:
    """The new token is stored before anything changes: when the database refuses it, the
    join fails, the old token still seats and the room plays on; then it succeeds."""
    async with registry(tmp_path / "a.db") as rooms:
        account = (await Accounts(rooms.storage).claim("Ann", PASSWORD)).id
        room = await rooms.create(RoomSettings(), "10.0.0.1")
        first = FakeConnection()
        room.attach(first)
        player = await room.join(first, "Ann", "10.0.0.1", account=account)
        token = next(m["token"] for m in map(json.loads, first.sent) if m["type"] == "joined")
        second = FakeConnection()
        room.attach(second)
        rooms.storage.fault = "disk full"
        with pytest.raises(StorageError, match="disk full"):
            await room.join(second, "Ann", "10.0.0.2", account=account)
        assert second.player is None and room.seat_for(token) == player and not room.broken
        rooms.storage.fault = None
        assert await room.join(second, "Ann", "10.0.0.2", account=account) == player
        assert room.seat_for(token) is None and second.player == player
        assert [s.player for s in room.seats.values()] == [player]
