"""Sessions against another site and a stolen cookie: the room websocket checks ``Origin``
as the account routes do; signing out ends the session on the server (and everywhere); the
cookie is ``Secure`` whenever the site is served over TLS, also behind a trusted proxy."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from setgame.server.app import build
from setgame.server.limits import Limits
from setgame.server.storage import Storage

from .accountkit import TestClient, claim


def _client(db: Path, **limits: Any) -> TestClient:
    return TestClient(build(Storage(str(db)), restore=True, limits=Limits(**limits)))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with _client(tmp_path / "a.db") as c:
        yield c


def _room(client: TestClient) -> str:
    answer = client.post("/api/rooms", json={})
    assert answer.status_code == 201
    room: str = answer.json()["id"]
    return room


def _seat(client: TestClient, room: str, headers: dict[str, str]) -> dict[str, Any]:
    """Open the room's websocket with ``headers`` and join as Ann: the first answer."""
    with client.websocket_connect(f"/ws/{room}", headers=headers) as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "welcome"
        ws.send_json({"type": "join", "name": "Ann"})
        while (answer := ws.receive_json())["type"] not in ("joined", "error"):
            pass
        return answer  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "http://testserver:8081", "http://sub.testserver",
               "https://testserver.evil.example", "null"]
)
def test_a_cross_origin_handshake_with_the_victims_cookie_is_closed_4003(
    client: TestClient, origin: str
) -> None:
    assert claim(client, "Ann").status_code == 201  # the victim's browser holds the cookie
    room = _room(client)
    with (
        client.websocket_connect(f"/ws/{room}", headers={"origin": origin}) as ws,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        ws.receive_json()
    assert (closed.value.code, closed.value.reason) == (4003, "bad_origin")
    # the same cookie from the site's own page is seated as Ann; so is a client without Origin
    assert _seat(client, room, {"origin": "http://testserver"})["type"] == "joined"
    assert _seat(client, room, {})["type"] == "joined"
