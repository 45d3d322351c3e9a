"""One server process of a cluster: its leases, its Redis channels, its rooms.

A room in this process is either *owned* (:class:`OwnedRoom`: the ordinary room, which
orders, commits and broadcasts; each commit is then published on the room's channel) or a
*mirror* (:class:`MirrorRoom`: a replica fed by that channel, whose players' requests are
relayed to the owner). :class:`ClusterRooms` decides which when a room is opened: the
holder of the room's lease owns it; a room whose lease is free is taken over, from the
stored log, as a restart restores it. A watch loop renews this process's leases, drops the
rooms whose lease it lost, and takes over the mirrored rooms whose owner went away.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import logging
import os
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Final

import msgspec
import redis.asyncio as aioredis
import sqlalchemy as sa
from redis.exceptions import RedisError

from setgame.rules import game as engine
from setgame.server import protocol as p
from setgame.server.chat import chat_of
from setgame.server.cluster.lease import (
    LEASE_MS,
    RENEW_SECONDS,
    Leases,
    _text,
    listen,
    process_channel,
    redis_now,
    room_channel,
)
from setgame.server.cluster.mirror import MirrorChat, MirrorRoom
from setgame.server.cluster.quota import Quota
from setgame.server.limits import Limits
from setgame.server.registry import PUBLIC_LIST, Rooms
from setgame.server.rooms import Room
from setgame.server.storage import PING_SECONDS, Fenced, RoomRecord, Storage, games

log = logging.getLogger(__name__)

MODERATION_CHANNEL: Final = "setgame:moderation"
"""Every process listens here for moderators' actions made on another one."""
LISTED_KEY: Final = "setgame:listed"
"""A Redis hash: process -> its public rooms (JSON), for every process's ``GET /api/rooms``."""
LISTED_STALE: Final = 10.0
"""Seconds after which a process's entry there is ignored (it stopped writing: gone)."""
ADOPT_SECONDS: Final = 3.0
"""How often each process looks for rooms with a game in progress that no process owns
(their owner died and nobody reopened them); also once at its start."""
ADOPT_BATCH: Final = 200
"""Rooms read from the database (and their leases from Redis) at a time while looking."""
ADOPT_PATIENCE: Final = 2
"""Looks after which a free room left to another process is taken by whoever sees it: the
processes look at their own moments, so one look is not enough to know the other missed it."""
ADOPT_CHUNK: Final = 10
"""Rooms taken over between two pauses of the takeover task: a burst of adoptions (each a
database commit and a read of the room's log) never holds the loop or the database for long
while this process's own rooms play."""
ADOPT_PAUSE: Final = 0.05
RELAY_SECONDS: Final = 5.0
"""How long a relayed request waits for the owner's answer."""
HANDOVER_SECONDS: Final = RELAY_SECONDS
"""How long a process waits for a room's owner to hand the room over (room affinity)
before it mirrors the room as without affinity. As long as a relay: an owner that answers
late may have let the room go meanwhile, and the asker would then mirror a room nobody owns
(its players' requests refused, ``owner_moved``, until a lease check finds it free); only an
owner that died with the lease still held (3 s at most) makes the first socket wait it out."""
REDIS_CONNECTIONS: Final = 100
"""Connections to Redis at most (besides the subscription and the publisher's own)."""
PUBLISH_BATCH: Final = 500
"""At most this many messages in one pipeline to Redis (a bounded request)."""
WATCH_SECONDS: Final = 10.0
"""An owner publishes a room's actions, chat, presence and ratings while a mirror of it on
another process said it follows them within this many seconds (each mirror says so at
every lease check, 0.75 s): with room affinity most rooms have no mirror, and their
actions then cost Redis nothing (``docs/cluster.md``, "Who hears a room")."""
CLOSE_MOVED: Final = 1012
"""Close code (service restart) for a room's sockets when its owner changes here: the
client reconnects, to any process, with its version."""


class OwnedRoom(Room):
    """A room this process owns: the ordinary room, plus the players other processes
    have connected (so that they do not count as away here)."""

    def __init__(self, rid: str, settings: p.RoomSettings, storage: Storage) -> None:
        super().__init__(rid, settings, storage)
        self.remote: dict[str, set[str]] = {}  # player -> processes that have them online
        self.on_online: Callable[[OwnedRoom], None] | None = None  # who is connected changed
        self.on_ratings: Callable[[OwnedRoom, p.Ratings], None] | None = None  # told here

    def _online(self, player: str | None) -> bool:
        return super()._online(player) or bool(player and self.remote.get(player))

    def connected(self) -> set[str | None]:
        return super().connected() | set(self.remote)

    def _presence(self, player: str, connected: bool) -> None:
        super()._presence(player, connected)
        if self.on_online is not None:
            self.on_online(self)

    def idle(self, now: float, after: float = 7200.0) -> bool:
        return not self.remote and super().idle(now, after)

    def tell_ratings(self, ratings: p.Ratings) -> None:
        """The finished game's rating changes: to this process's sockets, then (through
        ``on_ratings``) to every mirror's, which the ratings keeper here never reaches."""
        super().tell_ratings(ratings)
        if self.on_ratings is not None and ratings.game == self.game_id:
            self.on_ratings(self, ratings)


class ClusterRooms(Rooms):
    """The rooms of one process of a cluster (see the module docstring)."""

    node: Node
    outages = (*Rooms.outages, RedisError)

    async def down(self) -> list[str]:
        """The database's answer and Redis's, asked together."""
        database, redis_ok = await asyncio.gather(self.storage.ping(), self.node.ping())
        return [n for n, ok in (("database", database), ("redis", redis_ok)) if not ok]

    def _make(self, rid: str, settings: p.RoomSettings) -> Room:
        return OwnedRoom(rid, settings, self.storage)

    async def _admit(self, rid: str, client: str, mode: str = "multi") -> None:
        await self.node.quota.admit(rid, client, mode)  # the caps of all processes together

    async def _claim(self, rid: str) -> None:
        self.node.claiming.add(rid)  # its lease renewed until the room is added or forgotten
        await self.node.own(rid)

    def _forget_creator(self, room: Room) -> None:
        self.node.claiming.discard(room.id)
        super()._forget_creator(room)
        # a mirror's room still counts: its owner has it; so does a room handed over (its
        # new owner counts it for its creator from then on: Node._hand_over)
        if isinstance(room, OwnedRoom) and room.id not in self.node.handing_over:
            self.node.quota.release(room.id, room.creator)

    async def _bring_back(self, rid: str) -> Room | None:
        return await self.node.open(rid)

    async def start(self, *, restore: bool = True) -> int:
        """No room is restored at start: each comes back when someone opens it, in the
        process they open it on (see ``docs/cluster.md``)."""
        return await super().start(restore=False)

    def _add(self, room: Room) -> None:
        self.node.claiming.discard(room.id)  # in the registry: renewed as the others
        if isinstance(room, MirrorRoom):  # no bots, no ratings: the owner runs those
            callbacks, self.on_room = self.on_room, []
            try:
                super()._add(room)
            finally:
                self.on_room = callbacks
            return
        super()._add(room)
        room.on_change.append(self.node.published)
        if isinstance(room, OwnedRoom):
            room.on_online = self.node.tell_online
            room.on_ratings = self.node.tell_ratings
            room.on_seat = self.node.seat_taken_back
            chat_of(room).on_line = self.node.said

    def public(self) -> list[dict[str, Any]]:
        """The public list of every process: this one's rooms now, the others' as they
        last wrote them to Redis (each process every lease check, so within a second)."""
        mine = super().public()
        merged = {room["id"]: room for room in self.node.listed_elsewhere}
        merged.update((room["id"], room) for room in mine)
        newest = sorted(merged.values(), key=lambda r: r.get("created", 0.0), reverse=True)
        return [{k: v for k, v in r.items() if k != "created"} for r in newest[:PUBLIC_LIST]]

    async def close_abandoned(self, now: float | None = None) -> list[str]:
        """Mirrors nobody here has open leave memory (the owner keeps the game); owned
        rooms as on one process, then their leases are let go."""
        now = time.monotonic() if now is None else now
        after = self.limits.abandon_seconds
        for room in [r for r in self.rooms.values() if isinstance(r, MirrorRoom)]:
            if room.broken or room.idle(now, after):
                await self.node.drop(room)
        closed = await super().close_abandoned(now)
        for rid in closed:
            await self.node.let_go(rid)
        return closed


class Node:
    """This process in the cluster: ``me``, its Redis clients and its loops."""

    def __init__(
        self, rooms: ClusterRooms, client: aioredis.Redis, publisher: aioredis.Redis | None = None
    ) -> None:
        self.rooms = rooms
        self.storage = rooms.storage
        self.client = client
        self.publisher = publisher or client  # publishes everything, in order (_publish)
        self.me = f"{socket.gethostname()}-{os.getpid()}-{os.urandom(3).hex()}"
        self.leases = Leases(client, self.me)
        self.quota = Quota(client, rooms.limits)
        self.pubsub: Any = client.pubsub()
        self._ids = itertools.count(1)
        self.handing_over: set[str] = set()  # rooms leaving for another process (affinity)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        # a moderator's action on another process (moderation_api.py): each process applies
        # it to its own rooms and sockets
        self.on_moderation: list[Callable[[dict[str, Any]], Awaitable[None]]] = []
        self._out: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._buffer: dict[str, list[dict[str, Any]]] = {}  # mirrors being opened
        self._published: dict[str, str] = {}  # room -> the game its last message was of
        self._watched: dict[str, float] = {}  # owned room -> when a mirror last followed it
        self._tasks: list[asyncio.Task[Any]] = []
        self._handlers: set[asyncio.Task[Any]] = set()
        self._renewed = time.monotonic()
        self.listed_elsewhere: list[dict[str, Any]] = []
        self._adopted_at = time.monotonic()
        self._free: list[str] = []  # mirrored rooms whose lease was free at the last check
        # rooms whose lease is taken while they are created, not in the registry yet: their
        # lease is renewed as the others' (a burst of creations, such as an arena's round of
        # 500 rooms, may take longer than a lease)
        self.claiming: set[str] = set()
        self.alive: set[str] = {self.me}  # the processes that shared their list lately
        self._orphans: dict[str, int] = {}  # room -> looks it was left free to another process

    async def start(self) -> None:
        await self.pubsub.subscribe(process_channel(self.me), MODERATION_CHANNEL)
        await self._share_list()  # known alive before any player of it is relayed
        self._adopted_at = 0.0  # the first look for orphaned rooms comes at once
        for coro, name in (
            (self._listen(), "cluster-listen"),
            (self._publish(), "cluster-publish"),
            (self._watch(), "cluster-watch"),
            (self._exchange(), "cluster-exchange"),
            (self._takeovers(), "cluster-takeovers"),
        ):
            self._tasks.append(asyncio.create_task(coro, name=name))
        log.info("cluster: this process is %s", self.me)

    async def close(self) -> None:
        """Let every room this process owns go at once (a graceful stop): the others take
        them over without waiting for the leases to run out."""
        with contextlib.suppress(Exception):
            await self.client.hdel(LISTED_KEY, self.me)
        for task in self._tasks:  # no renewal of a lease let go below ("lost the lease")
            if task.get_name() == "cluster-watch":
                task.cancel()
        for rid, room in list(self.rooms.rooms.items()):
            if isinstance(room, OwnedRoom):
                try:
                    await self.leases.release(rid)
                except (RedisError, OSError) as exc:  # Redis is down: the lease runs out
                    log.warning("cluster: the lease of room %s not let go: %s", rid, exc)
                    break
                self._send(room_channel(rid), {"k": "gone", "room": rid})
                self.quota.release(rid, room.creator)  # its taker counts it server-wide
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drain(), 2.0)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.quota.drain(), 2.0)
        for task in self._tasks + list(self._handlers):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()
        if self.publisher is not self.client:
            await self.publisher.aclose()
        await self.client.aclose()

    async def ping(self) -> bool:
        """Whether Redis answers within :data:`PING_SECONDS` (the cause goes to the log)."""
        try:
            return bool(await asyncio.wait_for(self.client.ping(), PING_SECONDS))
        except (RedisError, OSError, TimeoutError) as exc:
            log.error("cluster: Redis does not answer: %s", exc or type(exc).__name__)
            return False

    async def _drain(self) -> None:
        await self._out.join()  # sent, the last pipeline included

    # --- opening rooms: owner or mirror -----------------------------------------------

    async def own(self, rid: str) -> None:
        """Take the lease and a new fencing token of ``rid`` (committed before anything of
        the room is read or written here)."""
        if not await self.leases.acquire(rid):
            raise RuntimeError(f"room {rid!r} is owned by another process")
        await self.storage.take_room(rid, self.me)

    async def open(self, rid: str) -> Room | None:
        """The room ``rid`` in this process: taken over if nobody owns it, else mirrored."""
        if await self.storage.room_record(rid) is None:
            return None  # an unknown room: no lease, no token, nothing written
        owner = await self.leases.owner(rid)
        if owner is not None and owner != self.me and self.rooms.limits.room_affinity:
            moved = await self._handed_over(rid, owner)
            if moved is not None:
                return moved
            owner = await self.leases.owner(rid)
        if owner is None or owner == self.me:
            if await self.leases.acquire(rid):
                return await self._take_over(rid)
            owner = await self.leases.owner(rid)
        return await self._mirror(rid, owner)

    async def _take_over(self, rid: str, followed: bool = True) -> Room | None:
        """Own ``rid`` from its stored log. ``followed``: mirrors elsewhere may follow it
        still (the previous owner's); False after a handover, which only happens when
        nobody is connected to the room on any process (``_movable``)."""
        await self.storage.take_room(rid, self.me)
        record = await self.storage.room_record(rid)  # read after the token is committed
        room = None if record is None else self.rooms._revive(record)
        if room is None:
            await self.let_go(rid)
            return None
        self._published[rid] = room.game_id
        if followed:  # published to until the mirrors' watches, now sent here, lapse
            self._watched[rid] = time.monotonic()
        # the mirrors relay to this process from now on, without waiting for their watch
        self._send(room_channel(rid), {"k": "owner", "room": rid, "owner": self.me})
        log.info("cluster: room %s taken over at version %d", rid, room.version)
        return room

    async def _handed_over(self, rid: str, owner: str) -> Room | None:
        """Room affinity (``docs/cluster.md``, "Room affinity"): ask the owner of ``rid``
        to let it go to this process, which it does when nobody is connected to the room
        on any process; then take it over from the log, as after any owner's going, and
        count it for its creator's address. None: it stays where it is (to be mirrored)."""
        answer = await self._ask(owner, {"k": "handover", "room": rid}, HANDOVER_SECONDS)
        if not answer or not answer.get("ok") or not await self.leases.acquire(rid):
            return None
        # nobody was connected anywhere (_movable): no mirror to publish to; one that opens
        # later says so with its watch
        room = await self._take_over(rid, followed=False)
        creator = answer.get("creator")
        if room is not None and isinstance(creator, str):
            room.creator = creator  # its address's cap counts it here now (quota.tick)
            self.rooms.by_client.setdefault(creator, set()).add(rid)
        log.info("cluster: room %s handed over by %s", rid, owner)
        return room

    async def _hand_over(self, request: dict[str, Any]) -> None:
        """The owner's side of :meth:`_handed_over`: the room leaves this process if nobody
        is connected to it here or elsewhere (checked and removed with no wait between, so
        no socket joins it meanwhile) and nothing of this process follows it (an arena's
        rooms stay with their arena); its lease is let go before the answer."""
        rid = str(request.get("room"))
        room = self.rooms.rooms.get(rid)
        answer: dict[str, Any] = {"k": "rep", "id": request.get("id"), "ok": False}
        if isinstance(room, OwnedRoom) and _movable(room):
            creator = room.creator
            self.handing_over.add(rid)
            try:
                await self.drop(room)
            finally:
                self.handing_over.discard(rid)
            try:
                await self.leases.release(rid)
            except (RedisError, OSError) as exc:  # the lease runs out; takeovers follow
                log.warning("cluster: room %s handed over, its lease not let go: %s", rid, exc)
            else:
                answer |= {"ok": True, "creator": creator}
        self._send(process_channel(str(request.get("from"))), answer)

    async def _ask(
        self, process: str, message: dict[str, Any], seconds: float
    ) -> dict[str, Any] | None:
        """Send ``message`` to ``process``; its reply, or None after ``seconds``."""
        number = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        self._send(process_channel(process), message | {"id": number, "from": self.me})
        try:
            return await asyncio.wait_for(future, seconds)
        except TimeoutError:
            return None
        finally:
            self._waiting.pop(number, None)

    async def _mirror(self, rid: str, owner: str | None) -> Room | None:
        self._buffer[rid] = []
        await self.pubsub.subscribe(room_channel(rid))
        if owner is not None:  # subscribed first: what the owner publishes from now on comes
            self._send(process_channel(owner), {"k": "watch", "rooms": [rid]})
        try:
            record = await snapshot(self.storage, rid)
            if record is None:
                await self.pubsub.unsubscribe(room_channel(rid))
                return None
            room = MirrorRoom(rid, p.RoomSettings(**record.settings), self.storage, self)
            room.owner = owner
            room.restore(record)
            self.rooms._add(room)
            for message in self._buffer.get(rid, []):
                await self._follow(room, message)
            return room
        finally:
            self._buffer.pop(rid, None)

    async def _promote(self, mirror: MirrorRoom) -> None:
        """This process becomes the owner of a room it mirrors: the room is taken over from
        the stored log and the mirror's sockets go on in it, open (``Room.moved_to``), each
        sent the versions its mirror had not applied yet."""
        self.rooms._remove(mirror)
        room: Room | None = None
        try:
            room = await self._take_over(mirror.id)
        finally:
            if room is None:  # gone from the database, or the takeover failed: as a drop
                for conn in list(mirror.conns):
                    conn.close(CLOSE_MOVED)
            else:
                mirror.moved_to = room
                room.take_connections(list(mirror.conns), mirror.version)
            mirror.conns.clear()
            await mirror.close()
            with contextlib.suppress(Exception):
                await self.pubsub.unsubscribe(room_channel(mirror.id))

    async def drop(self, room: Room, code: int = CLOSE_MOVED) -> None:
        """``room`` leaves this process (its sockets reconnect wherever they like)."""
        self.rooms._remove(room)
        for conn in list(room.conns):
            conn.close(code)
        await room.close()
        if isinstance(room, MirrorRoom):
            with contextlib.suppress(Exception):
                await self.pubsub.unsubscribe(room_channel(room.id))
        else:
            self.storage.release_room(room.id)
            self._published.pop(room.id, None)
            self._watched.pop(room.id, None)

    async def let_go(self, rid: str) -> None:
        self.storage.release_room(rid)
        self._published.pop(rid, None)
        self._watched.pop(rid, None)
        with contextlib.suppress(Exception):
            await self.leases.release(rid)

    # --- the owner's side: publish commits, answer relayed requests ------------------

    def _watching(self, rid: str) -> bool:
        """Whether a mirror on another process follows the owned room ``rid``."""
        since = self._watched.get(rid)
        return since is not None and time.monotonic() - since < WATCH_SECONDS

    def _followed(self, message: dict[str, Any]) -> None:
        """A mirror elsewhere follows these rooms of this process (``_mirror``, ``_share``):
        their messages are published from now on. A room that was not published gets a
        mark of its version first (a mirror behind it reads the rest from the database)
        and who is online."""
        rooms = message.get("rooms")
        for rid in rooms[:PUBLISH_BATCH] if isinstance(rooms, list) else []:
            room = self.rooms.rooms.get(str(rid))
            if not isinstance(room, OwnedRoom):
                continue
            fresh = not self._watching(room.id)
            self._watched[room.id] = time.monotonic()
            if fresh:
                mark = {"k": "at", "room": room.id, "game": room.game_id, "v": room.version}
                self._send(room_channel(room.id), mark)
                self.tell_online(room)

    def published(self, room: Room) -> None:
        """After each commit of an owned room (``Room.on_change``): publish the action,
        if a mirror follows the room."""
        if room.broken or not room.game.log:
            return
        rid = room.id
        new_game = self._published.get(rid) != room.game_id
        self._published[rid] = room.game_id
        if not self._watching(rid):
            return
        if new_game:  # mirrors read it whole
            self._send(room_channel(rid), {"k": "game", "room": rid, "v": room.version})
            return
        action = room.game.log[-1]
        message: dict[str, Any] = {
            "k": "act", "room": rid, "game": room.game_id, "v": room.version,
            "action": room.game.action_dict(action),
        }
        seat = room.seats.get(action.player) if isinstance(action, engine.Join) else None
        if seat is not None:
            message["seat"] = {
                "player": seat.player, "name": seat.name, "token_hash": seat.token_hash,
                "bot_level": seat.bot_level, "account": seat.account,
            }
        self._send(room_channel(rid), message)

    def seat_taken_back(self, room: Room, player: str) -> None:
        """A seat's account took it back with a new token (``Room._take_back``): every
        mirror refuses the old token from now on, seats its joiner if the join came from
        there, and closes the seat's oldest sockets past ``seat_sockets``."""
        if self._watching(room.id):
            token_hash = room.seats[player].token_hash
            message = {"k": "seat", "room": room.id, "player": player, "token_hash": token_hash}
            self._send(room_channel(room.id), message)

    def moderate(self, message: dict[str, Any]) -> None:
        """Tell every other process of a moderator's action (``moderation_api.py``)."""
        self._send(MODERATION_CHANNEL, {"k": "mod", "from": self.me, **message})

    def said(self, room: Room, line: dict[str, Any]) -> None:
        """A chat line the owner stored: every mirror sends it to its own sockets."""
        if self._watching(room.id):
            self._send(room_channel(room.id), {"k": "chat", "room": room.id, "line": line})

    def tell_online(self, room: OwnedRoom) -> None:
        """Who is connected, on any process: the mirrors show it in their views."""
        if not self._watching(room.id):
            return
        online = sorted(p for p in room.connected() if p is not None)
        self._send(room_channel(room.id), {"k": "online", "room": room.id, "players": online})

    def tell_ratings(self, room: OwnedRoom, ratings: p.Ratings) -> None:
        """A finished game's rating changes (``players.py`` tells the owner only): every
        mirror sends them to its own sockets and to those greeted later, as the owner does."""
        if self._watching(room.id):  # encoded only for a mirror to hear
            message = {"k": "ratings", "room": room.id, "ratings": p.encode(ratings)}
            self._send(room_channel(room.id), message)

    async def _answer(self, request: dict[str, Any]) -> None:
        self.storage.metrics.relay("answered")
        error: dict[str, str] | None = None
        room = self.rooms.rooms.get(str(request.get("room")))
        try:
            if not isinstance(room, OwnedRoom) or room.broken:
                raise engine.GameError("owner_moved", "this room moved to another server: retry")
            await _perform(room, request)
        except engine.GameError as exc:
            error = {"code": exc.code, "message": str(exc)}
        except Fenced:  # another process took the room over meanwhile: the mirror retries
            error = {"code": "owner_moved", "message": "this room moved to another server: retry"}
        except Exception:
            log.exception("cluster: relayed request %r failed", request)
            error = {"code": "server_error", "message": "the room's server failed"}
        reply = {"k": "rep", "id": request.get("id"), "error": error}
        self._send(process_channel(str(request.get("from"))), reply)

    # --- the mirror's side: relay, follow ---------------------------------------------

    async def relay(self, room: MirrorRoom, op: str, **fields: Any) -> None:
        """Ask the owner of ``room`` to do ``op``; its refusal is raised as a GameError."""
        deadline = time.monotonic() + RELAY_SECONDS
        while room.owner is None and time.monotonic() < deadline and not room.broken:
            await asyncio.sleep(0.05)  # the room is changing servers: its new owner comes
        if room.owner is None:
            raise engine.GameError("owner_moved", "this room is changing servers: retry")
        self.storage.metrics.relay("sent")
        request = {"k": "req", "room": room.id, "op": op} | fields
        reply = await self._ask(room.owner, request, RELAY_SECONDS)
        if reply is None:
            raise engine.GameError(
                "owner_unreachable", f"the server of room {room.id!r} did not answer: retry"
            )
        error = reply.get("error")
        if error:
            raise engine.GameError(str(error["code"]), str(error["message"]))

    async def _follow(self, room: MirrorRoom, message: dict[str, Any]) -> None:
        if not _follow_now(room, message):
            await self._follow_from_database(room, message)

    async def _follow_from_database(self, room: MirrorRoom, message: dict[str, Any]) -> None:
        """A chat line (a gap in the lines is read from the database) or an action that
        does not follow the mirror's version (a new game, a lost message): the log read."""
        if message["k"] == "chat":
            chat = chat_of(room)
            if isinstance(chat, MirrorChat):
                await chat.follow(message["line"])
            return
        record = await snapshot(self.storage, room.id)
        if record is not None and not room.broken:
            room.resync(record)

    def _route(self, room: MirrorRoom, message: dict[str, Any]) -> None:
        """Follow ``message`` in its room's order without holding up the other rooms: one
        that needs the database (a new game's log, a gap in the chat) is followed in a task
        of its room's own, and the room's later messages queue behind it, while the
        listener goes on with every other room's (before, one room's read of its log held
        up every message of the process: its relays' replies, the other rooms' actions)."""
        if room.behind is not None:
            room.behind.append(message)
        elif not _follow_now(room, message):
            room.behind = [message]
            task = asyncio.create_task(self._catch_up(room))
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)

    async def _catch_up(self, room: MirrorRoom) -> None:
        backlog = room.behind or []
        try:
            while backlog:
                message = backlog.pop(0)
                try:
                    await self._follow(room, message)
                except Exception:
                    log.exception("cluster: message %r of room %s failed", message, room.id)
        finally:
            room.behind = None

    # --- loops ----------------------------------------------------------------------

    def _send(self, channel: str, message: dict[str, Any]) -> None:
        self._out.put_nowait((channel, json.dumps(message, separators=(",", ":"))))

    async def _publish(self) -> None:
        """One connection publishes everything, in order: a room's actions reach every
        mirror in version order. Whatever queued up meanwhile goes in one pipeline (one
        round trip to Redis for the actions of every room committed together, not one
        per action: ``docs/benchmarks.md``, "Round trips per action")."""
        while True:
            batch = [await self._out.get()]
            while not self._out.empty() and len(batch) < PUBLISH_BATCH:
                batch.append(self._out.get_nowait())
            try:
                async with self.publisher.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except Exception:
                log.exception("cluster: cannot publish %d messages", len(batch))
            for _ in batch:
                self._out.task_done()

    async def _listen(self) -> None:
        await listen(self.pubsub, lambda _channel, message: self._dispatch(message), "cluster")

    async def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("k")
        if kind == "rep":
            future = self._waiting.get(int(message.get("id") or 0))
            if future is not None and not future.done():
                future.set_result(message)
        elif kind == "watch":
            self._followed(message)
        elif kind in ("req", "handover"):
            answer = self._answer if kind == "req" else self._hand_over
            task = asyncio.create_task(answer(message))
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)
        elif kind == "mod":
            if message.get("from") != self.me:  # its own process applied it already
                for handler in self.on_moderation:
                    await handler(message)
        else:
            rid = str(message.get("room"))
            if rid in self._buffer:
                self._buffer[rid].append(message)
                return
            room = self.rooms.rooms.get(rid)
            if isinstance(room, MirrorRoom) and not room.broken:
                self._route(room, message)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await self._check()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: lease check failed")
                if time.monotonic() - self._renewed > LEASE_MS / 1000:
                    await self._drop_owned()  # cut off from Redis: others may own them now

    async def _check(self) -> None:
        """Renew this process's leases; drop the rooms whose lease is lost. Nothing else
        happens in this task (the rest of the lease check is :meth:`_exchange`, takeovers
        are :meth:`_takeovers`): the renewals must never be late. On a starved machine
        (issue 22's load runs, load average 10-15 on 2 cores) the exchanges after the
        renewal took up to 0.5 s, and in one run long enough that renewals came after
        the leases had run out: the process dropped its own rooms (1012)."""
        owned = [r for r in self.rooms.rooms.values() if isinstance(r, OwnedRoom)]
        claiming = sorted(self.claiming)
        kept = await self.leases.renew([r.id for r in owned] + claiming)
        self._renewed = time.monotonic()
        for rid, ok in zip(claiming, kept[len(owned):], strict=True):
            if not ok:  # its creation goes on; should it commit, the fencing token guards it
                log.warning("cluster: lost the lease of room %s while creating it", rid)
        for room, ok in zip(owned, kept[: len(owned)], strict=True):
            if not ok:
                log.warning("cluster: lost the lease of room %s", room.id)
                await self.drop(room)

    async def _exchange(self) -> None:
        """Every lease check's period, apart from the renewals: the mirrors' owners, the
        room counts and watchers, the public list."""
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await self._share()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: exchange with the other processes failed")

    async def _share(self) -> None:
        """Note the mirrored rooms whose owner is gone (``_takeovers`` takes them); count
        the rooms and watchers; share the public list."""
        mirrors = [r for r in self.rooms.rooms.values() if isinstance(r, MirrorRoom)]
        owners = await self.leases.owners([r.id for r in mirrors])
        followed: dict[str, list[str]] = {}
        for mirror, owner in zip(mirrors, owners, strict=True):
            mirror.set_owner(owner)
            if owner is not None:
                followed.setdefault(owner, []).append(mirror.id)
        for owner, rids in followed.items():  # each owner publishes only what is followed
            for start in range(0, len(rids), PUBLISH_BATCH):
                message = {"k": "watch", "rooms": rids[start : start + PUBLISH_BATCH]}
                self._send(process_channel(owner), message)
        self._free = [m.id for m, o in zip(mirrors, owners, strict=True) if o is None]
        here = list(self.rooms.rooms.values())
        owned_here: list[Room] = [r for r in here if isinstance(r, OwnedRoom)]
        await self.quota.tick(self.me, owned_here, here, self.alive)
        try:
            await self._share_list()
        except Exception:  # the list may lag; the leases above must not
            log.exception("cluster: cannot share the public list")

    async def _takeovers(self) -> None:
        """Take over the mirrored rooms whose owner went away, and adopt orphaned rooms:
        in a task of their own, in small chunks, so that a burst of takeovers (a dead
        process's hundreds of rooms) never delays the renewal of the leases this process
        already holds (``_watch``): late renewals let another process take its rooms."""
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await self._take_free_mirrors()
                if time.monotonic() - self._adopted_at > ADOPT_SECONDS:
                    self._adopted_at = time.monotonic()
                    await self._adopt()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: takeovers failed")

    async def _take_free_mirrors(self) -> None:
        free, self._free = self._free, []
        for n, rid in enumerate(free, 1):
            mirror = self.rooms.rooms.get(rid)
            if isinstance(mirror, MirrorRoom) and mirror.owner is None:
                await self._take_one(rid, mirror)
            if n % ADOPT_CHUNK == 0:
                await asyncio.sleep(ADOPT_PAUSE)

    async def _take_one(self, rid: str, mirror: MirrorRoom | None = None) -> None:
        """Take ``rid`` over if its lease is free; a failure stays this room's alone."""
        try:
            async with self.rooms._loading:
                here = self.rooms.rooms.get(rid)
                if here is not mirror or not await self.leases.acquire(rid):
                    return
                if mirror is None:
                    await self._take_over(rid)
                else:
                    await self._promote(mirror)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("cluster: cannot take room %s over", rid)
            if not isinstance(self.rooms.rooms.get(rid), OwnedRoom):
                await self.let_go(rid)

    async def _adopt(self) -> None:
        """Take over the rooms with a game in progress that nobody owns: their games go on
        (bots play, pick windows end) and they are swept like any room once abandoned, as
        one process restores every room in progress at its start. Every process looks; a
        room goes to the live process ranked first for it (:func:`ranked_first`), so that
        the rooms of a dead process spread over the others, and a room still free after
        ``ADOPT_PATIENCE`` looks (the process it was left to died too, or is full) to any
        that sees it. A chunk at a time, with a pause between chunks (``ADOPT_CHUNK``)."""
        left, self._orphans = self._orphans, {}
        async for page in self._rooms_playing():
            for start in range(0, len(page), ADOPT_CHUNK):
                chunk = page[start : start + ADOPT_CHUNK]
                for rid, owner in zip(chunk, await self.leases.owners(chunk), strict=True):
                    if owner is not None or len(self.rooms.rooms) >= self.rooms.limits.room_cap:
                        continue
                    looks = left.get(rid, 0)
                    if looks >= ADOPT_PATIENCE or ranked_first(rid, self.alive) == self.me:
                        await self._take_one(rid)
                    else:
                        self._orphans[rid] = looks + 1
                await asyncio.sleep(ADOPT_PAUSE)

    async def _rooms_playing(self) -> AsyncIterator[list[str]]:
        """The rooms with a game in progress not in this process, ``ADOPT_BATCH`` at a time
        in the order of their ids (every one of them, however many rooms are playing)."""
        after = ""
        while True:
            query = (
                sa.select(games.c.room).where(games.c.status == "playing", games.c.room > after)
                .distinct().order_by(games.c.room).limit(ADOPT_BATCH)
            )
            async with self.storage.reading() as conn:
                page = [str(r) for r in (await conn.execute(query)).scalars()]
            if not page:
                return
            after = page[-1]
            yield [r for r in page if r not in self.rooms.rooms]

    async def _share_list(self) -> None:
        """Write this process's public rooms to Redis; read the other processes'."""
        rooms = [r.summary() | {"created": r.created} for r in self.rooms.listed.values()]
        rooms.sort(key=lambda r: r["created"], reverse=True)
        now = await redis_now(self.client)  # one clock for every machine: Redis's
        entry = json.dumps({"at": now, "rooms": rooms[:PUBLIC_LIST]})
        await self.client.hset(LISTED_KEY, self.me, entry)
        found: list[dict[str, Any]] = []
        alive = {self.me}
        for process, raw in (await self.client.hgetall(LISTED_KEY)).items():
            data = json.loads(raw)
            if now - float(data["at"]) > LISTED_STALE:
                await self.client.hdel(LISTED_KEY, process)  # a process that went away
            elif _text(process) != self.me:
                found.extend(data["rooms"])
                alive.add(_text(process))
        self.listed_elsewhere = found
        self.alive = alive
        self._forget_gone(alive)

    def _forget_gone(self, alive: set[str]) -> None:
        """Players connected through a process that went away (killed: it said nothing)
        are no longer connected: away after the grace, and the room may idle out."""
        for room in [r for r in self.rooms.rooms.values() if isinstance(r, OwnedRoom)]:
            for player, where in list(room.remote.items()):
                for process in where - alive:
                    _here(room, player, process, False)

    async def _drop_owned(self) -> None:
        for room in [r for r in self.rooms.rooms.values() if isinstance(r, OwnedRoom)]:
            await self.drop(room)


async def _perform(room: OwnedRoom, request: dict[str, Any]) -> None:
    """Carry out a relayed request as the socket layer would for a local connection."""
    op, player = request.get("op"), request.get("player")
    if op == "join":
        client = str(request.get("client"))
        room._check_joins(client, request["account"])
        room.joins.take(client)
        await room._seat(
            str(request["name"]), request["token_hash"], None, None, client, request["account"],
            known=request.get("known"),
        )
    elif op == "here":
        _here(room, str(player), str(request["from"]), bool(request["connected"]))
    elif op == "chat":
        watcher = str(request["watcher"])[:16]
        speaker = None if player is None else str(player)
        client = str(request.get("client", "?"))[:64]
        await chat_of(room).post(speaker, watcher, str(request["text"]), client)
    elif op == "again":
        await room.new_game(requested_by=player)
    elif op == "leave":
        await room.act(lambda now: engine.Leave(at=now, player=str(player)))
        await room.forget_seat(str(player))
    else:
        await _play(room, str(op), str(player), request)


async def _play(room: OwnedRoom, op: str, player: str, request: dict[str, Any]) -> None:
    if op == "start":
        await room.start(player)
    elif op == "call":
        await room.call(player, int(request["version"]))
    elif op == "pick":
        await room.pick(player, [str(c) for c in request["cards"]], int(request["version"]))
    elif op == "turn":
        await room.turn(player, int(request["position"]))
    elif op == "no_set":
        await room.no_set(player)
    else:
        raise engine.GameError("unknown_type", f"unknown relayed request {op!r}")


def _here(room: OwnedRoom, player: str, process: str, connected: bool) -> None:
    """A player's connections on another process came or went: as ``Room.attach`` and
    ``Room.detach`` for this process's own (presence, and away after the grace)."""
    where = room.remote.setdefault(player, set())
    (where.add if connected else where.discard)(process)
    if not where:
        del room.remote[player]
    room._presence(player, room._online(player))
    if connected:
        room._spawn(room._set_away(player, False))
    elif not room._online(player):
        room._spawn(room._away_after_grace(player))


def _follow_now(room: MirrorRoom, message: dict[str, Any]) -> bool:
    """Apply what needs no database read: True when done."""
    kind = message["k"]
    if kind in ("gone", "owner"):
        room.set_owner(message.get("owner"))
    elif kind == "at":  # where the owner is: nothing to do unless this mirror is behind
        return message.get("game") == room.game_id and int(message["v"]) <= room.version
    elif kind == "online":
        room.elsewhere_online([str(p) for p in message.get("players", [])])
    elif kind == "ratings":
        room.tell_ratings(msgspec.json.decode(str(message["ratings"]), type=p.Ratings))
    elif kind == "seat":
        room.taken_back(str(message["player"]), str(message["token_hash"]))
    else:
        return kind == "act" and room.apply(message)
    return True


def _movable(room: OwnedRoom) -> bool:
    """Nobody is connected to ``room`` on any process, and no arena of this process follows
    it (an arena watches its games' rooms where it opened them: ``arenas.py``)."""
    if room.broken or room.sockets or room.conns or room.remote:
        return False
    if (room.creator or "").startswith("arena:"):
        return False
    watchers = (type(getattr(hook, "__self__", None)).__module__ for hook in room.on_change)
    return not any(module.startswith("setgame.server.arena") for module in watchers)


def ranked_first(room: str, processes: set[str]) -> str:
    """The process ``room`` goes to among ``processes`` (rendezvous hashing: every process
    computes the same answer, and a process coming or going moves only its own share).

    >>> ranked_first("r1", {"a", "b", "c"}) == ranked_first("r1", {"c", "b", "a"})
    True
    """
    return max(processes, key=lambda process: _weight(process, room))


def _weight(process: str, room: str) -> bytes:
    return hashlib.blake2b(f"{process}\x00{room}".encode(), digest_size=8).digest()


async def snapshot(storage: Storage, rid: str) -> RoomRecord | None:
    """The room as stored, read in one snapshot (REPEATABLE READ): the owner may be
    committing meanwhile, and a record whose seats, actions and version were read at
    different moments would make a mirror that disagrees with it."""
    query = (
        games.select().where(games.c.room == rid).order_by(games.c.created.desc(), games.c.id)
        .limit(1)
    )
    async with storage.reading() as conn:
        snap = await conn.execution_options(isolation_level="REPEATABLE READ")
        async with snap.begin():
            row = (await snap.execute(query)).first()
            game = None if row is None else storage._game(row)
            return None if game is None else await storage._record(snap, game)


async def open_cluster(storage: Storage, limits: Limits, url: str) -> ClusterRooms:
    """The rooms of this process in the cluster of Redis ``url`` (started)."""
    rooms = ClusterRooms(storage, limits)
    # A burst (hundreds of rooms opened or let go at once) waits for a connection of the
    # pool instead of failing "Too many connections" (issue 22's load runs, 2 processes);
    # the publisher has a connection of its own, so that no burst delays or fails it.
    pool = aioredis.BlockingConnectionPool.from_url(
        url, max_connections=REDIS_CONNECTIONS, timeout=RELAY_SECONDS
    )
    publisher = aioredis.from_url(url, single_connection_client=True)
    rooms.node = Node(rooms, aioredis.Redis.from_pool(pool), publisher)
    await rooms.node.start()
    return rooms
