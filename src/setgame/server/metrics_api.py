"""``GET /metrics``: the process's metrics (``metrics.py``) for Prometheus, and who may read them.

Off by default (``SETGAME_METRICS``): the route is not there (404). On, it answers:

- with ``SETGAME_METRICS_TOKEN`` set, only requests that carry ``Authorization: Bearer
  <token>`` (compared in constant time), from any address; any other gets ``401``;
- without a token, only clients on loopback or private addresses (``10/8``, ``192.168/16``,
  ``fc00::/7``...; behind a trusted proxy, the address it names). A request that a proxy the
  server does not trust relayed (it carries ``X-Forwarded-For``, ``X-Real-IP`` or
  ``Forwarded`` that do not name the peer) is refused too: an nginx on the same machine would
  otherwise make every stranger look like loopback. Others get ``403``.

Scrapes are bounded: two a second on average, ten at once, for the whole process (``429``
with ``Retry-After`` beyond): Prometheus scrapes every 15 s or so, and the answer's size does
not grow with the number of rooms or players.
"""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from setgame.server.limits import Limits
from setgame.server.metrics import Metrics
from setgame.server.sockets import TokenBucket

SCRAPES_PER_SECOND: Final = 2.0
SCRAPE_BURST: Final = 10
CONTENT_TYPE: Final = "text/plain; version=0.0.4; charset=utf-8"


def routes(limits: Limits) -> list[Route]:
    """The ``/metrics`` route when the host turned metrics on; none otherwise."""
    return [Route("/metrics", metrics, methods=["GET"])] if limits.metrics else []


def open_metrics(app: Any, limits: Limits) -> None:
    """The app's metrics (``app.state.metrics``, None when off), hooked into its storage
    (``Storage.metrics``, which the rooms, sockets and cluster reach too)."""
    app.state.metrics = None
    if limits.metrics:
        found = app.state.metrics = Metrics(app.state)
        app.state.storage.metrics = found
        app.state.scrapes = TokenBucket(SCRAPES_PER_SECOND, SCRAPE_BURST)


async def metrics(request: Request) -> Response:
    limits: Limits = request.app.state.limits
    refused = _refusal(request, limits)
    if refused is not None:
        return refused
    if not request.app.state.scrapes.take():
        return JSONResponse(
            {"code": "rate_limited", "message": "too many scrapes of /metrics: wait"},
            status_code=429,
            headers={"Retry-After": "1"},
        )
    found: Metrics = request.app.state.metrics
    return Response(found.text(), media_type=CONTENT_TYPE, headers={"Cache-Control": "no-store"})


def _refusal(request: Request, limits: Limits) -> Response | None:
    if limits.metrics_token:
        given = _bearer(request)
        if given is not None and hmac.compare_digest(given.encode(), limits.metrics_token.encode()):
            return None
        return JSONResponse(
            {"code": "unauthorized", "message": "/metrics needs its bearer token"},
            status_code=401,
            headers={"WWW-Authenticate": 'Bearer realm="metrics"'},
        )
    if _private(request):
        return None
    return JSONResponse(
        {"code": "forbidden", "message": "/metrics answers private addresses only (or set "
         "SETGAME_METRICS_TOKEN)"},
        status_code=403,
    )


def _bearer(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "")[:1024].partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _private(request: Request) -> bool:
    """Whether the client is on loopback or a private network, and no proxy the server does
    not trust relayed the request (its forwarding headers would name someone else)."""
    host = request.client.host if request.client is not None else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if not (address.is_loopback or address.is_private) or address.is_unspecified:
        return False
    return not _relayed_by_a_stranger(request, host)


def _relayed_by_a_stranger(request: Request, host: str) -> bool:
    """A trusted proxy's ``X-Forwarded-For`` names the client the server sees (uvicorn took
    it from there) and its ``X-Real-IP`` is that client; any other forwarding header came
    through a proxy the server does not know of (``Forwarded`` is never read here)."""
    if "forwarded" in request.headers:
        return True
    named = [v.strip() for v in request.headers.get("x-forwarded-for", "").split(",")]
    if any(named) and host not in named:
        return True
    real = request.headers.get("x-real-ip")
    return real is not None and real.strip() != host
