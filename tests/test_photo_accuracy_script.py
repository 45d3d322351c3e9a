"""scripts/photo_accuracy.py refuses what it cannot measure with a clear line and exit 2:
a part or kind it does not know, and the real photos asked for where there are none (they
were left out in silence before: a copy of the script run outside the repository measured
the made-up photos alone)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "photo_accuracy.py"


def _run(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "SETGAME_PHOTOS"}
    return subprocess.run([sys.executable, str(script), *args], capture_output=True,
                          text=True, timeout=120, env=env)  # fmt: skip


@pytest.mark.parametrize(
    ("args", "said"),
    [(["--only", "bords"], "invalid choice: 'bords'"),
     (["--kinds", "clean"], "invalid choice: 'clean'"),
     (["--harder-kinds", "fog"], "invalid choice: 'fog'"),
     (["--seeds", "0"], "--seeds: want 1-1000 photos per kind, got 0"),
     (["--first", "1000", "-5"], "--first: want at most 20 seeds of 0-1000000, got [1000, -5]"),
     (["--first", "x"], "argument --first: invalid int value: 'x'")],
)  # fmt: skip
def test_an_unknown_part_or_kind_is_refused_naming_it(args: list[str], said: str) -> None:
    done = _run(SCRIPT, *args)
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_real_photos_asked_for_where_there_are_none_are_refused(tmp_path: Path) -> None:
    copy = tmp_path / "elsewhere" / "repo" / "scripts" / SCRIPT.name
    copy.parent.mkdir(parents=True)
    shutil.copy(SCRIPT, copy)
    done = _run(copy, "--only", "boards")
    assert done.returncode == 2, done.stderr
    assert "no labelled photos at" in done.stderr and "SETGAME_PHOTOS" in done.stderr
    assert "Traceback" not in done.stderr
