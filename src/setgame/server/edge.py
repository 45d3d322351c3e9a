"""The server's edge, below the routes: who the client is, how long a connection may take to
say what it wants, how many connections one address may hold, how a request body is read.

Every limit here comes from :class:`setgame.server.limits.Limits`; when one bites it is logged
(at most once per :data:`LOG_EVERY` seconds per limit, with how often it bit meanwhile), so an
operator sees an attack without the log becoming one.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
import weakref
from collections.abc import Callable
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, HTTPConnection, Request

from setgame.server.limits import Limits, networks
from setgame.server.memory import CHURN

log = logging.getLogger("setgame.server.limits")

LOG_EVERY: Final = 10.0
"""Seconds between two log lines about the same limit."""


class Bites:
    """Counts each limit's refusals and logs them, throttled (see :data:`LOG_EVERY`)."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self._logged: dict[str, tuple[float, int]] = {}

    def __call__(self, limit: str, detail: str) -> None:
        count = self.counts[limit] = self.counts.get(limit, 0) + 1
        now = time.monotonic()
        last, last_count = self._logged.get(limit, (-LOG_EVERY, 0))
        if now - last >= LOG_EVERY:
            log.warning("limit %s bit %d time(s) since the last report: %s",
                        limit, count - last_count, detail)
            self._logged[limit] = (now, count)


BITES: Final = Bites()
"""The process's one counter: uvicorn builds protocols without a reference to the app."""


# --- who the client is ------------------------------------------------------------------------


def proxy_middleware(limits: Limits) -> list[Middleware]:
    """uvicorn's proxy-header middleware when proxies are configured: only their
    ``X-Forwarded-For`` names the client; anyone else's is ignored (default: everyone's)."""
    trusted = networks(limits.trusted_proxies)
    if not trusted:
        return []
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    return [Middleware(ProxyHeadersMiddleware, trusted_hosts=trusted)]


def client_host(scope: Any) -> str:
    """Who the client of a request or websocket is, for every per-client limit: its address
    as :func:`address_group` counts it."""
    client = scope.get("client") if isinstance(scope, dict) else getattr(scope, "client", None)
    if client is None:
        return "?"
    return address_group(str(client[0]))


def address_group(host: str) -> str:
    """The client an address counts as: an IPv4 address itself; an IPv6 address its /64
    network (``2001:db8:1:2::/64``), because one subscriber is commonly given a whole /64 and
    could otherwise be 2**64 clients to every per-address limit; an IPv4-mapped IPv6 address
    its IPv4 address; loopback, and anything that is not an address, as it is."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if not isinstance(address, ipaddress.IPv6Address) or address.is_loopback:
        return host
    if address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(ipaddress.IPv6Network((int(address), 64), strict=False))


def foreign_origin(conn: HTTPConnection) -> str | None:
    """Why a request or websocket handshake is cross-site, or None: its ``Origin`` (sent by
    every browser on a websocket handshake and a POST) names another site than its ``Host``
    (another scheme's port, another port or subdomain of the same host is another site). A
    client that sends no ``Origin`` is no browser, so it carries no victim's cookie."""
    origin = conn.headers.get("origin")
    if origin is None:
        return None
    host = conn.headers.get("host", "")
    if urlsplit(origin).netloc.lower() == host.lower():
        return None
    return f"a request from {origin[:100]!r} to {host[:100]!r} is cross-site"


# --- request bodies ---------------------------------------------------------------------------


class BodyError(ValueError):
    """A request body refused before or while reading it: ``status``, ``code``, message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


async def read_body(
    request: Request, limits: Limits, cap: int | None = None, seconds: float | None = None
) -> bytes:
    """The body, streamed: refused (413) as soon as it is known to exceed ``cap`` (default
    ``body_bytes``), without reading on, and (408) when it takes longer than ``seconds``
    (default ``body_seconds``) to arrive."""
    cap = limits.body_bytes if cap is None else cap
    seconds = limits.body_seconds if seconds is None else seconds
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > cap):
        raise _too_big(request, declared, cap)
    try:
        body = await asyncio.wait_for(_stream(request, cap), seconds)
    except TimeoutError:
        BITES("body_seconds", f"{client_host(request)} sent a body too slowly")
        raise BodyError(408, "too_slow", f"the body did not arrive within {seconds:g} s") from None
    except ClientDisconnect:
        raise BodyError(400, "disconnected", "the client left before sending the body") from None
    if isinstance(body, int):
        raise _too_big(request, f"more than {body}", cap)
    return body


async def _stream(request: Request, cap: int) -> bytes | int:
    """The body, or how many bytes had come when it passed ``cap``. No exception is raised
    in here on purpose: its traceback would keep the buffers alive until the next garbage
    collection (measured: 170 MB more RSS under six concurrent 300 MB bodies)."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > cap:
            return len(body)
    return bytes(body)


def _too_big(request: Request, size: str, cap: int) -> BodyError:
    BITES("body_bytes", f"{client_host(request)} sent a body of {size} bytes")
    return BodyError(413, "too_big", f"the body ({size} bytes) exceeds {cap} bytes")


# --- connections: per-address cap and a deadline for the request head -------------------------


class Doorman:
    """New and open TCP connections per peer address (an IPv6 one: its /64, see
    :func:`address_group`; trusted proxies exempt): at most
    ``connections_per_client`` open at once, and new ones at ``connect_rate`` a second
    (``connect_burst`` at once). A refused connection is closed before a byte is read, the
    cheapest refusal there is: floods of short connections cost the server little."""

    def __init__(self, limits: Limits, bites: Callable[[str, str], None] = BITES) -> None:
        self.limits = limits
        self.proxies = [ipaddress.ip_network(n) for n in networks(limits.trusted_proxies)]
        # Weak: a closed connection must not be kept alive (with its buffers) by the count.
        self.open: dict[str, weakref.WeakSet[asyncio.BaseTransport]] = {}
        self.buckets: dict[str, tuple[float, float]] = {}  # host -> (tokens, time)
        self.bites = bites

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count the new connection; False when its address already holds its share."""
        CHURN.live.add(transport)  # counted open until it closes (memory.py)
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if peer else "?"
        if self._is_proxy(host):
            return True
        host = address_group(host)  # an IPv6 client is its /64
        if not self._take(host):
            self.bites("connect_rate", f"{host} opens connections too fast")
            return False
        held = self.open.setdefault(host, weakref.WeakSet())
        limit = self.limits.connections_per_client
        # Count the live ones only when the set (closing ones included) could reach the limit:
        # scanning every connection of a busy address on each new one was 4-5% of server time.
        count = len(held) if len(held) < limit else sum(1 for t in held if not t.is_closing())
        if count >= limit:
            self.bites("connections_per_client", f"{host} holds {count} connections")
            return False
        held.add(transport)
        if len(self.open) > 10_000:
            self._prune()
        return True

    def _take(self, host: str) -> bool:
        rate, burst = self.limits.connect_rate, float(self.limits.connect_burst)
        now = time.monotonic()
        tokens, stamp = self.buckets.get(host, (burst, now))
        tokens = min(burst, tokens + (now - stamp) * rate)
        if tokens < 1:
            self.buckets[host] = (tokens, now)
            return False
        self.buckets[host] = (tokens - 1, now)
        return True

    def _is_proxy(self, host: str) -> bool:
        if not self.proxies:
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in net for net in self.proxies)

    def _prune(self) -> None:
        """Forget addresses with nothing open and a full bucket: they are as new."""
        now, burst = time.monotonic(), float(self.limits.connect_burst)
        for host in list(self.open):
            if not any(not t.is_closing() for t in self.open[host]):
                del self.open[host]
        for host, (tokens, stamp) in list(self.buckets.items()):
            if tokens + (now - stamp) * self.limits.connect_rate >= burst:
                del self.buckets[host]


class Lingering:
    """A connection's transport as uvicorn's HTTP protocol sees it: the same, but its
    ``close`` asks the protocol (:meth:`Guarded.close_or_linger`) first."""

    def __init__(self, transport: asyncio.Transport, protocol: Any) -> None:
        self.real, self.protocol = transport, protocol

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def close(self) -> None:
        self.protocol.close_or_linger()

    def is_closing(self) -> bool:
        return bool(self.protocol.lingering) or self.real.is_closing()


def guarded_protocol(limits: Limits) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol with four guards: a per-address connection cap, a deadline
    (``header_seconds``) for each request head, so that a silent or trickling connection
    (plain HTTP or a websocket handshake) is closed instead of held, a bound on its size
    (``header_bytes``: uvicorn's httptools parser has none), and a lingering close
    after a refused body (``linger_bytes``, ``linger_seconds``): a client that sends a body
    too big reads its 413 instead of a connection reset (closing a socket with unread data
    sends a reset, which loses the answer the client has not read yet)."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    doorman = Doorman(limits)
    base: Any = AutoHTTPProtocol

    class Guarded(base):  # type: ignore[misc]
        _deadline: asyncio.TimerHandle | None = None
        _refused = False
        lingering: asyncio.TimerHandle | None = None
        _drained = 0
        _head_bytes = 0
        _tail = b""

        def connection_made(self, transport: asyncio.Transport) -> None:
            if not doorman.admit(transport):  # refused before uvicorn sets anything up
                self._refused = True
                transport.abort()
                return
            self._real = transport
            super().connection_made(Lingering(transport, self))
            self._arm()

        def close_or_linger(self) -> None:
            """Close; but while the client is still sending a request body nobody will read
            (the answer said ``connection: close``), send the answer's end (a FIN) and read
            and drop what comes, up to the bounds, before closing."""
            real, cycle = self._real, self.cycle
            if self.lingering is not None or real.is_closing():
                return
            if cycle is None or not cycle.more_body or not real.can_write_eof():
                real.close()
                return
            if self._deadline is not None:
                self._deadline.cancel()
            real.write_eof()  # the answer is whole: the client may read it now
            real.resume_reading()  # uvicorn may have paused reading the body
            self.lingering = self.loop.call_later(limits.linger_seconds, self._cut)

        def _cut(self) -> None:
            BITES("linger_seconds", f"{self._peer()} sent a refused body too long")
            self._real.abort()

        def data_received(self, data: bytes) -> None:
            if self.lingering is None:
                if self._head_too_big(data):
                    BITES("header_bytes", f"{self._peer()} sent a request head over "
                                          f"{limits.header_bytes} bytes")
                    self._refuse_head()
                    return
                super().data_received(data)
                return
            self._drained += len(data)  # a refused body: dropped unread
            if self._drained > limits.linger_bytes:
                BITES("linger_bytes", f"{self._peer()} sent a refused body too big to drain")
                self._real.abort()

        def _head_too_big(self, data: bytes) -> bool:
            """Whether the request head being read, with ``data``, passes ``header_bytes``:
            counted up to its blank line, before the parser sees it (a head's end may be split
            between reads: the last three bytes are kept). A body is not counted: bytes that
            come while a request is being answered are its body (or, pipelined, a head that
            the answer's end makes the parser wait for)."""
            if self.cycle is not None and not self.cycle.response_complete:
                return False
            seen = self._tail + data
            end = seen.find(b"\r\n\r\n")
            if end < 0:
                self._head_bytes += len(data)
                self._tail = seen[-3:]
                return self._head_bytes > limits.header_bytes
            size = self._head_bytes + end + 4 - len(self._tail)
            self._head_bytes, self._tail = 0, b""
            return size > limits.header_bytes

        def _refuse_head(self) -> None:
            text = f"the request head exceeds {limits.header_bytes} bytes\n".encode()
            self._real.write(
                b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                b"content-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
                + f"content-length: {len(text)}\r\n\r\n".encode() + text
            )
            if self._deadline is not None:
                self._deadline.cancel()
            if not self._real.can_write_eof():
                self._real.close()
                return
            self._real.write_eof()  # read and drop the rest, as after a refused body
            self.lingering = self.loop.call_later(limits.linger_seconds, self._cut)

        def eof_received(self) -> bool | None:
            if self.lingering is not None:  # the client has sent all: done
                self._real.close()
                return False
            result: bool | None = super().eof_received()
            return result

        def handle_websocket_upgrade(self) -> None:
            self.transport = self._real  # a websocket closes as it is told
            super().handle_websocket_upgrade()

        def _peer(self) -> str:
            return str(self.client[0]) if self.client else "?"

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            CHURN.close()  # not called here once upgraded: a websocket counts at its end
            if self._refused:
                return
            for timer in (self._deadline, self.lingering):
                if timer is not None:
                    timer.cancel()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._deadline = self.loop.call_later(limits.header_seconds, self._expire)

        def _expire(self) -> None:
            self._deadline = None
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return  # closed already, or upgraded to a websocket (its own timeouts)
            if self.cycle is not None and not self.cycle.response_complete:
                return  # the head arrived; the body has its own deadline
            peer = self.client[0] if self.client else "?"
            BITES("header_seconds", f"{peer} sent no complete request head in time")
            transport.abort()

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    return Guarded
