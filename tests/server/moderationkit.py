"""Helpers of the moderation tests: a server over a temporary SQLite file, roles granted as
the host does (``setgame admin``'s own functions, on the database file), sockets in rooms."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from setgame.server import moderation
from setgame.server.app import build
from setgame.server.limits import Limits
from setgame.server.storage import Storage

from .accountkit import Browser, TestClient, claim

Message = dict[str, Any]


def server(db: Path, address: str = "203.0.113.5") -> TestClient:
    """An app over ``db`` whose requests come from ``address``."""
    app = build(Storage(str(db)), restore=True, limits=Limits())
    return TestClient(app, client=(address, 50000))


def grant(db: Path, name: str, role: str = "moderator") -> None:
    """The host's ``setgame admin grant`` on the database file (a server may be running)."""

    async def run() -> None:
        storage = Storage(str(db), create=False)
        await storage.open()
        try:
            await moderation.grant(storage, name, role)
        finally:
            await storage.close()

    asyncio.run(run())


def moderator(client: TestClient, db: Path, name: str = "Mod") -> None:
    """Claim ``name`` (signed in on ``client``) and make it a moderator."""
    assert claim(client, name).status_code == 201
    grant(db, name)


def as_now(client: TestClient) -> Browser:
    """A browser holding ``client``'s cookies as they are now (to act as it from inside
    another browser's ``with``)."""
    browser = Browser(client)
    browser.cookies = httpx.Cookies(client.cookies)
    return browser


def until(ws: Any, wanted: Callable[[Message], bool], most: int = 50) -> Message:
    """The first message ``wanted`` accepts (at most ``most`` read)."""
    for _ in range(most):
        message: Message = ws.receive_json()
        if wanted(message):
            return message
    raise AssertionError(f"no wanted message in {most}")


def of_type(kind: str) -> Callable[[Message], bool]:
    return lambda m: m["type"] == kind


def say(ws: Any, text: str) -> Message:
    """Say ``text``; the chat line as this socket hears it back (or the error)."""
    ws.send_json({"type": "chat", "text": text})
    return until(ws, lambda m: m["type"] == "error" or m["type"] == "chat")
