"""benchmarks/photo.py runs and prints its figures (docs/photo.md). Only what a busy machine
cannot change is asserted: the figures exist and the photo is read whole; the 2 s target is
read off the output, not asserted."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from runkit import run_group

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "photo.py"


def test_the_photo_benchmark_prints_its_figures() -> None:
    done = run_group([sys.executable, str(BENCH), "--tries", "1", "--json"], timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["image"].startswith("4000 x 3000 JPEG")
    assert result["cards_read_right"] == "12 of 12"
    assert result["decode_s"] > 0 and result["photo_s"] > 0 and result["ratio"] > 0
    assert result["photo_cpu_s"] < 30  # a collapse, not the target (at most 2 s, quiet)
