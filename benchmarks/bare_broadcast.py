"""The baseline of the load benchmark: the bare uvicorn WebSocket broadcast stack.

    python3 benchmarks/bare_broadcast.py --port 8123 [--size 1500]

A raw ASGI app on uvicorn with the game server's WebSocket settings, and nothing
else: no Starlette, no game, no database. A socket at ``/ws/<room>`` joins that
room; each text message it sends (``{"id": ...}``) is answered with one update of
about ``--size`` characters, carrying the id, to every socket of the room, the
sender included, as the game server answers an accepted action. ``GET /`` answers
``ok`` (the health check). What the game server adds on top of this stack (the
rules, the commit before the broadcast, a view per player) is what the load
benchmark's ratio measures.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Awaitable, Callable
from typing import Any

Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]

MAX_SIZE = 65536


def make_app(size: int) -> Callable[[dict[str, Any], Receive, Send], Awaitable[None]]:
    rooms: dict[str, list[Send]] = {}
    padding = "x" * max(0, size - 40)

    async def app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while True:
                kind = (await receive())["type"]
                if kind == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif kind == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        elif scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"ok"})
        elif scope["type"] == "websocket":
            await _socket(rooms.setdefault(scope["path"], []), receive, send, padding)

    return app


async def _socket(members: list[Send], receive: Receive, send: Send, padding: str) -> None:
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    members.append(send)
    try:
        while (message := await receive())["type"] == "websocket.receive":
            try:
                ident = json.loads(message.get("text") or "{}").get("id")
            except (ValueError, AttributeError):
                continue
            update = json.dumps({"type": "update", "id": ident, "pad": padding})
            for member in list(members):
                await member({"type": "websocket.send", "text": update})
    finally:
        members.remove(send)


def main(argv: list[str] | None = None) -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--size", type=int, default=1500, help="characters of each update")
    args = parser.parse_args(argv)
    uvicorn.run(
        make_app(args.size),
        host=args.host,
        port=args.port,
        ws_max_size=MAX_SIZE,
        log_level="warning",
        lifespan="on",
    )


if __name__ == "__main__":
    main()
