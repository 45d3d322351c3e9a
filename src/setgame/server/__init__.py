"""The web game server: Starlette app, rooms, storage and the socket protocol.

``setgame serve`` calls :func:`serve`; tests build the app with :func:`create_app`.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from setgame.server.limits import Limits

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8000
WS_MAX_SIZE: Final = 65536
"""Frames above this are refused by the websocket layer itself (close 1009); the server
refuses anything above the protocol's 4096 bytes on its own, also with 1009."""


def create_app(db_url: str | Path | None = None, *, create_db: bool = False, **options: Any) -> Any:
    """The Starlette app storing into ``db_url`` (an SQLite path or an SQLAlchemy URL;
    default ``setgame.db`` in the current directory). Without ``create_db`` the database
    must exist already (see ``docs/deploy.md``)."""
    from setgame.server.app import build
    from setgame.server.storage import Storage, database_url

    return build(Storage(database_url(db_url), create=create_db), **options)


def serve(
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    db: str | Path | None = None,
    *,
    log_level: str = "info",
    limits: Limits | None = None,
    create_db: bool = False,
    redis: str | None = None,
) -> None:
    """Run the game server until interrupted. ``limits`` default to :meth:`Limits.from_env`.
    A bad limit (``SETGAME_*``) or a database that cannot be used stops it at once with a
    message naming them (exit status 2). ``redis``: run as one process of a cluster
    (``docs/cluster.md``; needs PostgreSQL)."""
    import sys

    import uvicorn

    from setgame.server import memory
    from setgame.server.edge import guarded_protocol

    limits = _preflight(db, create_db, limits, redis)

    # Reads and WAL checkpoints (aiosqlite) run in a thread; hand it the GIL within 1 ms rather
    # than 5 ms so that they do not wait on a busy event loop. (SQLite commits run on the loop.)
    sys.setswitchinterval(0.001)
    _raise_file_limit()
    memory.tune()
    logging.basicConfig(level=getattr(logging, log_level.upper(), logging.INFO))
    uvicorn.run(
        create_app(
            db, create_db=create_db, limits=limits, bind_host=host, redis=redis, freeze=True
        ),
        host=host,
        port=port,
        http=guarded_protocol(limits),
        ws_max_size=WS_MAX_SIZE,
        log_level=log_level,
        lifespan="on",
        # X-Forwarded-For is read by the app, from the configured proxies only
        # (limits.trusted_proxies); uvicorn's own reading would trust any loopback peer.
        proxy_headers=False,
    )


def _preflight(
    db: str | Path | None, create_db: bool, limits: Limits | None = None, redis: str | None = None
) -> Any:
    """The limits from the environment, and the database opened once (and closed), so
    that their errors are one clear line rather than a traceback from inside uvicorn."""
    import asyncio
    import sys

    from setgame.server import arena_settings
    from setgame.server.account_api import session_secret
    from setgame.server.limits import LimitError, Limits
    from setgame.server.storage import Storage, StorageError, database_url

    async def check() -> None:
        if redis is not None:
            await _check_redis(redis, database_url(db))
        storage = Storage(database_url(db), create=create_db)
        try:
            await storage.open()
            session_secret(storage)  # made now, or refused with one clear line
        finally:
            await storage.close()

    try:
        limits = Limits.from_env() if limits is None else limits
        arena_settings.schedule(arena_settings.ArenaLimits.from_env().file)  # arenas: one line
        asyncio.run(check())
    except (LimitError, StorageError) as exc:
        print(f"setgame serve: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    return limits


async def _check_redis(url: str, db_url: str) -> None:
    """A cluster needs PostgreSQL (processes on several machines share the log) and a Redis
    that answers; either missing is one clear line at start."""
    from setgame.server.storage import StorageError

    if not url.startswith(("redis://", "rediss://", "unix://")) or len(url) > 512:
        raise StorageError(f"--redis must be a redis:// URL, not {url[:80]!r}")
    if not db_url.startswith("postgresql"):
        raise StorageError("--redis needs a PostgreSQL database (--db postgresql://...)")
    import redis.asyncio as aioredis
    from redis.exceptions import RedisError

    client = aioredis.from_url(url, socket_connect_timeout=5)
    try:
        await client.ping()
    except (RedisError, OSError, ValueError) as exc:
        raise StorageError(f"cannot reach Redis at {url[:80]!r}: {exc}") from None
    finally:
        await client.aclose()


def _raise_file_limit() -> None:
    """Each player is a socket: lift the soft limit on open files to the hard one."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
