"""A room owned by another process, as this process's players see it.

The engine is deterministic from the seed and the actions, so a mirror holds a replica of
the owner's game: it applies each committed action the owner publishes (in version order)
and builds its own connections' views and updates itself, exactly as the owner would. The
players' requests go to the owner (the cluster node's :meth:`Relay.relay`), which orders,
checks and commits them; nothing here writes to the database. A gap in the versions (a
message lost, a new game) is filled from the database, where the owner committed before it
published.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from typing import Any, Final, Protocol

from setgame.rules import game as engine
from setgame.server import protocol as p
from setgame.server.chat import RoomChat, stored_lines, use_chat
from setgame.server.rooms import Connection, Room, Seat, _seated, hash_token
from setgame.server.storage import RoomRecord, Storage


class Relay(Protocol):
    """What a mirror needs of the cluster node that holds it (``setgame.server.cluster.node``,
    which imports this module): a way to pass its players' requests to the room's owner."""

    async def relay(self, room: MirrorRoom, op: str, **fields: Any) -> None:
        """Ask the owner of ``room`` to do ``op``; its refusal is raised as a GameError."""


HERE_TRIES: Final = 5
HERE_RETRY: Final = 0.3


class MirrorRoom(Room):
    """A replica of a room another process (``owner``) owns."""

    def __init__(self, rid: str, settings: p.RoomSettings, storage: Storage, node: Relay) -> None:
        super().__init__(rid, settings, storage)
        self.node = node
        self.owner: str | None = None
        self._joining: dict[str, tuple[Connection, str]] = {}  # token hash -> (conn, token)
        self.elsewhere: set[str] = set()  # players connected, as the owner last said
        # the owner's messages waiting behind one that reads the database (Node._route)
        self.behind: list[dict[str, Any]] | None = None
        use_chat(self, MirrorChat(self))

    def connected(self) -> set[str | None]:
        return super().connected() | self.elsewhere

    def _online(self, player: str | None) -> bool:
        return super()._online(player) or player in self.elsewhere

    def set_owner(self, owner: str | None) -> None:
        """The room's owner as this process last heard; a new owner hears at once which
        of its players are connected here (the old one's word on it died with it)."""
        changed = owner is not None and owner != self.owner
        self.owner = owner
        if changed:
            for player in {c.player for c in self.conns if c.player is not None}:
                self._tell_owner(player, True)

    def elsewhere_online(self, players: list[str]) -> None:
        """The owner's word on who is connected anywhere: presence messages follow."""
        before, self.elsewhere = self.elsewhere, set(players)
        for player in before ^ self.elsewhere:
            self._presence(player, player in self.elsewhere)

    # --- what the owner does, not a mirror ------------------------------------------------

    def _schedule_timer(self) -> None:
        """The owner ends pick windows (its ``tick`` comes as an action like any other)."""

    async def _set_away(self, player: str, away: bool) -> None:
        """The owner decides who is away, from every process's connections (``here``)."""

    def attach(self, conn: Connection) -> None:
        here = self._here(conn.player)
        super().attach(conn)
        if conn.player is not None and not here:
            self._tell_owner(conn.player, True)

    def detach(self, conn: Connection) -> None:
        was = conn in self.conns
        super().detach(conn)
        if was and conn.player is not None and not self._here(conn.player):
            self._tell_owner(conn.player, False)

    def _here(self, player: str | None) -> bool:
        return player is not None and any(c.player == player for c in self.conns)

    def _tell_owner(self, player: str, connected: bool) -> None:
        """A player's first connection on this process came, or its last one went."""
        self._spawn(self._relay_here(player, connected))

    async def _relay_here(self, player: str, connected: bool) -> None:
        """Tell the owner; one that is still taking the room over (``owner_moved``) is told
        again a moment later. Given up after a few tries: a later owner hears it anew."""
        for _ in range(HERE_TRIES):
            try:
                await self.node.relay(self, "here", player=player, connected=connected)
                return
            except engine.GameError:
                await asyncio.sleep(HERE_RETRY)
            if self.broken:
                return

    # --- requests: relayed to the owner ---------------------------------------------------

    async def join(
        self,
        conn: Connection,
        name: str,
        client: str = "?",
        account: str | None = None,
        token: str | None = None,
    ) -> str:
        if conn.player is not None:
            raise engine.GameError("already_seated", f"you already sit as {conn.player!r}")
        new_token = secrets.token_urlsafe(18)
        digest = hash_token(new_token)
        self._joining[digest] = (conn, new_token)
        known = hash_token(token) if token else None  # the owner finds a returning seat by it
        try:
            await self.node.relay(
                self, "join", name=name, client=client, account=account, token_hash=digest,
                known=known,
            )
        except BaseException:
            self._joining.pop(digest, None)
            raise
        await self.wait_seated(digest)
        return conn.player or ""

    async def wait_seated(self, digest: str, timeout: float = 5.0) -> None:
        """The owner answered before its update arrived here: wait for the seat."""
        deadline = time.monotonic() + timeout
        while digest in self._joining and time.monotonic() < deadline and not self.broken:
            with contextlib.suppress(TimeoutError):  # a seat taken back moves no version
                await asyncio.wait_for(self._changed.wait(), deadline - time.monotonic())

    async def start(self, player: str) -> None:
        await self.node.relay(self, "start", player=player)

    async def call(self, player: str, version: int) -> None:
        await self.node.relay(self, "call", player=player, version=version)

    async def pick(self, player: str, codes: list[str], version: int) -> None:
        self._parse_cards(codes)  # a bad code is answered here, without a round trip
        await self.node.relay(self, "pick", player=player, cards=codes, version=version)

    async def turn(self, player: str, position: int) -> None:
        await self.node.relay(self, "turn", player=player, position=position)

    async def no_set(self, player: str) -> None:
        await self.node.relay(self, "no_set", player=player)

    async def leave(self, conn: Connection) -> None:
        await self.node.relay(self, "leave", player=_seated(conn))

    async def new_game(self, requested_by: str | None = None) -> None:
        if self.game.phase != "match_over":
            raise engine.GameError("not_over", "the match is still being played")
        await self.node.relay(self, "again", player=requested_by)

    # --- the owner's stream ---------------------------------------------------------------

    def apply(self, message: dict[str, Any]) -> bool:
        """Apply one published action; False when it does not follow (resync instead)."""
        version = int(message["v"])
        if version <= self.version:
            return True  # already seen (read from the database meanwhile)
        if version != self.version + 1 or message.get("game") != self.game_id:
            return False
        action = self.game.parse_action(message["action"])
        seat = message.get("seat")
        if seat is not None:
            self.seats[seat["player"]] = Seat(
                seat["player"], seat["name"], seat["token_hash"], seat["bot_level"],
                account=seat["account"],
            )
        self._reset_clock(action.at)
        events = self.game.apply(action)
        self.version = version
        self._remember(version, events)
        self._seat_joiner(action, seat)
        if isinstance(action, engine.Leave):
            self.seats.pop(action.player, None)
            for conn in self.conns:
                if conn.player == action.player:
                    conn.player = None
        self._delivered(events)
        return True

    def _seat_joiner(self, action: engine.Action, seat: dict[str, Any] | None) -> None:
        """A join asked for from here: the connection gets ``joined`` (its token) before
        the update that shows the seat, as on the owner."""
        if not isinstance(action, engine.Join) or seat is None:
            return
        waiting = self._joining.pop(seat.get("token_hash") or "", None)
        if waiting is not None:
            conn, token = waiting
            conn.player = action.player
            conn.send(p.encode(p.Joined(player=action.player, token=token)))
            self._presence(action.player, True)
            self._tell_owner(action.player, True)

    def taken_back(self, player: str, token_hash: str) -> None:
        """The owner gave ``player``'s seat a new token (its account joined again,
        ``Room._take_back``): the old one seats nobody here either; a join asked for from
        here is seated; the seat's oldest sockets here past ``seat_sockets`` close."""
        seat = self.seats.get(player)
        if seat is None:
            return
        seat.token_hash = token_hash
        waiting = self._joining.pop(token_hash, None)
        joiner = None
        if waiting is not None:
            joiner, token = waiting
            joiner.player = player
            joiner.send(p.encode(p.Joined(player=player, token=token)))
            joiner.send(self.welcome(joiner, None))  # as on the owner: the seat's view
            self._presence(player, True)
            self._tell_owner(player, True)
        self.make_way(player, joiner)
        self._changed.set()
        self._changed = asyncio.Event()

    def _delivered(self, events: list[dict[str, Any]]) -> None:
        self.last_active = time.monotonic()
        self._broadcast(events)
        self._changed.set()
        self._changed = asyncio.Event()
        for callback in self.on_change:
            callback(self)

    def resync(self, record: RoomRecord) -> None:
        """Catch up from the database: every version after the last one applied here is
        sent to the connections as its own update (the state is the newest)."""
        before = self.version
        self.restore(record)
        for seat in self.seats.values():  # a join of ours the owner committed meanwhile
            waiting = self._joining.pop(seat.token_hash or "", None)
            if waiting is not None:
                waiting[0].player = seat.player
                waiting[0].send(p.encode(p.Joined(player=seat.player, token=waiting[1])))
        self.catch_up(list(self.conns), before)
        self._changed.set()
        self._changed = asyncio.Event()
        for callback in self.on_change:
            callback(self)


class MirrorChat(RoomChat):
    """A mirror's chat: messages are checked here (the rate is the connection's), then
    numbered, stored and published by the owner; the owner's lines arrive as :meth:`follow`."""

    def __init__(self, room: Room) -> None:
        super().__init__(room)
        self.followed = ("", 0)  # (game, number) of the last line sent on from the owner

    async def follow(self, line: dict[str, Any]) -> None:
        """Send on a line the owner stored and published. Redis may drop a published
        message: a line whose number skips some is preceded by the skipped ones, read from
        the database (the owner stored them before publishing)."""
        game, seq = str(line.get("game")), int(line.get("seq") or 0)
        last_game, last = self.followed
        if game == last_game and seq <= last:
            return  # already sent on (read from the database with an earlier gap)
        if game == last_game and seq > last + 1:
            stored = await stored_lines(self.room.storage, game)
            for missed in stored:
                if last < int(missed["seq"]) < seq:
                    self.heard(missed)
        self.followed = (game, seq)
        self.heard(line)

    async def post(self, player: str | None, watcher: str, text: str, client: str = "?") -> None:
        room = self.room
        assert isinstance(room, MirrorRoom)  # made only by MirrorRoom
        await room.node.relay(
            room, "chat", player=player, watcher=watcher, text=text, client=client
        )

    async def history(self, conn: Connection) -> None:
        self.game = ""  # the owner stores the lines: read them from the database each time
        await super().history(conn)
