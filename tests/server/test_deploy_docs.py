"""docs/deploy.md documents every limit with its variable, default and bounds."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import pytest

from setgame.server.arena_settings import ArenaLimits
from setgame.server.arena_settings import env_name as arena_env_name
from setgame.server.limits import ENV_PREFIX, Limits

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
ROW = re.compile(r"^\| `(SETGAME_[A-Z_]+)` \| ([^|]+) \| ([^|]+) \|", re.MULTILINE)


def _number(text: str) -> float:
    return float(text.strip().replace(",", ""))


def _limit_name(name: str) -> str:
    return ENV_PREFIX + name.upper()


@pytest.mark.parametrize(
    ("settings", "env_name"),
    [(Limits, _limit_name), (ArenaLimits, arena_env_name)],
    ids=["limits", "arena"],
)
def test_every_setting_is_documented_with_its_default_and_bounds(
    settings: type[Limits] | type[ArenaLimits], env_name: Callable[[str], str]
) -> None:
    text = DEPLOY.read_text()
    rows = {name: (default, bounds) for name, default, bounds in ROW.findall(text)}
    for f in fields(settings):
        name = env_name(f.name)
        assert f"`{name}`" in text, f"{name} is missing from docs/deploy.md"
        if name not in rows or isinstance(f.default, bool):
            continue  # documented in prose (a switch, the arenas' schedule file): checked above
        default, bounds = rows[name]
        assert _number(default) == f.default, name
        low, _, high = bounds.partition("-")
        assert (_number(low), _number(high)) == (f.metadata["min"], f.metadata["max"]), name
