"""Player accounts: a guest claims a name with a password, and signs in with it anywhere.

Playing needs no account. An account is a claimed name (its :func:`names.name_key` unique, so
no two accounts hold lookalike names) and an argon2id hash of its password (argon2-cffi:
RFC 9106's low-memory choice, 64 MiB and 3 passes, in one lane: measured 160-200 ms of a core
a hash on the busy 2-core test machine), run in a thread through the fair, bounded
:class:`hashing.HashQueue` so that a burst of sign-ins cannot take the cores the rooms need
nor make an honest player wait behind it. A hash made with other parameters (four lanes,
before) is made again at its next successful sign-in. Deleting an account deletes its name,
its hash and the links to its seats, and renames its seats in every stored game to
:data:`ANONYMOUS`: the games stay.

The HTTP side (routes, the session cookie, rate limits) is ``account_api.py``.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import secrets
import sqlite3
import time
from dataclasses import dataclass
from typing import Any, Final

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.requests import HTTPConnection

from setgame.server.account_tables import (
    account_seats,
    accounts,
    player_games,
    puzzle_starts,
    ratings,
    sessions,
    solo_games,
)
from setgame.server.arena_tables import forget_arena_player
from setgame.server.chat_tables import chat_lines
from setgame.server.hashing import HashQueue
from setgame.server.limits import Limits
from setgame.server.moderation_tables import roles
from setgame.server.names import NameRefused, bot_like, check_name, name_key
from setgame.server.storage import Storage, Write, actions, games, seats
from setgame.server.wordfilter import WordFilter, default_filter

ANONYMOUS: Final = "Deleted player"
"""The name a deleted account's seats carry in the games that stay."""
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 256
"""Characters; a longer one is refused before it is hashed."""

_hasher: Final = PasswordHasher(parallelism=1)
"""One lane: a hash takes one thread, not four, beside the event loop's."""


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str
    key: str
    password: str
    created: float
    epoch: int


def _check(stored: str | None, password: str) -> tuple[bool, str | None]:
    """Whether ``password`` matches ``stored`` (None: an unknown name), and a new hash when
    the stored one was made with other parameters (in a thread: it takes a hash or two)."""
    try:
        ok = _hasher.verify(stored or _dummy(), password)
    except (VerificationError, InvalidHashError):
        return False, None
    if stored is None or not ok or not _hasher.check_needs_rehash(stored):
        return ok and stored is not None, None
    return True, _hasher.hash(password)


@functools.cache
def _dummy() -> str:
    """Verified against when a name is unknown, so that the answer takes as long as for a
    known one and does not tell which names are claimed by its timing."""
    return _hasher.hash(secrets.token_hex(8))


def check_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise NameRefused(
            "weak_password",
            f"a password has at least {MIN_PASSWORD} characters, not {len(password)}",
        )
    if len(password) > MAX_PASSWORD:
        raise NameRefused("weak_password", f"a password has at most {MAX_PASSWORD} characters")


def guest_name(name: object, words: WordFilter | None = None) -> str:
    """The name stripped, or :class:`NameRefused` when no person may sit under it: not a
    name, one like a computer player's (``bot_name``), or one that holds a word of the
    server's word filter (``name_word``, ``wordfilter.py``; the shipped lists by default)."""
    text = check_name(name)
    if bot_like(text):
        raise NameRefused(
            "bot_name", f"{text!r} looks like a computer player's name: choose another"
        )
    if (default_filter() if words is None else words).in_name(text):
        raise NameRefused(
            "name_word", f"a name may not hold a word of this site's word filter: {text!r}"
        )
    return text


class Accounts:
    """The accounts of one server's database."""

    def __init__(
        self, storage: Storage, words: WordFilter | None = None, hashing: HashQueue | None = None
    ) -> None:
        self.storage = storage
        self.words = default_filter() if words is None else words
        self.hashing = HashQueue(Limits()) if hashing is None else hashing

    async def _hash(self, host: str, password: str) -> str:
        return await self.hashing.run(host, functools.partial(_hasher.hash, password))

    async def _one(self, query: sa.Select[Any]) -> Account | None:
        async with self.storage.reading() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else Account(*row)

    async def finished_games(self, account: str) -> int:
        """The finished multiplayer games the account was signed in for (``players.py``)."""
        query = sa.select(sa.func.count()).where(player_games.c.account == account)
        async with self.storage.reading() as conn:
            return int((await conn.execute(query)).scalar_one())

    async def by_id(self, account: str) -> Account | None:
        return await self._one(accounts.select().where(accounts.c.id == account))

    async def by_name(self, name: str) -> Account | None:
        """The account holding ``name`` or a lookalike of it."""
        return await self._one(accounts.select().where(accounts.c.key == name_key(name)))

    async def claim(self, name: object, password: str, host: str = "?") -> Account:
        """A new account; :class:`NameRefused` for a name taken (or like one), a bot's, or a
        short password; :class:`hashing.Busy` when ``host`` must wait for its hash."""
        text = guest_name(name, self.words)
        check_password(password)
        taken = await self.by_name(text)
        if taken is not None:
            raise _taken(text, taken)
        account = Account(
            secrets.token_hex(8), text, name_key(text), await self._hash(host, password),
            time.time(), 0,
        )
        try:
            await self.storage.write((accounts.insert().values(_values(account)), {}))
        except (sa.exc.IntegrityError, sqlite3.IntegrityError):  # claimed meanwhile: a race
            raise NameRefused("name_taken", f"{text!r} has just been claimed") from None
        return account

    async def verify(self, name: str, password: str, host: str = "?") -> Account | None:
        """The account of ``name`` if ``password`` is its password, else None (an unknown
        name costs a hash too, so that the time taken tells nothing)."""
        account = await self.by_name(name)
        work = functools.partial(_check, account.password if account else None, password)
        ok, fresh = await self.hashing.run(host, work)
        if not ok or account is None:
            return None
        if fresh is not None:  # made with older parameters: keep the new hash
            query = accounts.update().where(accounts.c.id == account.id).values(password=fresh)
            await self.storage.write((query, {}))
            account = dataclasses.replace(account, password=fresh)
        return account

    async def change_password(
        self, account: Account, new: str, host: str = "?", keep: str | None = None
    ) -> Account:
        """Set a new password, ending every session of the account but ``keep`` (a token)."""
        check_password(new)
        changed = {"password": await self._hash(host, new), "epoch": account.epoch + 1}
        query = accounts.update().where(accounts.c.id == account.id).values(changed)
        await self.storage.write((query, {}), _end_sessions(account.id, keep))
        return Account(**(_values(account) | changed))

    # -- sessions: a random token in the cookie, its digest here (one row per browser) --------

    async def open_session(self, account: Account, seconds: float) -> str:
        """A new session of ``account`` lasting ``seconds``: its token, for the cookie. The
        sessions that have expired (anyone's) are deleted in the same write."""
        token, now = secrets.token_urlsafe(24), time.time()
        row = {"id": _digest(token), "account": account.id, "created": now,
               "expires": now + seconds}
        await self.storage.write(
            (sessions.delete().where(sessions.c.expires < now), {}),
            (sessions.insert().values(row), {}),
        )
        return token

    async def by_session(self, token: str) -> Account | None:
        """The account whose session ``token`` is, while the session lasts."""
        query = (
            accounts.select()
            .join(sessions, sessions.c.account == accounts.c.id)
            .where(sessions.c.id == _digest(token), sessions.c.expires > time.time())
        )
        return await self._one(query)

    async def end_session(self, token: str) -> None:
        await self.storage.write((sessions.delete().where(sessions.c.id == _digest(token)), {}))

    async def end_sessions(self, account: Account) -> None:
        """Sign the account out everywhere."""
        await self.storage.write(_end_sessions(account.id))

    async def delete(self, account: Account) -> None:
        """Delete the account and its personal data; its games stay under :data:`ANONYMOUS`."""
        async with self.storage.reading() as conn:
            links = (
                await conn.execute(
                    sa.select(account_seats.c.room, account_seats.c.player).where(
                        account_seats.c.account == account.id
                    )
                )
            ).all()
            writes = [w for room, player in links for w in await _anonymize(conn, room, player)]
        writes.append((account_seats.delete().where(account_seats.c.account == account.id), {}))
        writes.append((player_games.delete().where(player_games.c.account == account.id), {}))
        writes.append((ratings.delete().where(ratings.c.account == account.id), {}))
        writes.append((solo_games.delete().where(solo_games.c.account == account.id), {}))
        writes.append(forget_arena_player(account.id, ANONYMOUS))  # its places stay, nameless
        writes.append((roles.delete().where(roles.c.account == account.id), {}))
        writes.append((puzzle_starts.delete().where(puzzle_starts.c.who == f"a:{account.id}"), {}))
        writes.append(_end_sessions(account.id))
        writes.append((accounts.delete().where(accounts.c.id == account.id), {}))
        await self.storage.write(*writes)


SESSION_KEY: Final = "session"
"""The key of the session token in the signed cookie (``account_api.py``)."""


def session_token(conn: HTTPConnection) -> str | None:
    """The session token the request's (or websocket's) cookie carries, if any."""
    session = conn.scope.get("session")
    token = session.get(SESSION_KEY) if session else None
    return token if isinstance(token, str) and len(token) <= 64 else None


async def signed_in(conn: HTTPConnection) -> Account | None:
    """The account of the request's (or websocket's) session, while it lasts on the server
    (signing out, everywhere, or a password change elsewhere ends it)."""
    token = session_token(conn)
    if token is None:
        return None
    store: Accounts = conn.app.state.accounts
    return await store.by_session(token)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _end_sessions(account: str, keep: str | None = None) -> Write:
    where = sessions.c.account == account
    if keep is not None:
        where = sa.and_(where, sessions.c.id != _digest(keep))
    return (sessions.delete().where(where), {})


async def seat_name(
    store: Accounts, name: object, signed_in: Account | None, rated: bool = False
) -> tuple[str, str | None]:
    """The name a person joining a room sits under, and their account (None: a guest).

    Signed in, one sits as one's account, under its name, whatever name was sent (issue
    21: a signed-in player's games are theirs, and rated); a guest's name is refused when it
    is claimed (``name_claimed``) or looks like a computer player's (``bot_name``). A room
    set ``rated`` seats signed-in players only (``rated_room``)."""
    text = guest_name(name, store.words)
    if signed_in is not None:
        return signed_in.name, signed_in.id
    if rated:
        raise NameRefused(
            "rated_room", f"this room is rated: sign in to play in it (not as {text!r})"
        )
    holder = await store.by_name(text)
    if holder is not None:
        like = "is" if holder.name == text else f"looks like {holder.name!r}, which is"
        raise NameRefused(
            "name_claimed",
            f"{text!r} {like} a claimed name: sign in as its owner, or choose another",
        )
    return text, None


async def _anonymize(conn: Any, room: str, player: str) -> list[Write]:
    """The writes that rename ``player``'s seat in ``room`` and its joins in the room's games."""
    where = sa.and_(seats.c.room == room, seats.c.player == player)
    writes: list[Write] = [(seats.update().where(where).values(name=ANONYMOUS), {})]
    # what the player said is personal data: their chat lines go (chat.py)
    said = sa.and_(chat_lines.c.room == room, chat_lines.c.sender == player)
    writes.append((chat_lines.delete().where(said), {}))
    query = (
        sa.select(actions.c.game, actions.c.version, actions.c.action)
        .select_from(actions.join(games, actions.c.game == games.c.id))
        .where(games.c.room == room, actions.c.action.like('%"join"%'))
    )
    for game, version, text in (await conn.execute(query)).all():
        try:
            action = json.loads(text)
        except ValueError:
            continue  # an unreadable row stays as it is (its room is skipped on restore)
        if action.get("type") == "join" and action.get("player") == player:
            action["name"] = ANONYMOUS
            new = json.dumps(action, separators=(",", ":"), sort_keys=True)
            key = sa.and_(actions.c.game == game, actions.c.version == version)
            writes.append((actions.update().where(key).values(action=new), {}))
    return writes


def _values(account: Account) -> dict[str, Any]:
    return {
        "id": account.id,
        "name": account.name,
        "key": account.key,
        "password": account.password,
        "created": account.created,
        "epoch": account.epoch,
    }


def _taken(name: str, holder: Account) -> NameRefused:
    if holder.name == name:
        return NameRefused("name_taken", f"{name!r} is already claimed")
    return NameRefused("name_taken", f"{name!r} looks like the claimed name {holder.name!r}")
