"""The server's edge under attack (issue 7, items 2, 3, 5, 7 proxy part, 9, 10): crowding with
sockets that never say hello, big and bad request bodies, presence amplification, deep JSON,
slow and silent connections, and X-Forwarded-For from strangers. Each test runs a real server
(often with small limits set through ``SETGAME_*``) and ends with the server still serving.

Attackers connect from other loopback addresses (127.0.0.2 and up: all of 127/8 is loopback on
Linux) so that they are other clients than the honest ones on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from setgame.server.client import Client, create_room, ws_url

LiveServer = Any  # tests/conftest.py's LiveServer: the base URL, with .port, .ws and .log
Make = Callable[..., LiveServer]


@pytest.fixture
def edge_server(monkeypatch: pytest.MonkeyPatch, server_factory: Any) -> Make:
    """``edge_server(hello_seconds=2, ...)``: a server of its own with those limits."""

    def make(**limits: Any) -> LiveServer:
        for name, value in limits.items():
            monkeypatch.setenv(f"SETGAME_{name.upper()}", str(value))
        return server_factory()

    return make


async def raw_socket(
    server: str, room: str, source: str = "127.0.0.1", headers: dict[str, str] | None = None
) -> ClientConnection:
    return await ws_connect(
        ws_url(server, room),
        proxy=None,
        open_timeout=5,
        local_addr=(source, 0),
        additional_headers=headers,
    )


async def close_code(sock: ClientConnection, timeout: float = 5.0) -> int | None:
    """The code the server closed ``sock`` with (TimeoutError after ``timeout`` seconds)."""

    async def drain() -> None:
        while True:
            await sock.recv()

    try:
        await asyncio.wait_for(drain(), timeout)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    raise AssertionError("unreachable")  # pragma: no cover


async def is_open(sock: ClientConnection) -> bool:
    await sock.send(json.dumps({"type": "ping"}))
    try:
        reply = json.loads(await asyncio.wait_for(sock.recv(), 5))
    except ConnectionClosed:
        return False
    return reply.get("type") in ("pong", "error")


async def healthy(server: str) -> None:
    """The server still answers and a new player still gets in."""
    async with httpx.AsyncClient(trust_env=False, timeout=5) as http:
        assert (await http.get(f"{server}/api/health")).status_code == 200
    room = await create_room(server)
    async with await Client.connect(server, room) as player:
        await player.join("Late")
        assert await player.ping() < 5


# --- item 2: crowding ------------------------------------------------------------------------


async def test_a_seated_player_gets_into_a_room_crowded_by_silent_sockets(
    live_server: LiveServer,
) -> None:
    """Issue 7 item 2 as reported: 200 sockets that never say hello, from one client, kept a
    seated player with a valid token out of their room (1008 "the room is crowded")."""
    room = await create_room(live_server)
    ann = await Client.connect(live_server, room)
    await ann.join("Ann")
    await ann.close()
    crowd: list[ClientConnection] = []
    try:
        for _ in range(200):
            try:
                crowd.append(await raw_socket(live_server, room, "127.0.0.2"))
            except (OSError, ConnectionClosed):
                break
        back = await ann.reconnect()
        assert back.player == ann.player
        await back.close()
        await asyncio.sleep(0.3)
        refused = {sock.close_code for sock in crowd if sock.close_code is not None}
        assert refused == {1013}  # past the per-client cap of silent sockets
    finally:
        await asyncio.gather(*(sock.close() for sock in crowd))
    await healthy(live_server)


async def test_a_seated_player_gets_into_a_room_full_of_spectators(edge_server: Make) -> None:
    server = edge_server(room_sockets=3)
    room = await create_room(server)
    ann = await Client.connect(server, room)
    await ann.join("Ann")
    await ann.close()
    watchers = [await Client.connect(server, room) for _ in range(3)]
    try:
        with pytest.raises(Exception) as crowded:
            await Client.connect(server, room)
        assert getattr(crowded.value, "code", None) == 1008
        back = await ann.reconnect()  # the room is full, but Ann has a seat in it
        assert back.player == ann.player
        await back.close()
    finally:
        await asyncio.gather(*(w.close() for w in watchers))


async def test_a_seat_keeps_at_most_seat_sockets_open(edge_server: Make) -> None:
    server = edge_server(seat_sockets=2)
    room = await create_room(server)
    ann = await Client.connect(server, room)
    await ann.join("Ann")
    tabs = [await Client.connect(server, room, token=ann.token) for _ in range(2)]
    closed = await ann.wait_closed()  # the oldest made way, told why (not a retried 1008)
    assert (closed.code, closed.reason) == (4009, "seat_elsewhere")
    for tab in tabs:
        assert tab.player == ann.player and await tab.ping() < 5
    await asyncio.gather(*(tab.close() for tab in tabs))


async def test_two_tabs_of_one_seat_hand_it_over_with_4009_and_only_when_asked(
    edge_server: Make,
) -> None:
    """One socket per seat: the second tab takes the seat, the first is closed with 4009
    ``seat_elsewhere`` and the second stays open (nothing closes it back until the first
    tab is asked to play there again, which closes the second with the same code)."""
    server = edge_server(seat_sockets=1)
    room = await create_room(server)
    first = await Client.connect(server, room)
    await first.join("Ann")
    second = await Client.connect(server, room, token=first.token)
    closed = await first.wait_closed()
    assert (closed.code, closed.reason) == (4009, "seat_elsewhere")
    await asyncio.sleep(0.5)
    assert second.player == first.player and await second.ping() < 5  # still open
    again = await first.reconnect()  # "Play here" in the first tab
    closed = await second.wait_closed()
    assert (closed.code, closed.reason) == (4009, "seat_elsewhere")
    assert again.player == first.player and await again.ping() < 5
    await again.close()


async def test_silent_sockets_are_limited_per_client_and_in_total(edge_server: Make) -> None:
    server = edge_server(unauth_per_client=3, unauth_total=5)
    room = await create_room(server)
    mine = [await raw_socket(server, room, "127.0.0.2") for _ in range(3)]
    one_more = await raw_socket(server, room, "127.0.0.2")
    assert await close_code(one_more) == 1013
    others = [await raw_socket(server, room, "127.0.0.3") for _ in range(2)]
    third = await raw_socket(server, room, "127.0.0.4")
    assert await close_code(third) == 1013  # five wait in total
    await mine[0].send(json.dumps({"type": "hello"}))  # a greeted socket frees its place
    assert json.loads(await asyncio.wait_for(mine[0].recv(), 5))["type"] == "welcome"
    fourth = await raw_socket(server, room, "127.0.0.4")
    assert await is_open(fourth)
    for sock in [*mine, *others, fourth]:
        await sock.close()
    await healthy(server)


async def test_ping_is_not_a_greeting(edge_server: Make) -> None:
    server = edge_server(hello_seconds=1.5)
    room = await create_room(server)
    sock = await raw_socket(server, room)
    start = time.monotonic()

    async def pings() -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:  # four a second: each used to restart the wait for hello
                await sock.send(json.dumps({"type": "ping"}))
                await asyncio.sleep(0.25)

    pinging = asyncio.create_task(pings())
    assert await close_code(sock, 8) == 1008
    assert time.monotonic() - start < 6
    pinging.cancel()
    assert "hello_seconds" in server.log.read_text()


# --- item 3: request bodies ------------------------------------------------------------------


async def http_exchange(server: LiveServer, head: bytes, *parts: bytes) -> tuple[bytes, bool]:
    """Send ``head`` and ``parts`` on a raw connection; the reply and whether the server then
    closed the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        writer.write(head)
        for part in parts:
            writer.write(part)
            await writer.drain()
        reply = await asyncio.wait_for(reader.readuntil(b"}"), 5)
        try:
            closed = await asyncio.wait_for(reader.read(), 5) == b""
        except TimeoutError:
            closed = False
        return reply, closed
    finally:
        writer.close()


def post_head(length: int | None, server: LiveServer) -> bytes:
    size = f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
    return (
        f"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        f"Content-Type: application/json\r\n{size}\r\n\r\n"
    ).encode()


async def test_a_huge_declared_body_gets_413_before_it_is_sent(edge_server: Make) -> None:
    server = edge_server()  # of its own: room creation limits come before the body
    reply, closed = await http_exchange(server, post_head(300_000_000, server))
    assert reply.startswith(b"HTTP/1.1 413") and b'"too_big"' in reply and closed
    await healthy(server)


async def test_a_huge_streamed_body_gets_413_without_reading_on(edge_server: Make) -> None:
    server = edge_server()
    chunk = b"400\r\n" + b" " * 1024 + b"\r\n"  # chunked: no length declared
    reply, closed = await http_exchange(server, post_head(None, server), *[chunk] * 8)
    assert reply.startswith(b"HTTP/1.1 413") and b"exceeds 4096" in reply and closed
    await healthy(server)


@pytest.mark.parametrize(
    ("body", "code", "quoted"),
    [
        (b'{"deck": "\xff\xfe"}', "bad_encoding", "0xff"),
        (b" " * 4000, "blank_body", "4000 bytes"),
        (b"\r\n\t ", "blank_body", "4 bytes"),
        (b"[" * 2000 + b"]" * 2000, "too_deep", "deeper than 16"),
        (b'{"mode": ' + b"[" * 100 + b"]" * 100 + b"}", "too_deep", "deeper than 16"),
        (b"\x00", "bad_settings", "malformed"),
    ],
)
async def test_a_bad_body_gets_400_with_a_clear_message(
    edge_server: Make, body: bytes, code: str, quoted: str
) -> None:
    server = edge_server()
    async with httpx.AsyncClient(base_url=server, trust_env=False, timeout=5) as http:
        response = await http.post("/api/rooms", content=body)
    assert response.status_code == 400, response.text
    assert response.json()["code"] == code and quoted in response.json()["message"]


async def test_an_empty_body_takes_the_defaults(edge_server: Make) -> None:
    async with httpx.AsyncClient(base_url=edge_server(), trust_env=False, timeout=5) as http:
        assert (await http.post("/api/rooms", content=b"")).status_code == 201


async def test_a_trickling_body_gets_408(edge_server: Make) -> None:
    server = edge_server(body_seconds=1)
    start = time.monotonic()
    reply, closed = await http_exchange(server, post_head(100, server), b'{"mode": ')
    assert reply.startswith(b"HTTP/1.1 408") and closed
    assert time.monotonic() - start < 4
    await healthy(server)


# --- item 5: presence amplification ----------------------------------------------------------


async def presences(watcher: Client, seconds: float) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            message = await asyncio.wait_for(watcher.next_message(), left)
        except TimeoutError:
            break
        if message["type"] == "presence":
            seen.append(message)
    return seen


async def test_a_repeated_hello_sends_nothing_to_the_others(live_server: LiveServer) -> None:
    room = await create_room(live_server)
    ann, bob = await Client.connect(live_server, room), await Client.connect(live_server, room)
    await ann.join("Ann")
    await bob.join("Bob")
    await presences(bob, 0.6)  # Ann's arrival
    for _ in range(15):
        await ann.send("hello", token=ann.token, since=ann.version)
    welcomes = 0
    while welcomes < 15:
        welcomes += (await asyncio.wait_for(ann.next_message(), 5))["type"] == "welcome"
    assert await presences(bob, 1.0) == []
    assert ann.player is not None and await ann.ping() < 5
    await asyncio.gather(ann.close(), bob.close())


async def test_presence_is_coalesced_when_a_player_cycles_connections(
    live_server: LiveServer,
) -> None:
    room = await create_room(live_server)
    ann, bob = await Client.connect(live_server, room), await Client.connect(live_server, room)
    await ann.join("Ann")
    await presences(bob, 0.6)
    await ann.close()
    for _ in range(12):  # off and on again, as fast as the client can
        ann = await ann.reconnect()
        await ann.close()
    ann = await ann.reconnect()
    seen = await presences(bob, 1.0)
    assert len(seen) <= 8, seen  # 25 changes, at most one flush per 0.25 s
    if seen:
        assert seen[-1] == {"type": "presence", "player": ann.player, "connected": True}
    await asyncio.gather(ann.close(), bob.close())


# --- item 9: deep JSON -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "frame", ["[" * 2000 + "]" * 2000, '{"a":' * 600 + "1" + "}" * 600], ids=["arrays", "objects"]
)
async def test_deep_json_gets_a_named_error(live_server: LiveServer, frame: str) -> None:
    room = await create_room(live_server)
    async with await Client.connect(live_server, room) as sock:
        await sock.send_raw(frame)
        error = await sock.wait_error()
        assert error.code == "too_deep" and "deeper than 16" in str(error)
        assert await sock.ping() < 5  # the connection stays usable
    assert "RecursionError" not in live_server.log.read_text()


# --- item 10: slow and silent connections ----------------------------------------------------


async def eof_within(reader: asyncio.StreamReader, seconds: float) -> bool:
    try:
        return await asyncio.wait_for(reader.read(), seconds) is not None
    except (TimeoutError, ConnectionError):
        return False


async def test_silent_and_trickling_connections_are_closed_and_logged(edge_server: Make) -> None:
    server = edge_server(header_seconds=1)
    start = time.monotonic()
    silent = await asyncio.open_connection("127.0.0.1", server.port, local_addr=("127.0.0.2", 0))
    slow = await asyncio.open_connection("127.0.0.1", server.port, local_addr=("127.0.0.2", 0))
    head = b"GET /ws/x HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"

    async def trickle() -> None:
        for byte in head:
            slow[1].write(bytes([byte]))
            await asyncio.sleep(0.1)

    dripping = asyncio.create_task(trickle())
    try:
        assert await eof_within(silent[0], 4)
        assert await eof_within(slow[0], 4)
        assert time.monotonic() - start < 5
    finally:
        dripping.cancel()
        for _, writer in (silent, slow):
            writer.close()
    assert "limit header_seconds" in server.log.read_text()
    await healthy(server)


async def test_connections_per_client_are_capped(edge_server: Make) -> None:
    server = edge_server(connections_per_client=5)
    held = [
        await asyncio.open_connection("127.0.0.1", server.port, local_addr=("127.0.0.2", 0))
        for _ in range(5)
    ]
    extra = await asyncio.open_connection("127.0.0.1", server.port, local_addr=("127.0.0.2", 0))
    assert await eof_within(extra[0], 3)  # closed at once
    await healthy(server)  # other clients get in
    for _, writer in [*held, extra]:
        writer.close()
    assert "limit connections_per_client" in server.log.read_text()


async def test_new_connections_are_rate_limited_per_client(edge_server: Make) -> None:
    server = edge_server(connect_burst=5, connect_rate=0.1)
    opened = [
        await asyncio.open_connection("127.0.0.1", server.port, local_addr=("127.0.0.2", 0))
        for _ in range(6)
    ]
    assert not await eof_within(opened[4][0], 0.5)  # the fifth is served...
    assert await eof_within(opened[5][0], 3)  # ...the sixth is closed at once
    await healthy(server)  # another address is not affected
    for _, writer in opened:
        writer.close()
    assert "limit connect_rate" in server.log.read_text()


# --- item 7 (the proxy part): X-Forwarded-For --------------------------------------------------


async def test_forwarded_for_from_a_stranger_is_ignored(edge_server: Make) -> None:
    server = edge_server(unauth_per_client=2)
    room = await create_room(server)
    socks = [
        await raw_socket(server, room, headers={"X-Forwarded-For": f"10.0.0.{n}"})
        for n in range(3)
    ]
    assert await close_code(socks[2]) == 1013  # one client, whatever it claims to be
    for sock in socks:
        await sock.close()


async def test_forwarded_for_from_a_trusted_proxy_names_the_client(edge_server: Make) -> None:
    server = edge_server(unauth_per_client=2, trusted_proxies="127.0.0.1")
    room = await create_room(server)
    socks = [
        await raw_socket(server, room, headers={"X-Forwarded-For": f"10.0.0.{n}"})
        for n in range(4)
    ]
    assert all([await is_open(sock) for sock in socks])  # four clients behind the proxy
    same = [
        await raw_socket(server, room, headers={"X-Forwarded-For": "10.0.0.0"}) for _ in range(2)
    ]
    assert await close_code(same[1]) == 1013  # 10.0.0.0's third silent socket
    for sock in [*socks, *same]:
        await sock.close()


async def test_a_player_who_leaves_is_not_reported_as_a_lost_connection(
    live_server: LiveServer,
) -> None:
    room = await create_room(live_server)
    ann, bob = await Client.connect(live_server, room), await Client.connect(live_server, room)
    await ann.join("Ann")
    await bob.join("Bob")
    await presences(bob, 0.6)  # Ann's arrival
    gone = ann.player
    await ann.leave()
    assert [m for m in await presences(bob, 1.0) if m["player"] == gone] == []
    assert bob.seat(gone or "") is None  # the update itself said Ann left
    await asyncio.gather(ann.close(), bob.close())


async def _post_big(server: LiveServer, body: bytes) -> str:
    """POST ``body`` to /api/rooms from a new connection: the status read, or the error."""
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        try:
            reply = await http.post(f"{server}/api/rooms", content=body)
        except httpx.HTTPError as exc:
            return type(exc).__name__
    assert reply.status_code != 413 or reply.json()["code"] == "too_big"
    return str(reply.status_code)


async def test_a_refused_50_mb_upload_reads_its_413_every_time(edge_server: Make) -> None:
    """Issue 20, item 11: the server drains a refused body (a lingering close) instead of
    closing with it unread, which resets the connection before the client reads the 413."""
    server = edge_server()
    body = b" " * 50_000_000
    seen = [await _post_big(server, body) for _ in range(20)]
    assert seen == ["413"] * 20, seen
    await healthy(server)


async def test_a_refused_upload_is_drained_within_bounds(edge_server: Make) -> None:
    """Past ``linger_bytes`` (here 1 MB) the connection is cut: a client sending 50 MB then
    sees a reset; a smaller one still reads its 413."""
    server = edge_server(linger_bytes=1_000_000)
    assert await _post_big(server, b" " * 500_000) == "413"
    assert await _post_big(server, b" " * 50_000_000) != "413"
    assert "linger_bytes" in server.log.read_text()
    await healthy(server)
