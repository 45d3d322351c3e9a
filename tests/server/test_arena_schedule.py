"""The host's schedule of recurring arenas (``SETGAME_ARENAS_FILE``, ``docs/deploy.md``):
read and checked at start (a bad file stops the server with one line), each entry's next arena
made once within its announcement and never twice, listed as coming."""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from setgame.server.arena_registry import Arenas
from setgame.server.arena_settings import ArenaLimits, schedule
from setgame.server.limits import LimitError

from .roomkit import registry

GOOD = """
[[arena]]
name = "hourly-classic"
every_minutes = 60
minutes = 30

[[arena]]
name = "daily-ultraset"
every_minutes = 1440
offset_minutes = 1200
announce_minutes = 120
minutes = 60
variant = "UltraSet"
room_size = 3
"""


def _at(text: str) -> float:
    return datetime.datetime.fromisoformat(text).replace(tzinfo=datetime.UTC).timestamp()


def test_next_starts(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(GOOD)
    hourly, daily = schedule(str(tmp_path / "a.toml"))
    assert hourly.next_start(_at("2026-01-01T10:20:00")) == _at("2026-01-01T11:00:00")
    assert hourly.next_start(_at("2026-01-01T11:00:00")) == _at("2026-01-01T11:00:00")
    assert daily.next_start(_at("2026-01-01T21:00:00")) == _at("2026-01-02T20:00:00")
    assert daily.settings().variant == "ultraset" and daily.settings().rated


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("[[arena]]\nname = 'x'\nevery_minutes = 5\n", "every_minutes"),
        ("[[arena]]\nname = 'Bad Name'\nevery_minutes = 60\n", "name"),
        ("[[arena]]\nname = 'x'\nevery_minutes = 60\nvariant = 'chess'\n", "chess"),
        ("[[arena]]\nname = 'x'\nevery_minutes = 60\ncolour = 1\n", "colour"),
        ("[[arena]]\nname = 'x'\nevery_minutes = 60\n[[arena]]\nname = 'x'\nevery_minutes = 60\n",
         "share a name"),
        ("[[arena\n", "a.toml"),
        ("[[arena]]\nname = 'x'\nevery_minutes = 60\n" * 21, "a.toml"),
    ],
)
def test_a_bad_schedule_is_refused_quoting_it(tmp_path: Path, text: str, quoted: str) -> None:
    (tmp_path / "a.toml").write_text(text)
    with pytest.raises(LimitError, match=quoted):
        schedule(str(tmp_path / "a.toml"))


def test_the_server_does_not_start_with_a_bad_schedule(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text("[[arena]]\nname = 'x'\nevery_minutes = 1\n")
    env = {**os.environ, "SETGAME_ARENAS_FILE": str(tmp_path / "a.toml")}
    done = subprocess.run(
        [sys.executable, "-m", "setgame.server", "--db", str(tmp_path / "s.db"), "--create-db"],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 2
    assert "every_minutes" in done.stderr and "Traceback" not in done.stderr


async def test_each_entry_makes_its_next_arena_once(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(GOOD)
    async with registry(tmp_path / "s.db") as rooms:
        arenas = Arenas(rooms, ArenaLimits(file=str(tmp_path / "a.toml")))
        day = (time.time() // 86400 + 2) * 86400  # a day to come: nothing starts meanwhile
        now = day + 17.5 * 3600  # 17:30: the hourly one is due, the daily one not yet
        try:
            made = await arenas.keep_schedule(now)
            assert [a.record.schedule for a in made] == ["hourly-classic"]
            assert made[0].record.starts_at == day + 18 * 3600
            assert await arenas.keep_schedule(now + 60) == []  # never twice
            later = await arenas.keep_schedule(day + 18.5 * 3600)
            assert {a.record.schedule for a in later} == {"daily-ultraset", "hourly-classic"}
            listed = arenas.listed()["arenas"]
            assert [(a["schedule"], a["status"]) for a in listed] == [
                ("hourly-classic", "waiting"), ("hourly-classic", "waiting"),
                ("daily-ultraset", "waiting"),
            ]  # by start
            assert all(not a["private"] for a in listed)
        finally:
            await arenas.close()


async def test_a_schedule_entry_not_made_now_is_tried_again_later(tmp_path: Path) -> None:
    """A refused arena (this process full; on a cluster, another process making it now, its
    lease taken) does not stop the schedule: the next look makes it."""
    (tmp_path / "a.toml").write_text(GOOD)
    async with registry(tmp_path / "s.db") as rooms:
        arenas = Arenas(rooms, ArenaLimits(file=str(tmp_path / "a.toml"), cap=1))
        day = (time.time() // 86400 + 2) * 86400
        try:
            made = await arenas.keep_schedule(day + 17.5 * 3600)
            assert [a.record.schedule for a in made] == ["hourly-classic"]
            assert await arenas.keep_schedule(day + 18.5 * 3600) == []  # full: refused, no raise
            await made[0].close()  # room again (as when the first arena has left memory)
            del arenas.arenas[made[0].id]
            later = await arenas.keep_schedule(day + 18.5 * 3600)
            assert [a.record.schedule for a in later] == ["hourly-classic"]  # then full again
        finally:
            await arenas.close()
