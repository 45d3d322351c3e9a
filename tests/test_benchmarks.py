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
    assert set(ratios) == {"find_sets", "simulate"}, done.stdout
    assert float(ratios["find_sets"]) > 2  # the target is 25x; this only catches a collapse
    assert float(ratios["simulate"]) > 2  # the target is 10x
    growth = re.findall(r"N =\s+(\d+):\s+([\d.]+) s", done.stdout)
    assert len(growth) >= 3
