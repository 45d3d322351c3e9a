"""The server over real HTTP and websockets (uvicorn on loopback): routes, pages,
languages, the socket layer's checks and close codes, bots, hints, replays."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from setgame.rules.cards import parse_card
from setgame.rules.sets import find_sets, is_set
from setgame.server.protocol import MAX_FRAME, schemas

DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
Msg = dict[str, Any]


class Socket:
    """A bare websocket client: JSON in, JSON out, nothing hidden."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn
        self.last: Msg | None = None

    @classmethod
    async def open(cls, server: Any, room: str) -> Socket:
        return cls(await connect(f"{server.ws}/ws/{room}", max_size=2**20, proxy=None))

    async def send(self, **message: Any) -> None:
        await self.conn.send(json.dumps(message))

    async def recv(self, timeout: float = 5.0) -> Msg:
        message: Msg = json.loads(await asyncio.wait_for(self.conn.recv(), timeout))
        if message["type"] in ("welcome", "update"):
            self.last = message
        return message

    async def until(self, check: Callable[[Msg], bool], timeout: float = 5.0) -> Msg:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            message = await self.recv(max(0.01, end - loop.time()))
            if check(message):
                return message

    async def error(self, timeout: float = 5.0) -> Msg:
        return await self.until(lambda m: m["type"] == "error", timeout)

    async def hello(self, token: str | None = None, since: int | None = None) -> Msg:
        await self.send(type="hello", token=token, since=since)
        return await self.until(lambda m: m["type"] == "welcome")

    async def join(self, name: str) -> Msg:
        await self.send(type="join", name=name)
        return await self.until(lambda m: m["type"] == "joined")

    @property
    def state(self) -> Msg:
        assert self.last is not None
        state: Msg = self.last["state"]
        return state

    async def closed(self, timeout: float = 5.0) -> int | None:
        with pytest.raises(ConnectionClosed) as info:
            while True:
                await asyncio.wait_for(self.conn.recv(), timeout)
        return info.value.rcvd.code if info.value.rcvd else None


@pytest.fixture
async def http(live_server: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=str(live_server), trust_env=False) as client:
        yield client


@pytest.fixture
async def sockets(live_server: Any) -> AsyncIterator[Callable[[str], Any]]:
    opened: list[Socket] = []

    async def make(room: str) -> Socket:
        sock = await Socket.open(live_server, room)
        opened.append(sock)
        return sock

    yield make
    for sock in opened:
        await sock.conn.close()


async def new_room(http: httpx.AsyncClient, **settings: Any) -> str:
    response = await http.post("/api/rooms", json=settings)
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["url"] == f"/room/{body['id']}"
    room: str = body["id"]
    return room


# --- HTTP API -----------------------------------------------------------------------


async def test_create_room_takes_defaults_and_lists_it(
    http: httpx.AsyncClient, live_server: Any
) -> None:
    room = await new_room(http)
    info = (await http.get(f"/api/rooms/{room}")).json()
    assert info["settings"] == {
        "mode": "multi",
        "penalty": "point",
        "no_set": "vote",
        "deck": "full",
        "pick_seconds": 5.0,
        "rounds": "match",
        "lockout_lift": "set",
        "variant": "classic",
        "table": 0,
        "day": "",
        "bots": 0,
        "bot_level": 3,
        "public": True,
        "rated": None,
        "chat": "all",
    }
    assert info["phase"] == "lobby" and info["state"]["players"] == []
    assert room not in [r["id"] for r in (await http.get("/api/rooms")).json()]  # nobody there
    sock = await Socket.open(live_server, room)
    try:
        await sock.hello()  # someone has it open: listed
        assert room in [r["id"] for r in (await http.get("/api/rooms")).json()]
    finally:
        await sock.conn.close()


async def test_private_rooms_are_not_listed(http: httpx.AsyncClient) -> None:
    room = await new_room(http, public=False, penalty="lockout", lockout_lift="set_or_cards")
    assert room not in [r["id"] for r in (await http.get("/api/rooms")).json()]
    info = (await http.get(f"/api/rooms/{room}")).json()
    assert info["settings"]["penalty"] == "lockout"
    assert info["state"]["settings"]["lockout_lift"] == "set_or_cards"  # reaches the engine


@pytest.mark.parametrize(
    ("body", "code", "quoted"),
    [
        ({"penalty": "death"}, "bad_settings", "death"),
        ({"colour": "red"}, "bad_settings", "colour"),
        ({"pick_seconds": 0}, "bad_settings", "pick_seconds"),
        ({"bots": 99}, "bad_settings", "bots"),
        ({"lockout_lift": "never"}, "bad_settings", "never"),
        ({"deck": "shape=X"}, "bad_setting", "shape=X"),
        ({"mode": "solo", "bots": 2}, "bad_setting", "solo"),
    ],
)
async def test_bad_room_settings_are_refused_quoting_them(
    http: httpx.AsyncClient, body: Msg, code: str, quoted: str
) -> None:
    response = await http.post("/api/rooms", json=body)
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert quoted in response.json()["message"]


async def test_non_json_and_huge_bodies_are_refused(http: httpx.AsyncClient) -> None:
    response = await http.post("/api/rooms", content=b"{nope")
    assert response.status_code == 400 and "{nope" in response.json()["message"]
    huge = json.dumps({"deck": "x" * (MAX_FRAME + 10)})
    assert (await http.post("/api/rooms", content=huge)).status_code == 413


async def test_unknown_room_and_game(http: httpx.AsyncClient) -> None:
    response = await http.get("/api/rooms/nope")
    assert response.status_code == 404 and "'nope'" in response.json()["message"]
    assert (await http.get("/api/games/nope/replay")).status_code == 404
    assert (await http.get("/room/nope")).status_code == 404


async def test_words_come_from_setgame_i18n(http: httpx.AsyncClient) -> None:
    from setgame.rules.decks import DECKS
    from setgame.rules.sets import Flaw
    from setgame.words.i18n import (
        LANGUAGES,
        attribute_name,
        card_label,
        card_words,
        flaw_text,
        value_name,
    )

    for lang in LANGUAGES:
        words = (await http.get(f"/api/words/{lang}")).json()
        # every card of every deck is named by the server: the browser composes no card name
        assert len(words["cards"]) == 81 + 243 + (256 - 81)
        assert words["cards"]["2RTD"] == card_label(parse_card("2RTD"), lang)
        for deck, code in [(DECKS["megaset"], "2RTDD"), (DECKS["4set"], "4BCH")]:
            assert words["cards"][code] == card_words(deck.parse(code), deck, lang)
        assert len(words["flaws"]) == 4 * 3 * 2
        assert words["flaws"]["1:0:1"] == flaw_text(Flaw(1, 0, 1), lang)
        assert [a["name"] for a in words["attributes"]] == ["number", "color", "shading", "shape"]
        color = words["attributes"][1]
        assert color["letters"] == ["R", "G", "P"]  # the deck setting's "color=R" (R16)
        assert color["label"] == attribute_name(1, lang)
        assert color["words"] == [value_name(1, v, lang) for v in range(3)]
    response = await http.get("/api/words/xx")
    assert response.status_code == 404 and "'xx'" in response.json()["message"]


async def test_ui_strings_are_served_from_the_catalog(http: httpx.AsyncClient) -> None:
    from setgame.words import catalog

    for lang in catalog.LANGUAGES:
        response = await http.get(f"/i18n/{lang}.json")
        assert response.status_code == 200 and response.headers["content-language"] == lang
        assert "max-age" in response.headers["cache-control"]
        body = response.json()
        assert body == catalog.web_messages(lang)
        assert body["messages"]["room.call"] and len(body["messages"]["res.sets.one"]) >= 2
    for bad in ("xx.json", "en.js", "en", "ru.json.json", ".json", "e" * 5000):
        response = await http.get(f"/i18n/{bad}")
        assert response.status_code == 404, bad
        assert response.json()["code"] == "no_language", bad


async def test_schema_in_docs_is_current(http: httpx.AsyncClient) -> None:
    block = re.search(r"## Message schemas.*?```json\n(.*?)```", DOCS.read_text(), re.S)
    assert block is not None
    assert json.loads(block.group(1)) == schemas()
    assert (await http.get("/api/schema")).json() == schemas()


# --- pages and languages ------------------------------------------------------------


def html_lang(text: str) -> str:
    match = re.search(r'<html lang="([^"]*)"', text)
    assert match is not None
    return match.group(1)


async def test_language_query_beats_cookie_beats_accept_language(
    http: httpx.AsyncClient,
) -> None:
    assert html_lang((await http.get("/")).text) == "en"
    de = await http.get("/", headers={"Accept-Language": "fr-CH, de;q=0.8, en;q=0.5"})
    assert html_lang(de.text) == "de" and de.headers["content-language"] == "de"
    pl = await http.get("/rules?lang=pl", headers={"Accept-Language": "de"})
    assert html_lang(pl.text) == "pl" and "lang=pl" in pl.headers["set-cookie"]
    it = await http.get("/", headers={"Accept-Language": "de", "Cookie": "lang=it"})
    assert html_lang(it.text) == "it"
    bad = await http.get("/?lang=xx", headers={"Cookie": "lang=ru"})
    assert html_lang(bad.text) == "ru"


async def test_every_page_is_served_with_its_placeholders_filled(
    http: httpx.AsyncClient,
) -> None:
    room = await new_room(http)
    pages = ("/", "/rules", "/account", "/player/Nobody", "/leaderboard")
    for path in (*pages, f"/room/{room}", "/replay/g1"):
        response = await http.get(path + "?lang=ru")
        assert response.status_code == 200, path
        assert "{{" not in response.text, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
    assert room in (await http.get(f"/room/{room}")).text


async def test_ids_are_escaped_in_pages(http: httpx.AsyncClient) -> None:
    response = await http.get("/replay/%3Cscript%3Ex")
    assert response.status_code == 200
    assert "<script>x" not in response.text


async def test_static_files_are_served(http: httpx.AsyncClient) -> None:
    response = await http.get("/static/js/room.js")
    assert response.status_code == 200 and "javascript" in response.headers["content-type"]
    assert (await http.get("/static/nope.js")).status_code == 404


# --- the socket ---------------------------------------------------------------------


async def test_unknown_room_closes_4004(sockets: Any) -> None:
    sock = await sockets("no-such-room")
    assert await sock.closed() == 4004


async def test_join_answers_joined_then_the_update(http: Any, sockets: Any) -> None:
    room = await new_room(http)
    ann = await sockets(room)
    welcome = await ann.hello()
    assert welcome["you"] is None and welcome["state"]["phase"] == "lobby"
    assert "stock" not in welcome["state"] and "seed" not in json.dumps(welcome["state"])
    joined = await ann.join("Ann")
    update = await ann.until(lambda m: m["type"] == "update")
    assert update["version"] == welcome["version"] + 1
    assert update["events"][0] == {
        "type": "joined",
        "at": update["events"][0]["at"],
        "player": joined["player"],
        "name": "Ann",
    }
    assert update["state"]["you"] == joined["player"]
    assert update["state"]["players"][0]["connected"] is True


async def test_token_resumes_the_seat_and_since_gives_missed_events(
    http: Any, sockets: Any
) -> None:
    room = await new_room(http)
    ann, bob = await sockets(room), await sockets(room)
    await ann.hello()
    await bob.hello()
    token = (await ann.join("Ann"))["token"]
    await bob.join("Bob")
    await ann.until(lambda m: m["type"] == "update" and len(m["state"]["players"]) == 2)
    seen = ann.state["version"]
    await ann.conn.close()
    await bob.until(lambda m: m["type"] == "presence" and not m["connected"])
    await bob.send(type="start")
    await bob.until(lambda m: m["type"] == "update" and m["state"]["phase"] == "playing")

    again = await sockets(room)
    welcome = await again.hello(token=token, since=seen)
    assert welcome["you"] == ann.state["you"]
    assert [e["type"] for e in welcome["missed"]] == ["round_started"]
    assert welcome["state"]["table"] == bob.state["table"]
    presence = await bob.until(lambda m: m["type"] == "presence")
    assert presence == {"type": "presence", "player": welcome["you"], "connected": True}

    stranger = await sockets(room)
    assert (await stranger.hello(token="forged", since=0))["you"] is None


async def test_spectators_watch_but_cannot_act(http: Any, sockets: Any) -> None:
    room = await new_room(http)
    ann, watcher = await sockets(room), await sockets(room)
    await ann.hello()
    await watcher.hello()
    await ann.join("Ann")
    await watcher.until(lambda m: m["type"] == "update")
    await watcher.send(type="start")
    error = await watcher.error()
    assert error["code"] == "not_seated" and error["request"] == "start"
    await ann.send(type="start")
    update = await watcher.until(lambda m: m["type"] == "update")
    assert update["state"]["phase"] == "playing" and update["state"]["you"] is None


async def seated_game(http: Any, sockets: Any, n: int = 2, **settings: Any) -> list[Socket]:
    room = await new_room(http, **settings)
    socks = []
    for name in ("Ann", "Bob", "Cid")[:n]:
        sock = await sockets(room)
        await sock.hello()
        await sock.join(name)
        socks.append(sock)
    await socks[0].send(type="start")
    for sock in socks:
        await sock.until(lambda m: m["type"] == "update" and m["state"]["phase"] == "playing")
    return socks


async def test_actions_need_hello_first(http: Any, sockets: Any) -> None:
    sock = await sockets(await new_room(http))
    await sock.send(type="join", name="Ann")
    assert (await sock.error())["code"] == "hello_first"
    await sock.send(type="ping")
    assert (await sock.recv())["type"] == "pong"


async def test_stale_version_is_refused(http: Any, sockets: Any) -> None:
    ann, bob = await seated_game(http, sockets)
    await ann.send(type="call", version=ann.state["version"] - 1)
    error = await ann.error()
    assert error["code"] == "stale_version" and error["request"] == "call"
    await bob.send(type="call", version=bob.state["version"])
    update = await ann.until(lambda m: m["type"] == "update")
    assert update["events"][0]["type"] == "called"


async def test_events_that_leave_the_table_do_not_make_a_pick_stale(
    http: Any, sockets: Any
) -> None:
    ann, bob = await seated_game(http, sockets)
    await ann.send(type="call", version=ann.state["version"])
    called = await ann.until(lambda m: m["type"] == "update")
    cid = await sockets(ann.state["room"])
    await cid.hello()
    await cid.join("Cid")  # a new seat: the version moves, the table does not
    joined = await ann.until(lambda m: m["type"] == "update")
    assert joined["version"] == called["version"] + 1
    table = called["state"]["table"]
    await ann.send(type="pick", cards=table[:3], version=called["version"])
    picked = await ann.until(lambda m: m["type"] in ("update", "error"))
    assert picked["type"] == "update"
    assert picked["events"][0]["type"] in ("set_taken", "wrong_call")
    before_the_deal = called["version"] - 2
    await bob.send(type="call", version=before_the_deal)
    assert (await bob.error())["code"] == "stale_version"


async def test_no_one_can_act_for_another_seat(http: Any, sockets: Any) -> None:
    ann, bob = await seated_game(http, sockets)
    await bob.send(type="call", version=bob.state["version"], player=ann.state["you"])
    error = await bob.error()
    assert error["code"] == "bad_message" and "player" in error["message"]


async def test_pick_window_expires_on_the_server_clock(http: Any, sockets: Any) -> None:
    ann, bob = await seated_game(http, sockets, pick_seconds=1)
    await ann.send(type="call", version=ann.state["version"])
    called = await bob.until(lambda m: m["type"] == "update")
    assert called["state"]["holder"] == ann.state["you"]
    assert 0 < called["state"]["deadline_in"] <= 1
    timeout = await bob.until(lambda m: m["type"] == "update", timeout=3)
    (event,) = timeout["events"]
    assert event["type"] == "wrong_call" and event["reason"] == "timeout"
    assert timeout["version"] == called["version"] + 1 and timeout["state"]["holder"] is None


async def test_hints_reveal_a_set_card_by_card_to_the_asker(http: Any, sockets: Any) -> None:
    (ann,) = await seated_game(http, sockets, 1, mode="practice", deck="beginner")
    table = ann.state["table"]
    shown: list[str] = []
    for n in (1, 2, 3):
        await ann.send(type="hint")
        reply = await ann.until(lambda m: m["type"] == "hint")
        assert reply["cards"][: len(shown)] == shown and len(reply["cards"]) == n
        shown = reply["cards"]
    assert set(shown) <= set(table) and is_set(*(parse_card(c) for c in shown))


async def test_hints_are_for_practice_only(http: Any, sockets: Any) -> None:
    ann, _ = await seated_game(http, sockets)
    await ann.send(type="hint")
    assert (await ann.error())["code"] == "no_hints"


async def play_practice_to_the_end(sock: Socket) -> None:
    while sock.state["phase"] == "playing":
        cards = [parse_card(c) for c in sock.state["table"]]
        sets = find_sets(cards)
        if sets:
            codes = [c for c in sock.state["table"] if parse_card(c) in sets[0]]
            await sock.send(type="pick", cards=codes, version=sock.state["version"])
        else:
            await sock.send(type="no_set")
        await sock.until(lambda m: m["type"] in ("update", "error"))


async def test_a_finished_game_replays_and_again_starts_a_new_one(http: Any, sockets: Any) -> None:
    (ann,) = await seated_game(http, sockets, 1, mode="practice", deck="beginner")
    game = ann.state["game"]
    assert (await http.get(f"/api/games/{game}/replay")).status_code == 409
    await play_practice_to_the_end(ann)
    assert ann.state["phase"] == "match_over"
    last_version = ann.state["version"]

    replay = (await http.get(f"/api/games/{game}/replay")).json()
    assert replay["players"] == [{"id": ann.state["you"], "name": "Ann"}]
    assert replay["events"][-1]["state"]["phase"] == "match_over"
    assert [s["version"] for s in replay["events"]][-1] == last_version
    assert all("stock" not in s["state"] for s in replay["events"])

    await ann.send(type="again")
    update = await ann.until(lambda m: m["type"] == "update" and m["state"]["game"] != game)
    await ann.until(lambda m: m["type"] == "update" and m["state"]["phase"] == "playing")
    assert update["version"] > last_version
    assert [p["name"] for p in ann.state["players"]] == ["Ann"]


async def test_again_before_the_end_is_refused(http: Any, sockets: Any) -> None:
    ann, _ = await seated_game(http, sockets)
    await ann.send(type="again")
    assert (await ann.error())["code"] == "not_over"


async def test_bots_play_through_the_same_actions(http: Any, sockets: Any) -> None:
    room = await new_room(http, bots=2, bot_level=5, no_set="auto")
    ann = await sockets(room)
    welcome = await ann.hello()
    bots = [p for p in welcome["state"]["players"] if p["bot"] == 5]
    assert len(bots) == 2 and all(p["connected"] for p in bots)
    await ann.join("Ann")
    await ann.send(type="start")
    taken = await ann.until(
        lambda m: m["type"] == "update" and m["events"][0]["type"] == "set_taken", timeout=20
    )
    assert taken["events"][0]["player"] in {p["id"] for p in bots}
    assert sum(p["score"] for p in taken["state"]["players"]) >= 1


# --- bad input: errors and close codes ----------------------------------------------


async def test_malformed_messages_get_errors_and_the_socket_stays(http: Any, sockets: Any) -> None:
    sock = await sockets(await new_room(http))
    await sock.hello()
    cases = [
        ("{not json", "bad_json"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"no": "type"}', "bad_message"),
        ('{"type": "pick", "cards": ["1RSD"], "version": 1}', "bad_message"),
        ('{"type": "join", "name": ""}', "bad_message"),
    ]
    for frame, code in cases:
        await sock.conn.send(frame)
        error = await sock.error()
        assert error["code"] == code
        assert frame[:20] in error["message"] or code == "bad_json"
    await sock.conn.send(b"\x00\x01")
    assert (await sock.error())["code"] == "not_text"
    await sock.send(type="ping")
    assert (await sock.recv())["type"] == "pong"


async def test_bad_cards_are_quoted(http: Any, sockets: Any) -> None:
    ann, _ = await seated_game(http, sockets)
    await ann.send(type="pick", cards=["1RSD", "XXXX", "2GTO"], version=ann.state["version"])
    error = await ann.error()
    assert error["code"] == "bad_card" and "'XXXX'" in error["message"]


async def test_oversized_frame_closes_1009(http: Any, sockets: Any) -> None:
    sock = await sockets(await new_room(http))
    await sock.hello()
    await sock.send(type="join", name="x" * MAX_FRAME)
    assert await sock.closed() == 1009


async def test_a_flood_closes_1008_and_the_room_keeps_serving(http: Any, sockets: Any) -> None:
    room = await new_room(http)
    flooder, other = await sockets(room), await sockets(room)
    await flooder.hello()
    await other.hello()
    for _ in range(200):
        try:
            await flooder.send(type="ping")
        except ConnectionClosed:
            break
    assert await flooder.closed() == 1008
    await other.send(type="ping")
    assert (await other.until(lambda m: m["type"] == "pong"))["type"] == "pong"


async def test_endless_garbage_closes_1003(http: Any, sockets: Any) -> None:
    sock = await sockets(await new_room(http))
    for _ in range(12):
        try:
            await sock.conn.send("garbage")
        except ConnectionClosed:
            break
    assert await sock.closed() == 1003


async def test_room_creation_is_rate_limited_per_address(server_factory: Any) -> None:
    # a small burst and almost no refill, so that a slow machine sees the same figures
    server = server_factory(env={"SETGAME_ROOMS_BURST": "20", "SETGAME_ROOMS_PER_MINUTE": "0.01"})
    async with httpx.AsyncClient(base_url=str(server), trust_env=False) as client:
        replies = [await client.post("/api/rooms", content=b"") for _ in range(25)]
    assert [r.status_code for r in replies] == [201] * 20 + [429] * 5
    assert replies[-1].json()["code"] == "rate_limited"


async def test_room_creation_limits_come_from_the_environment(tmp_path: Path) -> None:
    from setgame.server import create_app
    from setgame.server.limits import LimitError, Limits

    limits = Limits.from_env({"SETGAME_ROOMS_BURST": "3", "SETGAME_ROOMS_PER_MINUTE": "0.5"})
    assert (limits.rooms_burst, limits.rooms_per_minute) == (3, 0.5)
    with pytest.raises(LimitError, match="'many'"):
        Limits.from_env({"SETGAME_ROOMS_BURST": "many"})
    with pytest.raises(LimitError, match="'0'"):
        Limits.from_env({"SETGAME_ROOMS_BURST": "0"})
    app = create_app(tmp_path / "l.db", create_db=True, limits=limits)
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://t") as client,
    ):
        statuses = [(await client.post("/api/rooms", content=b"")).status_code for _ in range(5)]
    assert statuses == [201, 201, 201, 429, 429]


async def test_a_crowded_room_refuses_more_spectators(http: Any, live_server: Any) -> None:
    from setgame.server.limits import Limits

    room = await new_room(http)
    opened = []
    try:
        for _ in range(Limits().room_sockets):
            opened.append(await Socket.open(live_server, room))
            await opened[-1].hello()
        one_more = await Socket.open(live_server, room)
        await one_more.send(type="hello")
        assert await one_more.closed() == 1008
    finally:
        for sock in opened:
            await sock.conn.close()


async def test_no_message_names_an_undealt_card(http: Any, sockets: Any) -> None:
    """Every card code in every message was already dealt when the message was sent."""
    room = await new_room(http, mode="practice", deck="beginner")
    ann, watcher = await sockets(room), await sockets(room)
    await ann.hello()
    await watcher.hello()
    await ann.join("Ann")
    await ann.send(type="start")
    await ann.until(lambda m: m["type"] == "update" and m["state"]["phase"] == "playing")
    await play_practice_to_the_end(ann)
    code = re.compile(r'"([123][RGP][STO][DOS])"')
    dealt: set[str] = set()
    messages = 0
    while True:
        try:
            raw = await asyncio.wait_for(watcher.conn.recv(), 0.5)
        except TimeoutError:
            break
        messages += 1
        message = json.loads(raw)
        if message["type"] == "update":
            dealt |= set(message["state"]["table"])
        assert set(code.findall(str(raw))) <= dealt, message
    assert messages > 5 and len(dealt) == 27


async def test_a_huge_frame_closes_1009_before_it_is_read(http: Any, sockets: Any) -> None:
    room = await new_room(http)
    sock, other = await sockets(room), await sockets(room)
    await other.hello()
    await sock.conn.send("x" * 200_000)
    assert await sock.closed() == 1009
    await other.send(type="ping")
    assert (await other.until(lambda m: m["type"] == "pong"))["type"] == "pong"


# --- web polish: icon, share link, audience -------------------------------------------


async def test_favicon_is_served_as_svg(http: httpx.AsyncClient) -> None:
    for path in ("/favicon.ico", "/static/favicon.svg"):
        response = await http.get(path)
        assert response.status_code == 200, path
        assert response.headers["content-type"].startswith("image/svg+xml"), path
        assert response.text.lstrip().startswith("<svg"), path


def test_share_link_names_the_network_address_when_bound_to_all_interfaces() -> None:
    from setgame.server.app import share_origin

    def lan() -> str:
        return "192.168.1.20"

    # opened on loopback, bound to every interface: the machine's address, for friends
    assert share_origin("127.0.0.1", 8000, "0.0.0.0", lan) == ("http://192.168.1.20:8000", "lan")
    assert share_origin("localhost", 8000, "::", lan) == ("http://192.168.1.20:8000", "lan")
    six = share_origin("::1", 8000, "0.0.0.0", lambda: "fd00::5")
    assert six == ("http://[fd00::5]:8000", "lan")
    # bound to loopback: nobody else can open it, the page says how to open it up
    assert share_origin("127.0.0.1", 8000, "127.0.0.1", lan) == ("", "local")
    # opened by a network address already, or no network at all: the page's own origin
    assert share_origin("192.168.1.20", 8000, "0.0.0.0", lan) == ("", "")
    assert share_origin("127.0.0.1", 8000, "0.0.0.0", lambda: None) == ("", "")
    assert share_origin("game.example", None, None, lan) == ("", "")


async def test_room_page_carries_the_share_origin(http: httpx.AsyncClient) -> None:
    room = await new_room(http)
    text = (await http.get(f"/room/{room}")).text
    # the test server is built without a bind host: the link is the page's own origin
    assert 'data-share-origin=""' in text and "{{" not in text


async def test_players_are_told_how_many_watch(http: httpx.AsyncClient, sockets: Any) -> None:
    room = await new_room(http)
    ann = await sockets(room)
    await ann.hello()  # a spectator until she sits down
    assert (await ann.until(lambda m: m["type"] == "watchers"))["count"] == 1
    await ann.join("Ann")
    update = await ann.until(lambda m: m["type"] == "update")
    assert update["state"]["watchers"] == 0
    assert (await ann.until(lambda m: m["type"] == "watchers"))["count"] == 0
    viewer = await sockets(room)
    assert (await viewer.hello())["state"]["watchers"] == 0  # counted once attached
    assert (await ann.until(lambda m: m["type"] == "watchers")) == {"type": "watchers", "count": 1}
    second = await sockets(room)
    await second.hello()
    assert (await ann.until(lambda m: m["type"] == "watchers"))["count"] == 2
    await second.join("Bo")  # a watcher who sits down no longer watches
    assert (await ann.until(lambda m: m["type"] == "watchers"))["count"] == 1
    await viewer.conn.close()
    assert (await ann.until(lambda m: m["type"] == "watchers"))["count"] == 0
    assert (await http.get(f"/api/rooms/{room}")).json()["spectators"] == 0
