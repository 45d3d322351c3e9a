"""``load.py --processes 1,2,3``: the load benchmark against a cluster of game servers.

One run: first the single-process server on SQLite (load.py's usual server, no bare-stack
baseline), then for each N a throwaway PostgreSQL and redis-server (new ones for each N,
``services.py``) and N ``python -m setgame.server --db postgresql+asyncpg://... --redis
redis://...`` processes on free ports, loaded by the same generator. Rooms are created
round-robin on the processes (the creating process owns the room, docs/cluster.md) and each
room's players connect round-robin from its owner, so most rooms have players on every
process and every action is relayed across processes. Reported per N: the usual figures
(server CPU and memory summed over the N processes) and the cost of the extra hop: the p50
of "pick -> this player got the update" for players on a mirror process as a ratio of that
p50 for players on the room's owner, and the ratios to the SQLite process of the same run
(p50, p99, max, server CPU per action: ``ratios_to_sqlite``). Also per action, while playing:
PostgreSQL's and Redis's CPU (all their processes), the bytes the servers wrote (players'
updates and the database's and Redis's requests), and over the run PostgreSQL's commits and
WAL bytes and Redis's commands and bytes in and out (``services``). ``--runs K`` repeats the
whole run and gives each ratio's median and spread over the runs (``ratios_over_runs``).
Every process started is stopped on the way out, also on an error or Ctrl-C.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import statistics
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import services
from load import Options, Server, _load, run, server_process


@contextmanager
def cluster(count: int, db: str, redis: str, folder: Path) -> Iterator[list[Server]]:
    """``count`` server processes of one cluster, started one after the other (the first
    creates the tables); all stopped on the way out."""
    folder.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        servers = [
            stack.enter_context(server_process(db, folder / f"server{i}.log", redis=redis))
            for i in range(count)
        ]
        yield servers


def hop_ratio(result: dict[str, Any]) -> float | None:
    """p50 of players on a mirror process over p50 of players on the owner process."""
    mirror = result["pick_to_mirror_player_latency"]["p50_ms"]
    owner = result["pick_to_owner_player_latency"]["p50_ms"]
    return round(mirror / owner, 2) if mirror and owner else None


def run_cluster(
    players: int,
    opts: Options,
    counts: Sequence[int],
    generators: int,
    db_dir: str | None,
    runs: int = 1,
) -> dict[str, Any]:
    """``runs`` times: the SQLite single-process figure, then one figure per cluster size in
    ``counts``, each with its ratios to that SQLite figure; then, over the runs, the median
    and the spread (lowest, highest) of each ratio."""
    # One session secret for every process of a cluster (else each makes its own).
    os.environ.setdefault("SETGAME_SECRET", secrets.token_hex(32))
    done = [_one_run(players, opts, counts, generators, db_dir) for _ in range(runs)]
    first = done[0]
    return {
        **first,
        "runs": done,
        "ratios_over_runs": _over_runs(done, counts),
        "error_count": sum(r["error_count"] for r in done),
    }


def _one_run(
    players: int, opts: Options, counts: Sequence[int], generators: int, db_dir: str | None
) -> dict[str, Any]:
    uptime_before = os.getloadavg()
    sqlite = run(players, opts, generators, db_dir=db_dir, bare=False)
    out: list[dict[str, Any]] = []
    for count in counts:
        # A fresh database and Redis for each N: the last cluster's rooms (in progress, their
        # owners gone) would otherwise be adopted by the next one (docs/cluster.md) mid-run.
        with (
            services.postgres() as db,
            services.redis() as redis,
            tempfile.TemporaryDirectory(prefix="setgame-load-", dir=db_dir) as folder,
            cluster(count, db, redis, Path(folder)) as servers,
        ):
            watched = replace(opts, service_pids=service_pids(db, redis))
            before = service_counters(db, redis)
            result = _load(servers, players, watched, generators)
            result["services"] = per_action(before, service_counters(db, redis), result)
        result["server_processes"] = count
        result["route"] = opts.route  # "room": each room's players on one process (--route)
        result["mirror_p50_ratio_to_owner"] = hop_ratio(result)
        result["ratios_to_sqlite"] = ratios(result, sqlite)
        out.append(result)
    return {
        "sqlite_single_process": sqlite,
        "cluster": out,
        "load_average_before": [round(x, 2) for x in uptime_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "error_count": sqlite["error_count"] + sum(r["error_count"] for r in out),
    }


RATIOS = {
    "p50": ("pick_to_all_latency", "p50_ms"),
    "p99": ("pick_to_all_latency", "p99_ms"),
    "max": ("pick_to_all_latency", "max_ms"),
    "cpu_per_action": ("server_cpu_ms_per_action", None),
}
"""The ratios to the SQLite process of the same run (issue 22's targets: p99 at most 2x,
server CPU per action at most 1.5x, for one process on PostgreSQL and Redis)."""


def ratios(result: dict[str, Any], sqlite: dict[str, Any]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for name, (key, sub) in RATIOS.items():
        ours = result[key] if sub is None else result[key][sub]
        theirs = sqlite[key] if sub is None else sqlite[key][sub]
        out[name] = round(ours / theirs, 2) if ours and theirs else None
    return out


def _over_runs(done: list[dict[str, Any]], counts: Sequence[int]) -> dict[str, Any]:
    """For each cluster size and ratio: the median of the runs and the lowest and highest."""
    out: dict[str, Any] = {}
    for i, count in enumerate(counts):
        each = [r["cluster"][i]["ratios_to_sqlite"] for r in done]
        out[str(count)] = {
            name: _spread([e[name] for e in each if e[name] is not None]) for name in RATIOS
        }
    return out


def _spread(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"median": None, "low": None, "high": None}
    return {"median": statistics.median(values), "low": min(values), "high": max(values)}


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/", 1)[0])


def service_pids(db: str, redis: str) -> tuple[tuple[str, int], ...]:
    """(name, pid) of the PostgreSQL postmaster and of redis-server that ``services.py``
    started, found by their ports (their CPU while playing is the run's: ``tree_cpu``)."""
    found: list[tuple[str, int]] = []
    # redis-server shows "redis-server 127.0.0.1:<port>" as its command line once started
    wanted = {"postgresql": f"-p\0{_port(db)}\0", "redis": f"redis-server 127.0.0.1:{_port(redis)}"}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            line = (entry / "cmdline").read_text()
        except OSError:
            continue
        for name, mark in wanted.items():
            if mark in line and "runuser" not in line.split("\0", 1)[0]:
                found.append((name, int(entry.name)))
    return tuple(found)


def service_counters(db: str, redis: str) -> dict[str, float]:
    """PostgreSQL's commits, WAL bytes and WAL flushes (``fsync`` or its like: what a commit
    waits for on the disk; concurrent commits share one), Redis's commands and bytes in and
    out so far."""
    import asyncpg
    import redis as sync_redis

    async def pg() -> dict[str, float]:
        conn = await asyncpg.connect(db.replace("postgresql+asyncpg", "postgresql"))
        try:
            commits = await conn.fetchval(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
            )
            wal = await conn.fetchrow("SELECT wal_bytes, wal_sync FROM pg_stat_wal")
        finally:
            await conn.close()
        return {
            "pg_commits": float(commits),
            "pg_wal_bytes": float(wal["wal_bytes"]),
            "pg_wal_syncs": float(wal["wal_sync"]),
        }

    client = sync_redis.Redis.from_url(redis)
    try:
        stats = client.info("stats")
    finally:
        client.close()
    return asyncio.run(pg()) | {
        "redis_commands": float(stats["total_commands_processed"]),
        "redis_bytes_in": float(stats["total_net_input_bytes"]),
        "redis_bytes_out": float(stats["total_net_output_bytes"]),
    }


def per_action(
    before: dict[str, float], after: dict[str, float], result: dict[str, Any]
) -> dict[str, float | None]:
    """The counters' growth over the run (connecting included) per action played."""
    actions = result["actions"]
    return {
        f"{key}_per_action": round((after[key] - before[key]) / actions, 3) if actions else None
        for key in before
    }


def show_cluster(result: dict[str, Any]) -> str:
    lines: list[str] = []
    for n, one in enumerate(result["runs"], 1):
        lines.append(
            f"run {n} of {len(result['runs'])} (load average before "
            f"{one['load_average_before']}, after {one['load_average_after']})"
        )
        lines += _table(one)
    lines.append("ratios to the SQLite process of the same run: median (lowest-highest)")
    for count, named in result["ratios_over_runs"].items():
        shown = "  ".join(
            f"{name} {v['median']} ({v['low']}-{v['high']})" for name, v in named.items()
        )
        lines.append(f"  PostgreSQL+Redis, {count}: {shown}")
    return "\n".join(lines)


def _table(result: dict[str, Any]) -> list[str]:
    rows = [("SQLite, 1", result["sqlite_single_process"])]
    rows += [(f"PostgreSQL+Redis, {r['server_processes']}", r) for r in result["cluster"]]
    lines = [
        "server(s)               players  actions/s  pick->all p50/p99/max ms      "
        "errors  server CPU %  ms/action  owner/mirror p50 ms  hop ratio  load avg"
    ]
    for name, r in rows:
        pick = r["pick_to_all_latency"]
        owner = r["pick_to_owner_player_latency"]["p50_ms"]
        mirror = r["pick_to_mirror_player_latency"]["p50_ms"]
        lines.append(
            f"{name:<23} {r['connected']:>7}  {r['actions_per_second']:>9}  "
            f"{pick['p50_ms']} / {pick['p99_ms']} / {pick['max_ms']:<12}  "
            f"{r['error_count']:>6}  {r['server_cpu_percent_playing']:>12}  "
            f"{r['server_cpu_ms_per_action']:>9}  "
            f"{owner} / {mirror or '-'}  {r.get('mirror_p50_ratio_to_owner') or '-'}  "
            f"{r['load_average_1min']}"
        )
        if "services" in r:
            lines.append(f"    ratios to SQLite {r['ratios_to_sqlite']}")
            lines.append(
                f"    PostgreSQL/Redis CPU ms per action {r['service_cpu_ms_per_action']}, "
                f"server bytes written per action {r['server_written_bytes_per_action']}, "
                f"{r['services']}"
            )
    return lines
