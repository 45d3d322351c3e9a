"""``python -m setgame.server [--host H] [--port P] [--db URL]``: the server alone."""

from __future__ import annotations

import argparse

from setgame.server import DEFAULT_HOST, DEFAULT_PORT, serve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m setgame.server")
    parser.add_argument("--host", default=DEFAULT_HOST)
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--db", default=None, help="SQLite path or SQLAlchemy URL")
    parser.add_argument("--log-level", default="info")
    parser.add_argument(
        "--create-db",
        action="store_true",
        help="create the database if missing (without it, a missing database stops the server)",
    )
    args = parser.parse_args(argv)
    serve(args.host, args.port, args.db, log_level=args.log_level, create_db=args.create_db)


if __name__ == "__main__":
    main()
