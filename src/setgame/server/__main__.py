"""``python -m setgame.server [--host H] [--port P] [--db URL] [--trusted-proxy ADDR]``: the
server alone. A bad limit (``SETGAME_*``) stops it at start: one line, exit status 2."""

from __future__ import annotations

import argparse
import sys

from setgame.server import DEFAULT_HOST, DEFAULT_PORT, serve
from setgame.server.limits import LimitError, limits_from_env


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m setgame.server")
    parser.add_argument("--host", default=DEFAULT_HOST)
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--db", default=None, help="SQLite path or SQLAlchemy URL")
    parser.add_argument("--log-level", default="info")
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        help="address or network of a reverse proxy whose X-Forwarded-For is believed "
        "(repeatable; default SETGAME_TRUSTED_PROXIES, else none)",
    )
    parser.add_argument(
        "--create-db",
        action="store_true",
        help="create the database if missing (without it, a missing database stops the server)",
    )
    parser.add_argument(
        "--redis",
        default=None,
        help="redis:// URL: run as one of several processes over one PostgreSQL database "
        "(docs/cluster.md)",
    )
    args = parser.parse_args(argv)
    try:
        limits = limits_from_env(args.trusted_proxy)
    except LimitError as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        sys.exit(2)
    serve(
        args.host, args.port, args.db, log_level=args.log_level, limits=limits,
        create_db=args.create_db, redis=args.redis,
    )


if __name__ == "__main__":
    main()
