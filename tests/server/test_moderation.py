"""Moderation over HTTP and the socket (issue 20): who may moderate, bans and mutes and what
they refuse, deleted chat lines, closed rooms, reports, and the log of every action."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from setgame.server.chat import stored_lines
from setgame.server.moderation_api import REPORT_BURST
from setgame.server.storage import Storage

from .accountkit import PASSWORD, Browser, TestClient, claim
from .moderationkit import as_now, grant, moderator, of_type, say, server, until

ROUTES = [
    ("POST", "/api/moderation/ban", {"name": "Bob", "minutes": 5, "reason": "spam"}),
    ("POST", "/api/moderation/unban", {"name": "Bob"}),
    ("GET", "/api/moderation/reports", None),
    ("GET", "/api/moderation/bans", None),
    ("GET", "/api/moderation/log", None),
    ("POST", "/api/moderation/reports/1/close", None),
    ("POST", "/api/moderation/close", {"room": "nowhere", "reason": "spam"}),
    ("DELETE", "/api/rooms/nowhere/chat/1", None),
]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "m.db"


@pytest.fixture
def mod(db: Path) -> Iterator[TestClient]:
    """A signed-in moderator, "Mod", on a fresh server."""
    with server(db) as client:
        moderator(client, db)
        yield client


def ask(client: TestClient, method: str, path: str, body: Any = None) -> Any:
    return client.request(method, path, json=body)


def room_with(client: TestClient, name: str) -> tuple[str, Any]:
    """A new room, and a socket of ``client`` seated in it as ``name`` (a context manager)."""
    room = client.post("/api/rooms", json={}).json()["id"]
    ws = client.websocket_connect(f"/ws/{room}")
    return room, ws


def seat(ws: Any, name: str) -> str:
    ws.send_json({"type": "hello"})
    until(ws, of_type("welcome"))
    ws.send_json({"type": "join", "name": name})
    return str(until(ws, lambda m: m["type"] in ("joined", "error")).get("player"))


def seat_token(ws: Any, name: str) -> str:
    ws.send_json({"type": "hello"})
    until(ws, of_type("welcome"))
    ws.send_json({"type": "join", "name": name})
    return str(until(ws, of_type("joined"))["token"])


def _log(client: TestClient) -> list[tuple[str, str]]:
    return [(r["action"], r["target"]) for r in client.get("/api/moderation/log").json()["log"]]


# --- who may moderate -----------------------------------------------------------------------


@pytest.mark.parametrize(("method", "path", "body"), ROUTES)
def test_anyone_without_a_role_is_refused_with_403(
    db: Path, method: str, path: str, body: Any
) -> None:
    with server(db) as client:
        answer = ask(client, method, path, body)  # a guest
        assert answer.status_code == 403 and answer.json()["code"] == "not_moderator"
        claim(client, "Bob")  # signed in, no role
        answer = ask(client, method, path, body)
        assert answer.status_code == 403 and "'Bob' is not a moderator" in answer.json()["message"]


def test_the_account_answer_says_moderator_only_to_a_moderator(db: Path) -> None:
    """The room page offers its delete buttons on ``moderator`` (the API checks anyway)."""
    with server(db) as client:
        claim(client, "Bob")
        assert client.get("/api/account").json() == {"name": "Bob", "signed_in": True}
        moderator(client, db)
        assert client.get("/api/account").json() == {
            "name": "Mod", "signed_in": True, "moderator": True,
        }


def test_a_granted_moderator_is_let_in_and_a_revoked_one_is_not(db: Path) -> None:
    with server(db) as client:
        moderator(client, db)
        assert client.get("/api/moderation/reports").json() == {"reports": []}
        assert _log(client) == [("grant", "Mod moderator")]  # the host's grant, logged

        async def take() -> None:
            from setgame.server.moderation import revoke

            storage = Storage(str(db), create=False)
            await storage.open()
            try:
                await revoke(storage, "mod", "moderator")
            finally:
                await storage.close()

        asyncio.run(take())
        assert client.get("/api/moderation/reports").status_code == 403


# --- bans and mutes -------------------------------------------------------------------------


def test_a_banned_account_cannot_sign_in_sit_or_chat_and_is_told_why_and_until(
    mod: TestClient,
) -> None:
    bob = Browser(mod)
    with bob as client:
        claim(client, "Bob")
    room = mod.post("/api/rooms", json={}).json()["id"]
    body = {"name": "bob", "minutes": 60, "reason": "insults in chat"}
    made = mod.post("/api/moderation/ban", json=body)
    assert made.status_code == 201, made.json()
    ban = made.json()["ban"]
    assert (ban["name"], ban["kind"], ban["active"], ban["moderator"]) == (
        "Bob",
        "ban",
        True,
        "Mod",
    )
    assert 3590 < ban["until"] - ban["created"] <= 3600
    with bob as client:
        # signed in before the ban: no seat, no chat, told why and until when
        with client.websocket_connect(f"/ws/{room}") as ws:
            ws.send_json({"type": "hello"})
            until(ws, of_type("welcome"))
            ws.send_json({"type": "join", "name": "Bob"})
            refused = until(ws, of_type("error"))
            assert refused["code"] == "banned" and refused["request"] == "join"
            assert refused["reason"] == "insults in chat" and refused["until"] == ban["until"]
            assert "until 2" in refused["message"] and "insults in chat" in refused["message"]
            assert say(ws, "let me speak")["code"] == "banned"
        client.post("/api/account/signout")
        signin = client.post("/api/account/signin", json={"name": "Bob", "password": PASSWORD})
        assert signin.status_code == 403 and signin.json()["code"] == "banned"
        assert signin.json()["reason"] == "insults in chat"
        assert client.get("/api/account").json()["signed_in"] is False
    assert mod.post("/api/moderation/unban", json={"name": "Bob"}).json() == {"lifted": 1}
    with bob as client:
        signin = client.post("/api/account/signin", json={"name": "Bob", "password": PASSWORD})
        assert signin.status_code == 200
    again = mod.post("/api/moderation/unban", json={"name": "Bob"})
    assert again.status_code == 404 and again.json()["code"] == "not_banned"
    assert [a for a, _ in _log(mod)][:2] == ["unban", "ban"]


def test_a_ban_made_while_seated_closes_the_seat_and_its_return_only_watches(
    mod: TestClient,
) -> None:
    moderating, bob = as_now(mod), Browser(mod)
    with bob as client:
        claim(client, "Bob")
        room, socket = room_with(client, "Bob")
        with socket as ws:
            token = seat_token(ws, "Bob")
            body = {"name": "Bob", "minutes": 10, "reason": "cheating"}
            with moderating as acting:
                assert acting.post("/api/moderation/ban", json=body).status_code == 201
            told = until(ws, of_type("error"))
            assert told["code"] == "banned" and told["reason"] == "cheating"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4003
        with client.websocket_connect(f"/ws/{room}") as ws:  # back with the seat's token
            ws.send_json({"type": "hello", "token": token})
            refused = until(ws, of_type("error"))
            assert (refused["code"], refused["request"]) == ("banned", "hello")
            assert until(ws, of_type("welcome"))["you"] is None  # watching, not seated


def test_a_muted_account_sits_and_plays_but_cannot_chat(mod: TestClient) -> None:
    bob = Browser(mod)
    with bob as client:
        claim(client, "Bob")
    body = {"name": "Bob", "minutes": 5, "reason": "flooding", "kind": "mute"}
    assert mod.post("/api/moderation/ban", json=body).status_code == 201
    with bob as client:
        room, socket = room_with(client, "Bob")
        with socket as ws:
            assert seat(ws, "Bob").startswith("p")
            refused = say(ws, "hello?")
            assert refused["code"] == "muted" and refused["reason"] == "flooding"
            assert "muted until" in refused["message"]
    assert (
        mod.post("/api/moderation/unban", json={"name": "Bob", "kind": "mute"}).status_code == 200
    )
    with bob as client, client.websocket_connect(f"/ws/{room}") as ws:
        ws.send_json({"type": "hello"})
        assert say(ws, "thanks")["type"] == "chat"


def test_an_address_ban_holds_every_name_from_that_network(db: Path, tmp_path: Path) -> None:
    with server(db) as client:
        moderator(client, db)
        body = {"address": "198.51.100.0/24", "minutes": 30, "reason": "ban evasion"}
        assert client.post("/api/moderation/ban", json=body).json()["ban"]["address"] == (
            "198.51.100.0/24"
        )
    with server(db, address="198.51.100.77") as stranger:
        answer = claim(stranger, "Newname")
        assert answer.status_code == 403 and answer.json()["reason"] == "ban evasion"
        room = stranger.post("/api/rooms", json={}).json()["id"]
        with stranger.websocket_connect(f"/ws/{room}") as ws:
            ws.send_json({"type": "hello"})
            until(ws, of_type("welcome"))
            ws.send_json({"type": "join", "name": "Guest"})
            assert until(ws, of_type("error"))["code"] == "banned"
            assert say(ws, "hi")["code"] == "banned"
    with server(db, address="198.51.101.1") as neighbour:  # outside the network
        assert claim(neighbour, "Other").status_code == 201


@pytest.mark.parametrize(
    ("body", "quoted"),
    [
        ({"name": "Bob", "minutes": 0, "reason": "x"}, "minutes"),
        ({"name": "Bob", "minutes": 10**9, "reason": "x"}, "minutes"),
        ({"name": "Bob", "minutes": 5, "reason": "  "}, "give a reason"),
        ({"name": "Bob", "minutes": 5, "reason": "x" * 501}, "at most 500"),
        ({"name": "Bob", "minutes": 5, "reason": "tab\x00nul"}, "U+0000"),
        ({"name": "Bob", "minutes": 5, "reason": "x", "extra": 1}, "extra"),
        ({"minutes": 5, "reason": "x"}, '"name" or "address"'),
        ({"name": "Bob", "address": "1.2.3.4", "minutes": 5, "reason": "x"}, "not both"),
        ({"address": "0.0.0.0/0", "minutes": 5, "reason": "x"}, "'0.0.0.0/0' is too wide"),
        ({"address": "not-an-ip", "minutes": 5, "reason": "x"}, "'not-an-ip'"),
        ({"name": "Bob", "minutes": 5, "reason": "x", "kind": "exile"}, "exile"),
        ("[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]", "deep"),
    ],
)
def test_a_bad_ban_is_refused_with_400_quoting_it(mod: TestClient, body: Any, quoted: str) -> None:
    with Browser(mod) as bob:
        claim(bob, "Bob")
    if isinstance(body, str):
        answer = mod.post("/api/moderation/ban", content=body)
    else:
        answer = mod.post("/api/moderation/ban", json=body)
    assert answer.status_code == 400, answer.json()
    assert quoted in answer.json()["message"]


def test_an_unknown_name_is_404_and_a_moderator_needs_an_admin_to_be_banned(
    mod: TestClient, db: Path
) -> None:
    body = {"name": "Nobody", "minutes": 5, "reason": "x"}
    answer = mod.post("/api/moderation/ban", json=body)
    assert answer.status_code == 404 and "'Nobody'" in answer.json()["message"]
    with Browser(mod) as other:
        moderator(other, db, "Mod2")
    answer = mod.post("/api/moderation/ban", json=body | {"name": "Mod2"})
    assert answer.status_code == 403 and answer.json()["code"] == "not_admin"
    grant(db, "Mod", "admin")
    assert mod.post("/api/moderation/ban", json=body | {"name": "Mod2"}).status_code == 201


def test_a_cross_site_moderation_request_is_refused(mod: TestClient) -> None:
    body = {"address": "192.0.2.1", "minutes": 5, "reason": "x"}
    answer = mod.post("/api/moderation/ban", json=body, headers={"origin": "http://evil.test"})
    assert answer.status_code == 403 and answer.json()["code"] == "bad_origin"
    assert mod.get("/api/moderation/bans").json() == {"bans": []}


# --- chat lines -----------------------------------------------------------------------------


def test_a_deleted_line_vanishes_live_from_the_history_and_from_the_replay(
    mod: TestClient, db: Path
) -> None:
    moderating, bob = as_now(mod), Browser(mod)
    with bob as client:
        room, socket = room_with(client, "Bob")
        with socket as ws:
            seat(ws, "Bob")
            first = say(ws, "a fine game")["messages"][0]
            bad = say(ws, "something vile")["messages"][0]
            game = bad["game"]
            with moderating as acting:
                gone = acting.delete(f"/api/rooms/{room}/chat/{bad['seq']}")
            assert gone.json() == {"deleted": {"room": room, "game": game, "line": bad["seq"]}}
            assert until(ws, of_type("chat_deleted")) == {
                "type": "chat_deleted", "game": game, "seq": bad["seq"],
            }  # fmt: skip
            after = say(ws, "sorry")["messages"][0]
            assert after["seq"] == bad["seq"] + 1  # numbers are never reused
        with client.websocket_connect(f"/ws/{room}") as ws:  # a newcomer's history
            ws.send_json({"type": "hello"})
            history = until(ws, of_type("chat"))["messages"]
            assert [m["text"] for m in history] == [first["text"], "sorry"]
    again = mod.delete(f"/api/rooms/{room}/chat/{bad['seq']}")
    assert again.status_code == 404 and again.json()["code"] == "no_line"
    assert mod.delete(f"/api/rooms/{room}/chat/999").status_code == 404
    assert ("delete_line", f"{room}/{game}#2 Bob: 'something vile'") in _log(mod)

    async def stored() -> list[str]:
        storage = Storage(str(db), create=False)
        await storage.open()
        try:
            return [line["text"] for line in await stored_lines(storage, game)]
        finally:
            await storage.close()

    assert asyncio.run(stored()) == ["a fine game", "sorry"]  # what a replay shows


def test_a_deleted_line_stays_gone_and_numbered_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    with server(db) as client:
        moderator(client, db)
        room, socket = room_with(client, "Mod")
        with socket as ws:
            ws.send_json({"type": "hello"})
            line = say(ws, "last words")["messages"][0]
        assert client.delete(f"/api/rooms/{room}/chat/{line['seq']}").status_code == 200
    with server(db) as client, client.websocket_connect(f"/ws/{room}") as ws:
        ws.send_json({"type": "hello"})
        until(ws, of_type("welcome"))
        said = say(ws, "after the restart")["messages"][0]
        assert said["seq"] == line["seq"] + 1 and said["text"] == "after the restart"


@pytest.mark.parametrize(
    ("method", "path", "quoted"),
    [
        ("DELETE", "/api/rooms/ROOM/chat/abc", "'abc'"),
        ("DELETE", "/api/rooms/ROOM/chat/0", "'0'"),
        ("DELETE", "/api/rooms/ROOM/chat/-1", "'-1'"),
        ("DELETE", "/api/rooms/ROOM/chat/" + "9" * 40, "'99999999"),
        ("POST", "/api/moderation/reports/x1/close", "'x1'"),
    ],
)
def test_a_bad_line_or_report_number_is_400_quoting_it(
    mod: TestClient, method: str, path: str, quoted: str
) -> None:
    room = mod.post("/api/rooms", json={}).json()["id"]
    answer = mod.request(method, path.replace("ROOM", room))
    assert answer.status_code == 400 and quoted in answer.json()["message"]


# --- rooms ----------------------------------------------------------------------------------


def test_a_closed_room_tells_its_sockets_and_never_opens_again(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    with server(db) as client:
        moderator(client, db)
        room, socket = room_with(client, "Mod")
        with socket as ws:
            seat(ws, "Ann")
            body = {"room": room, "reason": "a room for spam"}
            assert client.post("/api/moderation/close", json=body).json() == {"closed": room}
            told = until(ws, of_type("error"))
            assert told["code"] == "room_closed" and "a room for spam" in told["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4004
        assert client.get(f"/room/{room}").status_code == 404
        again = client.post("/api/moderation/close", json=body)
        assert again.status_code == 409
        unknown = client.post("/api/moderation/close", json=body | {"room": "nowhere"})
        assert unknown.status_code == 404 and "'nowhere'" in unknown.json()["message"]
    with server(db) as client:  # a restart brings it back no more
        assert client.get(f"/api/rooms/{room}").status_code == 404
        assert ("close_room", room) in _log_as(client, db)


def _log_as(client: TestClient, db: Path) -> list[tuple[str, str]]:
    client.post("/api/account/signin", json={"name": "Mod", "password": PASSWORD})
    return _log(client)


async def test_a_database_that_cannot_be_read_keeps_the_last_bans(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """An outage must not turn every chat line and seat into a server error: the bans last
    read hold until the database answers again."""
    from setgame.server.accounts import Accounts
    from setgame.server.moderation import Banned, Bans

    db = tmp_path / "b.db"
    storage = Storage(str(db))
    await storage.open()
    try:
        account = await Accounts(storage).claim("Bob", PASSWORD)
        bans = Bans(storage)
        await bans.add("Mod", "mute", 5, "spam", account=account)
        with pytest.raises(Banned):
            await bans.check(account.id, "192.0.2.1", chat=True)
        await bans.check(account.id, "192.0.2.1")  # a mute is no ban
        db.rename(tmp_path / "away.db")  # reads now fail (a new, empty file: no such table)
        await storage.engine.dispose()  # no pooled connection to the old file is left
        bans.stale()
        with pytest.raises(Banned) as still:
            await bans.check(account.id, "192.0.2.1", chat=True)
        assert still.value.code == "muted" and still.value.reason == "spam"
        assert "the last copy holds" in caplog.text  # it was read again, and failed
    finally:
        (tmp_path / "away.db").rename(db)
        await storage.close()


async def test_an_address_ban_covers_its_network_and_nothing_else(tmp_path: Path) -> None:
    """Hosts as ``edge.client_host`` gives them (an IPv6 client is its /64): a /24, a /48, and
    an IPv6 address inside a client's /64 (which bans that /64: the client it counts as)."""
    from setgame.server.moderation import Bans, network_of

    storage = Storage(str(tmp_path / "a.db"))
    await storage.open()
    try:
        bans = Bans(storage)
        for address in ("203.0.113.0/24", "2001:db8:aa::/48", "2001:db8:bb:1::7"):
            await bans.add("Mod", "ban", 5, address, address=network_of(address))
        cases = {
            "203.0.113.9": "203.0.113.0/24",
            "203.0.114.9": None,
            "2001:db8:aa:5::/64": "2001:db8:aa::/48",
            "2001:db8:ab::/64": None,
            "2001:db8:bb:1::/64": "2001:db8:bb:1::7",
            "2001:db8:bb:2::/64": None,
            "::1": None,
            "testclient": None,
        }
        for host, reason in cases.items():
            found = await bans.against(None, host, ("ban",))
            assert (found.reason if found else None) == reason, host
    finally:
        await storage.close()


# --- reports --------------------------------------------------------------------------------


def a_line_said(client: TestClient, name: str, text: str) -> tuple[str, dict[str, Any]]:
    """A new room where ``client`` sits as ``name`` and says ``text``: the room, the line."""
    room, socket = room_with(client, name)
    with socket as ws:
        seat(ws, name)
        line: dict[str, Any] = say(ws, text)["messages"][0]
    return room, line


def test_a_reported_line_reaches_the_queue_with_its_text_even_once_deleted(
    mod: TestClient,
) -> None:
    bob = Browser(mod)
    with bob as client:
        room, line = a_line_said(client, "Bob", "rude words")
        body = {"room": room, "line": line["seq"], "reason": "rude"}
        assert client.post("/api/reports", json=body).status_code == 201  # a guest reports
        assert client.get("/api/moderation/reports").status_code == 403
    mod.delete(f"/api/rooms/{room}/chat/{line['seq']}")
    player = {"room": room, "name": "Bob", "reason": "plays unfairly"}
    assert mod.post("/api/reports", json=player).status_code == 201
    queue = mod.get("/api/moderation/reports").json()["reports"]
    assert [(r["name"], r["text"], r["reason"]) for r in queue] == [
        ("Bob", None, "plays unfairly"),
        ("Bob", "rude words", "rude"),
    ]
    assert queue[0]["reporter"] == "Mod" and queue[1]["reporter"] is None
    closed = mod.post(f"/api/moderation/reports/{queue[1]['id']}/close")
    assert closed.json() == {"closed": queue[1]["id"]}
    assert len(mod.get("/api/moderation/reports").json()["reports"]) == 1
    assert mod.post(f"/api/moderation/reports/{queue[1]['id']}/close").status_code == 404
    assert ("close_report", f"report {queue[1]['id']}") in _log(mod)


@pytest.mark.parametrize(
    ("body", "status", "quoted"),
    [
        ({"room": "nowhere", "name": "Bob", "reason": "x"}, 404, "'nowhere'"),
        ({"room": "ROOM", "reason": "x"}, 400, '"line", a "name"'),
        ({"room": "ROOM", "line": 99, "reason": "x"}, 404, "no chat line 99"),
        ({"room": "ROOM", "line": 0, "reason": "x"}, 400, "line"),
        ({"room": "ROOM", "name": "Bob", "reason": ""}, 400, "give a reason"),
        ({"room": "ROOM", "name": "Bob", "reason": "x" * 1001}, 400, "1000"),
        ({"room": "ROOM", "name": "Bob", "reason": "x", "x": 1}, 400, "x"),
        ({"room": "ROOM", "name": "B" * 200, "reason": "x"}, 400, "name"),
        ({"room": "ROOM", "name": "Bob", "reason": "evil\u202etxt"}, 400, "U+202E"),
        ({"room": "ROOM", "name": "Bob\x07", "reason": "x"}, 400, "U+0007"),
        ({"room": "ROOM", "name": "Bob", "reason": "a\u2066b\u200bc"}, 400, "U+200B, U+2066"),
    ],
)
def test_a_bad_report_is_refused_quoting_it(
    db: Path, body: dict[str, Any], status: int, quoted: str
) -> None:
    with server(db) as client:
        room = client.post("/api/rooms", json={}).json()["id"]
        body = {k: room if v == "ROOM" else v for k, v in body.items()}
        answer = client.post("/api/reports", json=body)
        assert answer.status_code == status, answer.json()
        assert quoted in answer.json()["message"]


def test_the_same_report_twice_is_one_in_the_queue(mod: TestClient) -> None:
    """A double click on "Report" sent two; the moderators read it twice. The same report
    (line or player, reason, address, account) while one is open is answered 200 "already",
    not queued; another reason, or the same once the first is closed, is a new one."""
    bob = Browser(mod)
    with bob as client:
        room, line = a_line_said(client, "Bob", "rude words")
        body = {"room": room, "line": line["seq"], "reason": "rude"}
        first, again = (client.post("/api/reports", json=body) for _ in range(2))
        assert (first.status_code, again.status_code) == (201, 200)
        assert again.json() == {"reported": True, "already": True}
        other = client.post("/api/reports", json=body | {"reason": "spam"})
        assert other.status_code == 201
    queue = mod.get("/api/moderation/reports").json()["reports"]
    assert sorted(r["reason"] for r in queue) == ["rude", "spam"]
    for report in queue:
        mod.post(f"/api/moderation/reports/{report['id']}/close")
    with bob as client:
        assert client.post("/api/reports", json=body).status_code == 201  # reported anew


def test_reports_are_rate_limited_per_address(db: Path) -> None:
    with server(db) as client:
        room = client.post("/api/rooms", json={}).json()["id"]
        answers = [
            client.post("/api/reports", json={"room": room, "name": "Bob", "reason": f"spam {i}"})
            for i in range(REPORT_BURST + 2)
        ]
        assert [a.status_code for a in answers] == [201] * REPORT_BURST + [429, 429]
        body = {"room": room, "name": "Bob", "reason": "spam"}
    with server(db, address="192.0.2.9") as other:  # another address still reports
        assert other.post("/api/reports", json=body).status_code == 201
