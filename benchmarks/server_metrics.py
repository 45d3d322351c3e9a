"""Where a server's latency went, from its own ``/metrics`` (``load.py --metrics``, issue 22).

The load generator times a pick from its send to the last player's update; this reads what
each server process measured of the same run (``docs/deploy.md``, "Metrics"): its commits
(the database's part), how late its event loop ran (stalls: bursts of work, the process off
the CPU), the collector's pauses, pick to broadcast inside the server, and the relays between
processes. A histogram is summarised by its count, mean, the upper bound of the bucket that
holds its 99th percentile, and how many observations were slower than 10, 50 and 100 ms: so a
p99 the generator saw can be laid beside the commits, stalls and pauses that could explain it.
"""

from __future__ import annotations

import math
from typing import Any, Final

import httpx
from prometheus_client.parser import text_string_to_metric_families

HISTOGRAMS: Final = {
    "commit": "setgame_db_commit_seconds",
    "commit_writes": "setgame_db_commit_writes",
    "loop_lag": "setgame_loop_lag_seconds",
    "gc_pause": "setgame_gc_pause_seconds",
    "pick_to_broadcast": "setgame_action_seconds",
}
SLOWER_THAN: Final = (0.01, 0.05, 0.1)
"""Seconds: how many observations took longer than each (by the histogram's buckets)."""


def scrape(base: str) -> dict[str, Any]:
    """The summary of one server's metrics (``{}`` when it answers none: metrics off)."""
    try:
        answer = httpx.get(base + "/metrics", timeout=10)
    except httpx.HTTPError:
        return {}
    if answer.status_code != 200:
        return {}
    return summarise(answer.text)


def summarise(text: str) -> dict[str, Any]:
    buckets: dict[str, dict[float, float]] = {name: {} for name in HISTOGRAMS}
    sums: dict[str, float] = dict.fromkeys(HISTOGRAMS, 0.0)
    relays: dict[str, float] = {}
    wanted = {metric: name for name, metric in HISTOGRAMS.items()}
    for family in text_string_to_metric_families(text):
        if family.name == "setgame_relays":
            for sample in family.samples:
                if sample.name.endswith("_total"):
                    relays[sample.labels.get("side", "?")] = sample.value
            continue
        name = wanted.get(family.name)
        if name is None:
            continue
        for sample in family.samples:
            if name == "pick_to_broadcast" and sample.labels.get("type") != "pick":
                continue
            if sample.name.endswith("_bucket"):
                bound = float(sample.labels["le"])
                buckets[name][bound] = buckets[name].get(bound, 0.0) + sample.value  # all labels
            elif sample.name.endswith("_sum"):
                sums[name] += sample.value
    out: dict[str, Any] = {
        name: _histogram(buckets[name], sums[name], timed=name != "commit_writes")
        for name in HISTOGRAMS
    }
    out["relays"] = relays
    return out


def _histogram(cumulative: dict[float, float], total: float, timed: bool) -> dict[str, Any]:
    count = cumulative.get(math.inf, 0.0)
    if not count:
        return {"count": 0}
    bounds = sorted(cumulative)
    p99 = next(b for b in bounds if cumulative[b] >= 0.99 * count)
    out: dict[str, Any] = {"count": int(count), "mean": round(total / count, 6), "p99_at_most": p99}
    for limit in SLOWER_THAN if timed else ():
        below = max((cumulative[b] for b in bounds if b <= limit), default=0.0)
        out[f"over_{int(limit * 1000)}ms"] = int(count - below)
    return out
