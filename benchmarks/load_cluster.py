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
p50 for players on the room's owner. Every process started is stopped on the way out, also
on an error or Ctrl-C.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
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
    players: int, opts: Options, counts: Sequence[int], generators: int, db_dir: str | None
) -> dict[str, Any]:
    """The SQLite single-process figure, then one figure per cluster size in ``counts``."""
    # One session secret for every process of a cluster (else each makes its own).
    os.environ.setdefault("SETGAME_SECRET", secrets.token_hex(32))
    sqlite = run(players, opts, generators, db_dir=db_dir, bare=False)
    runs: list[dict[str, Any]] = []
    for count in counts:
        # A fresh database and Redis for each N: the last cluster's rooms (in progress, their
        # owners gone) would otherwise be adopted by the next one (docs/cluster.md) mid-run.
        with (
            services.postgres() as db,
            services.redis() as redis,
            tempfile.TemporaryDirectory(prefix="setgame-load-", dir=db_dir) as folder,
            cluster(count, db, redis, Path(folder)) as servers,
        ):
            result = _load(servers, players, opts, generators)
        result["server_processes"] = count
        result["mirror_p50_ratio_to_owner"] = hop_ratio(result)
        runs.append(result)
    return {
        "sqlite_single_process": sqlite,
        "cluster": runs,
        "error_count": sqlite["error_count"] + sum(r["error_count"] for r in runs),
    }


def show_cluster(result: dict[str, Any]) -> str:
    rows = [("SQLite, 1", result["sqlite_single_process"])]
    rows += [(f"PostgreSQL+Redis, {r['server_processes']}", r) for r in result["cluster"]]
    lines = [
        "server(s)               players  actions/s  pick->all p50/p99/max ms      "
        "errors  server CPU %  owner/mirror p50 ms  hop ratio  load avg"
    ]
    for name, r in rows:
        pick = r["pick_to_all_latency"]
        owner = r["pick_to_owner_player_latency"]["p50_ms"]
        mirror = r["pick_to_mirror_player_latency"]["p50_ms"]
        lines.append(
            f"{name:<23} {r['connected']:>7}  {r['actions_per_second']:>9}  "
            f"{pick['p50_ms']} / {pick['p99_ms']} / {pick['max_ms']:<12}  "
            f"{r['error_count']:>6}  {r['server_cpu_percent_playing']:>12}  "
            f"{owner} / {mirror or '-'}  {r.get('mirror_p50_ratio_to_owner') or '-'}  "
            f"{r['load_average_1min']}"
        )
    return "\n".join(lines)
