"""The parts every HTML page shares (``pages/_head.html``, ``pages/_header.html``) are written once
and filled in by the server: each page has them whole, no placeholder is left, and the header's
link to the page being shown says so (``aria-current="page"``)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

import setgame

PAGES = Path(setgame.__file__).parent / "web" / "pages"
HEAD = (PAGES / "_head.html").read_text(encoding="utf-8").strip()
HEADER = (PAGES / "_header.html").read_text(encoding="utf-8")
PATHS = [
    "/", "/rules", "/puzzle", "/account", "/leaderboard", "/player/Nobody", "/replay/none",
    "/arena", "/arena/nope",
]  # fmt: skip


def fetch(live_server: str, path: str) -> str:
    response = httpx.get(f"{live_server}{path}", timeout=10)
    assert response.status_code == 200, path
    return response.text


@pytest.mark.parametrize("path", PATHS)
def test_every_page_has_the_shared_head_and_header_filled_in(live_server: str, path: str) -> None:
    text = fetch(live_server, path)
    assert "{{" not in text and "}}" not in text
    assert HEAD in text
    header = re.search(r'<header class="top">.*?</header>', text, re.S)
    assert header is not None
    assert header.group(0).replace(' aria-current="page"', "") == HEADER.strip()
    assert text.count('<header class="top">') == 1


@pytest.mark.parametrize("path", ["/rules", "/puzzle", "/account", "/arena"])
def test_the_header_marks_the_page_being_shown(live_server: str, path: str) -> None:
    text = fetch(live_server, path)
    assert f'<a href="{path}" aria-current="page"' in text
    assert text.count('aria-current="page"') == 1


def test_no_other_page_claims_to_be_current(live_server: str) -> None:
    assert 'aria-current="page"' not in fetch(live_server, "/")


def test_every_page_file_uses_the_shared_parts() -> None:
    """A page that copies the header again instead of ``{{header}}`` fails here."""
    for page in PAGES.glob("[a-z]*.html"):
        text = page.read_text(encoding="utf-8")
        assert text.count("{{head}}") == 1 and text.count("{{header}}") == 1, page.name
        assert '<header class="top">' not in text and "app.css" not in text, page.name
