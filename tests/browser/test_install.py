"""The installable app in Chromium (issue 21): the manifest every page links and its icons, the
service worker that keeps the release's static files, and the offline page it shows, in the
player's language, when a navigation finds no network."""

from __future__ import annotations

from collections.abc import Callable
from email.utils import parsedate_to_datetime
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from setgame.words import catalog

pytestmark = pytest.mark.browser

PAGES = ("/", "/rules", "/puzzle", "/leaderboard", "/account", "/player/Nobody", "/offline")


def worker_ready(page: Page) -> str:
    """The active service worker's script URL, once it controls the page (``clients.claim``)."""
    page.wait_for_function("() => !!navigator.serviceWorker?.controller")
    url: str = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")
    return url


def cached(page: Page) -> dict[str, list[str]]:
    """Each of the site's caches and the paths it holds."""
    found: dict[str, list[str]] = page.evaluate(
        """async () => {
          const out = {};
          for (const name of await caches.keys()) {
            const keys = await (await caches.open(name)).keys();
            out[name] = keys.map((r) => new URL(r.url).pathname + new URL(r.url).search);
          }
          return out;
        }"""
    )
    return found


def test_every_page_links_the_manifest_and_its_icons_load(
    live_server: str, new_page: Callable[..., Any]
) -> None:
    page: Page = new_page()
    for path in PAGES:
        page.goto(f"{live_server}{path}")
        assert page.get_attribute("link[rel=manifest]", "href") == "/manifest.webmanifest", path
        assert page.locator('meta[name="theme-color"]').count() == 2, path
    manifest = page.request.get(f"{live_server}/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        size = page.evaluate(
            """(src) => new Promise((done, fail) => { const img = new Image();
                 img.onload = () => done([img.naturalWidth, img.naturalHeight]);
                 img.onerror = () => fail(new Error(src)); img.src = src; })""",
            icon["src"],
        )
        if icon["sizes"] != "any":
            assert icon["sizes"] == f"{size[0]}x{size[1]}", icon
        else:
            assert size[0] > 0, icon


def test_the_worker_keeps_the_static_files_and_serves_them_to_its_release(
    live_server: str, new_page: Callable[..., Any]
) -> None:
    page: Page = new_page()
    page.goto(f"{live_server}/")
    assert worker_ready(page) == f"{live_server}/sw.js"
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == f"{live_server}/"
    release = page.request.get(f"{live_server}/").headers["x-setgame-release"]
    caches = cached(page)
    assert list(caches) == [f"setgame-static-{release}"], caches
    held = set(caches[f"setgame-static-{release}"])
    assert {"/static/js/room.js", "/static/css/app.css", "/offline", "/i18n/ru.json"} <= held
    assert not [path for path in held if path.startswith(("/api/", "/room/", "/ws/"))], held
    page.wait_for_timeout(1100)  # the cached copies' Date is now a second older than the server's
    served: dict[str, Any] = {}
    page.on("response", lambda r: served.__setitem__(r.url.removeprefix(live_server), r))
    page.goto(f"{live_server}/rules")
    expect(page.locator("main.rules")).to_be_visible()
    fresh = parsedate_to_datetime(served["/rules"].headers["date"])  # pages: from the server
    for path in ("/static/css/app.css", "/static/js/rules.js", "/static/js/common.js"):
        assert served[path].from_service_worker, path
        assert parsedate_to_datetime(served[path].headers["date"]) < fresh, path  # the cache's
    words = next(u for u in served if u.startswith("/api/words/"))
    assert parsedate_to_datetime(served[words].headers["date"]) >= fresh  # never the cache's
    assert "/rules" not in cached(page)[f"setgame-static-{release}"]


@pytest.mark.parametrize("lang", ["ru", "de"])
def test_offline_navigation_shows_the_offline_page_in_the_players_language(
    live_server: str, new_page: Callable[..., Any], lang: str
) -> None:
    page: Page = new_page()
    page.goto(f"{live_server}/?lang={lang}")
    worker_ready(page)
    page.context.set_offline(True)
    try:
        page.goto(f"{live_server}/rules")
        expected = catalog.gettext(lang, "offline.heading")
        expect(page.locator("main.offline h1")).to_have_text(expected)
        assert page.url == f"{live_server}/rules"  # the address asked for, kept for the retry
        assert page.get_attribute("html", "lang") == lang
        expect(page.locator("[data-offline-retry]")).to_have_text(
            catalog.gettext(lang, "offline.retry")
        )
    finally:
        page.context.set_offline(False)
    # Back online: the page asked for, at the `online` event or the next probe of the server.
    expect(page.locator("main.rules")).to_be_visible(timeout=15_000)


def test_a_server_out_of_reach_shows_the_offline_page_until_it_is_back(
    fresh_server: Any, new_page: Callable[..., Any]
) -> None:
    """The device online, the server down (a restart): no `online` event will come, so the
    offline page asks the server itself and goes back to the page asked for once it answers."""
    page: Page = new_page()
    page.goto(f"{fresh_server}/")
    worker_ready(page)
    fresh_server.stop()
    page.goto(f"{fresh_server}/leaderboard")
    expect(page.locator("main.offline")).to_be_visible()
    fresh_server.start()
    expect(page.locator("main.leaderboard")).to_be_visible(timeout=15_000)
    assert page.url == f"{fresh_server}/leaderboard"
