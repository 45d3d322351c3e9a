"""The load benchmark in --quick mode: a few rooms for a few seconds, whole games, no errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

LOAD = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"


@pytest.mark.slow
def test_load_benchmark_quick_mode_reports_and_has_no_errors() -> None:
    done = subprocess.run(
        [sys.executable, str(LOAD), "--quick", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["connected"] == report["players_requested"] == 12
    assert report["rooms"] == 3 and report["room_size"] == 4
    assert report["error_count"] == 0 and report["errors"] == {}
    assert report["unfinished_picks"] == 0
    assert report["actions"] > 0 and report["actions_per_second"] > 0
    assert report["matches_finished"] >= 1  # whole games: played to the end, then again
    for key in ("pick_to_all_latency", "baseline_ping_during_load", "ping_before_load"):
        figures = report[key]
        assert figures["count"] > 0, key
        assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"], key
    assert report["pick_to_all_latency"]["count"] <= report["valid_picks"]
    assert report["p50_ratio_to_baseline_ping"] > 0 and report["p50_ratio_to_ping_before_load"] > 0
