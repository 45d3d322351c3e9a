"""The load benchmark in --quick mode: a few rooms for a few seconds, whole games, no errors."""

from __future__ import annotations

import importlib.util
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from runkit import run_group

LOAD = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"


@pytest.mark.slow
def test_load_benchmark_quick_mode_reports_and_has_no_errors() -> None:
    done = run_group(  # 17 s alone; once over 120 s beside the browser tests on 2 cores
        [sys.executable, str(LOAD), "--quick", "--json"], timeout=300
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
    assert report["tables_solved_in_batches"] >= report["table_batches"] > 0  # find_sets_batch
    assert report["server_rss_mb"] > 0 and report["server_cpu_percent"] is not None
    for side in (report, report["bare"]):  # CPU over the play alone, per action
        assert side["server_cpu_percent_playing"] > 0 and side["server_cpu_ms_per_action"] > 0
        assert side["load_cpu_percent_playing"] > 0
    bare = report["bare"]  # the baseline: the bare uvicorn broadcast stack, same players and rate
    assert bare["connected"] == 12 and bare["error_count"] == 0
    assert bare["actions"] > 0 and bare["pick_to_all_latency"]["count"] > 0
    assert bare["server_rss_mb"] > 0
    assert report["p99_ratio_to_bare"] > 0 and report["p50_ratio_to_bare"] > 0


def test_load_benchmark_docstring_types_no_figures() -> None:
    """Figures come from runs: the module's docstring must not carry measured numbers."""
    text = LOAD.read_text().split('"""')[1]
    assert not re.search(r"\d+(\.\d+)? ?(ms|actions/s)\b", text), text


def test_load_benchmark_refuses_a_server_source_without_setgame(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(LOAD), "--quick", "--server-src", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert f"--server-src must be a src folder holding setgame/, got {str(tmp_path)!r}" in (
        done.stderr
    )


@pytest.mark.timeout(20)
def test_a_load_player_makes_a_right_pick_when_the_table_is_one_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A player of the load benchmark now and then picks three cards that are not a set. A
    table's last three cards can be a set, with no wrong three to pick: that used to loop
    forever, hanging the benchmark (and a test run) until it was killed."""
    monkeypatch.syspath_prepend(str(LOAD.parent))  # its sibling modules, as run as a script
    spec = importlib.util.spec_from_file_location("load_benchmark", LOAD)
    assert spec is not None and spec.loader is not None
    load = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "load_benchmark", load)  # for its dataclasses
    spec.loader.exec_module(load)
    rng = random.Random(7)
    last = ["1RSD", "2GSD", "3PSD"]
    assert load._not_a_set(last, [tuple(last)], rng) is None
    assert load._not_a_set(last[:2], [], rng) is None
    four = [*last, "1GSD"]
    for _ in range(50):  # of four cards, the three that are no set are always found
        picked = load._not_a_set(four, [tuple(last)], rng)
        assert picked is not None and set(picked) != set(last) and set(picked) <= set(four)
