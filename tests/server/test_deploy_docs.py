"""docs/deploy.md documents every limit with its variable, default and bounds."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from setgame.server.limits import ENV_PREFIX, Limits

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
ROW = re.compile(r"^\| `(SETGAME_[A-Z_]+)` \| ([^|]+) \| ([^|]+) \|", re.MULTILINE)


def _number(text: str) -> float:
    return float(text.strip().replace(",", ""))


def test_every_limit_is_documented_with_its_default_and_bounds() -> None:
    text = DEPLOY.read_text()
    rows = {name: (default, bounds) for name, default, bounds in ROW.findall(text)}
    for f in fields(Limits):
        name = ENV_PREFIX + f.name.upper()
        assert f"`{name}`" in text, f"{name} is missing from docs/deploy.md"
        if name not in rows or isinstance(f.default, bool):
            continue  # documented in prose: checked above
        default, bounds = rows[name]
        assert _number(default) == f.default, name
        low, _, high = bounds.partition("-")
        assert (_number(low), _number(high)) == (f.metadata["min"], f.metadata["max"]), name


def test_every_arena_setting_is_documented_with_its_default_and_bounds() -> None:
    from setgame.server.arena_settings import ArenaLimits, env_name

    text = DEPLOY.read_text()
    rows = {name: (default, bounds) for name, default, bounds in ROW.findall(text)}
    for f in fields(ArenaLimits):
        name = env_name(f.name)
        assert f"`{name}`" in text, f"{name} is missing from docs/deploy.md"
        if name not in rows:
            continue  # the schedule file: documented in prose
        default, bounds = rows[name]
        assert _number(default) == f.default, name
        low, _, high = bounds.partition("-")
        assert (_number(low), _number(high)) == (f.metadata["min"], f.metadata["max"]), name
