"""The core benchmark runs and prints its ratios (timing bounds are loose on purpose:
a busy CI machine must not make this fail; the targets are read off its output)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_core.py"


def test_bench_core_quick_prints_the_ratios() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--quick"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    ratios = dict(re.findall(r"^ratio (\w+): ([\d.]+)x", done.stdout, re.MULTILINE))
    expected = {"find_sets", "find_sets_vs_pair_loop", "batch_vs_find_sets", "has_set"}
    expected |= {"count_sets", "solve_json", "startup_help", "startup_solve", "simulate"}
    assert expected <= set(ratios), done.stdout
    assert float(ratios["find_sets"]) > 2  # the target is 25x; this only catches a collapse
    assert float(ratios["simulate"]) > 2  # the target is 10x
    assert float(ratios["solve_json"]) > 1  # the target is 3x
    assert float(ratios["startup_help"]) > 0.2  # the target is 0.5 (within 2x of import)
    assert re.search(r"^load average .* \(before\)", done.stdout, re.MULTILINE)
    assert re.search(r"median|tries", done.stdout)
    growth = re.findall(r"N =\s+(\d+):\s+([\d.]+) s", done.stdout)
    assert len(growth) >= 3
