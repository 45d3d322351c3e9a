"""The README stays a short page for users, and every page it (or a docs page) points at exists.

The README's code examples are run by pytest itself (`--doctest-glob=README.md` in
pyproject.toml); these tests keep its length and its links honest.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
MAX_LINES = 300

# A Markdown link's target: [text](target).
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
# A docs page named in code or prose: docs/name.md (a link or not).
DOCS_NAME = re.compile(r"(?<![\w/.-])docs/[\w./-]+\.md\b")


def _local_targets(text: str) -> list[str]:
    """The link targets of a Markdown text that are paths in this repository (not URLs, not
    anchors of the same page), without their #fragment."""
    targets = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue
        targets.append(target.split("#", 1)[0])
    return targets


def test_readme_is_at_most_300_lines() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_LINES, (
        f"README.md has {len(lines)} lines, at most {MAX_LINES}: move the details to docs/"
    )


def test_readme_links_only_docs_that_exist() -> None:
    text = README.read_text(encoding="utf-8")
    named = set(_local_targets(text)) | set(DOCS_NAME.findall(text))
    assert any(name.startswith("docs/") for name in named)  # the scan itself works
    missing = sorted(name for name in named if not (ROOT / name).exists())
    assert not missing, f"README.md points at files that do not exist: {missing}"


def test_readme_keeps_the_ci_test_command() -> None:
    """CI runs `bash scripts/test.sh`; the README tells users the same command."""
    text = README.read_text(encoding="utf-8")
    assert "```sh\nbash scripts/test.sh\n```" in text
    assert (ROOT / "scripts" / "test.sh").is_file()


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda page: page.name)
def test_docs_pages_link_only_files_that_exist(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    missing = sorted(
        target for target in _local_targets(text) if not (page.parent / target).exists()
    )
    assert not missing, f"{page.name} links files that do not exist: {missing}"


def test_a_missing_docs_page_is_caught() -> None:
    """The scan finds a docs page named either way, so a broken link cannot slip through."""
    text = (
        "See [the rules](docs/rules.md#cards), <https://example.org/docs/x.md> and `docs/gone.md`."
    )
    assert _local_targets(text) == ["docs/rules.md"]
    assert DOCS_NAME.findall(text) == ["docs/rules.md", "docs/gone.md"]
    assert not (ROOT / "docs" / "gone.md").exists()
