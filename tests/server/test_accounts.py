"""Accounts: claim a name, sign in and out, change the password, delete the account (its games
stay, anonymized); the sign-in limits; claimed and computer-player names refused to guests;
what a seat's view says about who sits there."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from setgame.server.account_api import session_secret
from setgame.server.accounts import ANONYMOUS
from setgame.server.app import build
from setgame.server.limits import LimitError, Limits
from setgame.server.storage import Storage, StorageError

from .accountkit import PASSWORD, Browser, TestClient, claim


def _client(db: Path, **limits: Any) -> TestClient:
    return TestClient(build(Storage(str(db)), restore=True, limits=Limits(**limits)))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with _client(tmp_path / "a.db") as c:
        yield c


def sign_in(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/account/signin", json={"name": name, "password": password})


def me(client: TestClient) -> Any:
    return client.get("/api/account").json()


def test_claim_sign_out_and_sign_in_with_an_http_only_lax_cookie(client: TestClient) -> None:
    assert me(client) == {"name": None, "signed_in": False}
    answer = claim(client, "  Ann ")
    assert answer.status_code == 201 and answer.json() == {"name": "Ann", "signed_in": True}
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("setgame_session=")
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    assert PASSWORD not in cookie and "Ann" not in cookie  # the id and epoch, signed
    assert me(client)["name"] == "Ann"
    assert client.post("/api/account/signout").json() == {"name": None, "signed_in": False}
    assert me(client)["name"] is None
    wrong = sign_in(client, "Ann", "not the password")
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_credentials"
    assert "'Ann'" in wrong.json()["message"]
    assert sign_in(client, "ann").json() == {"name": "Ann", "signed_in": True}  # any case
    assert me(client)["name"] == "Ann"


def test_a_forged_or_foreign_cookie_is_a_guest(client: TestClient, tmp_path: Path) -> None:
    claim(client, "Ann")
    good = client.cookies["setgame_session"]
    client.cookies.set("setgame_session", good[:-3] + "xyz")
    assert me(client)["name"] is None
    with _client(tmp_path / "other.db") as other:  # another server's secret
        other.cookies.set("setgame_session", good)
        assert me(other)["name"] is None


@pytest.mark.parametrize(
    ("name", "password", "status", "code"),
    [
        ("Ann", PASSWORD, 409, "name_taken"),
        ("ANN", PASSWORD, 409, "name_taken"),
        ("Аnn", PASSWORD, 400, "name_mixed"),  # a Cyrillic А among Latin letters
        ("ꓮꓠꓠ", PASSWORD, 409, "name_taken"),  # Lisu: one script, Ann's key
        ("Ann\u3164", PASSWORD, 400, "name_invisible"),  # a Hangul filler
        ("A n n", PASSWORD, 409, "name_taken"),
        ("Bot", PASSWORD, 400, "bot_name"),
        ("B0T 7", PASSWORD, 400, "bot_name"),
        ("Zed", "short", 400, "weak_password"),
        ("   ", PASSWORD, 400, "bad_name"),
        ("x" * 25, PASSWORD, 400, "bad_name"),
        ("a\x00b", PASSWORD, 400, "name_invisible"),
        ("---", PASSWORD, 400, "bad_name"),
    ],
)
def test_a_claim_is_refused_quoting_the_name(
    client: TestClient, name: str, password: str, status: int, code: str
) -> None:
    assert claim(client, "Ann").status_code == 201
    client.post("/api/account/signout")
    answer = claim(client, name, password)
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    if code != "weak_password":
        quoted = name.strip() if code in ("name_taken", "bot_name") else name
        assert repr(quoted) in answer.json()["message"]
    assert me(client)["name"] is None


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"", 400, "bad_body"),
        (b"not json", 400, "bad_body"),
        (b"[]", 400, "bad_body"),
        (b'{"name": "Zed"}', 400, "bad_body"),
        (b'{"name": "Zed", "password": "secret123", "admin": true}', 400, "bad_body"),
        (b'{"name": 5, "password": "secret123"}', 400, "bad_body"),
        (b'{"name": "Zed", "password": "' + b"p" * 300 + b'"}', 400, "bad_body"),
        (b'{"name": "Zed", "password": "\xff"}', 400, "bad_encoding"),
        (b'{"name": "Zed", "password": "secret123\xff"}', 400, "bad_encoding"),
        (b'{"name": ' + b"[" * 40 + b"]" * 40 + b"}", 400, "too_deep"),
        (b'{"name": "' + b"x" * 5000 + b'"}', 413, "too_big"),
        (b'{"name": "Zed", "password": "secret123"', 400, "bad_body"),
        (b'{"name": "Zed", "password": "secret123\\"x', 400, "bad_body"),
    ],
)
@pytest.mark.parametrize("route", ["claim", "signin"])
def test_bad_bodies_are_refused_quoting_them_but_never_a_password(
    client: TestClient, route: str, body: bytes, status: int, code: str
) -> None:
    answer = client.post(f"/api/account/{route}", content=body)
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    message = answer.json()["message"]
    assert "secret123" not in message
    if code == "bad_body" and body:  # quoted, as it came or re-encoded
        assert any(part in message for part in ("Zed", "not json", "[]", '"name":5')), message


def test_a_cross_site_request_is_refused(client: TestClient) -> None:
    answer = client.post(
        "/api/account/claim",
        json={"name": "Ann", "password": PASSWORD},
        headers={"origin": "https://evil.example"},
    )
    assert answer.status_code == 403 and answer.json()["code"] == "bad_origin"
    assert "'https://evil.example'" in answer.json()["message"]
    same = {"origin": "http://testserver"}
    ok = client.post("/api/account/claim", json={"name": "Ann", "password": PASSWORD}, headers=same)
    assert ok.status_code == 201


def test_a_password_change_signs_out_the_other_browsers(client: TestClient) -> None:
    claim(client, "Ann")
    two = Browser(client)
    with two as c:
        assert sign_in(c, "Ann").status_code == 200
    wrong = client.post(
        "/api/account/password", json={"password": "nope nope", "new_password": "x" * 9}
    )
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_credentials"
    short = client.post("/api/account/password", json={"password": PASSWORD, "new_password": "x"})
    assert short.status_code == 400 and short.json()["code"] == "weak_password"
    changed = client.post(
        "/api/account/password", json={"password": PASSWORD, "new_password": "new secret"}
    )
    assert changed.status_code == 200 and me(client)["name"] == "Ann"  # this one stays
    with two as c:
        assert me(c)["name"] is None  # the other is signed out
        assert sign_in(c, "Ann").status_code == 401
        assert sign_in(c, "Ann", "new secret").status_code == 200


def test_account_changes_need_a_session(client: TestClient) -> None:
    for route, body in (
        ("password", {"password": PASSWORD, "new_password": "x" * 10}),
        ("delete", {"password": PASSWORD}),
    ):
        answer = client.post(f"/api/account/{route}", json=body)
        assert answer.status_code == 401 and answer.json()["code"] == "not_signed_in"


def test_sign_in_attempts_are_limited_per_address(tmp_path: Path) -> None:
    with _client(tmp_path / "a.db", signin_burst=3, signins_per_minute=0.01) as client:
        claim(client, "Ann")  # 1
        assert [sign_in(client, "Ann").status_code for _ in range(3)] == [200, 200, 429]
        answer = sign_in(client, "Bob")
        assert answer.status_code == 429 and answer.json()["code"] == "rate_limited"
        assert me(client)["name"] == "Ann"  # reading one's account costs nothing


def test_failed_sign_ins_are_limited_per_name_and_address(tmp_path: Path) -> None:
    with _client(tmp_path / "a.db", name_failure_burst=2, name_failures_per_hour=0.01) as client:
        claim(client, "Ann")
        claim(client, "Bob")
        assert [sign_in(client, "ann", "wrong pass").status_code for _ in range(2)] == [401, 401]
        blocked = sign_in(client, "АNN")  # the right password, a lookalike spelling: same name
        assert blocked.status_code == 429 and "'АNN'" in blocked.json()["message"]
        assert sign_in(client, "Bob").status_code == 200  # other names are not affected


def test_the_secret_is_made_once_beside_the_database_and_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SETGAME_SECRET", raising=False)  # conftest sets one for the others
    db = tmp_path / "a.db"
    with _client(db) as client:
        claim(client, "Ann")
        cookie = client.cookies["setgame_session"]
    path = tmp_path / "a.db.secret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and len(path.read_text().strip()) == 64
    with _client(db) as again:  # a restart: the same secret, the session still valid
        again.cookies.set("setgame_session", cookie)
        assert me(again)["name"] == "Ann"


def test_a_bad_secret_is_refused_at_start(tmp_path: Path) -> None:
    storage = Storage(str(tmp_path / "a.db"))
    with pytest.raises(LimitError, match=r"SETGAME_SECRET.*32"):
        session_secret(storage, {"SETGAME_SECRET": "too short"})
    assert session_secret(storage, {"SETGAME_SECRET": "s" * 40}) == "s" * 40
    (tmp_path / "a.db.secret").write_text("short\n")
    with pytest.raises(StorageError, match=r"a\.db\.secret has 5 characters"):
        session_secret(storage, {})


# --- names in rooms ------------------------------------------------------------------------


def _room(client: TestClient, **settings: Any) -> str:
    answer = client.post("/api/rooms", json=settings)
    assert answer.status_code == 201
    room: str = answer.json()["id"]
    return room


def _join(client: TestClient, room: str, name: str) -> dict[str, Any]:
    """The first answer to a join: ``joined`` or an ``error``; then the latest state."""
    with client.websocket_connect(f"/ws/{room}") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "welcome"
        ws.send_json({"type": "join", "name": name})
        while (answer := ws.receive_json())["type"] not in ("joined", "error"):
            pass  # presence, watchers
        if answer["type"] == "joined":
            while (update := ws.receive_json())["type"] != "update":
                pass
            answer["state"] = update["state"]
        return answer


@pytest.mark.parametrize(
    ("name", "code"),
    [("Ann", "name_claimed"), ("ann", "name_claimed"), ("Аnn", "name_mixed"),
     ("ᴀɴɴ", "name_claimed"), ("A.N.N", "name_claimed"),
     ("Bot", "bot_name"), ("Bot 2", "bot_name"), ("B0t", "bot_name")],
)
def test_a_guest_cannot_sit_under_a_claimed_name_or_a_bots(
    tmp_path: Path, name: str, code: str
) -> None:
    with _client(tmp_path / "a.db") as owner:
        claim(owner, "Ann")
        with Browser(owner) as guest:
            answer = _join(guest, _room(guest), name)
        assert answer["type"] == "error" and answer["code"] == code
        assert repr(name) in answer["message"]


def test_a_seat_says_whether_a_guest_a_signed_in_player_or_a_bot_sits_there(
    tmp_path: Path,
) -> None:
    db = tmp_path / "a.db"
    with _client(db) as ann:
        claim(ann, "Ann")
        room = _room(ann, bots=1)
        seated = _join(ann, room, "ANN")  # one's own name, any spelling: the account's
        assert seated["type"] == "joined"
        with Browser(ann) as guest:
            _join(guest, room, "Zoe")
        state = ann.get(f"/api/rooms/{room}").json()["state"]
        kinds = {p["name"]: p["kind"] for p in state["players"]}
        assert kinds == {"Bot 1": "bot", "Ann": "player", "Zoe": "guest"}
    with _client(db) as again:  # restored after a restart: still known
        state = again.get(f"/api/rooms/{room}").json()["state"]
        assert {p["name"]: p["kind"] for p in state["players"]}["Ann"] == "player"


def test_a_deleted_account_leaves_its_games_anonymized_and_its_name_free(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    with _client(db) as ann:
        claim(ann, "Ann")
        room = _room(ann)
        assert _join(ann, room, "Ann")["type"] == "joined"
        wrong = ann.post("/api/account/delete", json={"password": "not it at all"})
        assert wrong.status_code == 401 and me(ann)["name"] == "Ann"
        gone = ann.post("/api/account/delete", json={"password": PASSWORD})
        assert gone.status_code == 200 and gone.json()["deleted"] == "Ann"
        assert me(ann)["name"] is None
        assert sign_in(ann, "Ann").status_code == 401
        assert claim(ann, "Ann").status_code == 201  # the name is free again

    async def stored() -> tuple[list[str], list[dict[str, Any]], list[Any]]:
        storage = Storage(str(db), create=False)
        await storage.open()
        try:
            record = await storage.room_record(room)
            assert record is not None
            async with storage.reading() as conn:
                raw = (await conn.exec_driver_sql("SELECT name, password FROM accounts")).all()
            return [s.name for s in record.seats], [a.action for a in record.actions], raw
        finally:
            await storage.close()

    names, actions, accounts = asyncio.run(stored())
    assert names == [ANONYMOUS]
    assert [a["name"] for a in actions if a["type"] == "join"] == [ANONYMOUS]
    assert "Ann" not in json.dumps(actions)
    assert len(accounts) == 1  # only the new claim's row: the old hash is gone


def test_the_cookie_can_be_sent_over_https_only(tmp_path: Path) -> None:
    with _client(tmp_path / "a.db", secure_cookie=True) as client:
        assert "secure" in claim(client, "Ann").headers["set-cookie"].lower()
    assert Limits.from_env({"SETGAME_SECURE_COOKIE": "yes"}).secure_cookie is True
    with pytest.raises(LimitError, match="'maybe'"):
        Limits.from_env({"SETGAME_SECURE_COOKIE": "maybe"})


def test_a_bad_secret_stops_the_server_at_start_in_one_line(tmp_path: Path) -> None:
    src = Path(__file__).resolve().parents[2] / "src"
    db = tmp_path / "x.db"
    done = subprocess.run(
        [sys.executable, "-m", "setgame.server", "--port", "1", "--db", str(db), "--create-db"],
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ | {"PYTHONPATH": str(src), "SETGAME_SECRET": "hunter2"},
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "SETGAME_SECRET must have at least 32 characters, not 7" in done.stderr
    assert "hunter2" not in done.stderr  # a secret is never printed
