"""A Babel extractor for the web pages' message keys (``babel.cfg`` names it).

A page marks its words with ``data-i18n="key"`` (the text), ``data-i18n-title``,
``data-i18n-label`` and ``data-i18n-placeholder``; each such key is a message of
the catalog. Used only when extracting, never at run time.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any

ATTRIBUTES = ("data-i18n", "data-i18n-title", "data-i18n-label", "data-i18n-placeholder")


class _Keys(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[int, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ATTRIBUTES and value:
                self.found.append((self.getpos()[0], value))


def extract_html(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extractor protocol: (line, function, message, comments) per key."""
    parser = _Keys()
    parser.feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    parser.close()
    for line, key in parser.found:
        yield line, None, key, []
