"""``load.py --processes 2``: a few players for a few seconds on a cluster of two servers
(throwaway PostgreSQL and redis-server), beside the single SQLite server of the same run."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runkit import run_group

LOAD = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"


def _needs_services() -> None:
    missing = [name for name in ("redis-server",) if shutil.which(name) is None]
    if not (shutil.which("initdb") or list(Path("/usr/lib/postgresql").glob("*/bin/initdb"))):
        missing.append("PostgreSQL")
    if missing and not (
        os.environ.get("SETGAME_REQUIRE_POSTGRES") or os.environ.get("SETGAME_REQUIRE_REDIS")
    ):
        pytest.skip(f"not installed: {', '.join(missing)}")


def _check(figures: dict[str, object], players: int) -> None:
    assert figures["connected"] == players
    assert figures["error_count"] == 0 and figures["errors"] == {}, figures
    assert figures["unfinished_picks"] == 0
    assert isinstance(figures["actions"], int) and figures["actions"] > 0
    pick = figures["pick_to_all_latency"]
    assert isinstance(pick, dict) and pick["count"] > 0
    assert 0 < pick["p50_ms"] <= pick["p99_ms"] <= pick["max_ms"]
    assert isinstance(figures["server_cpu_percent_playing"], float)
    assert figures["server_cpu_percent_playing"] > 0


@pytest.mark.slow
def test_load_benchmark_on_two_processes_relays_across_them_without_errors() -> None:
    _needs_services()
    done = run_group(
        [sys.executable, str(LOAD), "--processes", "2", "--players", "16", "--seconds", "4",
         "--deck", "beginner", "--rounds", "single", "--speed", "10", "--route", "spread",
         "--json"],
        timeout=170,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["error_count"] == 0
    sqlite = report["sqlite_single_process"]
    _check(sqlite, 16)
    assert sqlite["pick_to_mirror_player_latency"]["count"] == 0  # one process: all on the owner
    [two] = report["cluster"]
    assert two["server_processes"] == 2
    _check(two, 16)
    # Rooms of four over two processes: half the players of every room are on a mirror.
    owner, mirror = two["pick_to_owner_player_latency"], two["pick_to_mirror_player_latency"]
    assert owner["count"] > 0 and mirror["count"] > 0
    assert two["mirror_p50_ratio_to_owner"] == round(mirror["p50_ms"] / owner["p50_ms"], 2)
    # issue 22: the ratios to the SQLite process of the same run, and the services' costs
    ours, theirs = two["pick_to_all_latency"], sqlite["pick_to_all_latency"]
    assert two["ratios_to_sqlite"]["p99"] == round(ours["p99_ms"] / theirs["p99_ms"], 2)
    cpu = two["server_cpu_ms_per_action"] / sqlite["server_cpu_ms_per_action"]
    assert two["ratios_to_sqlite"]["cpu_per_action"] == round(cpu, 2)
    spread = report["ratios_over_runs"]["2"]["p99"]  # one run: its median is its ratio
    assert spread["median"] == spread["low"] == spread["high"] == two["ratios_to_sqlite"]["p99"]
    assert set(two["service_cpu_ms_per_action"]) == {"postgresql", "redis"}
    assert two["services"]["pg_commits_per_action"] > 0
    assert two["services"]["pg_wal_syncs_per_action"] > 0  # a commit waits for one
    assert two["server_written_bytes_per_action"] > 0


@pytest.mark.slow
def test_load_benchmark_routing_by_room_plays_every_room_on_its_owner() -> None:
    """``--route room`` (the default): the balancer hashing the room id, the servers with
    room affinity: the rooms created on the other process move, nothing is relayed; and
    ``--metrics`` reports each process's own figures."""
    _needs_services()
    done = run_group(
        [sys.executable, str(LOAD), "--processes", "2", "--players", "16", "--seconds", "4",
         "--deck", "beginner", "--rounds", "single", "--speed", "10", "--metrics", "--json"],
        timeout=170,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    [two] = report["cluster"]
    _check(two, 16)
    assert two["route"] == "room"
    assert two["pick_to_mirror_player_latency"]["count"] == 0
    metrics = two["server_metrics"]
    assert len(metrics) == 2  # one summary per process
    for process in metrics:
        assert process["relays"].get("sent", 0) == 0  # every player on its room's owner
        assert process["loop_lag"]["count"] > 0
    assert sum(process["commit"]["count"] for process in metrics) > 0
    assert report["sqlite_single_process"]["server_metrics"][0]["commit"]["count"] > 0


@pytest.mark.parametrize("bad", ["0", "21", "x"])
def test_load_benchmark_refuses_bad_run_counts(bad: str) -> None:
    done = subprocess.run(
        [sys.executable, str(LOAD), "--processes", "1", "--runs", bad],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "--runs" in done.stderr


@pytest.mark.parametrize("bad", ["0", "1,x", "", "9", "1,2,3,4,5,6,7,8,1"])
def test_load_benchmark_refuses_bad_process_counts(bad: str) -> None:
    done = subprocess.run(
        [sys.executable, str(LOAD), "--processes", bad],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert f"want counts 1-8 like 1,2,3, got {bad!r}" in done.stderr


def _descendants(root: int) -> set[int]:
    """Every live process under ``root`` (from /proc)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            pid, rest = stat.read_text().split(" (", 1)
            parents.setdefault(int(rest.rsplit(") ", 1)[1].split()[1]), []).append(int(pid))
        except (OSError, IndexError, ValueError):
            continue
    found, todo = set(), [root]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.slow
def test_ctrl_c_during_a_cluster_run_stops_every_process_it_started() -> None:
    _needs_services()
    run = subprocess.Popen(
        [sys.executable, str(LOAD), "--processes", "2", "--players", "8", "--seconds", "6",
         "--deck", "beginner", "--rounds", "single", "--json"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        started: set[int] = set()
        while time.monotonic() < deadline and run.poll() is None:
            started = _descendants(run.pid)
            servers = [p for p in started if b"--redis" in _cmdline(p)]
            if len(servers) == 2:  # the cluster is up, PostgreSQL and Redis with it
                break
            time.sleep(0.2)
        assert len([p for p in started if b"--redis" in _cmdline(p)]) == 2
        run.send_signal(signal.SIGINT)  # to the benchmark alone, as a stray Ctrl-C could be
        run.wait(60)
        time.sleep(1)
        left = [p for p in started if _alive(p)]
        assert left == [], [_cmdline(p) for p in left]
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        return b""
