"""An asyncio client of the setgame protocol (``docs/protocol.md``).

One client is one WebSocket to one room. It is what the protocol tests, the
load benchmark, bots-as-clients and the terminal app speak through::

    room = await create_room("http://127.0.0.1:8000", deck="beginner")
    async with await Client.connect("http://127.0.0.1:8000", room) as alice:
        await alice.join("Alice")
        await alice.start()
        await alice.wait_update(lambda state: state["phase"] == "playing")
        a, b, c = table_sets(alice.state)[0]
        await alice.call()
        await alice.wait_update(lambda state: state["holder"] == alice.player)
        await alice.pick([a, b, c])

A background task reads the socket: it keeps :attr:`Client.state` and
:attr:`Client.version` current, answers :meth:`Client.join`, :meth:`Client.hint`
and :meth:`Client.ping` directly, and queues every other message for
:meth:`Client.next_message`, :meth:`Client.wait_for` and ``async for`` (unless a
listener takes it, see :data:`Listener`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterable
from types import TracebackType
from typing import Any
from urllib.parse import quote

import httpx
import msgspec
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from setgame.rules.cards import card_name, parse_card
from setgame.rules.sets import find_sets
from setgame.rules.variants import find_variant

Message = dict[str, Any]
"""A decoded server message: a JSON object with a ``type``."""

Listener = Callable[["Client", Message, float], bool | None]
"""Called by the reader with each message and its ``time.perf_counter()`` arrival time.
A listener that returns True has taken the message: it is not queued for
:meth:`Client.next_message` (a client driven by its listener alone queues nothing)."""

#: Server replies that answer one request directly instead of going to the queue.
_REPLIES = {"joined": "join", "hint": "hint", "pong": "ping"}


class ClientError(ValueError):
    """Something the client got that it cannot use (bad URL, bad answer, closed socket)."""


class ServerError(ClientError):
    """An ``error`` message from the server: ``code``, ``message`` and the ``request`` answered."""

    def __init__(self, reply: Message) -> None:
        self.reply = reply
        self.code: str = str(reply.get("code"))
        self.request: str | None = reply.get("request")
        super().__init__(f"{self.code}: {reply.get('message')!s} (request {self.request!r})")


class Disconnected(ClientError):
    """The socket is closed; ``code`` is the close code (``None`` when there was none)."""

    def __init__(self, code: int | None, reason: str) -> None:
        self.code = code
        self.reason = reason
        super().__init__(f"connection closed with code {code!r}, reason {reason!r}")


def ws_url(base_url: str, room_id: str) -> str:
    """The socket address of a room: ``http://h:p`` -> ``ws://h:p/ws/<room_id>``.

    >>> ws_url("http://127.0.0.1:8000/", "abc")
    'ws://127.0.0.1:8000/ws/abc'
    >>> ws_url("https://set.example", "r1")
    'wss://set.example/ws/r1'
    """
    for http, ws in (("http://", "ws://"), ("https://", "wss://"), ("ws://", "ws://")):
        if base_url.startswith(http):
            return ws + base_url[len(http) :].rstrip("/") + "/ws/" + room_id
    if base_url.startswith("wss://"):
        return base_url.rstrip("/") + "/ws/" + room_id
    raise ClientError(f"base URL must start with http://, https://, ws:// or wss://: {base_url!r}")


async def create_room(
    base_url: str, *, http: httpx.AsyncClient | None = None, **settings: Any
) -> str:
    """Create a room over HTTP (``POST /api/rooms``) with ``settings``; return its id."""
    if http is None:
        async with httpx.AsyncClient(base_url=base_url, trust_env=False, timeout=10) as own:
            return await create_room(base_url, http=own, **settings)
    response = await http.post(base_url.rstrip("/") + "/api/rooms", json=settings)
    if response.status_code != 201:
        raise ClientError(
            f"POST /api/rooms {settings!r} answered {response.status_code}: {response.text!r}"
        )
    return str(response.json()["id"])


def table_sets(state: Message | None) -> list[tuple[str, str, str]]:
    """Every set among the face-up cards of a view, as card codes (R03).

    >>> table_sets({"table": ["1RSD", "2GTO", "3POS", "1RSO"]})
    [('1RSD', '2GTO', '3POS')]
    """
    if state is None:
        return []
    cards = [parse_card(code) for code in state["table"]]
    return [(card_name(a), card_name(b), card_name(c)) for a, b, c in find_sets(cards)]


def table_groups(state: Message | None) -> list[tuple[str, ...]]:
    """Every claim a view's table offers now, in its variant (``state["variant"]``): groups
    of 3, 4 or 6 codes in the variant deck's notation, using the previous claim in a chain,
    without the groups a puzzle has found. None while the cards lie face down (Memory).

    >>> view = {"table": ["1RSD", "2RSD", "1GSD", "2GSD", "3POS"], "previous": None,
    ...         "found": None, "variant": {"name": "ultraset"}}
    >>> table_groups(view)
    [('1RSD', '2RSD', '1GSD', '2GSD')]
    """
    if state is None:
        return []
    variant = find_variant(state.get("variant", {}).get("name", "classic"))
    if variant.flow.face_down:
        return []
    deck = variant.deck
    previous = [deck.parse(c) for c in state.get("previous") or []]
    pool = [deck.parse(code) for code in state["table"]] + previous
    found = {frozenset(group) for group in state.get("found") or []}
    groups = [tuple(deck.names(g)) for g in variant.find(pool, previous or None)]
    return [g for g in groups if frozenset(g) not in found]


def _code(card: str | int) -> str:
    return card_name(card) if isinstance(card, int) else card


SESSION_COOKIE = "setgame_session"
"""The session cookie of a signed-in player (``docs/protocol.md``, "Accounts")."""


async def sign_in(
    base_url: str, name: str, password: str, *, http: httpx.AsyncClient | None = None
) -> str:
    """Sign in as ``name`` (``POST /api/account/signin``); the session to pass to
    :meth:`Client.connect`. :class:`ServerError` (``bad_credentials``, ``rate_limited``...)
    when the server refuses."""
    if http is None:
        async with httpx.AsyncClient(trust_env=False, timeout=30) as own:
            return await sign_in(base_url, name, password, http=own)
    url = base_url.rstrip("/") + "/api/account/signin"
    response = await http.post(url, json={"name": name, "password": password})
    session = response.cookies.get(SESSION_COOKIE)
    if response.status_code != 200 or session is None:
        try:
            reply = response.json()
        except ValueError:
            reply = {"code": "bad_answer", "message": response.text[:200]}
        raise ServerError({"type": "error", "request": "signin", **reply})
    return session


async def claimed_session(base_url: str, name: str, ask: Callable[[str], str]) -> str | None:
    """When ``name`` is claimed on the server, ask for its password (``ask(the name as
    claimed)``) and sign in: the session for :meth:`Client.connect`. None for a name nobody
    claimed (nothing is asked). :class:`ServerError` when the server refuses the password;
    ``httpx.HTTPError`` when it cannot be reached."""
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        answer = await http.get(f"{base_url.rstrip('/')}/api/players/{quote(name, safe='')}")
        if answer.status_code != 200:
            return None  # 404: a guest's name
        password = ask(str(answer.json().get("name", name)))
        return await sign_in(base_url, name, password, http=http)


class Client:
    """One player's (or spectator's) connection to one room; see the module docstring."""

    def __init__(
        self, ws: ClientConnection, room_id: str, *, listener: Listener | None = None
    ) -> None:
        self.room = room_id
        self.base_url = ""
        self.state: Message | None = None
        self.version = 0
        self.token: str | None = None
        self.player: str | None = None
        self.welcome: Message = {}
        self.listener = listener
        self.closed: Disconnected | None = None
        self._ws = ws
        self._queue: asyncio.Queue[Message | None] = asyncio.Queue()
        self._waiting: dict[str, asyncio.Future[Message]] = {}
        self._reader = asyncio.create_task(self._read(), name=f"setgame-client-{room_id}")

    @classmethod
    async def connect(
        cls,
        base_url: str,
        room_id: str,
        token: str | None = None,
        since: int | None = None,
        *,
        timeout: float = 10.0,
        compression: str | None = None,
        keepalive: float | None = 20.0,
        listener: Listener | None = None,
        session: str | None = None,
    ) -> Client:
        """Open the room's socket, say ``hello`` and wait for ``welcome``.

        ``token`` resumes a seat taken earlier; ``since`` asks for the events
        after that version (they arrive in ``welcome["missed"]``). ``keepalive`` is the
        interval of WebSocket-level pings (None: none); ``compression="deflate"`` asks for
        per-message compression as browsers do. ``session`` (from :func:`sign_in`) joins as
        that signed-in player. Raises
        :class:`Disconnected` (code 4004 for an unknown room) or :class:`ServerError`.
        """
        ws = await ws_connect(
            ws_url(base_url, room_id),
            compression=compression,
            open_timeout=timeout,
            proxy=None,
            max_size=2**20,
            ping_interval=keepalive,
            additional_headers={"Cookie": f"{SESSION_COOKIE}={session}"} if session else None,
        )
        client = cls(ws, room_id, listener=listener)
        client.token = token
        client.base_url = base_url
        try:
            await client.send("hello", token=token, since=since)
            reply = await client.wait_for(lambda m: m["type"] in ("welcome", "error"), timeout)
        except BaseException:
            await client.close()
            raise
        if reply["type"] == "error":
            await client.close()
            raise ServerError(reply)
        return client

    # -- reading -----------------------------------------------------------------------

    async def _read(self) -> None:
        try:
            async for raw in self._ws:
                arrived = time.perf_counter()
                message = self._decode(raw)
                self._absorb(message)
                taken = self.listener is not None and self.listener(self, message, arrived)
                if not self._answer(message) and not taken:
                    self._queue.put_nowait(message)
        except ConnectionClosed:
            pass
        finally:
            self.closed = Disconnected(self._ws.close_code, self._ws.close_reason or "")
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(self.closed)
            self._waiting.clear()
            self._queue.put_nowait(None)

    @staticmethod
    def _decode(raw: str | bytes) -> Message:
        try:
            message = msgspec.json.decode(raw)
        except msgspec.DecodeError:
            return {"type": "invalid", "raw": raw}
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            return {"type": "invalid", "raw": raw}
        return message

    def _absorb(self, message: Message) -> None:
        kind = message["type"]
        if kind in ("welcome", "update") and isinstance(message.get("state"), dict):
            state: Message = message["state"]
            self.state = state
            self.version = int(message.get("version") or state.get("version") or 0)
            if "you" in state:  # the seat this connection acts for (None after leave)
                self.player = state["you"]
        if kind == "welcome":
            self.welcome = message
            self.player = message.get("you") or self.player
        elif kind == "joined":
            self.player = message.get("player")
            self.token = message.get("token")

    def _answer(self, message: Message) -> bool:
        """Hand a direct reply to the request waiting for it; False if none waits."""
        kind = message["type"]
        request = message.get("request") if kind == "error" else _REPLIES.get(kind)
        future = self._waiting.pop(request, None) if isinstance(request, str) else None
        if future is None or future.done():
            return False
        if kind == "error":
            future.set_exception(ServerError(message))
        else:
            future.set_result(message)
        return True

    async def next_message(self, timeout: float | None = None) -> Message:
        """The next queued message; raises :class:`Disconnected` once the socket is closed."""
        message = await asyncio.wait_for(self._queue.get(), timeout)
        if message is None:
            self._queue.put_nowait(None)
            assert self.closed is not None
            raise self.closed
        return message

    def __aiter__(self) -> AsyncIterator[Message]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Message]:
        while True:
            try:
                yield await self.next_message()
            except Disconnected:
                return

    async def wait_for(self, predicate: Callable[[Message], bool], timeout: float = 5.0) -> Message:
        """Drop queued messages until one satisfies ``predicate``; return it.

        Raises ``TimeoutError`` naming the messages it dropped, or :class:`Disconnected`.
        """
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while True:
            left = deadline - time.monotonic()
            try:
                message = await self.next_message(max(left, 0.0))
            except TimeoutError:
                raise TimeoutError(f"no matching message in {timeout}s; got {seen!r}") from None
            if predicate(message):
                return message
            seen.append(_summary(message))

    async def wait_update(
        self, predicate: Callable[[Message], bool] = lambda state: True, timeout: float = 5.0
    ) -> Message:
        """The next ``update`` whose state satisfies ``predicate``; an ``error`` raises it."""
        message = await self.wait_for(
            lambda m: m["type"] == "error" or (m["type"] == "update" and predicate(m["state"])),
            timeout,
        )
        if message["type"] == "error":
            raise ServerError(message)
        return message

    async def wait_event(
        self, kind: str, timeout: float = 5.0, *, after: int | None = None
    ) -> Message:
        """The first event of type ``kind`` in an ``update`` newer than version ``after``.

        An ``error`` message on the way raises it as :class:`ServerError`.
        """
        newer = -1 if after is None else after
        deadline = time.monotonic() + timeout
        while True:
            update = await self.wait_update(timeout=max(0.0, deadline - time.monotonic()))
            if update["version"] > newer:
                for event in update["events"]:
                    if event.get("type") == kind:
                        return dict(event)

    async def wait_error(self, timeout: float = 5.0) -> ServerError:
        """The next ``error`` message (updates before it are dropped), as a :class:`ServerError`."""
        return ServerError(await self.wait_for(lambda m: m["type"] == "error", timeout))

    def drain(self) -> list[Message]:
        """Take every message queued so far without waiting."""
        taken: list[Message] = []
        while not self._queue.empty():
            message = self._queue.get_nowait()
            if message is None:
                self._queue.put_nowait(None)
                break
            taken.append(message)
        return taken

    async def wait_closed(self, timeout: float = 5.0) -> Disconnected:
        """Wait until the server closes the socket; return how (``.code``, ``.reason``)."""
        await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        assert self.closed is not None
        return self.closed

    # -- sending -----------------------------------------------------------------------

    async def send(self, type_: str, **fields: Any) -> None:
        """Send one message ``{"type": type_, **fields}`` as a JSON text frame.

        Raises :class:`Disconnected` when the socket is already closed.
        """
        await self.send_raw(msgspec.json.encode({"type": type_, **fields}), text=True)

    async def send_raw(self, data: str | bytes, *, text: bool | None = None) -> None:
        """Send a frame as it is (``str`` goes as text, ``bytes`` as binary unless ``text``)."""
        try:
            await self._ws.send(data, text=text)
        except ConnectionClosed as exc:
            close = exc.rcvd or exc.sent
            code = None if close is None else close.code
            raise Disconnected(code, "" if close is None else close.reason) from None

    async def _request(self, request: str, timeout: float, **fields: Any) -> Message:
        if self.closed is not None:
            raise self.closed
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._waiting[request] = future
        await self.send(request, **fields)
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self._waiting.pop(request, None)

    async def join(self, name: str, timeout: float = 5.0) -> str:
        """Take a seat as ``name``; return the player id (the seat ``token`` is kept)."""
        reply = await self._request("join", timeout, name=name)
        return str(reply["player"])

    async def start(self) -> None:
        """Start the game, or the next round after ``round_over``."""
        await self.send("start")

    async def call(self, version: int | None = None) -> None:
        """Call SET (R08) at ``version`` (default: the latest version seen)."""
        await self.send("call", version=self.version if version is None else version)

    async def pick(self, cards: Iterable[str | int], version: int | None = None) -> None:
        """Pick cards (codes such as ``"2RTD"``, or card ints) to resolve a call (R08, R09)."""
        codes = [_code(card) for card in cards]
        await self.send("pick", cards=codes, version=self.version if version is None else version)

    async def turn(self, position: int) -> None:
        """Memory: turn up the face-down card at ``position`` of the table."""
        await self.send("turn", position=position)

    async def no_set(self) -> None:
        """Declare that the table holds no set (R11); solo: ask for three more cards (R15)."""
        await self.send("no_set")

    async def hint(self, timeout: float = 5.0) -> list[str]:
        """Practice: reveal one more card of a set; return the codes revealed so far."""
        reply = await self._request("hint", timeout)
        return [str(code) for code in reply["cards"]]

    async def again(self) -> None:
        """After the match: a new game in the same room with the same seats."""
        await self.send("again")

    async def leave(self) -> None:
        """Give up the seat."""
        await self.send("leave")

    async def ping(self, timeout: float = 5.0) -> float:
        """Send ``ping``, wait for ``pong``; return the round trip in seconds."""
        begun = time.perf_counter()
        await self._request("ping", timeout)
        return time.perf_counter() - begun

    # -- views and lifetime ------------------------------------------------------------

    @property
    def table(self) -> list[str]:
        """The face-up cards (codes) of the latest view."""
        return [] if self.state is None else list(self.state["table"])

    @property
    def me(self) -> Message | None:
        """This client's entry in the latest view's ``players`` (None for a spectator)."""
        return self.seat(self.player) if self.player is not None else None

    def seat(self, player: str) -> Message | None:
        """The entry of ``player`` (an id) in the latest view's ``players``."""
        players = [] if self.state is None else self.state["players"]
        return next((p for p in players if p["id"] == player), None)

    async def reconnect(self, timeout: float = 10.0) -> Client:
        """A new connection to the same room with this seat's token, asking for the events
        after the last version this client saw (in the new client's ``welcome["missed"]``)."""
        await self.close()
        return await Client.connect(
            self.base_url,
            self.room,
            self.token,
            self.version,
            timeout=timeout,
            listener=self.listener,
        )

    async def close(self) -> None:
        """Close the socket and stop the reader."""
        await self._ws.close()
        await asyncio.gather(self._reader, return_exceptions=True)

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


def _summary(message: Message) -> str:
    if message["type"] == "update":
        kinds = [event.get("type") for event in message.get("events", [])]
        return f"update v{message.get('version')} {kinds}"
    if message["type"] == "error":
        return f"error {message.get('code')}"
    return str(message["type"])
