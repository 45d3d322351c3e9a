"""Issue 20's leftover: after a final close code (docs/protocol.md, "Close codes") the room page
says why and stops; it does not connect again and again.

The 4001 (``bad_origin``) is met as hosts meet it: behind a reverse proxy that sends the
upstream's own address as ``Host`` (nginx's default, ``proxy_set_header Host $proxy_host``),
so the browser's ``Origin`` (the proxy's address) names another site than the ``Host`` the
server sees. The proxy here is a real one on loopback: it rewrites the ``Host`` line of the
first request of each connection and passes every byte after it both ways.
"""

from __future__ import annotations

import asyncio
import re
import threading
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import Page, expect

from browser.browserkit import create_room, ensure_set, join, start, take, wait_score
from browser.test_a11y import violations

pytestmark = pytest.mark.browser


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


@pytest.fixture
def proxy(live_server: str) -> Iterator[str]:
    """``http://127.0.0.1:<port>`` of a proxy to ``live_server`` that sends the server's own
    address as ``Host``; its own event loop in its own thread (the test's is Playwright's)."""
    upstream = urlsplit(live_server)
    host, port = upstream.hostname or "127.0.0.1", upstream.port or 80
    loop = asyncio.new_event_loop()
    writers: set[asyncio.StreamWriter] = set()

    async def handle(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        writers.add(client_w)
        try:
            head = await client_r.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            client_w.close()
            return
        head = re.sub(rb"(?im)^host:[^\r\n]*", f"Host: {upstream.netloc}".encode(), head, count=1)
        server_r, server_w = await asyncio.open_connection(host, port)
        writers.add(server_w)
        server_w.write(head)
        await asyncio.gather(_pipe(client_r, server_w), _pipe(server_r, client_w))

    async def begin() -> asyncio.Server:
        return await asyncio.start_server(handle, "127.0.0.1", 0)

    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    server = asyncio.run_coroutine_threadsafe(begin(), loop).result(10)
    address = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"

    async def shut() -> None:
        server.close()
        for writer in writers:
            writer.close()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await server.wait_closed()

    try:
        yield address
    finally:
        asyncio.run_coroutine_threadsafe(shut(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


def sockets_opened(page: Page) -> list[Any]:
    opened: list[Any] = []
    page.on("websocket", lambda ws: opened.append(ws))
    return opened


def test_a_4001_says_why_and_the_page_stops_connecting(
    live_server: str, proxy: str, new_page: Any
) -> None:
    room = create_room(live_server, public=False).rsplit("/", 1)[1]
    page = new_page()
    opened = sockets_opened(page)
    page.goto(f"{proxy}/room/{room}")
    expect(page.locator("#conn")).to_have_attribute("data-conn", "bad_origin")
    expect(page.locator("#conn")).to_contain_text("Open the game at its own address")
    expect(page.locator("#banner")).to_contain_text("Open the game at its own address")
    page.wait_for_timeout(3000)  # the backoff would have knocked 3 or 4 times by now
    assert len(opened) == 1
    assert page.locator("#conn").get_attribute("data-conn") == "bad_origin"


def test_two_tabs_of_one_seat_do_not_take_it_from_each_other_in_a_loop(
    server_factory: Any, new_page: Any
) -> None:
    """One socket per seat (``SETGAME_SEAT_SOCKETS=1``), two tabs of one browser (one seat
    token): the second tab takes the seat; the first is closed with 4009, says why in the
    page's language and stops; it knocks again only when "Play here" is tapped, which hands
    the seat back (and stops the second tab the same way). Before 4009 the first tab's 1008
    was retried, closing the second, whose retry closed the first, and so on."""
    server = server_factory(env={"SETGAME_SEAT_SOCKETS": "1"})
    url = create_room(server, public=False)
    first = new_page(locale="de-DE", extra_http_headers={"Accept-Language": "de"}, bypass_csp=True)
    opened = sockets_opened(first)
    join(first, url, "Ada")
    second = first.context.new_page()  # same browser: the same seat token
    second.goto(url)
    expect(second.locator("[data-player=Ada] .badge.you")).to_have_count(1)
    expect(first.locator("#conn")).to_have_attribute("data-conn", "elsewhere")
    words = "Dein Platz wird jetzt in einem anderen Tab oder Fenster gespielt"
    expect(first.locator("#banner")).to_contain_text(words)
    here = first.locator("[data-action=play-here]")
    expect(here).to_have_text("Hier spielen")
    expect(here).to_be_focused()
    expect(first.locator("[data-action=start]")).to_be_hidden()
    assert violations(first) == [], "the stopped page (axe)"
    first.wait_for_timeout(3000)  # a retry would have knocked (and closed the other tab) by now
    assert len(opened) == 1
    expect(second.locator("#conn")).to_have_attribute("data-conn", "open")
    expect(second.locator("[data-action=start]")).to_be_visible()

    here.click()  # the seat comes back here; the other tab stops in turn
    expect(first.locator("#conn")).to_have_attribute("data-conn", "open")
    expect(second.locator("#conn")).to_have_attribute("data-conn", "elsewhere")
    expect(first.locator("[data-action=play-here]")).to_be_hidden()
    expect(first.locator("#banner")).not_to_contain_text(words)
    first.click("[data-action=start]")  # and it plays
    expect(first.locator("main")).to_have_attribute("data-phase", "playing")
    second.wait_for_timeout(2000)
    assert len(opened) == 2
    expect(second.locator("#conn")).to_have_attribute("data-conn", "elsewhere")


def test_a_second_browser_of_one_account_takes_its_seat_back(
    server_factory: Any, new_page: Any
) -> None:
    """One seat per account (docs/protocol.md): Ann signed in on a laptop and on a phone
    (two browsers, two seat tokens) joins the room on both; the phone takes her one seat back
    (one Ann at the table, her score kept), and the laptop, past ``SETGAME_SEAT_SOCKETS=1``,
    stops with 4009 and says where the seat went, as a second tab makes it. "Play here" then
    watches (the laptop's token seats nobody now), and joining takes the seat back again."""
    server = server_factory(env={"SETGAME_SEAT_SOCKETS": "1"})
    name = "Ann" + uuid.uuid4().hex[:4]
    claimed = httpx.post(
        f"{server}/api/account/claim", json={"name": name, "password": "correct horse"},
        trust_env=False,
    )
    assert claimed.status_code == 201, claimed.text
    url = create_room(server, public=False, no_set="auto")
    laptop, phone = new_page(), new_page()
    for page in (laptop, phone):
        page.goto(server)
        answer = page.request.post(
            f"{server}/api/account/signin", data={"name": name, "password": "correct horse"}
        )
        assert answer.status == 200, answer.text()
    join(laptop, url, name)
    start(laptop)
    take(laptop, name, ensure_set([laptop]))
    wait_score(laptop, name, 1)
    join(phone, url, name)
    expect(phone.locator(f'[data-player="{name}"] .badge.you')).to_have_count(1)
    expect(phone.locator("[data-player]")).to_have_count(1)
    wait_score(phone, name, 1)
    expect(laptop.locator("#conn")).to_have_attribute("data-conn", "elsewhere")
    laptop.click("[data-action=play-here]")  # its token seats nobody now: it watches...
    expect(laptop.locator("#conn")).to_have_attribute("data-conn", "open")
    expect(laptop.locator("[data-action=join]")).to_be_visible()
    laptop.click("[data-action=join]")  # ...until it joins: the seat comes back, as it was
    expect(laptop.locator(f'[data-player="{name}"] .badge.you')).to_have_count(1)
    wait_score(laptop, name, 1)
    expect(phone.locator("#conn")).to_have_attribute("data-conn", "elsewhere")


def test_the_daily_puzzle_in_a_second_tab_stops_the_first_with_words(
    server_factory: Any, new_page: Any
) -> None:
    server = server_factory(env={"SETGAME_SEAT_SOCKETS": "1"})
    first = new_page(locale="ru-RU", extra_http_headers={"Accept-Language": "ru"})
    first.goto(f"{server}/puzzle")
    expect(first.locator("main")).to_have_attribute("data-phase", "playing")
    second = first.context.new_page()
    second.goto(f"{server}/puzzle")
    expect(second.locator("main")).to_have_attribute("data-phase", "playing")
    expect(first.locator("main")).to_have_attribute("data-phase", "refused")
    expect(first.locator("#puzzle-error")).to_contain_text("открыта в другой вкладке или окне")
    second.wait_for_timeout(2000)
    expect(second.locator("main")).to_have_attribute("data-phase", "playing")
