"""Several server processes over one PostgreSQL database and one Redis (issue 12,
``docs/cluster.md``): the throwaway services, room ownership with fencing tokens, and three
``setgame serve --redis`` processes playing one room."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import uuid
import weakref
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
import redis.asyncio as aioredis

from conftest import LiveServer, free_port
from server.test_restart import close_all, synced, take_a_set
from setgame.server.chat import chat_of, stored_lines
from setgame.server.chat_tables import chat_lines
from setgame.server.client import Client, Disconnected, create_room, table_sets
from setgame.server.cluster.lease import owner_key, process_channel
from setgame.server.cluster.mirror import MirrorChat, MirrorRoom
from setgame.server.cluster.node import ranked_first
from setgame.server.protocol import RoomSettings
from setgame.server.storage import Fenced, Storage


async def test_the_redis_fixture_is_a_private_server_without_persistence(redis_url: str) -> None:
    client = aioredis.from_url(redis_url)
    try:
        assert await client.ping()
        config = await client.config_get("save")
        assert config["save"] == ""  # nothing written to disk: a test's data dies with it
        await client.set("setgame:probe", "1", px=1000)
        assert await client.get("setgame:probe") == b"1"
    finally:
        await client.aclose()


# --- fencing tokens (storage) -------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "fence.db")


@contextlib.asynccontextmanager
async def two_processes(url: str) -> AsyncIterator[tuple[Storage, Storage]]:
    """Two storages on one database, as two server processes hold them."""
    first, second = Storage(url, create=True), Storage(url, create=False)
    await first.open()
    await second.open()
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


def tick(version: int) -> dict[str, Any]:
    return {"type": "tick", "at": version / 10}


async def test_a_takeover_refuses_every_write_of_the_stale_owner(database: str) -> None:
    room, game = uuid.uuid4().hex[:12], uuid.uuid4().hex[:12]
    async with two_processes(database) as (old, new):
        assert await old.take_room(room, "old") >= 1
        await old.create_room(room, {"mode": "multi"}, True)
        await old.create_game(game, room, 7, {"mode": "multi"})
        await old.append(game, 1, 0.1, tick(1), room=room)
        token = await new.take_room(room, "new")
        assert token == old.fences[room] + 1  # monotonic: every takeover a greater token
        with pytest.raises(Fenced, match=rf"room '{room}': fencing token {token - 1} is stale"):
            await old.append(game, 2, 0.2, tick(2), room=room)
        with pytest.raises(Fenced):
            await old.create_game(uuid.uuid4().hex[:12], room, 8, {"mode": "multi"})
        with pytest.raises(Fenced):
            await old.remove_seat(room, "p1")
        assert [a.version for a in await new.actions(game)] == [1]  # nothing of the stale one
        await new.append(game, 2, 0.2, tick(2), room=room)
        assert [a.action for a in await new.actions(game)] == [tick(1), tick(2)]
        assert (await new.room_record(room)).version == 2  # type: ignore[union-attr]


async def test_a_stale_write_fails_alone_in_its_group_commit(database: str) -> None:
    """The writer commits many rooms' actions in one transaction: a fenced one fails by
    itself, the others of its group are stored."""
    async with two_processes(database) as (old, new):
        rooms = [uuid.uuid4().hex[:12] for _ in range(3)]
        games = [uuid.uuid4().hex[:12] for _ in range(3)]
        for room, game in zip(rooms, games, strict=True):
            await old.take_room(room, "old")
            await old.create_room(room, {"mode": "multi"}, True)
            await old.create_game(game, room, 7, {"mode": "multi"})
        await new.take_room(rooms[1], "new")
        results = await asyncio.gather(
            *(old.append(g, 1, 0.1, tick(1), room=r) for r, g in zip(rooms, games, strict=True)),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], Fenced)
        assert [len(await new.actions(g)) for g in games] == [1, 0, 1]


async def test_a_stale_owner_chat_line_is_refused(database: str) -> None:
    """Chat lines are written under the room's fencing token (``chat.py``), as actions."""
    room, game = uuid.uuid4().hex[:12], uuid.uuid4().hex[:12]

    def line(seq: int) -> tuple[Any, dict[str, Any]]:
        values = {"game": game, "seq": seq, "room": room, "at": 0.0, "sender": "p1"}
        return chat_lines.insert().values(values | {"name": "A", "text": "hi", "posted": 0.0}), {}

    async with two_processes(database) as (old, new):
        await old.take_room(room, "old")
        await old.create_room(room, {"mode": "multi"}, True)
        await old.create_game(game, room, 7, {"mode": "multi"})
        await old.write(line(1), room=room)
        await new.take_room(room, "new")
        with pytest.raises(Fenced):
            await old.write(line(2), room=room)
        await new.write(line(2), room=room)
        assert [m["seq"] for m in await stored_lines(new, game)] == [1, 2]


async def test_without_a_token_nothing_is_guarded(database: str) -> None:
    """One process without ``--redis`` takes no room: its writes carry no guard, as before."""
    async with two_processes(database) as (one, _):
        room, game = uuid.uuid4().hex[:12], uuid.uuid4().hex[:12]
        await one.create_room(room, {"mode": "multi"}, True)
        await one.create_game(game, room, 7, {"mode": "multi"})
        await one.append(game, 1, 0.1, tick(1), room=room)
        assert one.fences == {} and len(await one.actions(game)) == 1


# --- three processes ------------------------------------------------------------------------


@pytest.fixture
async def cluster_db(postgres_url: str) -> AsyncIterator[str]:
    """A new, empty database of the test PostgreSQL cluster for this test alone."""
    import asyncpg

    name = "cluster_" + uuid.uuid4().hex[:10]
    dsn = postgres_url.replace("postgresql+asyncpg", "postgresql")
    admin = await asyncpg.connect(dsn)
    try:
        await admin.execute(f"CREATE DATABASE {name}")
        yield postgres_url.rsplit("/", 1)[0] + "/" + name
    finally:
        await admin.close()


@pytest.fixture
def cluster(cluster_db: str, redis_url: str, tmp_path: Path) -> Iterator[list[LiveServer]]:
    """Three ``setgame serve --redis`` processes over one PostgreSQL database."""
    with three_servers(cluster_db, redis_url, tmp_path) as servers:
        yield servers


@contextlib.contextmanager
def three_servers(
    db: str, redis_url: str, tmp_path: Path, env: dict[str, str] | None = None
) -> Iterator[list[LiveServer]]:
    servers = [LiveServer(db, tmp_path / f"node{n}.log", env=env) for n in range(3)]
    for n, server in enumerate(servers):
        server.options = ["--redis", redis_url]
        server.created = n > 0  # the first creates the tables, then the others start together
    try:
        servers[0].start()
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(LiveServer.start, servers[1:]))
        yield servers
    finally:
        for server in servers:
            if server.proc is not None and server.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(server.proc.pid, signal.SIGCONT)
        with ThreadPoolExecutor(3) as pool:
            list(pool.map(LiveServer.stop, servers))


class Seen:
    """Every update each client saw, in order: (version, events)."""

    def __init__(self) -> None:
        self.updates: dict[str, list[tuple[int, list[Any]]]] = {}

    def __call__(self, client: Client, message: dict[str, Any], _at: float) -> None:
        if message["type"] == "update":
            key = client.player or "?"
            self.updates.setdefault(key, []).append((message["version"], message["events"]))


async def play_sets(clients: list[Client], count: int) -> None:
    """Take ``count`` sets, each by the next client in turn."""
    for i in range(count):
        await synced(clients)
        client = clients[i % len(clients)]
        await take_a_set(client)
    await synced(clients)


async def test_players_on_three_processes_see_one_version_stream(
    cluster: list[LiveServer],
) -> None:
    room = await create_room(cluster[0].url, no_set="auto")
    seen = Seen()
    clients = []
    for server, name in zip(cluster, ("Ann", "Bob", "Cid"), strict=True):
        client = await Client.connect(server.url, room, listener=seen)
        await client.join(name)
        clients.append(client)
    try:
        await clients[1].start()  # relayed from a mirror to the owner
        for client in clients:
            await client.wait_update(lambda s: s["phase"] == "playing")
        await play_sets(clients, 4)
        streams = list(seen.updates.values())
        assert len(streams) == 3
        tail = [s[-8:] for s in streams]  # the versions all three were seated for
        assert tail[0] == tail[1] == tail[2]
        versions = [v for v, _ in streams[0]]
        assert versions == sorted(versions) and len(set(versions)) == len(versions)
        assert sum(e["type"] == "set_taken" for _, evs in streams[2] for e in evs) == 4
    finally:
        await close_all(clients)


async def seat_three(cluster: list[LiveServer], seen: Seen) -> tuple[str, list[Client]]:
    """A started room created on the first process (its owner), one player on each."""
    room = await create_room(cluster[0].url, no_set="auto", pick_seconds=5)
    clients = []
    for server, name in zip(cluster, ("Ann", "Bob", "Cid"), strict=True):
        client = await Client.connect(server.url, room, listener=seen)
        await client.join(name)
        clients.append(client)
    await clients[0].start()
    for client in clients:
        await client.wait_update(lambda s: s["phase"] == "playing")
    return room, clients


async def new_owner(redis_url: str, room: str, old: str | None, timeout: float = 15.0) -> str:
    """Wait until another process than ``old`` holds the room's lease."""
    client = aioredis.from_url(redis_url)
    try:
        deadline = asyncio.get_running_loop().time() + timeout
        while asyncio.get_running_loop().time() < deadline:
            owner = await client.get(f"setgame:owner:{room}")
            if owner is not None and owner.decode() != old:
                return str(owner.decode())
            await asyncio.sleep(0.1)
        raise AssertionError(f"nobody took room {room} over from {old}")
    finally:
        await client.aclose()


async def settled(redis_url: str, room: str) -> None:
    """After a graceful stop: a process that mirrors the room takes it over within a lease
    check (0.75 s), closing its mirror's sockets (1012); wait for that before reconnecting.
    With no mirror left, nobody takes it over until a player reconnects."""
    for _ in range(30):
        if await lease_of(redis_url, room) is not None:
            await asyncio.sleep(0.5)  # the new owner closes its mirror's sockets
            return
        await asyncio.sleep(0.1)


async def lease_of(redis_url: str, room: str) -> str | None:
    client = aioredis.from_url(redis_url)
    try:
        owner = await client.get(f"setgame:owner:{room}")
        return None if owner is None else str(owner.decode())
    finally:
        await client.aclose()


async def back_on(client: Client, server: LiveServer, seen: Seen) -> Client:
    """The client again, reconnected to ``server`` (with its token and version) if its
    socket was closed; the owner's change closes the sockets of the process that took over."""
    if client.closed is None:
        with contextlib.suppress(TimeoutError, Disconnected):
            await client.wait_for(lambda m: False, 0.3)  # a close in flight arrives
    if client.closed is None:
        return client
    for _ in range(20):  # a mirror becoming the owner closes the sockets it had (1012)
        try:
            again = await Client.connect(
                server.url, client.room, client.token, client.version, listener=seen
            )
            break
        except Disconnected as exc:
            assert exc.code == 1012, exc
            await asyncio.sleep(0.2)
    assert again.player == client.player
    assert again.welcome["missed"] is not None  # the events it missed, not a bare state
    return again


async def stored_log(database: str, room: str) -> list[tuple[int, dict[str, Any]]]:
    store = Storage(database, create=False)
    await store.open()
    try:
        record = await store.room_record(room)
        assert record is not None
        return [(a.version, a.action) for a in record.actions]
    finally:
        await store.close()


def scores(client: Client) -> int:
    assert client.state is not None
    return sum(p["sets"] for p in client.state["players"])


async def test_the_owner_killed_mid_game_the_game_goes_on_elsewhere(
    cluster: list[LiveServer], cluster_db: str, redis_url: str
) -> None:
    seen = Seen()
    room, clients = await seat_three(cluster, seen)
    try:
        await play_sets(clients, 2)
        acknowledged = clients[1].version
        old = await lease_of(redis_url, room)
        cluster[0].kill()  # the owner, kill -9
        await new_owner(redis_url, room, old)
        survivors = [cluster[1], cluster[1], cluster[2]]  # Ann was on the dead one
        clients = [await back_on(c, s, seen) for c, s in zip(clients, survivors, strict=True)]
        await synced(clients)
        assert clients[0].version >= acknowledged and scores(clients[0]) == 2
        await play_sets(clients, 2)
        assert scores(clients[2]) == 4  # nothing lost, nothing applied twice
        log = await stored_log(cluster_db, room)
        assert [v for v, _ in log] == list(range(log[0][0], log[0][0] + len(log)))
        assert sum(a["type"] == "pick" for _, a in log) >= 4
        assert log[-1][0] == clients[0].version
    finally:
        await close_all(clients)


async def test_a_paused_owner_that_wakes_after_the_takeover_writes_nothing(
    cluster: list[LiveServer], cluster_db: str, redis_url: str
) -> None:
    seen = Seen()
    room, clients = await seat_three(cluster, seen)
    try:
        await play_sets(clients, 1)
        old = await lease_of(redis_url, room)
        paused_at = clients[0].version
        paused = cluster[0].proc
        assert paused is not None
        paused.send_signal(signal.SIGSTOP)
        await new_owner(redis_url, room, old)
        # Ann's call waits in the paused owner's socket: it reads it when it wakes
        stale = clients[0]
        await stale.send("call", version=stale.version)
        movers = [await back_on(c, s, seen) for c, s in zip(clients[1:], cluster[1:], strict=True)]
        await synced(movers)
        await play_sets(movers, 1)
        before = await stored_log(cluster_db, room)
        paused.send_signal(signal.SIGCONT)
        with contextlib.suppress(TimeoutError):  # the woken owner lets the room go
            await stale.wait_closed(8.0)
        assert stale.closed is not None, "the stale owner kept serving the room"
        await play_sets(movers, 1)
        after = await stored_log(cluster_db, room)
        assert after[: len(before)] == before  # nothing rewritten
        late = [a for v, a in after if v > paused_at]
        calls = [a for a in late if a["type"] == "call" and a["player"] == stale.player]
        assert calls == []  # the call sent to the stale owner was never stored
        assert [v for v, _ in after] == list(range(after[0][0], after[0][0] + len(after)))
        assert scores(movers[0]) == 3
        woke = cluster[0].log.read_text(errors="replace")  # it tried and was refused, or let go
        assert "is stale" in woke or "lost the lease" in woke
    finally:
        await close_all(clients)


@pytest.mark.parametrize(
    ("redis", "db", "said"),
    [
        ("localhost:6379", "postgresql://u@h/d", "must be a redis:// URL, not 'localhost:6379'"),
        ("redis://127.0.0.1:6379/0", "games.db", "--redis needs a PostgreSQL database"),
    ],
)
def test_a_bad_cluster_setting_stops_the_server_in_one_line(
    redis: str, db: str, said: str, tmp_path: Path
) -> None:
    command = [sys.executable, "-m", "setgame.server", "--redis", redis, "--db", db]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 2
    assert said in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_an_unreachable_redis_stops_the_server_naming_it(postgres_url: str) -> None:
    closed = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    command = [sys.executable, "-m", "setgame.server", "--redis", closed, "--db", postgres_url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"cannot reach Redis at {closed!r}" in done.stderr and "Traceback" not in done.stderr


async def test_a_rolling_restart_of_all_three_during_play_loses_nothing(
    cluster: list[LiveServer], cluster_db: str, redis_url: str
) -> None:
    seen = Seen()
    room, clients = await seat_three(cluster, seen)
    homes = [0, 1, 2]  # the process each client is connected to
    try:
        await play_sets(clients, 1)
        for n, server in enumerate(cluster):
            server.stop()  # SIGTERM: it lets its rooms go at once
            # and renews none of them after (it logged each as lost now and then)
            assert "lost the lease" not in server.log.read_text(errors="replace")
            # its players go to the process restarted last (the first time: the third)
            homes = [(n + 2) % 3 if h == n else h for h in homes]
            await settled(redis_url, room)
            clients = [
                await back_on(c, cluster[h], seen) for c, h in zip(clients, homes, strict=True)
            ]
            await play_sets(clients, 1)
            server.start()
        assert scores(clients[0]) == 4
        log = await stored_log(cluster_db, room)
        assert [v for v, _ in log] == list(range(log[0][0], log[0][0] + len(log)))
        assert sum(a["type"] == "pick" for _, a in log) == 4
    finally:
        await close_all(clients)


async def test_presence_is_seen_across_processes(cluster: list[LiveServer]) -> None:
    seen = Seen()
    _, clients = await seat_three(cluster, seen)
    try:
        await play_sets(clients, 1)  # an update after every join was heard everywhere
        for client in clients:
            assert client.state is not None
            assert [p["connected"] for p in client.state["players"]] == [True, True, True]
        leaver = clients[2].player
        await clients[2].close()
        for client in clients[:2]:
            gone = await client.wait_for(
                lambda m: m["type"] == "presence" and m["player"] == leaver, 5.0
            )
            assert gone["connected"] is False
    finally:
        await close_all(clients)


async def test_the_public_list_shows_the_rooms_of_every_process(cluster: list[LiveServer]) -> None:
    rooms = [await create_room(server.url) for server in cluster]  # one owned by each
    clients = [await Client.connect(s.url, r) for s, r in zip(cluster, rooms, strict=True)]
    try:
        for server in cluster:
            async with httpx.AsyncClient(base_url=server.url, trust_env=False) as http:
                for _ in range(50):  # each process shares its list at every lease check
                    listed = {r["id"] for r in (await http.get("/api/rooms")).json()}
                    if listed >= set(rooms):
                        break
                    await asyncio.sleep(0.1)
                assert listed >= set(rooms), (server.url, listed, rooms)
    finally:
        await close_all(clients)


async def test_refusals_and_a_new_game_travel_between_processes(
    cluster: list[LiveServer],
) -> None:
    """The owner's refusal reaches a player on another process as it would on the owner;
    ``again`` asked from another process starts the new game on every process."""
    room = await create_room(
        cluster[0].url, no_set="auto", deck="beginner", rounds="single", pick_seconds=5
    )
    clients = []
    for server, name in zip(cluster, ("Ann", "Bob", "Cid"), strict=True):
        client = await Client.connect(server.url, room)
        await client.join(name)
        clients.append(client)
    try:
        await clients[2].start()
        for client in clients:
            await client.wait_update(lambda s: s["phase"] == "playing")
        await clients[1].call(version=clients[1].version + 5)  # ahead of the room
        refused = await clients[1].wait_error()
        assert refused.code == "stale_version" and "version" in str(refused)
        await clients[1].send("pick", cards=["1RSD", "9ZZZ", "2RSD"], version=clients[1].version)
        bad = await clients[1].wait_error()
        assert bad.code == "bad_card" and "9ZZZ" in str(bad)
        for turn in range(20):  # the beginner deck: a few sets end the round
            if clients[0].state is None or clients[0].state["phase"] != "playing":
                break
            await play_sets([clients[turn % 3]], 1)
            await synced(clients)
        assert {c.state["phase"] for c in clients if c.state} == {"match_over"}
        first = clients[0].state["game"] if clients[0].state else None
        await clients[1].again()  # relayed; the new game is read whole by each mirror
        for client in clients:
            await client.wait_update(
                lambda s: s["game"] != first and s["phase"] == "playing", timeout=10.0
            )
        await synced(clients)
        assert len({c.state["game"] for c in clients if c.state}) == 1
    finally:
        await close_all(clients)


async def test_a_room_nobody_reopens_is_adopted_and_its_bots_play_on(
    cluster: list[LiveServer], cluster_db: str, redis_url: str
) -> None:
    """The owner dies and no player comes back: another process adopts the room from the
    log (as a restart restores it), its bots play on, and it is swept in time like any."""
    room = await create_room(cluster[0].url, bots=2, bot_level=5, no_set="auto")
    ann = await Client.connect(cluster[0].url, room)
    await ann.join("Ann")
    await ann.start()
    await ann.wait_event("set_taken", timeout=15.0)  # the bots are playing
    old = await lease_of(redis_url, room)
    cluster[0].kill()
    await new_owner(redis_url, room, old, timeout=15.0)
    before = len(await stored_log(cluster_db, room))
    for _ in range(100):
        if len(await stored_log(cluster_db, room)) > before:
            break
        await asyncio.sleep(0.1)
    log = await stored_log(cluster_db, room)
    assert len(log) > before, "the adopted room's bots did not play on"
    assert [v for v, _ in log] == list(range(log[0][0], log[0][0] + len(log)))


# --- chat across processes --------------------------------------------------------------------


HEARD: weakref.WeakKeyDictionary[Client, set[tuple[str, int]]] = weakref.WeakKeyDictionary()
"""Per client, the lines it heard (kept by the client itself: a later test's client may
take an earlier one's id): each line reaches a connection once (docs/protocol.md, "Chat")."""


async def heard(client: Client, timeout: float = 5.0) -> list[dict[str, Any]]:
    """The lines of the next ``chat`` message this client gets (an error raises it); a line
    heard twice is an error: a newcomer's history read from the database can cross the same
    line heard live, and the server sends it once."""
    seen = HEARD.setdefault(client, set())
    message = await client.wait_for(lambda m: m["type"] in ("chat", "error"), timeout)
    assert message["type"] == "chat", message
    lines: list[dict[str, Any]] = message["messages"]
    again = [x for x in lines if (x["game"], x["seq"]) in seen]
    assert not again, f"heard twice: {again}"
    seen.update((x["game"], x["seq"]) for x in lines)
    return lines


async def test_chat_lines_reach_every_process_in_one_order(cluster: list[LiveServer]) -> None:
    """Ann (on the owner) and Bob (on a mirror) talk both ways; a spectator on the third
    process hears both lines in the owner's order; refusals come back to their sender."""
    room = await create_room(cluster[0].url)
    ann = await Client.connect(cluster[0].url, room)
    await ann.join("Ann")
    bob = await Client.connect(cluster[1].url, room)
    await bob.join("Bob")
    watcher = await Client.connect(cluster[2].url, room)
    clients = [ann, bob, watcher]
    try:
        await bob.send("chat", text="hi Ann")  # relayed to the owner, published to all
        first = [(await heard(c))[0] for c in clients]
        assert first[0] == first[1] == first[2]
        assert (first[0]["seq"], first[0]["from"], first[0]["name"]) == (1, bob.player, "Bob")
        await ann.send("chat", text="hi Bob")
        second = [(await heard(c))[0] for c in clients]
        assert second[0] == second[1] == second[2] and second[0]["seq"] == 2
        assert second[0]["text"] == "hi Bob" and second[0]["name"] == "Ann"
        await watcher.send("chat", text="go!")  # a spectator's line, relayed too
        third = [(await heard(c))[0] for c in clients]
        assert third[0] == third[1] and third[0]["name"] is None and third[0]["seq"] == 3
        await bob.send("chat", text="x" * 201)
        refused = await bob.wait_error()
        assert refused.code == "chat_too_long" and refused.reply["request"] == "chat"
        late = await Client.connect(cluster[2].url, room)  # history: from the database
        clients.append(late)
        assert [line["text"] for line in await heard(late)] == ["hi Ann", "hi Bob", "go!"]
    finally:
        await close_all(clients)


async def test_a_players_only_room_refuses_a_spectator_on_a_mirror(
    cluster: list[LiveServer],
) -> None:
    room = await create_room(cluster[0].url, chat="players")
    watcher = await Client.connect(cluster[1].url, room)
    try:
        await watcher.send("chat", text="let me in")
        refused = await watcher.wait_error()
        assert refused.code == "chat_players_only" and refused.reply["request"] == "chat"
    finally:
        await close_all([watcher])


async def connect_somewhere(server: LiveServer, room: str) -> Client:
    """A new connection to ``room`` on ``server``; a process taking the room over closes
    the sockets of its mirror (1012) once, so retry a little."""
    for _ in range(20):
        try:
            return await Client.connect(server.url, room)
        except Disconnected as exc:
            assert exc.code == 1012, exc
            await asyncio.sleep(0.2)
    raise AssertionError(f"no connection to room {room} on {server.url}")


async def test_a_chat_line_survives_the_owner_killed(
    cluster: list[LiveServer], redis_url: str
) -> None:
    """A line said on a mirror is stored by the owner before anyone hears it: after a
    ``kill -9`` of the owner and a takeover, the history from another process holds it, and
    the new owner numbers the next line after it."""
    room = await create_room(cluster[0].url)
    bob = await Client.connect(cluster[1].url, room)
    await bob.join("Bob")
    clients = [bob]
    try:
        await bob.send("chat", text="still here?")
        assert (await heard(bob))[0]["seq"] == 1  # heard: the owner stored it
        old = await lease_of(redis_url, room)
        cluster[0].kill()
        await new_owner(redis_url, room, old)
        await asyncio.sleep(0.5)  # the new owner closes its mirror's sockets (1012)
        reader = await connect_somewhere(cluster[2], room)
        clients.append(reader)
        lines = await heard(reader)
        assert [(line["seq"], line["text"]) for line in lines] == [(1, "still here?")]
        await reader.send("chat", text="yes")
        assert [(line["seq"], line["text"]) for line in await heard(reader)] == [(2, "yes")]
    finally:
        await close_all(clients)


# --- adoption under load (the bug of docs/cluster.md, "Adopting many rooms") ------------------

ORPHANS = 180
BUSY_LIMITS = {
    "SETGAME_ROOMS_PER_MINUTE": "100000", "SETGAME_ROOMS_BURST": "100000",
    "SETGAME_ROOM_CAP": "1000",
}


async def orphan(server: LiveServer) -> str:
    """A room on ``server`` whose two bots play, its one human gone (a game in progress)."""
    room = await create_room(server.url, bots=2, bot_level=1, no_set="auto")
    ann = await Client.connect(server.url, room)
    try:
        await ann.join("Ann")
        await ann.start()
        await ann.wait_update(lambda s: s["phase"] == "playing")
    finally:
        await ann.close()
    return room


async def all_leased(redis_url: str, rooms: list[str], dead: str | None) -> bool:
    client = aioredis.from_url(redis_url)
    try:
        owners = await client.mget([f"setgame:owner:{r}" for r in rooms])
    finally:
        await client.aclose()
    return all(o is not None and o.decode() != dead for o in owners)


async def test_a_process_adopting_many_rooms_keeps_its_own_rooms(
    cluster_db: str, redis_url: str, tmp_path: Path
) -> None:
    """A process dies with ~100 rooms in progress; while a live one adopts them all, the
    players of the live processes' own rooms play on: no socket of theirs is closed (1011,
    1012), no error (owner_moved, server_error), no action lost. Adoption used to run inside
    the lease check, one room after another, so the adopter's own leases ran out meanwhile
    and the other process took its rooms."""
    servers = [LiveServer(cluster_db, tmp_path / f"busy{n}.log", env=BUSY_LIMITS) for n in range(3)]
    for n, server in enumerate(servers):
        server.options = ["--redis", redis_url]
        server.created = n > 0
    closes: list[Any] = []
    errors: list[dict[str, Any]] = []

    def listen(client: Client, message: dict[str, Any], _at: float) -> None:
        if message["type"] == "error":
            errors.append(message)

    players: list[list[Client]] = []
    try:
        servers[0].start()
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(LiveServer.start, servers[1:]))
        orphans: list[str] = []
        for _ in range(0, ORPHANS, 10):
            orphans += await asyncio.gather(*(orphan(servers[0]) for _ in range(10)))
        for server in servers[1:]:  # each live process owns a room two players play in
            room = await create_room(server.url, no_set="auto")
            pair = [await Client.connect(server.url, room, listener=listen) for _ in range(2)]
            for client, name in zip(pair, ("Bob", "Cid"), strict=True):
                await client.join(name)
            await pair[0].start()
            for client in pair:
                await client.wait_update(lambda s: s["phase"] == "playing")
            players.append(pair)
        dead = await lease_of(redis_url, orphans[0])
        servers[0].kill()
        taken = [0, 0]
        deadline = asyncio.get_running_loop().time() + 40.0
        settled_at: float | None = None
        while asyncio.get_running_loop().time() < deadline:
            for n, pair in enumerate(players):
                if table_sets(pair[0].state) and scores(pair[0]) < 20:
                    await play_sets(pair, 1)
                    taken[n] += 1
                else:
                    await asyncio.sleep(0.05)
            if settled_at is None and await all_leased(redis_url, orphans, dead):
                settled_at = asyncio.get_running_loop().time()
            if settled_at is not None and asyncio.get_running_loop().time() > settled_at + 4:
                break
        assert settled_at is not None, "the orphaned rooms were not all adopted"
        closes = [c.closed for pair in players for c in pair if c.closed is not None]
        assert not closes and not errors, (closes, errors)
        for n, pair in enumerate(players):
            await synced(pair)
            assert scores(pair[1]) == taken[n] and taken[n] >= 2
            log = await stored_log(cluster_db, pair[0].room)
            assert log[-1][0] == pair[0].version
            assert sum(a["type"] == "pick" for _, a in log) == taken[n]
    finally:
        await close_all([c for pair in players for c in pair])
        for server in servers:
            if server.proc is not None and server.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(server.proc.pid, signal.SIGCONT)
        with ThreadPoolExecutor(3) as pool:
            list(pool.map(LiveServer.stop, servers))


# --- a new owner keeps its sockets; the rooms of a dead process spread ------------------------


async def test_a_mirror_that_becomes_the_owner_keeps_its_sockets(
    cluster_db: str, redis_url: str, tmp_path: Path
) -> None:
    """``kill -9`` of the owner: the process taking the room over turns its mirror into the
    room in place. Its players' sockets stay open (and the third process's), they miss no
    version, the third process tells the new owner its player is connected (so nobody is
    marked away after the grace), and the game goes on."""
    with three_servers(cluster_db, redis_url, tmp_path, {"SETGAME_AWAY_GRACE": "2"}) as cluster:
        seen = Seen()
        room, clients = await seat_three(cluster, seen)
        try:
            await play_sets(clients, 1)
            old = await lease_of(redis_url, room)
            cluster[0].kill()
            await new_owner(redis_url, room, old)
            await asyncio.sleep(3.0)  # past the away grace of the restored seats
            bob, cid = clients[1], clients[2]
            assert bob.closed is None and cid.closed is None
            ann = await back_on(clients[0], cluster[1], seen)  # hers died with the process
            clients = [ann, bob, cid]
            await play_sets(clients, 2)
            assert bob.closed is None and cid.closed is None
            assert scores(cid) == 3
            for client in clients:
                versions = [v for v, _ in seen.updates[client.player or "?"]]
                assert versions == sorted(set(versions))  # in order, none twice
            assert cid.state is not None
            away = {p["name"]: p["away"] for p in cid.state["players"]}
            assert away == {"Ann": False, "Bob": False, "Cid": False}
        finally:
            await close_all(clients)


async def test_the_rooms_of_a_dead_process_spread_over_the_living(
    cluster: list[LiveServer], redis_url: str
) -> None:
    """Nobody reopens the rooms of a killed process: the two live ones adopt them, each
    about half (rendezvous hashing), not all by whichever looked first."""
    rooms = list(await asyncio.gather(*(orphan(cluster[0]) for _ in range(24))))
    dead = await lease_of(redis_url, rooms[0])
    cluster[0].kill()
    for _ in range(150):
        if await all_leased(redis_url, rooms, dead):
            break
        await asyncio.sleep(0.1)
    owners = [await lease_of(redis_url, room) for room in rooms]
    counts = sorted(Counter(owners).values())
    assert len(counts) == 2 and counts[0] >= 4, counts  # 24 rooms: 12 each expected


def test_ranked_first_moves_only_the_rooms_of_a_process_that_goes() -> None:
    rooms = [f"room{n}" for n in range(300)]
    three = {r: ranked_first(r, {"a", "b", "c"}) for r in rooms}
    two = {r: ranked_first(r, {"a", "b"}) for r in rooms}
    assert all(two[r] == three[r] for r in rooms if three[r] != "c")  # only c's rooms moved
    shares = Counter(three.values())
    assert min(shares.values()) > 60, shares  # about 100 each


class _Recorder:
    """A connection to a mirror room that records the numbers of the chat lines sent to it."""

    player = None

    def __init__(self) -> None:
        self.sent: list[int] = []

    def send(self, text: str) -> None:
        self.sent.extend(m["seq"] for m in json.loads(text)["messages"])

    def close(self, code: int, reason: str = "") -> None: ...


def _mirror_room(storage: Storage) -> MirrorRoom:
    """Room r1 as a mirror sees it, playing game g1."""
    room = MirrorRoom("r1", RoomSettings(), storage, cast(Any, None))
    room.game_id = "g1"
    return room


def _chat_lines(count: int) -> list[dict[str, Any]]:
    """Ann's lines 1..count of game g1, as the owner publishes them."""
    return [
        {"seq": n, "game": "g1", "at": 0.0, "from": "p1", "name": "Ann", "text": f"line {n}"}
        for n in range(1, count + 1)
    ]


async def _store_line(storage: Storage, line: dict[str, Any]) -> None:
    """Store a published line as the owner does, before it publishes it."""
    values = {k: line[k] for k in ("game", "seq", "at", "name", "text")}
    values |= {"room": "r1", "sender": "p1", "posted": 0.0}
    await storage.write((chat_lines.insert().values(values), {}))


async def test_a_mirror_fills_a_gap_in_the_chat_from_the_database(tmp_path: Path) -> None:
    """Redis may drop a published line: the next one names its number, and the mirror
    sends the missing ones first, read from the database where the owner stored them."""
    storage = Storage(tmp_path / "chat.db", create=True)
    await storage.open()
    try:
        room, listener = _mirror_room(storage), _Recorder()
        room.conns.add(listener)
        chat = chat_of(room)
        assert isinstance(chat, MirrorChat)
        lines = _chat_lines(5)
        for line in lines:
            await _store_line(storage, line)
        await chat.follow(lines[0])
        await chat.follow(lines[3])  # 2 and 3 were dropped on the way
        await chat.follow(lines[2])  # late, already sent
        await chat.follow(lines[4])
        assert listener.sent == [1, 2, 3, 4, 5]
    finally:
        await storage.close()


async def test_a_line_published_while_a_mirror_reads_a_history_is_sent_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mirror reads a newcomer's history from the database; the owner stores a line and
    publishes it meanwhile, so the line is both in that history and heard live. The mirror
    holds it until the history is sent and sends it once (before: first live, then again in
    the history, out of order)."""
    from setgame.server import chat as chat_module

    storage = Storage(tmp_path / "chat.db", create=True)
    await storage.open()
    try:
        room = _mirror_room(storage)
        lines = _chat_lines(3)
        await _store_line(storage, lines[0])
        reading, read = asyncio.Event(), asyncio.Event()

        async def slow_lines(storage: Storage, game: str) -> list[dict[str, Any]]:
            reading.set()
            await read.wait()  # the owner stores and publishes line 2 meanwhile
            return await stored_lines(storage, game)

        monkeypatch.setattr(chat_module, "stored_lines", slow_lines)
        newcomer = _Recorder()
        room.conns.add(newcomer)  # as sockets.hello: attached, then its history at once
        chat = chat_of(room)
        assert isinstance(chat, MirrorChat)
        history = asyncio.create_task(chat.history(newcomer))
        await reading.wait()
        await _store_line(storage, lines[1])
        await chat.follow(lines[1])  # published after its commit: heard here now
        read.set()
        await history
        await chat.follow(lines[2])
        assert newcomer.sent == [1, 2, 3]
    finally:
        await storage.close()


async def test_r10_a_player_who_leaves_on_one_process_takes_the_seat_back_on_another(
    cluster: list[LiveServer],
) -> None:
    """R10, R14 through the mirrors: the join relayed to the owner carries the token the
    connection said hello with, so the same person gets the same seat, lockout and all."""
    room = await create_room(cluster[0].url, penalty="lockout", no_set="auto", pick_seconds=5)
    clients = []
    for server, name in zip(cluster, ("Ann", "Bob", "Cid"), strict=True):
        client = await Client.connect(server.url, room)
        await client.join(name)
        clients.append(client)
    try:
        ann, bob, _ = clients
        await ann.start()
        for client in clients:
            await client.wait_update(lambda s: s["phase"] == "playing")
        table = ann.table
        wrong = next(t for t in itertools.combinations(table, 3) if not table_sets({"table": t}))
        await ann.call()
        await ann.wait_update(lambda s: s["holder"] == ann.player)
        await ann.pick(list(wrong))
        await ann.wait_event("wrong_call")
        seat, token = ann.player, ann.token
        await ann.leave()
        await bob.wait_update(lambda s: any(p["id"] == seat and not p["present"]
                                            for p in s["players"]))  # fmt: skip
        back = await Client.connect(cluster[2].url, room, token=token)  # another process
        clients.append(back)
        assert await back.join("Annie") == seat
        await bob.wait_update(lambda s: any(p["id"] == seat and p["present"] and p["locked"]
                                            for p in s["players"]))  # fmt: skip
        assert bob.state is not None and bob.state["rounds"] == 3
    finally:
        await close_all(clients)


class Heard:
    """What is published on rooms' Redis channels (``docs/cluster.md``, "Who hears a room")."""

    def __init__(self, redis_url: str) -> None:
        self.redis = aioredis.from_url(redis_url)
        self.channel = self.redis.pubsub()
        self.messages: list[dict[str, Any]] = []
        self.task: asyncio.Task[None] | None = None

    async def subscribe(self, room: str) -> None:
        await self.channel.subscribe(f"setgame:room:{room}")
        self.task = self.task or asyncio.create_task(self._hear())

    async def _hear(self) -> None:
        async for message in self.channel.listen():
            if message["type"] == "message":
                self.messages.append(json.loads(message["data"]))

    def kinds(self) -> list[str]:
        return [m["k"] for m in self.messages]


@contextlib.asynccontextmanager
async def heard_on(redis_url: str) -> AsyncIterator[Heard]:
    heard = Heard(redis_url)
    try:
        yield heard
    finally:
        if heard.task is not None:
            heard.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await heard.task
        await heard.channel.aclose()
        await heard.redis.aclose()


async def test_an_owner_publishes_a_room_only_while_a_mirror_follows_it(
    cluster: list[LiveServer], redis_url: str
) -> None:
    """With nobody on another process, a room's actions cost Redis nothing; a mirror that
    opens says so to the owner, which marks the version it is at and publishes from then on
    (``docs/cluster.md``, "Who hears a room")."""
    room = await create_room(cluster[0].url, no_set="auto")
    async with heard_on(redis_url) as heard:
        await heard.subscribe(room)
        ann = await Client.connect(cluster[0].url, room)  # the owner's own socket
        clients = [ann]
        try:
            await ann.join("Ann")
            await ann.start()
            await ann.wait_update(lambda s: s["phase"] == "playing")
            for _ in range(2):
                await take_a_set(ann)
            await asyncio.sleep(0.3)
            assert heard.messages == [], heard.messages  # no mirror anywhere: nothing published
            played = ann.version
            bob = await Client.connect(cluster[1].url, room)  # a mirror opens on the second
            clients.append(bob)
            await bob.join("Bob")  # relayed to the owner, published to the mirror
            await take_a_set(ann)
            await synced(clients)
            kinds = heard.kinds()
            assert kinds[0] == "at" and heard.messages[0]["v"] >= played, heard.messages[:3]
            assert kinds.count("act") >= 2, kinds  # Bob's join and Ann's set, at least
            assert bob.version == ann.version > played
        finally:
            await close_all(clients)


async def test_a_watch_that_makes_no_sense_is_ignored_and_the_owner_serves_on(
    cluster: list[LiveServer], redis_url: str
) -> None:
    """``watch`` on a process's channel comes from another process of the cluster, but is read
    as any input: not JSON, not an object, rooms not a list, ids of no room or not text, and
    100,000 ids at once (only the first ``PUBLISH_BATCH`` are looked at) start nothing; the
    owner keeps serving, and a good ``watch`` still starts the room's publishing."""
    room = await create_room(cluster[0].url, no_set="auto")
    async with heard_on(redis_url) as heard:
        await heard.subscribe(room)
        ann = await Client.connect(cluster[0].url, room)
        try:
            owner = (await heard.redis.get(owner_key(room))).decode()
            junk = [
                b"not json",
                b"[1, 2]",
                json.dumps({"k": "watch"}),
                json.dumps({"k": "watch", "rooms": room}),
                json.dumps({"k": "watch", "rooms": [None, {"id": room}, 7, "nope"]}),
                json.dumps({"k": "watch", "rooms": [f"r{i}" for i in range(100_000)] + [room]}),
            ]
            for message in junk:
                await heard.redis.publish(process_channel(owner), message)
            await ann.join("Ann")
            await ann.start()
            await ann.wait_update(lambda s: s["phase"] == "playing")
            await take_a_set(ann)
            await asyncio.sleep(0.5)
            assert heard.messages == [], heard.messages[:3]
            good = json.dumps({"k": "watch", "rooms": [room]})
            await heard.redis.publish(process_channel(owner), good)
            await take_a_set(ann)
            for _ in range(50):
                if "act" in heard.kinds():
                    break
                await asyncio.sleep(0.1)
            assert heard.kinds()[0] == "at" and "act" in heard.kinds(), heard.messages[:3]
        finally:
            await close_all([ann])


def test_a_mirror_behind_the_owners_mark_reads_the_rest_from_the_database() -> None:
    """The owner's mark of where a room is (sent when a mirror starts following it): a
    mirror at that version, or past it, goes on; one behind it, or on another game, reads
    the log (``_follow_now`` False: ``Node._follow_from_database``)."""
    from types import SimpleNamespace

    from setgame.server.cluster.node import _follow_now

    mirror = cast(MirrorRoom, SimpleNamespace(game_id="g1", version=7))
    mark = {"k": "at", "room": "r", "game": "g1"}
    assert _follow_now(mirror, mark | {"v": 7})
    assert _follow_now(mirror, mark | {"v": 5})
    assert not _follow_now(mirror, mark | {"v": 8})
    assert not _follow_now(mirror, mark | {"game": "g2", "v": 3})


async def claimed(server: LiveServer, name: str) -> str:
    """Claim ``name`` on ``server``: the session of that account, for any process."""
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        answer = await http.post(
            f"{server.url}/api/account/claim", json={"name": name, "password": "correct horse"}
        )
    assert answer.status_code == 201, answer.text
    return str(answer.cookies["setgame_session"])


async def test_one_seat_per_account_across_processes(
    cluster_db: str, redis_url: str, tmp_path: Path
) -> None:
    """Ann's account sits on a mirror; she joins again from another browser on another
    mirror: the owner gives her seat a new token and says so on the room's channel (``k:
    "seat"``), so that the second mirror seats her there, the first closes her old socket
    (4009, past SETGAME_SEAT_SOCKETS=1) and every process refuses the old token."""
    env = {"SETGAME_SEAT_SOCKETS": "1"}
    with three_servers(cluster_db, redis_url, tmp_path, env) as cluster:
        room = await create_room(cluster[0].url)  # the first process owns it
        session = await claimed(cluster[0], "Ann")
        bob = await Client.connect(cluster[0].url, room)
        first = await Client.connect(cluster[1].url, room, session=session)
        clients = [bob, first]
        try:
            await bob.join("Bob")
            seat = await first.join("Ann")
            old = first.token
            second = await Client.connect(cluster[2].url, room, session=session)
            clients.append(second)
            assert await second.join("Ann") == seat
            assert second.token not in (None, old)
            closed = await first.wait_closed()
            assert (closed.code, closed.reason) == (4009, "seat_elsewhere")
            for server in cluster:  # the old token seats nobody anywhere; the new one does
                stale = await Client.connect(server.url, room, token=old)
                clients.append(stale)
                assert stale.welcome["you"] is None, server.url
                fresh = await Client.connect(server.url, room, token=second.token)
                clients.append(fresh)
                assert fresh.welcome["you"] == seat, server.url
            names = sorted(p["name"] for p in fresh.welcome["state"]["players"])
            assert names == ["Ann", "Bob"]
        finally:
            await close_all(clients)
