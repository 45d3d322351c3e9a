"""Room chat: players and spectators talk beside the table (issue 11).

A message is plain text of at most :data:`MAX_CHARS` characters, without control
characters; each connection may send a burst of :data:`BURST` and then one every
``1 / RATE`` seconds. It is stored with the room's current game (table ``chat``,
``chat_tables.py``) before anyone hears of it, as actions are, and the replay shows it.
The room setting ``chat: players`` lets only seated players speak. Clients render the
text as text (never as HTML); the server keeps it as sent, so nothing is escaped twice.
With several processes (``docs/cluster.md``) a message is checked where it was sent, then
numbered, stored and published by the room's owner; every process sends it to its sockets.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import unicodedata
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import sqlalchemy as sa

from setgame.rules.game import GameError
from setgame.server import protocol as p
from setgame.server.chat_tables import chat_lines
from setgame.server.rooms import Connection, Room
from setgame.server.storage import Storage, StorageError, Write

MAX_CHARS: Final = 200
"""The longest message, in characters (code points) after trimming white space."""
RATE: Final = 0.5
"""Chat messages per second a connection may send on average (one every two seconds)..."""
BURST: Final = 5.0
"""...and at once."""
HISTORY: Final = 100
"""How many of the game's latest messages a (re)connecting client is sent."""
PER_GAME: Final = 5000
"""The most messages one game keeps: a bound on what a room can make the database store."""
QUOTE: Final = 40
"""How many characters of a refused message its error quotes."""
_BIDI: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidirectional overrides and isolates: they would turn the text around it (a name, the
next line) backwards; refused like control characters."""


@dataclass(slots=True)
class _Speaker:
    """What the chat knows of one connection: its rate and, for a spectator, its label."""

    tokens: float = BURST
    stamp: float = field(default_factory=time.monotonic)
    watcher: str = field(default_factory=lambda: "w" + secrets.token_hex(2))

    def wait(self) -> float:
        """Take one token: 0.0, or the seconds until one is saved up (nothing taken)."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens < 1:
            return (1 - self.tokens) / RATE
        self.tokens -= 1
        return 0.0


class RoomChat:
    """The chat of one room: its current game's messages, numbered, in order."""

    def __init__(self, room: Room) -> None:
        # weakly: ``_chats`` maps the room to this chat, and a chat holding its room would
        # keep every room that ever had one alive
        self._room = weakref.ref(room)
        self.lock = asyncio.Lock()
        self.game = ""  # the game whose messages ``lines`` holds (loaded lazily)
        self.lines: list[dict[str, Any]] = []
        self.count = 0  # messages stored for ``game``
        self.speakers: weakref.WeakKeyDictionary[Connection, _Speaker] = weakref.WeakKeyDictionary()
        self.on_line: Callable[[Room, dict[str, Any]], None] | None = None  # stored: cluster

    @property
    def room(self) -> Room:
        room = self._room()
        if room is None:
            raise GameError("room_closed", "this room is closed")
        return room

    async def _load(self) -> None:
        """The current game's stored messages (after a restart, or a new game)."""
        if self.game == self.room.game_id:
            return
        game = self.room.game_id
        rows = await stored_lines(self.room.storage, game)
        count = await _numbered(self.room.storage, game)  # deleted lines keep their number
        self.game, self.count, self.lines = game, count, rows[-HISTORY:]

    async def history(self, conn: Connection) -> None:
        """Send a greeted connection the latest messages, if there are any."""
        async with self.lock:
            await self._load()
            if self.lines:
                conn.send(p.encode(p.ChatLines(messages=list(self.lines))))

    async def say(self, conn: Connection, text: str) -> None:
        """Check one message where it was sent (its rate is the connection's), then
        :meth:`post` it; :class:`GameError` when refused."""
        if self.room.broken:
            raise GameError("room_closed", f"room {self.room.id!r} is closed")
        watcher = self.speakers.setdefault(conn, _Speaker()).watcher
        self._speaker(conn.player, watcher)
        clean = check_text(text)
        wait = self.speakers[conn].wait()
        if wait > 0:
            raise GameError(
                "chat_too_fast",
                f"at most {BURST:.0f} chat messages at once, then one every "
                f"{1 / RATE:.0f} s: wait {wait:.1f} s",
            )
        await self.post(conn.player, watcher, clean)

    async def post(self, player: str | None, watcher: str, text: str) -> None:
        """Number, store (fenced: ``storage.py``), then broadcast one message of ``player``
        (or of the spectator ``watcher``); the room's owner does this for every process."""
        if self.room.broken:
            raise GameError("room_closed", f"room {self.room.id!r} is closed")
        sender, name = self._speaker(player, watcher)
        clean = check_text(text)  # a relayed message is checked again where it is stored
        async with self.lock:
            await self._load()
            if self.count >= PER_GAME:
                raise GameError("chat_full", f"this game's chat holds {PER_GAME} messages")
            line = {
                "seq": self.count + 1,
                "game": self.game,
                "at": self.room.now(),
                "from": sender,
                "name": name,
                "text": clean,
            }
            await self._store(line)
            self.count += 1
            self.lines = [*self.lines[-(HISTORY - 1) :], line]
            self.heard(line)
            if self.on_line is not None:  # under the lock: published in the stored order
                self.on_line(self.room, line)

    def heard(self, line: dict[str, Any]) -> None:
        """Send one stored message to this process's connections."""
        text_out = p.encode(p.ChatLines(messages=[line]))
        for other in list(self.room.conns):
            other.send(text_out)

    def _speaker(self, player: str | None, watcher: str) -> tuple[str, str | None]:
        """Who speaks: (a seat's player id and name) or (a spectator's label, None)."""
        if player is not None:
            seat = self.room.seats.get(player)
            return player, seat.name if seat else player
        if self.room.settings.chat == "players":
            raise GameError(
                "chat_players_only", "in this room only the seated players may chat: join first"
            )
        return watcher, None

    async def _store(self, line: dict[str, Any]) -> None:
        values = {k: line[k] for k in ("game", "seq", "at", "name", "text")}
        values |= {"room": self.room.id, "sender": line["from"], "posted": time.time()}
        try:
            writes: Write = (chat_lines.insert().values(values), {})
            await self.room.storage.write(writes, room=self.room.id)
        except (StorageError, OSError, sa.exc.SQLAlchemyError) as exc:
            raise GameError("chat_not_stored", f"the message could not be stored: {exc}") from None


def check_text(text: str) -> str:
    """The message as it is kept (white space trimmed), or :class:`GameError` quoting it.

    >>> check_text("  <b>hi</b> ")
    '<b>hi</b>'
    >>> check_text("a" * 201)
    Traceback (most recent call last):
    ...
    setgame.rules.errors.GameError: a chat message holds at most 200 characters, this one 201: \
'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'
    >>> check_text("ring\\x07")
    Traceback (most recent call last):
    ...
    setgame.rules.errors.GameError: a chat message may not hold control characters (U+0007): \
'ring\\x07'
    """
    clean = text.strip()
    if not clean:
        raise GameError("chat_empty", "a chat message needs some text")
    if len(clean) > MAX_CHARS:
        raise GameError(
            "chat_too_long",
            f"a chat message holds at most {MAX_CHARS} characters, this one {len(clean)}: "
            f"{_quote(clean)}",
        )
    bad = [c for c in clean if c in _BIDI or unicodedata.category(c) in ("Cc", "Cs")]
    if bad:
        codes = ", ".join(sorted({f"U+{ord(c):04X}" for c in bad}))
        raise GameError(
            "chat_bad_text",
            f"a chat message may not hold control characters ({codes}): {_quote(clean)}",
        )
    return clean


def _quote(text: str) -> str:
    return repr(text if len(text) <= QUOTE else text[:QUOTE] + "...")


async def stored_lines(storage: Storage, game: str) -> list[dict[str, Any]]:
    """Every stored message of ``game``, in order, as the ``chat`` event carries them; a line
    a moderator deleted is not one (``moderation_api.py``)."""
    shown = sa.and_(chat_lines.c.game == game, chat_lines.c.deleted.is_(None))
    query = chat_lines.select().where(shown).order_by(chat_lines.c.seq)
    async with storage.reading() as conn:
        rows = (await conn.execute(query)).all()
    return [
        {"seq": r.seq, "game": r.game, "at": r.at, "from": r.sender, "name": r.name, "text": r.text}
        for r in rows
    ]


async def _numbered(storage: Storage, game: str) -> int:
    """The highest number a message of ``game`` took (0: none), so that a new one never takes
    the number of a line deleted since (pages know lines by their numbers)."""
    query = sa.select(sa.func.max(chat_lines.c.seq)).where(chat_lines.c.game == game)
    async with storage.reading() as conn:
        return int(await conn.scalar(query) or 0)


_chats: weakref.WeakKeyDictionary[Room, RoomChat] = weakref.WeakKeyDictionary()


def chat_of(room: Room) -> RoomChat:
    """The room's chat (made at its first use, gone with the room)."""
    found = _chats.get(room)
    if found is None:
        found = _chats[room] = RoomChat(room)
    return found


def use_chat(room: Room, chat: RoomChat) -> None:
    """Give ``room`` another kind of chat (a cluster's mirror relays its messages)."""
    _chats[room] = chat
