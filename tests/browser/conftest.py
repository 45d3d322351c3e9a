"""Fixtures for the browser tests: headless Chromium and a page per player.

The game server is ``live_server`` / ``fresh_server`` from ``tests/conftest.py``
(a real ``python -m setgame.server`` process). Chromium is Debian's
``/usr/bin/chromium`` driven by Playwright's sync API; each player gets a
browser context of their own (own cookies, own localStorage).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from browser import browserkit as kit

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.access(CHROMIUM, os.X_OK) and shutil.which("chromium") is None:
        if os.environ.get("CI"):  # scripts/test.sh installs it: in CI its absence fails
            pytest.fail(f"no Chromium at {CHROMIUM}: scripts/test.sh should have installed it")
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """``new_page(**context_options)``: a page in a fresh browser context (a separate
    player: own cookies and localStorage). Page errors fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(**options: Any) -> Any:
        options.setdefault("viewport", {"width": 1100, "height": 800})
        context = browser.new_context(**options)
        context.set_default_timeout(kit.TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"errors in the page: {errors}"
