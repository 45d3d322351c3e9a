"""Player accounts: a guest claims a name with a password, and signs in with it anywhere.

Playing needs no account. An account is a claimed name (its :func:`names.name_key` unique, so
no two accounts hold lookalike names) and an argon2id hash of its password (argon2-cffi, its
default parameters: RFC 9106's low-memory choice, 64 MiB; measured 160-200 ms a hash on
the busy 2-core test machine), run in a thread, at most :data:`HASHES_AT_ONCE` at once so
that a burst of sign-ins cannot take every core or much memory). Deleting an account
deletes its name, its hash and the links to its seats, and renames its seats in every
stored game to :data:`ANONYMOUS`: the games stay.

The HTTP side (routes, the session cookie, rate limits) is ``account_api.py``.
"""

from __future__ import annotations

import asyncio
import functools
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
    solo_games,
)
from setgame.server.chat_tables import chat_lines
from setgame.server.moderation_tables import roles
from setgame.server.names import NameRefused, bot_like, check_name, name_key
from setgame.server.storage import Storage, Write, actions, games, seats
from setgame.server.wordfilter import WordFilter, default_filter

ANONYMOUS: Final = "Deleted player"
"""The name a deleted account's seats carry in the games that stay."""
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 256
"""Characters; a longer one is refused before it is hashed."""
HASHES_AT_ONCE: Final = 2

_hasher: Final = PasswordHasher()
_gate: dict[int, asyncio.Semaphore] = {}


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str
    key: str
    password: str
    created: float
    epoch: int


async def _hash(password: str) -> str:
    async with _semaphore():
        return await asyncio.to_thread(_hasher.hash, password)


async def _verify(stored: str, password: str) -> bool:
    def check() -> bool:
        try:
            return _hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    async with _semaphore():
        return await asyncio.to_thread(check)


def _semaphore() -> asyncio.Semaphore:
    """One per event loop (tests run several loops in one process)."""
    loop = id(asyncio.get_running_loop())
    gate = _gate.get(loop)
    if gate is None:
        _gate.clear()
        gate = _gate[loop] = asyncio.Semaphore(HASHES_AT_ONCE)
    return gate


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

    def __init__(self, storage: Storage, words: WordFilter | None = None) -> None:
        self.storage = storage
        self.words = default_filter() if words is None else words

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

    async def claim(self, name: object, password: str) -> Account:
        """A new account; :class:`NameRefused` for a name taken (or like one), a bot's, or a
        short password."""
        text = guest_name(name, self.words)
        check_password(password)
        taken = await self.by_name(text)
        if taken is not None:
            raise _taken(text, taken)
        account = Account(
            secrets.token_hex(8), text, name_key(text), await _hash(password), time.time(), 0
        )
        try:
            await self.storage.write((accounts.insert().values(_values(account)), {}))
        except (sa.exc.IntegrityError, sqlite3.IntegrityError):  # claimed meanwhile: a race
            raise NameRefused("name_taken", f"{text!r} has just been claimed") from None
        return account

    async def verify(self, name: str, password: str) -> Account | None:
        """The account of ``name`` if ``password`` is its password, else None."""
        account = await self.by_name(name)
        ok = await _verify(account.password if account else _dummy(), password)
        return account if ok and account is not None else None

    async def change_password(self, account: Account, new: str) -> Account:
        """Set a new password; the epoch moves on, ending every other session."""
        check_password(new)
        changed = {"password": await _hash(new), "epoch": account.epoch + 1}
        query = accounts.update().where(accounts.c.id == account.id).values(changed)
        await self.storage.write((query, {}))
        return Account(**(_values(account) | changed))

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
        writes.append((roles.delete().where(roles.c.account == account.id), {}))
        writes.append((puzzle_starts.delete().where(puzzle_starts.c.who == f"a:{account.id}"), {}))
        writes.append((accounts.delete().where(accounts.c.id == account.id), {}))
        await self.storage.write(*writes)


async def signed_in(conn: HTTPConnection) -> Account | None:
    """The account of the request's (or websocket's) session, if it is still valid."""
    session = conn.scope.get("session")
    if not session or not isinstance(session.get("account"), str):
        return None
    store: Accounts = conn.app.state.accounts
    account = await store.by_id(session["account"])
    if account is None or session.get("epoch") != account.epoch:
        return None
    return account


async def seat_name(
    store: Accounts, name: object, signed_in: Account | None, rated: bool = False
) -> tuple[str, str | None]:
    """The name a person joining a room sits under, and their account (None: a guest).

    Signed in, joining under one's own name (or a lookalike of it) seats the account under
    its name; any other name is a guest's, refused when it is claimed (``name_claimed``) or
    looks like a computer player's (``bot_name``). A room set ``rated`` seats signed-in
    players only (``rated_room``)."""
    text = guest_name(name, store.words)
    if signed_in is not None and name_key(text) == signed_in.key:
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
