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
    for key in ("decode", "photo", "read_photo"):  # one try: its spread is the median itself
        assert result[f"{key}_spread_s"] == [result[f"{key}_s"]] * 2, key
    low, high = result["ratio_spread"]
    assert 0 < low <= high
    assert result["photo_cpu_s"] < 30  # a collapse, not the target (at most 2 s, quiet)


def test_the_photo_benchmark_refuses_a_bad_number_of_tries() -> None:
    done = run_group([sys.executable, str(BENCH), "--tries", "0"], timeout=60)
    assert done.returncode == 2 and "--tries: want 1-50, got 0" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
