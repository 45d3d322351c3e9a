"""Room chat: players and spectators talk beside the table.

A message is plain text of at most :data:`MAX_CHARS` characters, without characters that
draw nothing or steer the text around them (as names, ``names.hidden``: controls, zero-width
and tag characters, bidi controls, line separators...; a zero-width joiner inside an emoji
sequence and a variation selector after a symbol are kept) and with at most
:data:`MAX_MARKS` combining marks on a character. Rates (issue 20): each connection may send
a burst of :data:`BURST` and then one every ``1 / RATE`` seconds; each client address, from
all its sockets in every room, ``chat_client_burst`` then ``chat_client_per_minute``; a
room's spectators together ``chat_room_burst`` then ``chat_room_per_minute`` (seated players
are not counted there, so spectators can never shut them out). Of a game's
:data:`PER_GAME` lines one address may say ``chat_client_lines`` (``chat_share``) and the
spectators together all but :data:`SEATED_RESERVE`, so no one address can fill a game's chat
and the seated players always have room. It is stored with the room's current game (table
``chat``, ``chat_tables.py``) before anyone hears of it, as actions are, and the replay shows
it.
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
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import sqlalchemy as sa

from setgame.rules.game import GameError
from setgame.server import protocol as p
from setgame.server.accounts import Account, Accounts
from setgame.server.chat_tables import chat_lines
from setgame.server.limits import Limits
from setgame.server.names import codes, hidden, stacked
from setgame.server.rooms import Connection, Room
from setgame.server.storage import Storage, StorageError, Write
from setgame.server.wordfilter import WordFilter

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
SEATED_RESERVE: Final = 1000
"""Lines of :data:`PER_GAME` that only seated players may fill: spectators stop before."""
MAX_MARKS: Final = 3
"""Combining marks one character of a message may carry (after NFC): enough for any
language of the clients and then some; "Zalgo" text stacks dozens."""
ADDRESSES: Final = 4096
"""Per-address chat buckets kept; beyond, the one used longest ago is forgotten (it comes
back full, which only an attacker with that many addresses gains by)."""
QUOTE: Final = 40
"""How many characters of a refused message its error quotes."""
_JOINER: Final = "\u200d"
"""The zero-width joiner: kept between two symbols (an emoji sequence such as 👩‍💻), refused
elsewhere."""


@dataclass(slots=True)
class _Bucket:
    """``rate`` messages a second on average after a burst of ``burst``."""

    rate: float
    burst: float
    tokens: float = -1.0  # full, at first
    stamp: float = field(default_factory=time.monotonic)

    def wait(self) -> float:
        """0.0 when a message may go now, else the seconds until it may (nothing taken)."""
        now = time.monotonic()
        start = self.burst if self.tokens < 0 else self.tokens
        self.tokens = min(self.burst, start + (now - self.stamp) * self.rate)
        self.stamp = now
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    def take(self) -> None:
        self.tokens -= 1


@dataclass(slots=True)
class _Speaker:
    """What the chat knows of one connection: its rate and, for a spectator, its label."""

    bucket: _Bucket = field(default_factory=lambda: _Bucket(RATE, BURST))
    watcher: str = field(default_factory=lambda: "w" + secrets.token_hex(2))


class ChatBounds:
    """What one server asks of chat beyond each connection's rate (``app.state.chat_bounds``):
    rates per client address (all its sockets, every room) and per room (its spectators
    together), the word filter (its words masked), and in public rooms the finished games a
    player needs first (``chat_min_games``)."""

    def __init__(self, limits: Limits, words: WordFilter | None = None) -> None:
        self.limits = limits
        self.words = WordFilter() if words is None else words
        self.clients: OrderedDict[str, _Bucket] = OrderedDict()
        self.rooms: weakref.WeakKeyDictionary[Room, _Bucket] = weakref.WeakKeyDictionary()
        self.admitted: weakref.WeakSet[Connection] = weakref.WeakSet()

    async def admit(
        self, room: Room, conn: Connection, account: Account | None, accounts: Accounts
    ) -> None:
        """Refuse a newcomer's line in a public room (``chat_newcomer``): a guest, or an
        account with fewer finished games than ``chat_min_games``; a connection let in once
        is not asked again."""
        needed = self.limits.chat_min_games
        if needed <= 0 or not room.settings.public or conn in self.admitted:
            return
        if account is None:
            raise GameError(
                "chat_newcomer",
                f"in public rooms only signed-in players who have finished {needed} games "
                "may chat: sign in and play first",
            )
        done = await accounts.finished_games(account.id)
        if done < needed:
            raise GameError(
                "chat_newcomer",
                f"in public rooms chat opens after {needed} finished games: you have "
                f"finished {done}",
            )
        self.admitted.add(conn)

    def buckets(self, host: str, room: Room, spectator: bool) -> list[tuple[_Bucket, str]]:
        """The buckets one message from ``host`` into ``room`` takes from, each with what it
        bounds (for the refusal)."""
        mine = self.clients.get(host)
        if mine is None:
            mine = self.clients[host] = _Bucket(
                self.limits.chat_client_per_minute / 60, self.limits.chat_client_burst
            )
            while len(self.clients) > ADDRESSES:
                self.clients.popitem(last=False)
        self.clients.move_to_end(host)
        found = [(mine, "from your address")]
        if spectator:
            room_bucket = self.rooms.get(room)
            if room_bucket is None:
                room_bucket = self.rooms[room] = _Bucket(
                    self.limits.chat_room_per_minute / 60, self.limits.chat_room_burst
                )
            found.append((room_bucket, "from this room's spectators"))
        return found


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
        self.spectators = 0  # of them, said by spectators (since this process loaded them)
        self.by_client: Counter[str] = Counter()  # of them, per address (likewise)
        self.speakers: weakref.WeakKeyDictionary[Connection, _Speaker] = weakref.WeakKeyDictionary()
        # each line reaches a connection once: the lines heard live while its history is
        # read (held, sent after it), and the last line sent to it, (game, seq)
        self.holding: weakref.WeakKeyDictionary[Connection, list[dict[str, Any]]] = (
            weakref.WeakKeyDictionary()
        )
        self.sent: weakref.WeakKeyDictionary[Connection, tuple[str, int]] = (
            weakref.WeakKeyDictionary()
        )
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
        self.spectators = sum(1 for r in rows if r["name"] is None)  # a spectator has none
        self.by_client = Counter()  # addresses are not stored: counted from a restart on

    async def history(self, conn: Connection) -> None:
        """Send a greeted connection the latest messages it has not had, if there are any.

        Called right after the connection joined the room's (``sockets.hello``), before any
        wait: lines heard live from then on are held until the history is sent, then sent
        after it, each line once (a line stored while the history was read is in both)."""
        held = self.holding.setdefault(conn, [])
        try:
            async with self.lock:
                await self._load()
                self._send_new(conn, list(self.lines))
        finally:
            self.holding.pop(conn, None)
        self._send_new(conn, held)

    def _send_new(self, conn: Connection, lines: list[dict[str, Any]]) -> None:
        """Send ``conn`` those of ``lines`` (in order) that come after the last it was sent."""
        game, last = self.sent.get(conn, ("", 0))
        new = [x for x in lines if x["game"] != game or int(x["seq"]) > last]
        if new:
            conn.send(p.encode(p.ChatLines(messages=new)))
            self.sent[conn] = (str(new[-1]["game"]), int(new[-1]["seq"]))

    async def say(
        self, conn: Connection, text: str, bounds: ChatBounds | None = None, host: str = "?"
    ) -> None:
        """Check one message where it was sent (its rates: the connection's, and with
        ``bounds`` its address's and the room's spectators'), then :meth:`post` it;
        :class:`GameError` when refused."""
        if self.room.broken:
            raise GameError("room_closed", f"room {self.room.id!r} is closed")
        speaker = self.speakers.setdefault(conn, _Speaker())
        self._speaker(conn.player, speaker.watcher)
        clean = check_text(text)
        buckets = [(speaker.bucket, "from one connection")]
        if bounds is not None:
            buckets += bounds.buckets(host, self.room, conn.player is None)
        waits = [(bucket.wait(), what) for bucket, what in buckets]
        wait, what = max(waits)
        if wait > 0:
            bucket = buckets[waits.index((wait, what))][0]
            raise GameError(
                "chat_too_fast",
                f"at most {bucket.burst:.0f} chat messages at once {what}, then one every "
                f"{1 / bucket.rate:.1f} s: wait {wait:.1f} s",
            )
        for bucket, _ in buckets:
            bucket.take()
        if bounds is not None:
            clean = bounds.words.mask(clean)
        await self.post(conn.player, speaker.watcher, clean, host)

    async def post(self, player: str | None, watcher: str, text: str, client: str = "?") -> None:
        """Number, store (fenced: ``storage.py``), then broadcast one message of ``player``
        (or of the spectator ``watcher``) sent from the address ``client``; the room's owner
        does this for every process."""
        if self.room.broken:
            raise GameError("room_closed", f"room {self.room.id!r} is closed")
        sender, name = self._speaker(player, watcher)
        clean = check_text(text)  # a relayed message is checked again where it is stored
        async with self.lock:
            await self._load()
            self._check_room(player is None, client)
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
            self.spectators += player is None
            self.by_client[client] += 1
            self.lines = [*self.lines[-(HISTORY - 1) :], line]
            self.heard(line)
            if self.on_line is not None:  # under the lock: published in the stored order
                self.on_line(self.room, line)

    def _check_room(self, spectator: bool, client: str) -> None:
        """Refuse a line the game's chat has no room for: full, full for spectators (the
        last :data:`SEATED_RESERVE` lines are the seated players'), or this address's
        share said (``chat_share``)."""
        if self.count >= PER_GAME:
            raise GameError("chat_full", f"this game's chat holds {PER_GAME} messages")
        if spectator and self.spectators >= PER_GAME - SEATED_RESERVE:
            raise GameError(
                "chat_full",
                f"this game's chat holds {PER_GAME - SEATED_RESERVE} spectators' messages: "
                "the rest is the players'",
            )
        share = self.room.chat_share
        if self.by_client[client] >= share:
            raise GameError(
                "chat_share",
                f"your address has said {share} of this game's chat lines, its share: "
                "wait for the next game",
            )

    def heard(self, line: dict[str, Any]) -> None:
        """Send one stored message to this process's connections (encoded once), but to
        one whose history is being read (held for it) or that had it already."""
        text_out = p.encode(p.ChatLines(messages=[line]))
        here = (str(line["game"]), int(line["seq"]))
        for other in list(self.room.conns):
            held = self.holding.get(other)
            if held is not None:
                held.append(line)
                continue
            game, last = self.sent.get(other, ("", 0))
            if game == here[0] and last >= here[1]:
                continue
            other.send(text_out)
            self.sent[other] = here

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
    setgame.rules.errors.GameError: a chat message may not hold control or invisible \
characters (U+0007): 'ring\\x07'
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
    bad = _invisible(clean)
    if bad:
        raise GameError(
            "chat_bad_text",
            f"a chat message may not hold control or invisible characters ({codes(bad)}): "
            f"{_quote(clean)}",
        )
    if stacked(clean) > MAX_MARKS:
        raise GameError(
            "chat_bad_text",
            f"a chat message has at most {MAX_MARKS} combining marks on a character, this "
            f"one {stacked(clean)}: {_quote(clean)}",
        )
    return clean


def _invisible(text: str) -> list[str]:
    """The characters of ``text`` that draw nothing (``names.hidden``), but for a joiner
    between two symbols (an emoji sequence: "👩‍💻", "🏳️‍🌈")."""
    found = []
    for i, ch in enumerate(text):
        before = text[i - 1] if i else ""
        if ch == _JOINER and _pictured(before) and _pictured(text[i + 1 : i + 2]):
            continue
        if hidden(ch, before):
            found.append(ch)
    return found


def _pictured(ch: str) -> bool:
    """A symbol, a skin tone, or an emoji's variation selector: what a joiner may join."""
    return ch != "" and (unicodedata.category(ch) in ("So", "Sk") or ch == "\ufe0f")


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
