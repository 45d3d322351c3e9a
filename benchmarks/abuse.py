"""Attacks of issues 7 and 20 against a live server while honest rooms play.

Starts ``python -m setgame.server`` on loopback (a temporary SQLite database, the default
limits), seats honest rooms of four players who play whole games through the Python protocol
client (``setgame.server.client``) and start again when a game ends, and then runs each attack
in turn for a few seconds. Attackers connect from other loopback addresses (127.0.0.2 and up,
all of 127/8 is loopback on Linux), so that they are other clients than the honest players.

For each attack it prints the honest rooms' pick->update latency (from sending a valid pick to
the picker receiving the update with the set taken) as p99 and as a ratio to the same rooms'
p99 measured without attack just before it (a quiet window as long as the attack: on a shared
machine, the closest comparison), the honest errors (disconnections,
refused connections, timeouts, server errors that are not races between honest players; a new
spectator also connects every second and must get in), and the server's RSS before, at the peak
and after the attack ended. Targets: every ratio <= 3, zero honest errors, RSS after within 20%
of the start (and, for the sign-in flood, every honest sign-in within 5 s). Every loop is
bounded in time and stops by itself.

    python benchmarks/abuse.py            # about six minutes
    python benchmarks/abuse.py --quick    # a smoke test: fewer rooms, shorter attacks
    python benchmarks/abuse.py --json     # one JSON object instead of the table
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[1] / "src"
sys.path.insert(0, str(SRC))

import httpx  # noqa: E402
from websockets.asyncio.client import connect as ws_connect  # noqa: E402

from services import free_port, stop_process  # noqa: E402  (beside this script)
from setgame.server.client import (  # noqa: E402
    Client,
    ClientError,
    Message,
    ServerError,
    create_room,
    table_sets,
    ws_url,
)

SIGNIN_PATIENCE = 5.0
"""Seconds an honest sign-in may take during the sign-in flood (issue 20)."""
RACES = frozenset(
    ("board_held", "stale_version", "not_holder", "locked_out", "bad_phase", "not_playing",
     "no_call", "not_on_table", "not_over", "already_declared", "rate_limited", "cooling_down")
)
"""Errors an honest player gets for acting on a view a moment old: not counted as errors."""
TARGET_RATIO = 3.0
TARGET_RSS = 1.2


@dataclass
class Scale:
    rooms: int = 6
    seconds: float = 12.0  # each attack, and the baseline
    settle: float = 6.0  # after an attack, before RSS is read
    silent: int = 1000  # silent TCP connections
    trickling: int = 1000
    crowd: int = 250  # sockets that never say hello
    spectators: int = 150  # in the presence attacker's room
    rooms_flood: int = 3000  # room creations tried with forged X-Forwarded-For
    signin_flooders: int = 60  # addresses trying passwords on one name at once


QUICK = Scale(rooms=2, seconds=3.0, settle=1.0, silent=150, trickling=100, crowd=80,
              spectators=30, rooms_flood=400)


# --- the server --------------------------------------------------------------------------------


@contextlib.contextmanager
def server(directory: Path) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    port = free_port()
    log = directory / "server.log"
    paths = [str(SRC), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    command = [sys.executable, "-m", "setgame.server", "--host", "127.0.0.1", "--port", str(port),
               "--db", str(directory / "abuse.db"), "--create-db", "--log-level", "warning"]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: {log.read_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/api/health", timeout=1, trust_env=False).is_success:
                    break
            time.sleep(0.1)
        yield base, proc, log
    finally:
        stop_process(proc, 10)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# --- honest players ----------------------------------------------------------------------------


@dataclass
class Record:
    latencies: list[tuple[float, float]] = field(default_factory=list)  # (sent at, seconds)
    errors: list[tuple[float, str]] = field(default_factory=list)
    sets: Counter[str] = field(default_factory=Counter)  # room -> honest sets taken

    def error(self, kind: str) -> None:
        self.errors.append((time.time(), kind[:100]))


class Honest:
    """One honest player: looks at the table, calls a set after a human pause, picks it."""

    def __init__(self, client: Client, seat: int, record: Record, seed: str) -> None:
        self.client, self.seat, self.record = client, seat, record
        self.rng = random.Random(seed)
        self.pending: dict[frozenset[str], float] = {}
        self.due = 0.0
        self.seen: tuple[str, ...] = ()
        client.listener = self._arrived

    def _arrived(self, client: Client, message: Message, at: float) -> None:
        if message["type"] != "update":
            return
        for event in message["events"]:
            if event.get("type") == "set_taken" and event.get("player") == client.player:
                sent = self.pending.pop(frozenset(event["cards"]), None)
                if sent is not None:
                    self.record.latencies.append((time.time(), time.perf_counter() - sent))
                    self.record.sets[client.room] += 1

    async def run(self, until: float, stop: Any) -> None:
        while time.monotonic() < until and not stop.is_set():
            try:
                message = await self.client.next_message(0.05)
                if message["type"] == "error" and message.get("code") not in RACES:
                    self.record.error(f"server error {message.get('code')}")
            except TimeoutError:
                pass
            await self.act()

    async def act(self) -> None:
        state, client = self.client.state, self.client
        if state is None or time.monotonic() < self.due:
            return
        phase = state["phase"]
        if phase != "playing":
            if self.seat == 0 and phase in ("lobby", "round_over", "match_over"):
                self.due = time.monotonic() + 0.5
                await (client.again() if phase == "match_over" else client.start())
            return
        if state["holder"] == client.player:
            sets = table_sets(state)
            if sets:
                cards = self.rng.choice(sets)
                self.pending[frozenset(cards)] = time.perf_counter()
                await client.pick(cards)
            self.due = time.monotonic() + 0.2
            return
        table = tuple(state["table"])
        if state["holder"] is None and table != self.seen and table_sets(state):
            me = client.me or {}
            if not me.get("locked"):
                self.seen = table
                await asyncio.sleep(self.rng.uniform(0.2, 0.7))  # a person looks for the set
                if client.state is not None and client.state["holder"] is None:
                    await client.call()
                    self.due = time.monotonic() + 0.1


async def seat_room(base: str, index: int, record: Record) -> list[Honest]:
    room = await create_room(base, penalty="point", no_set="auto", rounds="single", public=False)
    players = []
    for seat in range(4):
        client = await Client.connect(base, room, timeout=20)
        await client.join(f"Honest {index}.{seat}", timeout=20)
        players.append(Honest(client, seat, record, f"{room}:{seat}"))
    return players


async def probe(base: str, room: str, record: Record, until: float, stop: Any) -> None:
    """A new spectator every second: new players must always get in."""
    while time.monotonic() < until and not stop.is_set():
        try:
            async with await Client.connect(base, room, timeout=10) as client:
                await client.ping(timeout=10)
        except (ClientError, OSError, TimeoutError) as exc:
            record.error(f"new player refused: {exc}")
        await asyncio.sleep(1.0)


async def play_honest(base: str, rooms: int, stop: Any, out: Any) -> None:
    record = Record()
    seated = [await seat_room(base, i, record) for i in range(rooms)]
    out.put([room[0].client.room for room in seated])
    until = time.monotonic() + 900  # a bound of its own, should the parent vanish
    tasks = [asyncio.create_task(p.run(until, stop)) for room in seated for p in room]
    tasks.append(asyncio.create_task(probe(base, seated[-1][0].client.room, record, until, stop)))
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(p.client.close() for room in seated for p in room))
    out.put(record)


def honest_process(base: str, rooms: int, stop: Any, out: Any) -> None:
    """The honest players run in a process of their own, so that the attackers' work in
    this one does not show up as their latency."""
    asyncio.run(play_honest(base, rooms, stop, out))


# --- attacks -----------------------------------------------------------------------------------

Attack = Callable[["Context", float], Coroutine[Any, Any, dict[str, Any]]]


@dataclass
class Context:
    base: str
    port: int
    rooms: list[str]  # the honest rooms' ids
    scale: Scale
    log: Path


def addr(n: int) -> str:
    return f"127.0.{1 + n // 250}.{2 + n % 250}"


async def attacker_room(ctx: Context, source: str) -> str:
    """A room of the attacker's own, created from the attacker's address."""
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with httpx.AsyncClient(transport=transport, trust_env=False, timeout=10) as http:
        return await create_room(ctx.base, http=http, public=False)


async def raw_ws(ctx: Context, room: str, source: str, **kw: Any) -> Any:
    return await ws_connect(ws_url(ctx.base, room), proxy=None, open_timeout=10,
                            local_addr=(source, 0), **kw)


async def join_honest_room(ctx: Context, name: str, patience: float = 15.0) -> Client:
    """A seat in one of the honest rooms: a room between matches refuses joins for a moment
    (``not_playing``) until its players start the next one, so try each in turn."""
    deadline = time.monotonic() + patience
    while True:
        for room in ctx.rooms:
            client = await Client.connect(ctx.base, room)
            try:
                await client.join(name)
                return client
            except ServerError as exc:
                await client.close()
                if exc.code not in ("not_playing", "bad_phase") or time.monotonic() > deadline:
                    raise
        await asyncio.sleep(0.2)


async def griefing(ctx: Context, seconds: float) -> dict[str, Any]:
    """Item 1: a player with no sets calls, lets the window run out, calls again at once."""
    griefer = await join_honest_room(ctx, "Griefer")
    calls, taken = 0, 0
    try:
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            with contextlib.suppress(TimeoutError):
                message = await griefer.next_message(0.005)
                if message["type"] == "update":
                    taken += sum(e.get("type") == "set_taken" for e in message["events"])
            state = griefer.state
            if state and state["phase"] == "playing" and state["holder"] is None:
                await griefer.call()  # the moment the board is free: never picks
                calls += 1
                await asyncio.sleep(0.06)  # under the socket's 20 messages a second
    finally:
        await griefer.close()
    return {"calls": calls, "sets_taken_by_others_in_griefed_room": taken}


async def crowding(ctx: Context, seconds: float) -> dict[str, Any]:
    """Item 2: sockets that never say hello fill a room; its seated player must get in."""
    room = await attacker_room(ctx, "127.0.0.2")
    player = await Client.connect(ctx.base, room)
    await player.join("Seated")
    opened: list[Any] = []
    kept_out = 0
    until = time.monotonic() + seconds
    try:
        while time.monotonic() < until:
            for _ in range(ctx.scale.crowd - len(opened)):
                with contextlib.suppress(Exception):  # refused, one way or another
                    opened.append(await raw_ws(ctx, room, "127.0.0.2"))
            opened = [s for s in opened if s.close_code is None]
            await player.close()
            try:
                player = await player.reconnect()  # a seated player comes back
            except ClientError:
                kept_out += 1
            await asyncio.sleep(0.5)
    finally:
        await asyncio.gather(*(s.close() for s in opened), player.close(),
                             return_exceptions=True)
    return {"silent_sockets_held": len(opened), "seated_player_kept_out": kept_out}


async def big_bodies(ctx: Context, seconds: float) -> dict[str, Any]:
    """Item 3: six at once POST 300 MB bodies of spaces (chunked: no length to refuse)."""
    sent = Counter[str]()

    async def one(n: int, until: float) -> None:
        while time.monotonic() < until:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", ctx.port, local_addr=(addr(n), 0))
            except OSError:
                sent["refused"] += 1
                await asyncio.sleep(0.1)
                continue
            head = (b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Transfer-Encoding: chunked\r\n\r\n")
            chunk = b"10000\r\n" + b" " * 65536 + b"\r\n"
            try:
                writer.write(head)
                for _ in range(300 * 16):  # 300 MB in 64 KB chunks
                    if time.monotonic() > until:
                        break
                    writer.write(chunk)
                    await asyncio.wait_for(writer.drain(), 5)
                    sent["bytes"] += len(chunk)
            except (OSError, TimeoutError):
                pass
            with contextlib.suppress(OSError, TimeoutError):
                status = (await asyncio.wait_for(reader.readline(), 2)).decode(errors="replace")
                sent[status.split(" ")[1] if " " in status else "no reply"] += 1
            writer.close()

    until = time.monotonic() + seconds
    await asyncio.gather(*(one(10 + n, until) for n in range(6)))
    return {"mb_sent": round(sent.pop("bytes", 0) / 2**20, 1), **dict(sent)}


async def ghosts(ctx: Context, seconds: float) -> dict[str, Any]:
    """Item 4: one client joins and leaves a room in play as fast as it may."""
    room = ctx.rooms[0]
    cycles, errors = 0, Counter[str]()
    until = time.monotonic() + seconds
    sock = await Client.connect(ctx.base, room)
    try:
        while time.monotonic() < until:
            try:
                await sock.join(f"Ghost {cycles}")
                await sock.leave()
                cycles += 1
            except ServerError as exc:
                errors[exc.code] += 1
                await asyncio.sleep(0.2)
            except ClientError:
                await sock.close()
                sock = await Client.connect(ctx.base, room)
            await asyncio.sleep(0.05)
    finally:
        await sock.close()
    size = 0
    with contextlib.suppress(ClientError, TimeoutError):
        async with httpx.AsyncClient(trust_env=False, timeout=5) as http:
            size = len((await http.get(f"{ctx.base}/api/rooms/{room}")).content)
    return {"cycles": cycles, "refused": dict(errors), "room_bytes_after": size}


async def presence(ctx: Context, seconds: float) -> dict[str, Any]:
    """Item 5: four seats re-send hello 19 times a second before many spectators."""
    room = await attacker_room(ctx, "127.0.0.3")
    seats = [await Client.connect(ctx.base, room) for _ in range(4)]
    for n, seat in enumerate(seats):
        await seat.join(f"Echo {n}")
    watchers: list[Client] = []
    for _ in range(ctx.scale.spectators):
        with contextlib.suppress(ClientError, OSError):
            watchers.append(await Client.connect(ctx.base, room))
    hellos = 0
    until = time.monotonic() + seconds
    try:
        while time.monotonic() < until:
            for seat in seats:
                with contextlib.suppress(ClientError):
                    await seat.send("hello", token=seat.token)
                    hellos += 1
            for client in (*seats, *watchers):
                client.drain()
            await asyncio.sleep(1 / 19)
        received = sum(1 for w in watchers for m in w.drain() if m["type"] == "presence")
    finally:
        await asyncio.gather(*(c.close() for c in (*seats, *watchers)))
    return {"hellos": hellos, "spectators": len(watchers), "presence_heard": received}


async def room_flood(ctx: Context, seconds: float) -> dict[str, Any]:
    """Item 7: room creation with a forged X-Forwarded-For per request."""
    statuses = Counter[int]()
    until = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=ctx.base, trust_env=False, timeout=10) as http:

        async def loop(k: int) -> None:
            n = k
            while time.monotonic() < until and sum(statuses.values()) < ctx.scale.rooms_flood:
                forged = {"X-Forwarded-For": f"10.{n % 250}.{n // 250 % 250}.1"}
                try:
                    reply = await http.post("/api/rooms", json={}, headers=forged)
                    statuses[reply.status_code] += 1
                except httpx.HTTPError:
                    statuses[0] += 1
                n += 4

        await asyncio.gather(*(loop(k) for k in range(4)))
    return {"created": statuses[201], "refused_429": statuses[429],
            "other": sum(v for k, v in statuses.items() if k not in (201, 429))}


async def room_list(ctx: Context, seconds: float) -> dict[str, Any]:
    """Item 6: four clients loop GET /api/rooms."""
    count, slowest = 0, 0.0
    until = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=ctx.base, trust_env=False, timeout=10) as http:

        async def loop() -> None:
            nonlocal count, slowest
            while time.monotonic() < until:
                start = time.perf_counter()
                with contextlib.suppress(httpx.HTTPError):
                    await http.get("/api/rooms")
                slowest = max(slowest, time.perf_counter() - start)
                count += 1

        await asyncio.gather(*(loop() for _ in range(4)))
    return {"requests": count, "slowest_ms": round(slowest * 1000, 1)}


async def deep_json(ctx: Context, seconds: float) -> dict[str, Any]:
    """Item 9: 2,000 nested arrays (4 KB) on sockets and in request bodies."""
    room = await attacker_room(ctx, "127.0.0.4")
    frame = "[" * 2000 + "]" * 2000
    replies = Counter[str]()
    socks = [await Client.connect(ctx.base, room) for _ in range(5)]
    until = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=ctx.base, trust_env=False, timeout=10) as http:
        while time.monotonic() < until:
            for sock in socks:
                with contextlib.suppress(ClientError):
                    await sock.send_raw(frame)
                for message in sock.drain():
                    replies[str(message.get("code", message["type"]))] += 1
            with contextlib.suppress(httpx.HTTPError):
                body = await http.post("/api/rooms", content=frame.encode())
                replies[f"http {body.status_code}"] += 1
            await asyncio.sleep(0.1)
    closed = [s.closed.code for s in socks if s.closed is not None]
    await asyncio.gather(*(s.close() for s in socks))
    recursion = "RecursionError" in ctx.log.read_text(errors="replace")
    return {"replies": dict(replies), "closed": closed, "recursion_error_logged": recursion}


async def slow_silent(ctx: Context, seconds: float) -> dict[str, Any]:
    """Item 10: silent and trickling TCP connections, as many as the scale says."""
    held: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    failed = 0
    for n in range(ctx.scale.silent + ctx.scale.trickling):
        try:
            held.append(await asyncio.open_connection(
                "127.0.0.1", ctx.port, local_addr=(addr(100 + n // 200), 0)))
        except OSError:
            failed += 1
    trickle = held[ctx.scale.silent:]
    head = b"GET /ws/x HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nX-Pad: "
    until = time.monotonic() + seconds
    i = 0
    while time.monotonic() < until:
        for _, writer in trickle:
            with contextlib.suppress(OSError):
                writer.write(head[i % len(head): i % len(head) + 1])
        i += 1
        await asyncio.sleep(0.5)
    closed = sum(1 for reader, _ in held if reader.at_eof() or reader.exception() is not None)
    for _, writer in held:
        writer.close()
    return {"opened": len(held), "failed": failed, "closed_by_server": closed}


async def chat_flood(ctx: Context, seconds: float) -> dict[str, Any]:
    """Issue 20, finding 6: 150 spectator sockets from one address chat as fast as each
    socket may (two lines a second, four times its own rate) in an honest room, where a
    seated player from another address says a line every 2 s: none of the player's lines
    may be refused, and the address gets its own burst and rate, not 150 sockets' worth."""
    chatter = await join_honest_room(ctx, "Chatter")
    room, source = chatter.room, "127.0.0.5"
    socks, refused = [], Counter[str]()
    heard = Counter[str]()  # what the attacker's sockets were answered

    async def read(ws: Any) -> None:
        with contextlib.suppress(Exception):
            async for text in ws:
                message = json.loads(text)
                if message.get("type") == "error":
                    heard[str(message.get("code"))] += 1

    async def spam(ws: Any, k: int, until: float) -> None:
        n = 0
        with contextlib.suppress(Exception):
            while time.monotonic() < until:
                await ws.send(json.dumps({"type": "chat", "text": f"spam {k}.{n}"}))
                n += 1
                heard["sent"] += 1
                await asyncio.sleep(0.5)

    for _ in range(ctx.scale.spectators):
        with contextlib.suppress(Exception):
            ws = await raw_ws(ctx, room, source)
            await ws.send(json.dumps({"type": "hello"}))
            socks.append(ws)
    readers = [asyncio.create_task(read(ws)) for ws in socks]
    until = time.monotonic() + seconds
    spammers = [asyncio.create_task(spam(ws, k, until)) for k, ws in enumerate(socks)]
    said, spam_heard = 0, 0

    def mine(message: Message) -> bool:
        """The chatter's own line or a refusal; counts the spectators' lines on the way."""
        nonlocal spam_heard
        if message["type"] == "chat":
            spam_heard += sum(line["name"] is None for line in message["messages"])
            return any(line["from"] == chatter.player for line in message["messages"])
        return bool(message["type"] == "error")

    slowest = 0.0
    try:
        while time.monotonic() < until:
            sent = time.perf_counter()
            await chatter.send("chat", text=f"still here {said}")
            try:  # the chatter shares the attackers' process (niced, busy): a long wait
                reply = await chatter.wait_for(mine, 20.0)
            except TimeoutError:
                refused["timeout"] += 1
                continue
            slowest = max(slowest, time.perf_counter() - sent)
            if reply["type"] == "error":
                refused[str(reply.get("code"))] += 1
            else:
                said += 1
            await asyncio.sleep(2.0)
    finally:
        await asyncio.gather(*spammers, return_exceptions=True)
        for ws in socks:
            with contextlib.suppress(Exception):
                await ws.close()
        await asyncio.gather(*readers, return_exceptions=True)
        await chatter.close()
    return {"sockets": len(socks), "spam_sent": heard.pop("sent", 0), "spam_answers": dict(heard),
            "spam_lines_heard": spam_heard, "honest_said": said,
            "honest_refused": sum(refused.values()), "honest_refusals": dict(refused),
            "honest_slowest_ms": round(slowest * 1000, 1)}


def _from(source: str) -> httpx.AsyncClient:
    """A client from ``source`` (plain HTTP: no certificates loaded, which takes a while)."""
    transport = httpx.AsyncHTTPTransport(local_address=source, verify=False)
    return httpx.AsyncClient(transport=transport, trust_env=False, timeout=30, verify=False)


async def signin_flood(ctx: Context, seconds: float) -> dict[str, Any]:
    """Issue 20, item 1: many addresses try passwords on one player's name, three requests at
    once each, while that player signs in with the right password every second from home."""
    statuses, honest, failures = Counter[str](), list[float](), list[str]()
    password = "honest horse battery"
    name = f"Owner{random.randrange(10**6)}"
    async with _from("127.0.0.6") as home:
        claimed = await home.post(f"{ctx.base}/api/account/claim",
                                  json={"name": name, "password": password})
        if claimed.status_code != 201:
            return {"attack_failed": f"claim: {claimed.status_code} {claimed.text[:100]}"}
    until = 0.0  # set once every client is made

    async def guess(client: httpx.AsyncClient) -> None:
        while time.monotonic() < until:
            try:
                reply = await client.post(f"{ctx.base}/api/account/signin",
                                          json={"name": name, "password": "not the password"})
                statuses[str(reply.status_code)] += 1
                if reply.status_code in (429, 503):
                    await asyncio.sleep(0.05)  # a bot that ignores Retry-After, nearly
            except httpx.HTTPError as exc:
                statuses[type(exc).__name__] += 1

    async def owner(client: httpx.AsyncClient) -> None:
        while time.monotonic() < until:
            started = time.perf_counter()
            client.cookies.clear()  # a new sign-in each time
            try:
                reply = await client.post(f"{ctx.base}/api/account/signin",
                                          json={"name": name, "password": password})
                took = time.perf_counter() - started
                honest.append(took)
                if reply.status_code != 200:
                    failures.append(f"sign-in {reply.status_code} in {took:.1f} s")
            except httpx.HTTPError as exc:
                failures.append(f"sign-in {type(exc).__name__}")
            await asyncio.sleep(1.0)

    async with contextlib.AsyncExitStack() as stack:
        home = await stack.enter_async_context(_from("127.0.0.6"))
        flooders = [await stack.enter_async_context(_from(addr(200 + n)))
                    for n in range(ctx.scale.signin_flooders)]
        until = time.monotonic() + seconds
        await asyncio.gather(owner(home), *(guess(c) for c in flooders for _ in range(3)))
    return {"guesses": dict(statuses), "honest_signins": len(honest),
            "honest_signin_max_s": round(max(honest, default=0.0), 2),
            "honest_failures": failures}


ATTACKS: dict[str, Attack] = {
    "griefing": griefing,
    "crowding": crowding,
    "big_bodies": big_bodies,
    "ghosts": ghosts,
    "presence": presence,
    "room_flood": room_flood,
    "room_list": room_list,
    "deep_json": deep_json,
    "slow_silent": slow_silent,
    "chat_flood": chat_flood,
    "signin_flood": signin_flood,
}


# --- the run -----------------------------------------------------------------------------------


def p99(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def window(record: Record, start: float, end: float) -> tuple[list[float], list[str]]:
    lat = [v for t, v in record.latencies if start <= t < end]
    err = [k for t, k in record.errors if start <= t < end]
    return lat, err


async def attacks(base: str, port: int, pid: int, log: Path, scale: Scale, rooms: list[str],
                  only: list[str]) -> tuple[float, float, dict[str, Any]]:
    """The baseline window, then each attack; returns the baseline window and the results."""
    ctx = Context(base, port, rooms, scale, log)
    await asyncio.sleep(scale.settle)  # the first games begin
    start = time.time()
    await asyncio.sleep(scale.seconds)
    end = time.time()
    rss_start = rss_mb(pid)
    results: dict[str, Any] = {}
    for name in only:
        results[name] = await run_attack(ctx, name, pid, rss_start)
    return start, end, {"rss_start": rss_start, **results}


def measure(base: str, pid: int, log: Path, scale: Scale, only: list[str]) -> dict[str, Any]:
    import multiprocessing

    mp = multiprocessing.get_context("spawn")
    stop, out = mp.Event(), mp.Queue()
    honest = mp.Process(target=honest_process, args=(base, scale.rooms, stop, out), daemon=True)
    honest.start()
    # The attackers run at a lower CPU priority than the server and the honest players: on a
    # small machine their own work would otherwise show as the server's latency.
    os.nice(10)
    try:
        rooms = out.get(timeout=120)
        port = int(base.rsplit(":", 1)[1])
        start, end, results = asyncio.run(attacks(base, port, pid, log, scale, rooms, only))
    finally:
        stop.set()
    record: Record = out.get(timeout=60)
    honest.join(30)
    return summarize(record, start, end, results)


def summarize(record: Record, start: float, end: float, runs: dict[str, Any]) -> dict[str, Any]:
    lat, err = window(record, start, end)
    baseline = p99(lat)
    rss_start = runs.pop("rss_start")
    results: dict[str, Any] = {
        "baseline": {"p99_ms": _ms(baseline), "picks": len(lat), "errors": len(err),
                     "rss_mb": round(rss_start, 1)}
    }
    for name, run in runs.items():
        quiet_lat, quiet_err = window(record, run["quiet"], run["from"])
        quiet = p99(quiet_lat)
        lat, err = window(record, run.pop("from"), run.pop("to"))
        err += quiet_err
        # an attack that plays an honest part itself (chat_flood's seated player) says so
        err += ["honest refusal"] * int(run["detail"].get("honest_refused", 0))
        err += run["detail"].get("honest_failures", [])  # signin_flood's owner
        p = p99(lat)
        ratio = None if p is None or not quiet else p / quiet
        results[name] = {
            "p99_ms": _ms(p), "quiet_p99_ms": _ms(quiet), "quiet_picks": len(quiet_lat),
            "ratio": None if ratio is None else round(ratio, 2),
            "picks": len(lat), "honest_errors": len(err),
            "error_kinds": dict(Counter(err).most_common(5)),
            **{k: v for k, v in run.items() if k != "quiet"},
            "ok": ratio is not None and ratio <= TARGET_RATIO and not err
            and run["rss_after_mb"] <= TARGET_RSS * rss_start
            and run["detail"].get("honest_signin_max_s", 0.0) <= SIGNIN_PATIENCE,
        }
    return results


async def run_attack(ctx: Context, name: str, pid: int, rss_start: float) -> dict[str, Any]:
    quiet = time.time()  # the same rooms without attack, just before: the ratio's base
    await asyncio.sleep(ctx.scale.seconds)
    rss_before, peak = rss_mb(pid), 0.0
    start = time.time()
    task = asyncio.create_task(ATTACKS[name](ctx, ctx.scale.seconds))
    while not task.done():
        peak = max(peak, rss_mb(pid))
        await asyncio.wait({task}, timeout=0.25)
    try:
        detail = task.result()
    except Exception as exc:  # the attack itself broke: say so, go on with the next
        detail = {"attack_failed": f"{type(exc).__name__}: {exc}"[:200]}
    seconds = time.time() - start
    await asyncio.sleep(ctx.scale.settle)
    return {
        "quiet": quiet, "from": start, "to": time.time(), "seconds": round(seconds, 1),
        "rss_before_mb": round(rss_before, 1), "rss_peak_mb": round(max(peak, rss_before), 1),
        "rss_after_mb": round(rss_mb(pid), 1), "detail": detail,
    }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def report(results: dict[str, Any]) -> None:
    base = results["baseline"]
    print(f"baseline: pick->update p99 {base['p99_ms']} ms over {base['picks']} picks, "
          f"{base['errors']} honest errors, RSS {base['rss_mb']} MB")
    for name, r in results.items():
        if name == "baseline":
            continue
        print(f"attack {name}: ratio {r['ratio']}x (p99 {r['p99_ms']} ms over {r['picks']} picks "
              f"vs {r['quiet_p99_ms']} ms over {r['quiet_picks']} just before without attack), "
              f"honest errors {r['honest_errors']}, RSS {r['rss_before_mb']} -> peak "
              f"{r['rss_peak_mb']} -> after {r['rss_after_mb']} MB "
              f"[{'ok' if r['ok'] else 'MISSED'}]")
        print(f"    {json.dumps(r['detail'])}")
        if r["error_kinds"]:
            print(f"    errors: {json.dumps(r['error_kinds'])}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", action="append", choices=list(ATTACKS),
                        help="run only this attack (repeatable)")
    args = parser.parse_args(argv)
    scale = QUICK if args.quick else Scale()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory(prefix="setgame-abuse-") as tmp, server(Path(tmp)) as (
        base, proc, log
    ):
        results = measure(base, proc.pid, log, scale, args.only or list(ATTACKS))
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
