"""Every limit of the public server in one place, each read from its environment variable.

A field ``room_cap`` is set by ``SETGAME_ROOM_CAP``; ``docs/deploy.md`` lists them all. Each
field's metadata gives its bounds (``min``, ``max``) and a one-line ``doc``; :meth:`Limits.from_env`
refuses a value out of bounds or of the wrong type with an error that quotes it.

Two groups, kept apart so that the edge (connections, bodies, sockets) and the rooms (players,
rooms, storage) can grow independently.
"""

from __future__ import annotations

import ipaddress
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Final, TypeVar

from setgame.server.wordfilter import WordsError, host_lines

ENV_PREFIX = "SETGAME_"


class LimitError(ValueError):
    """A limit set to a value it cannot take; the message quotes the variable and value."""


_V = TypeVar("_V", int, float)


def _bounded(default: _V, low: float, high: float, doc: str) -> _V:
    """A number limit: its default, the bounds :meth:`Limits.from_env` holds it to (both
    included), and the line ``docs/deploy.md`` says of it."""
    return field(default=default, metadata={"min": low, "max": high, "doc": doc})


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's limits; the defaults suit a public server on a small machine."""

    # -- the edge: connections, request bodies, sockets -----------------------------------

    trusted_proxies: str = field(
        default="",
        metadata={
            "check": "networks",
            "doc": "comma-separated addresses or networks (CIDR) of reverse proxies whose "
            "X-Forwarded-For is believed; empty: none, the peer address is the client",
        },
    )
    connections_per_client: int = _bounded(
        256, 1, 100_000, "open TCP connections one client address may hold (trusted proxies are "
        "exempt); more are closed at once",
    )
    connect_rate: float = _bounded(
        20.0, 0.1, 100_000, "new TCP connections a second one client address may open on average "
        "(trusted proxies are exempt)...",
    )
    connect_burst: int = _bounded(
        200, 1, 100_000, "...and at once; more are closed before a byte is read",
    )
    header_seconds: float = _bounded(
        10.0, 1, 300, "seconds a connection has to send a complete request head (HTTP or websocket "
        "handshake); slower ones are closed",
    )
    header_bytes: int = _bounded(
        16_384, 1024, 1_048_576, "largest request head in bytes (the request line and every "
        "header); a larger one gets 431 and is not read further",
    )
    body_bytes: int = _bounded(
        4096, 256, 1_048_576, "largest request body in bytes; a larger one gets 413 and is not "
        "read further",
    )
    body_seconds: float = _bounded(
        10.0, 1, 300, "seconds a request body has to arrive whole; a slower one gets 408",
    )
    linger_bytes: int = _bounded(
        64 * 1_048_576, 0, 1 << 34, "bytes of a refused request body (413) read and dropped after "
        "the answer, so that a client still sending reads the answer instead of a reset (a "
        "lingering close, as nginx's)...",
    )
    linger_seconds: float = _bounded(
        10.0, 0.0, 300.0, "...for at most this long; then the connection is cut",
    )
    json_depth: int = _bounded(
        16, 4, 256, "deepest nesting of arrays and objects in a message or request body; deeper "
        "ones are refused with 'too_deep'",
    )
    hello_seconds: float = _bounded(
        10.0, 1, 300, "seconds a new websocket has to say hello (a ping does not count); else it "
        "is closed with 1008",
    )
    unauth_per_client: int = _bounded(
        64, 1, 10_000, "websockets one client address may hold open before their hello; more are "
        "closed with 1013",
    )
    unauth_total: int = _bounded(
        2000, 1, 1_000_000, "websockets the whole server holds open before their hello; more are "
        "closed with 1013",
    )
    room_sockets: int = _bounded(
        200, 1, 100_000, "greeted websockets one room accepts; a seated player with a valid token "
        "is always let in",
    )
    seat_sockets: int = _bounded(
        4, 1, 64, "websockets one seat may hold at once (tabs); a new one closes that seat's "
        "oldest with 4009 (seat_elsewhere)",
    )

    # -- rooms, players and storage --------------------------------------------------------

    room_cap: int = _bounded(5000, 1, 1_000_000, "rooms held at once (in memory), all clients")
    rooms_per_client: int = _bounded(
        20, 1, 100_000, "live rooms one client address may have created",
    )
    rooms_per_minute: float = _bounded(
        120.0, 0.01, 1_000_000.0, "rooms one client address may create a minute",
    )
    rooms_burst: int = _bounded(500, 1, 1_000_000, "rooms one client address may create at once")
    seats_per_client: int = _bounded(6, 1, 8, "seats one client address may hold in one room")
    joins_per_minute: float = _bounded(6.0, 0.01, 100_000.0, "joins a minute per client and room")
    join_burst: int = _bounded(12, 1, 10_000, "joins at once per client and room")
    away_grace: float = _bounded(
        10.0, 0.1, 3600.0, "seconds without a connection before a seated player counts as away",
    )
    abandon_seconds: float = _bounded(
        7200.0, 0.1, 30 * 86400.0, "a room nobody has open for this long is closed (an unfinished "
        "game is deleted)",
    )
    left_seconds: float = _bounded(
        300.0, 0.1, 86400.0, "a multiplayer room nobody has open stops counting against its "
        "creator's address after this long",
    )
    retention_days: float = _bounded(
        30.0, 0.00001, 36500.0, "finished games (and their replays) are deleted this many days "
        "after the end",
    )
    sweep_seconds: float = _bounded(
        60.0, 0.05, 86400.0, "how often abandoned rooms and old games are looked for",
    )

    # -- accounts (account_api.py) ---------------------------------------------------------

    signins_per_minute: float = _bounded(
        6.0, 0.01, 100_000.0, "account requests that check or set a password (sign in, claim, "
        "change, delete) one client address may make a minute...",
    )
    signin_burst: int = _bounded(10, 1, 100_000, "...and at once; beyond them 429 rate_limited")
    name_failures_per_hour: float = _bounded(
        20.0, 0.01, 100_000.0, "failed sign-ins one claimed name may take an hour, from all "
        "addresses together...",
    )
    name_failure_burst: int = _bounded(
        10, 1, 100_000, "...and at once; beyond them sign-ins to that name get 429 rate_limited",
    )
    hashes_at_once: int = _bounded(
        1, 1, 64, "password hashes (argon2id, 64 MiB and about 0.2 s of a core each) computed at "
        "once; the others wait in a queue...",
    )
    hash_nice: int = _bounded(
        10, 0, 19, "how many nice levels (Linux) below the server the hashing threads run, so that "
        "the event loop serving the rooms comes first; 0 on a machine shared with busier work, "
        "where hashes would starve...",
    )
    signin_queue: int = _bounded(
        32, 1, 10_000, "...of at most this many requests; a request finding it full gets 503 busy "
        "at once (with Retry-After)...",
    )
    signin_queue_per_client: int = _bounded(
        2, 1, 10_000, "...of which one client address holds at most this many places (the address "
        "that asked least lately goes first)...",
    )
    signin_queue_seconds: float = _bounded(
        10.0, 0.1, 300.0, "...and where none waits longer than this (then 503 busy)",
    )
    session_days: float = _bounded(
        30.0, 0.01, 400.0, "days a sign-in lasts; then the browser signs in again",
    )
    secure_cookie: bool = field(
        default=False,
        metadata={"doc": "send the session cookie over HTTPS only, always (without it: when "
                  "the request came over TLS, also as a trusted proxy's X-Forwarded-Proto says)"},
    )

    # -- chat (chat.py) ------------------------------------------------------------------------

    chat_client_per_minute: float = _bounded(
        60.0, 0.01, 100_000.0, "chat lines one client address may send a minute, from all its "
        "sockets in every room...",
    )
    chat_client_burst: int = _bounded(
        20, 1, 100_000, "...and at once; beyond them chat_too_fast (each socket also has its own "
        "5, then one every 2 s)",
    )
    chat_room_per_minute: float = _bounded(
        120.0, 0.01, 100_000.0, "chat lines one room's spectators may send a minute, all together "
        "(seated players are not counted)...",
    )
    chat_room_burst: int = _bounded(30, 1, 100_000, "...and at once; beyond them chat_too_fast")
    chat_min_games: int = _bounded(
        0, 0, 1000, "finished games a signed-in player needs before chatting in a public room; "
        "while above 0, guests may not chat in public rooms (chat_newcomer); 0: everyone may",
    )
    word_filter: bool = field(
        default=True,
        metadata={"doc": "refuse names and mask chat words of the word lists (docs/deploy.md)"},
    )
    words_file: str = field(
        default="",
        metadata={"check": "words", "doc": "a file of words to add to the word filter, or to "
                  "take out of it, or to replace its lists with (docs/deploy.md)"},
    )
    chat_client_lines: int = _bounded(
        500, 1, 5000, "lines one client address may say in one game's chat (which holds 5,000); "
        "beyond them chat_share",
    )

    # -- photos of real tables (photo_api.py, issue 24) ------------------------------------

    photo_bytes: int = _bounded(
        15 * 1_048_576, 1024, 15 * 1_048_576, "largest photo upload in bytes (POST /api/photo); a "
        "larger one gets 413 and is not read further",
    )
    photo_pixels: int = _bounded(
        50_000_000, 10_000, 50_000_000, "most pixels a photo may have, read from its header before "
        "it is decoded (413 beyond)",
    )
    photo_seconds: float = _bounded(
        60.0, 1, 600, "seconds a photo upload has to arrive whole (a phone's upstream is slow); a "
        "slower one gets 408",
    )
    photos_per_minute: float = _bounded(
        10.0, 0.01, 100_000.0, "photos one client address may send to be read a minute...",
    )
    photo_burst: int = _bounded(
        5, 1, 100_000, "...and at once; beyond them 429 rate_limited (with Retry-After)",
    )
    photo_uploads: int = _bounded(
        8, 1, 1000, "photo uploads one server process reads and holds at once (each up to "
        "photo_bytes), a quarter of them (at least one) per client address; more get 503 busy",
    )
    photos_at_once: int = _bounded(
        2, 1, 64, "photos one server process reads (recognizes) at once, each on a worker thread; "
        "more get 503 busy with Retry-After",
    )
    photo_nice: int = _bounded(
        10, 0, 19, "how many nice levels (Linux) below the server the photo threads run, so that "
        "the event loop serving the rooms comes first",
    )
    photo_sets_per_minute: float = _bounded(
        120.0, 0.01, 100_000.0, "corrected tables one client address may have judged a minute "
        "(POST /api/photo/sets), half of them at once",
    )

    # -- fair play: which games move ratings (players.py, docs/rules.md "Ratings") ---------

    rated_min_seconds: float = _bounded(
        120.0, 0.0, 86400.0, "seconds of play (first deal to end) a game needs to move ratings...",
    )
    rated_min_sets: int = _bounded(6, 0, 1000, "...and groups taken in it, by everyone")
    rated_begun_seconds: float = _bounded(
        60.0, 0.0, 86400.0, "a player who leaves before this many seconds of play...",
    )
    rated_begun_sets: int = _bounded(
        3, 0, 1000, "...and this many groups taken is left out of the game's rating (neither rated "
        "nor rating)",
    )
    rated_pair_daily: int = _bounded(
        2, 0, 100_000, "rated games a day (24 h) between the same two accounts; beyond, their "
        "games do not move their ratings",
    )
    rated_address_daily: int = _bounded(
        2, 0, 100_000, "rated games a day with two or more accounts seated from one address (an "
        "IPv6 /64)",
    )
    rated_bot_daily: int = _bounded(
        5, 0, 100_000, "rated games a day an account may play against computer players",
    )

    # -- several processes (cluster/, docs/cluster.md) ------------------------------------------

    room_affinity: bool = field(
        default=False,
        metadata={"doc": "the load balancer sends every websocket of a room to one process "
                  "(it hashes the room id in the path, docs/deploy.md): a room nobody is "
                  "connected to moves to the process its first player reaches, so that its "
                  "players play on its owner, without relays"},
    )

    # -- operations: /metrics (metrics_api.py, docs/deploy.md "Metrics") -----------------------

    metrics: bool = field(
        default=False,
        metadata={"doc": "answer GET /metrics (Prometheus' text format); off: 404. Without "
                  "metrics_token, only to loopback and private addresses"},
    )
    metrics_token: str = field(
        default="",
        metadata={"check": "token", "doc": "a secret of 16 to 256 printable characters: "
                  "/metrics then answers only requests with 'Authorization: Bearer <it>', "
                  "from any address"},
    )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Limits:
        """The defaults, overridden by every ``SETGAME_<NAME>`` variable present in ``env``."""
        env = os.environ if env is None else env
        return cls(**read_fields(cls, env, lambda name: ENV_PREFIX + name.upper()))


def read_fields(
    settings: type[Any], env: Mapping[str, str], env_name: Callable[[str], str]
) -> dict[str, Any]:
    """The fields of the dataclass ``settings`` given in ``env`` (field ``f`` under
    ``env_name(f)``), each parsed to its default's type and checked against its metadata;
    :class:`LimitError` quoting the first bad one. Shared by every settings class."""
    values: dict[str, Any] = {}
    for f in fields(settings):
        key = env_name(f.name)
        if key in env:
            values[f.name] = _parse(key, env[key], f.default, f.metadata)
    return values


def limits_from_env(
    trusted_proxies: Sequence[str] | None = None, env: Mapping[str, str] | None = None
) -> Limits:
    """:meth:`Limits.from_env`, with ``trusted_proxies`` (a command line's repeated option)
    taking the place of ``SETGAME_TRUSTED_PROXIES`` when given."""
    env = dict(os.environ if env is None else env)
    if trusted_proxies:
        env[ENV_PREFIX + "TRUSTED_PROXIES"] = ",".join(trusted_proxies)
    return Limits.from_env(env)


def _parse(key: str, raw: str, default: Any, meta: Mapping[str, Any]) -> Any:
    kind = type(default)
    try:
        value = kind(raw.strip()) if kind is not bool else _parse_bool(raw)
    except ValueError:
        raise LimitError(f"{key} must be {_KINDS.get(kind, kind.__name__)}, not {raw!r}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise LimitError(f"{key} must be a finite number, not {raw!r}")
    if meta.get("check") == "networks":
        networks(raw, key)
    if meta.get("check") == "words" and value:
        try:
            host_lines(str(value))
        except WordsError as exc:
            raise LimitError(str(exc)) from None
    if meta.get("check") == "token" and value:
        _token(key, str(value))
    low, high = meta.get("min"), meta.get("max")
    if (low is not None and value < low) or (high is not None and value > high):
        raise LimitError(f"{key} must be between {low} and {high}, not {raw!r}")
    return value


def networks(text: str, key: str = ENV_PREFIX + "TRUSTED_PROXIES") -> list[str]:
    """The comma-separated addresses or CIDR networks in ``text`` (empty: none), each as
    a network (host bits dropped).

    >>> networks("10.0.0.1, 192.168.0.9/24")
    ['10.0.0.1/32', '192.168.0.0/24']
    >>> networks("proxy.local")
    Traceback (most recent call last):
    ...
    setgame.server.limits.LimitError: SETGAME_TRUSTED_PROXIES: 'proxy.local' is not an IP \
address or network (give addresses, not names)
    """
    found = []
    for item in (item.strip() for item in text.split(",")):
        if not item:
            continue
        try:
            found.append(str(ipaddress.ip_network(item, strict=False)))
        except ValueError:
            raise LimitError(
                f"{key}: {item!r} is not an IP address or network (give addresses, not names)"
            ) from None
    return found


def _token(key: str, value: str) -> None:
    """A bearer token: long enough not to be guessed, and sendable in a header as it is."""
    if not 16 <= len(value) <= 256 or not all(33 <= ord(c) <= 126 for c in value):
        raise LimitError(
            f"{key} must be 16 to 256 printable characters without spaces "
            f"(it is {len(value)} long)"
        )


_KINDS: Final = {int: "a whole number", float: "a number", bool: "true or false"}


def _parse_bool(raw: str) -> bool:
    text = raw.strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(raw)
