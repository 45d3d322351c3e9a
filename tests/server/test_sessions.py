"""Sessions against another site and a stolen cookie: the room websocket checks ``Origin``
as the account routes do; signing out ends the session on the server (and everywhere); the
cookie is ``Secure`` whenever the site is served over TLS, also behind a trusted proxy."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect

from setgame.server.app import build
from setgame.server.limits import Limits
from setgame.server.storage import Storage

from .accountkit import PASSWORD, Browser, TestClient, claim


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
def test_a_cross_origin_handshake_with_the_victims_cookie_is_closed_4001(
    client: TestClient, origin: str
) -> None:
    assert claim(client, "Ann").status_code == 201  # the victim's browser holds the cookie
    room = _room(client)
    with (
        client.websocket_connect(f"/ws/{room}", headers={"origin": origin}) as ws,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        ws.receive_json()
    assert (closed.value.code, closed.value.reason) == (4001, "bad_origin")
    # the same cookie from the site's own page is seated as Ann; so is a client without Origin
    assert _seat(client, room, {"origin": "http://testserver"})["type"] == "joined"
    assert _seat(client, room, {})["type"] == "joined"


def me(client: TestClient) -> Any:
    return client.get("/api/account").json()["name"]


def test_a_copied_cookie_stops_working_once_its_browser_signs_out(client: TestClient) -> None:
    assert claim(client, "Ann").status_code == 201
    room = _room(client)
    thief, copied = Browser(client), client.cookies["setgame_session"]
    with thief as c:
        c.cookies.set("setgame_session", copied)
        assert me(c) == "Ann"
    assert client.post("/api/account/signout").status_code == 200
    with thief as c:
        assert me(c) is None  # the session ended on the server, not only in the browser
        refused = _seat(c, room, {})  # nor does the room seat the copy as Ann
        assert refused["type"] == "error" and refused["code"] == "name_claimed"


def test_sign_out_everywhere_ends_every_session_of_the_account(client: TestClient) -> None:
    assert client.post("/api/account/signout-everywhere").json()["code"] == "not_signed_in"
    assert claim(client, "Ann").status_code == 201
    claim_bob = Browser(client)
    with claim_bob as c:
        assert claim(c, "Bob").status_code == 201
    phone, copy = Browser(client), Browser(client)
    with phone as c:
        signed = c.post("/api/account/signin", json={"name": "ann", "password": PASSWORD})
        assert signed.status_code == 200
        stolen = c.cookies["setgame_session"]
    with copy as c:
        c.cookies.set("setgame_session", stolen)
        assert me(c) == "Ann"
    crossed = client.post("/api/account/signout-everywhere", headers={"origin": "http://x.test"})
    assert crossed.status_code == 403  # another site cannot sign a player out
    answer = client.post("/api/account/signout-everywhere")
    assert answer.status_code == 200 and answer.json() == {"name": None, "signed_in": False}
    assert me(client) is None
    for browser in (phone, copy):
        with browser as c:
            assert me(c) is None
    with claim_bob as c:
        assert me(c) == "Bob"  # another account's sessions are untouched


def _cookie_flags(answer: httpx.Response) -> set[str]:
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("setgame_session=")
    return {part.strip().lower() for part in cookie.split(";")[1:]}


@pytest.mark.parametrize(
    ("proxies", "peer", "proto", "secure"),
    [
        ("", "203.0.113.5", None, False),  # plain HTTP
        ("127.0.0.1", "127.0.0.1", "https", True),  # TLS at a trusted proxy
        ("127.0.0.1", "127.0.0.1", "http", False),  # the trusted proxy served plain HTTP
        ("127.0.0.1", "203.0.113.5", "https", False),  # anyone else's header is not believed
        ("", "127.0.0.1", "https", False),  # no proxy trusted: not believed either
    ],
)
async def test_the_cookie_is_secure_when_a_trusted_proxy_says_tls(
    tmp_path: Path, proxies: str, peer: str, proto: str | None, secure: bool
) -> None:
    app = build(Storage(str(tmp_path / "a.db")), limits=Limits(trusted_proxies=proxies))
    headers = {"x-forwarded-proto": proto} if proto else {}
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=(peer, 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            answer = await c.post("/api/account/claim", headers=headers,
                                  json={"name": "Ann", "password": PASSWORD})
    assert answer.status_code == 201
    assert ("secure" in _cookie_flags(answer)) is secure
    assert {"httponly", "samesite=lax"} <= _cookie_flags(answer)


def test_the_cookie_is_secure_when_uvicorn_itself_serves_tls(tmp_path: Path) -> None:
    app = build(Storage(str(tmp_path / "a.db")))
    with TestClient(app, base_url="https://testserver") as tls:  # scope scheme "https"
        assert "secure" in _cookie_flags(claim(tls, "Ann"))
        assert tls.get("/api/account").json()["name"] == "Ann"
