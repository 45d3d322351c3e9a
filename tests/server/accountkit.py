"""Helpers of the account tests: a second browser on one test client, claiming a name."""

from __future__ import annotations

import warnings
from typing import Any

import httpx

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PASSWORD = "correct horse"


class Browser:
    """Another browser on the same test client: its own cookies, swapped in while it acts
    (two TestClients of one app would run it on two event loops)."""

    def __init__(self, client: TestClient) -> None:
        self.client, self.cookies = client, httpx.Cookies()

    def __enter__(self) -> TestClient:
        self.saved = httpx.Cookies(self.client.cookies)
        self.client.cookies = self.cookies
        return self.client

    def __exit__(self, *exc: object) -> None:
        self.cookies = httpx.Cookies(self.client.cookies)
        self.client.cookies = self.saved


def claim(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/account/claim", json={"name": name, "password": password})
