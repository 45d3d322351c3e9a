"""benchmarks/room_path.py: the server's own work per action, measured in-process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from runkit import run_group

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "room_path.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_group([sys.executable, str(BENCH), *args], timeout=120)


def test_room_path_measures_cpu_per_accepted_action() -> None:
    done = run("--rooms", "3", "--actions", "150", "--rounds", "2", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["rooms"] == 3 and report["rounds"] == 2 and report["together"] == 2
    assert 0 < report["lowest"] <= report["cpu_us_per_action"] <= report["highest"]
    assert report["setgame"].endswith("setgame")


def test_room_path_refuses_bad_counts() -> None:
    done = run("--rooms", "0")
    assert done.returncode == 2 and "--rooms must be 1-1000000, got 0" in done.stderr
