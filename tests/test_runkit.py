"""tests/runkit.py: a benchmark script that a test gives up on takes its servers with it."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from runkit import run_group

SCRIPT = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
open(sys.argv[1], "w").write(str(child.pid))
time.sleep(120)
"""


def _alive(pid: int) -> bool:
    """Running (a zombie left for its new parent to reap counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_a_script_given_up_on_is_killed_with_the_server_it_started(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    with pytest.raises(subprocess.TimeoutExpired):
        run_group([sys.executable, "-c", SCRIPT, str(pid_file)], timeout=5)
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child), f"the script's child {child} outlived it"


def test_a_script_that_ends_gives_its_output_and_status() -> None:
    done = run_group([sys.executable, "-c", "import sys; print('out'); sys.exit(3)"], timeout=30)
    assert (done.returncode, done.stdout) == (3, "out\n")
