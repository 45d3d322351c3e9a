"""Running a benchmark script from a test, bounded as a whole: the script and every server it
started are stopped when the test gives up on it.

``subprocess.run(timeout=...)`` kills only the script it started. A benchmark starts servers of
its own, which would outlive it and keep their ports and a core busy for the rest of the run.
So the script runs in a process group of its own, and the whole group is killed when the
test stops waiting, whether by the timeout here, pytest-timeout's bound, or Ctrl-C."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess


def run_group(args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """Run ``args`` to its end (text output captured), or kill its process group and raise."""
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except BaseException:
        kill_group(proc)
        raise
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


def kill_group(proc: subprocess.Popen[str]) -> None:
    """SIGKILL ``proc``'s whole process group (it leads it: ``start_new_session``)."""
    with contextlib.suppress(ProcessLookupError):  # gone, and every process of its group
        os.killpg(proc.pid, signal.SIGKILL)
    try:  # a process that left the group could still hold the pipes: do not wait on it
        proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.wait()
