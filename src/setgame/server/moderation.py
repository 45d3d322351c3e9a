"""Moderation: roles, bans and mutes, and what they refuse.

A host grants roles with ``setgame admin`` (``moderator``, ``admin``: an admin may do all a
moderator may, and ban a moderator). A ban keeps an account or an address (a network in CIDR
form) from signing in, claiming a name, taking a seat and chatting until it ends; a mute keeps
it from chatting. Bans live in the database (``moderation_tables.py``); each process keeps the
active ones in memory, read again at most :data:`FRESH` seconds after it last read them (at
once after its own changes), so a cluster's other processes apply a ban within that time.
The HTTP side (moderators' routes, reports, the line deletion) is ``moderation_api.py``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

import sqlalchemy as sa

from setgame.rules.errors import GameError
from setgame.server import protocol as p
from setgame.server.accounts import Account, Accounts
from setgame.server.moderation_tables import actions, bans, roles
from setgame.server.names import NameRefused
from setgame.server.storage import Storage, StorageError, Write

log = logging.getLogger(__name__)

ROLES: Final = ("moderator", "admin")
KINDS: Final = ("ban", "mute")
MAX_REASON: Final = 500
"""Characters of a reason (a ban's, a report's) at most."""
MAX_MINUTES: Final = 10 * 366 * 24 * 60
"""The longest ban: ten years, in minutes."""
NARROWEST: Final = {4: 16, 6: 32}
"""The shortest network prefix an address ban may name (IPv4 /16, IPv6 /32): a moderator
cannot shut out the whole internet, nor themselves with it, by a typo."""
FRESH: Final = 5.0
"""Seconds a process trusts its copy of the active bans (another process's ban applies here
within this time)."""
MOST_ACTIVE: Final = 20_000
"""Active bans read at most (the newest): a bound on the memory a flood of bans could take."""
HOST: Final = "host"
"""Who acted, in the log, for the host's own commands (``setgame admin``)."""


class ModerationError(ValueError):
    """A moderation request that cannot be done; ``status`` and ``code`` for HTTP."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


class Banned(GameError):
    """An action a ban or a mute refuses (``code`` ``banned`` or ``muted``), with its end and
    reason for the client to tell."""

    def __init__(self, ban: Ban) -> None:
        super().__init__("banned" if ban.kind == "ban" else "muted", ban.message())
        self.until, self.reason = ban.until, ban.reason
        self.details: dict[str, Any] = {"until": ban.until, "reason": ban.reason}

    def frame(self, request: str | None = None) -> str:
        """The ``error`` message telling a socket (``request``: what it was refused)."""
        error = p.Error(self.code, str(self), request, until=self.until, reason=self.reason)
        return p.encode(error)


@dataclass(frozen=True, slots=True)
class Ban:
    id: int
    kind: str
    account: str | None
    name: str | None
    address: str | None
    reason: str
    created: float
    until: float
    moderator: str
    lifted: float | None = None
    network: Any = field(default=None, compare=False)

    def covers(self, account: str | None, host: str | Network | None) -> bool:
        """Whether the ban holds the account or the client (an address as
        ``edge.client_host`` gives it, or as :func:`client_network` parsed it)."""
        if self.account is not None:
            return account == self.account
        client = client_network(host) if isinstance(host, str) else host
        if self.network is None or client is None:
            return False
        return client.version == self.network.version and bool(client.overlaps(self.network))

    def wire(self) -> dict[str, Any]:
        """Every field but the parsed network, for another process (:meth:`from_wire`)."""
        return {f: getattr(self, f) for f in self.__slots__ if f != "network"}

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Ban:
        address = data.get("address")
        network = None if address is None else ipaddress.ip_network(address, strict=False)
        return cls(**data, network=network)

    def active(self, now: float) -> bool:
        return self.lifted is None and self.until > now

    def message(self) -> str:
        what = "banned" if self.kind == "ban" else "muted"
        return f"you are {what} until {iso(self.until)}: {self.reason}"

    def as_dict(self, now: float | None = None) -> dict[str, Any]:
        now = time.time() if now is None else now
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "address": self.address,
            "reason": self.reason,
            "created": self.created,
            "until": self.until,
            "moderator": self.moderator,
            "active": self.active(now),
        }


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def client_network(host: str) -> Network | None:
    """A client as ``edge.client_host`` counts it (an IPv6 client is its /64), as a
    network; None for a host that is not an address (a test client's)."""
    try:
        return ipaddress.ip_network(host, strict=False)
    except ValueError:
        return None


def iso(stamp: float) -> str:
    """A wall-clock time as the messages write it.

    >>> iso(0)
    '1970-01-01 00:00 UTC'
    """
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _ban(row: Any) -> Ban:
    network = None if row.address is None else ipaddress.ip_network(row.address, strict=False)
    return Ban(
        row.id, row.kind, row.account, row.name, row.address, row.reason, row.created,
        row.until, row.moderator, row.lifted, network,
    )  # fmt: skip


def network_of(text: str) -> str:
    """An address or a network in CIDR form, checked: its canonical network, or
    :class:`ModerationError` quoting it.

    >>> network_of("203.0.113.7")
    '203.0.113.7/32'
    >>> network_of("2001:db8::1/64")
    '2001:db8::/64'
    >>> network_of("10.0.0.0/8")
    Traceback (most recent call last):
    ...
    setgame.server.moderation.ModerationError: '10.0.0.0/8' is too wide a network: at most /16
    """
    try:
        network = ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise ModerationError(
            400, "bad_address", f"not an address or a network: {text!r}"
        ) from None
    narrowest = NARROWEST[network.version]
    if network.prefixlen < narrowest:
        raise ModerationError(
            400, "bad_address", f"{text!r} is too wide a network: at most /{narrowest}"
        )
    return str(network)


def check_reason(reason: str, what: str = "reason") -> str:
    r"""A reason (or a reported name) with its white space folded, or :class:`ModerationError`
    quoting it: empty, too long, or holding control characters or bidirectional overrides
    (a stranger's report is shown to moderators: it must not turn their page around).

    >>> check_reason("  too   rude ")
    'too rude'
    >>> check_reason("rude\u202e")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    setgame.server.moderation.ModerationError: a reason may not hold control characters ...
    """
    clean = " ".join(reason.split())
    if not clean:
        raise ModerationError(400, f"bad_{what}", f"give a {what}")
    if len(clean) > MAX_REASON:
        raise ModerationError(
            400, f"bad_{what}", f"a {what} holds at most {MAX_REASON} characters: {clean[:40]!r}..."
        )
    bad = sorted({f"U+{ord(c):04X}" for c in clean if _control(c)})
    if bad:
        raise ModerationError(
            400,
            f"bad_{what}",
            f"a {what} may not hold control characters ({', '.join(bad)}): {clean[:40]!r}",
        )
    return clean


def _control(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Cs", "Cf") and char not in "\u200d"


def logged(moderator: str, action: str, target: str, reason: str = "") -> Write:
    """The log row of one moderator action: written in the action's own transaction."""
    values = {"at": time.time(), "moderator": moderator, "action": action}
    return actions.insert().values(values | {"target": target[:200], "reason": reason[:500]}), {}


# --- roles ----------------------------------------------------------------------------------


def check_role(role: str) -> str:
    if role not in ROLES:
        raise ModerationError(400, "bad_role", f"unknown role {role!r}: {' or '.join(ROLES)}")
    return role


async def _account(storage: Storage, name: str) -> Account:
    try:
        account = await Accounts(storage).by_name(name)
    except NameRefused:
        account = None
    if account is None:
        raise ModerationError(404, "no_account", f"no account is named {name!r}")
    return account


async def grant(storage: Storage, name: str, role: str, by: str = HOST) -> tuple[Account, bool]:
    """Give the account ``name`` the role; (the account, whether it is new to the role)."""
    check_role(role)
    account = await _account(storage, name)
    if role in await roles_of(storage, account.id):
        return account, False
    row = {"account": account.id, "role": role, "granted": time.time()}
    await storage.write(
        (roles.insert().values(row), {}), logged(by, "grant", f"{account.name} {role}")
    )
    return account, True


async def revoke(storage: Storage, name: str, role: str, by: str = HOST) -> tuple[Account, bool]:
    """Take the role from ``name``; (the account, whether it held the role)."""
    check_role(role)
    account = await _account(storage, name)
    if role not in await roles_of(storage, account.id):
        return account, False
    where = sa.and_(roles.c.account == account.id, roles.c.role == role)
    await storage.write(
        (roles.delete().where(where), {}), logged(by, "revoke", f"{account.name} {role}")
    )
    return account, True


async def roles_of(storage: Storage, account: str) -> set[str]:
    async with storage.reading() as conn:
        rows = await conn.execute(sa.select(roles.c.role).where(roles.c.account == account))
        return {r.role for r in rows}


async def role_holders(storage: Storage) -> list[tuple[str, str, float]]:
    """(name, role, granted) of every role held, by name."""
    from setgame.server.account_tables import accounts

    query = (
        sa.select(accounts.c.name, roles.c.role, roles.c.granted)
        .select_from(roles.join(accounts, roles.c.account == accounts.c.id))
        .order_by(accounts.c.key, roles.c.role)
    )
    async with storage.reading() as conn:
        return [(r.name, r.role, r.granted) for r in await conn.execute(query)]


# --- bans -----------------------------------------------------------------------------------


class AddressBans:
    """The bans of addresses and networks, indexed by network: a client's are found with one
    dictionary look-up per prefix length in use, not by testing every ban (ten thousand
    network bans cost a chat line 50 ms when tested one by one, measured)."""

    SPLIT: Final = 64
    """IPv6 bans narrower than a client's /64 (``edge.client_host``) are filed under their /64."""

    def __init__(self, bans: list[Ban]) -> None:
        self.table: dict[tuple[int, int, int], list[Ban]] = {}
        for ban in bans:
            network = ban.network
            if network.version == 6 and network.prefixlen > self.SPLIT:
                network = network.supernet(new_prefix=self.SPLIT)
            key = (network.version, network.prefixlen, int(network.network_address))
            self.table.setdefault(key, []).append(ban)
        self.prefixes = sorted({(v, p) for v, p, _ in self.table})

    def of(self, host: str) -> list[Ban]:
        """The bans that may cover ``host`` (:meth:`Ban.covers` decides)."""
        client = client_network(host) if self.table else None
        if client is None:
            return []
        found: list[Ban] = []
        bits = client.max_prefixlen
        for version, prefix in self.prefixes:
            if version == client.version and prefix <= client.prefixlen:
                start = int(client.network_address) >> (bits - prefix) << (bits - prefix)
                found += self.table.get((version, prefix, start), ())
        return found


@dataclass
class Bans:
    """The active bans and mutes, as this process last read them."""

    storage: Storage
    read_at: float = -FRESH
    active: list[Ban] = field(default_factory=list)
    reading: asyncio.Lock = field(default_factory=asyncio.Lock)
    # the active bans by account, and those of addresses: a check (every chat line) looks
    # at its account's and the address bans, not at every ban
    by_account: dict[str, list[Ban]] = field(default_factory=dict)
    by_address: AddressBans = field(default_factory=lambda: AddressBans([]))

    async def current(self) -> list[Ban]:
        """The bans in force, read again when :data:`FRESH` seconds old: one read at a time
        (the others wait for it). A database that cannot be read keeps the last copy (logged;
        read again after :data:`FRESH`): an outage must not close every chat and seat."""
        async with self.reading:
            now = time.monotonic()
            if now - self.read_at >= FRESH:
                self.read_at = now
                try:
                    self._index(await self._read())
                except StorageError as exc:
                    log.error("bans not read again, the last copy holds: %s", exc)
        return self.active

    def _index(self, active: list[Ban]) -> None:
        self.active, self.by_account = active, {}
        for ban in active:
            if ban.account is not None:
                self.by_account.setdefault(ban.account, []).append(ban)
        self.by_address = AddressBans([b for b in active if b.network is not None])

    async def _read(self) -> list[Ban]:
        query = (
            bans.select()
            .where(bans.c.lifted.is_(None), bans.c.until > time.time())
            .order_by(bans.c.id.desc())
            .limit(MOST_ACTIVE)
        )
        async with self.storage.reading() as conn:
            return [_ban(r) for r in await conn.execute(query)]

    def stale(self) -> None:
        """Read again at the next check (after a change made here)."""
        self.read_at = -FRESH

    async def against(self, account: str | None, host: str, kinds: tuple[str, ...]) -> Ban | None:
        """The ban of one of ``kinds`` that covers the account or the address, if any (the
        one that lasts longest)."""
        now = time.time()
        await self.current()
        mine = self.by_account.get(account, []) if account is not None else []
        found = [
            b for b in (*mine, *self.by_address.of(host))
            if b.kind in kinds and b.active(now) and b.covers(account, host)
        ]  # fmt: skip
        return max(found, key=lambda b: b.until, default=None)

    async def check(self, account: str | None, host: str, *, chat: bool = False) -> None:
        """:class:`Banned` when a ban (or, for ``chat``, a mute too) covers them."""
        ban = await self.against(account, host, KINDS if chat else ("ban",))
        if ban is not None:
            raise Banned(ban)

    async def add(
        self,
        moderator: str,
        kind: str,
        minutes: int,
        reason: str,
        account: Account | None = None,
        address: str | None = None,
    ) -> Ban:
        now = time.time()
        values: dict[str, Any] = {
            "kind": kind,
            "account": account.id if account else None,
            "name": account.name if account else None,
            "address": address,
            "reason": reason,
            "created": now,
            "until": now + minutes * 60,
            "moderator": moderator,
        }
        target = account.name if account else str(address)
        note = f"{reason} ({minutes} min)"
        await self.storage.write(
            (bans.insert().values(values), {}), logged(moderator, kind, target, note)
        )
        self.stale()
        async with self.storage.reading() as conn:
            mine = sa.and_(bans.c.created == now, bans.c.moderator == moderator)
            newest = bans.select().where(mine).order_by(bans.c.id.desc()).limit(1)
            row = (await conn.execute(newest)).first()
        return _ban(row)

    async def lift(
        self, moderator: str, kinds: tuple[str, ...], account: Account | None, address: str | None
    ) -> int:
        """End every active ban of ``kinds`` on the account or the address: how many."""
        now = time.time()
        who = bans.c.account == account.id if account else bans.c.address == address
        where = sa.and_(who, bans.c.kind.in_(kinds), bans.c.lifted.is_(None), bans.c.until > now)
        async with self.storage.reading() as conn:
            count = await conn.scalar(sa.select(sa.func.count()).select_from(bans).where(where))
        if not count:
            return 0
        target = account.name if account else str(address)
        await self.storage.write(
            (bans.update().where(where).values(lifted=now), {}),
            logged(moderator, "unban" if "ban" in kinds else "unmute", target),
        )
        self.stale()
        return int(count)

    async def recent(self, limit: int = 100) -> list[dict[str, Any]]:
        async with self.storage.reading() as conn:
            rows = await conn.execute(bans.select().order_by(bans.c.id.desc()).limit(limit))
            now = time.time()
            return [_ban(r).as_dict(now) for r in rows]


async def log_rows(storage: Storage, limit: int = 200) -> list[dict[str, Any]]:
    """The newest moderator actions, newest first."""
    query = actions.select().order_by(actions.c.id.desc()).limit(limit)
    async with storage.reading() as conn:
        return [
            {"at": r.at, "moderator": r.moderator, "action": r.action, "target": r.target,
             "reason": r.reason}
            for r in await conn.execute(query)
        ]  # fmt: skip
