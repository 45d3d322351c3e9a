"""The core benchmark runs and prints its ratios (timing bounds are loose on purpose:
a busy CI machine must not make this fail; the targets are read off its output)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from runkit import run_group

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks" / "bench_core.py"


def _run(script: Path, *options: str, timeout: float) -> str:
    """The script's output; it must exit 0 (else the end of its stderr is the failure)."""
    done = run_group([sys.executable, str(script), *options], timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_bench_core_quick_prints_the_ratios() -> None:
    out = _run(BENCH, "--quick", timeout=300)
    ratios = dict(re.findall(r"^ratio (\w+): ([\d.]+)x", out, re.MULTILINE))
    expected = {"find_sets", "find_sets_vs_pair_loop", "batch_vs_find_sets", "has_set"}
    expected |= {"count_sets", "solve_json", "startup_help", "startup_solve", "simulate"}
    assert expected <= set(ratios), out
    assert float(ratios["find_sets"]) > 2  # the target is 25x; this only catches a collapse
    assert float(ratios["simulate"]) > 2  # the target is 10x
    assert float(ratios["solve_json"]) > 1  # the target is 3x
    assert float(ratios["startup_help"]) > 0.2  # the target is 0.5 (within 2x of import)
    assert re.search(r"^load average .* \(before\)", out, re.MULTILINE)
    assert re.search(r"median|tries", out)
    growth = re.findall(r"N =\s+(\d+):\s+([\d.]+) s", out)
    assert len(growth) >= 3


ABUSE = BENCH.parent / "abuse.py"


def test_abuse_quick_runs_every_attack_and_reports_its_figures() -> None:
    """Every attack of issues 7 and 20 runs against a live server while honest rooms play; each
    reports its p99 ratio, honest errors and RSS. Only what cannot depend on a busy machine
    is asserted: the figures exist, no attack broke, no honest player was refused or cut off,
    and the server's memory came back after the big bodies."""
    results = json.loads(_run(ABUSE, "--quick", "--json", timeout=400))
    attacks = {
        "griefing", "crowding", "big_bodies", "ghosts", "presence", "room_flood", "room_list",
        "deep_json", "slow_silent", "chat_flood", "signin_flood",
    }
    assert set(results) == {"baseline"} | attacks
    assert results["baseline"]["picks"] > 0
    for name in attacks:
        run = results[name]
        assert "attack_failed" not in run["detail"], (name, run)
        assert run["ratio"] is not None and run["honest_errors"] == 0, (name, run)
        assert run["rss_before_mb"] > 0 and run["rss_after_mb"] > 0
    assert results["crowding"]["detail"]["seated_player_kept_out"] == 0
    assert results["big_bodies"]["rss_after_mb"] < 1.2 * results["baseline"]["rss_mb"] + 20
    assert results["deep_json"]["detail"]["recursion_error_logged"] is False
    flood = results["chat_flood"]["detail"]  # one address's burst and rate, not 30 sockets'
    assert flood["sockets"] == 30 and flood["honest_said"] > 0 and flood["honest_refused"] == 0
    assert flood["spam_lines_heard"] <= 40 < flood["spam_sent"], flood
    signins = results["signin_flood"]["detail"]  # the owner signed in (how fast: machine-bound)
    assert signins["honest_signins"] >= 1 and signins["honest_failures"] == []
    assert signins["guesses"].get("503", 0) + signins["guesses"].get("429", 0) > 0  # bounded


ARENA = BENCH.parent / "arena.py"


def test_arena_quick_reports_pairing_and_broadcast_costs() -> None:
    """Issue 23's benchmark: an arena's pairing round, a game's scoring and the standings
    broadcast, measured on the server's own objects (the figures: docs/benchmarks.md)."""
    result = json.loads(_run(ARENA, "--quick", "--json", timeout=300))
    assert result["players"] == 100
    for key in ("pair_ms", "round_ms", "score_ms", "rank_ms", "broadcast_ms"):
        assert result[key]["median"] > 0, key
    assert result["broadcast_bytes_per_connection"] > 1000  # the first 100 rows and one's own


def test_the_diagnostic_postgresql_settings_are_name_value_pairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``SETGAME_BENCH_PG_SETTINGS`` (a diagnosis: the throwaway PostgreSQL's settings) gives
    ``-c`` options; anything not ``name=value`` stops the benchmark, quoted."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import services
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    monkeypatch.setenv(services.PG_SETTINGS, "fsync=off  synchronous_commit=off")
    assert services.settings() == ["fsync=off", "synchronous_commit=off"]
    monkeypatch.delenv(services.PG_SETTINGS)
    assert services.settings() == []
    monkeypatch.setenv(services.PG_SETTINGS, "fsync=off; DROP")
    with pytest.raises(SystemExit, match=r"not name=value: 'fsync=off;'"):
        services.settings()
    monkeypatch.setenv(services.PG_SETTINGS, "work_mem=" + "9" * 101)
    with pytest.raises(SystemExit, match="not name=value"):
        services.settings()
    monkeypatch.setenv(services.PG_SETTINGS, " ".join(["fsync=off"] * 21))
    with pytest.raises(SystemExit, match="21 settings, at most 20"):
        services.settings()
