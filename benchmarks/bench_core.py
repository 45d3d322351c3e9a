"""Speed of the rules core, each against the baseline it replaces, run side by side.

    python3 benchmarks/bench_core.py [--quick]

- ``find_sets`` on random 12-card tables against the all-triples search most SET
  programs use (``itertools.combinations`` over tuples of attributes, each
  attribute checked); target: at least 25x.
- ``simulate`` against the plain pure-Python simulation of the same number of
  games (a third-card lookup per pair, one game at a time); target: at least 10x.
- how the time of ``simulate`` grows with the number of games N.

Each timing is the best of a few runs, so a busy machine disturbs it less.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from setgame.cards import attributes
from setgame.sets import find_sets
from setgame.simulate import simulate, simulate_plain

Attrs = tuple[int, int, int, int]


def all_triples(table: Sequence[Attrs]) -> list[tuple[Attrs, Attrs, Attrs]]:
    """The usual search: every triple, every attribute all same or all different."""
    found = []
    for a, b, c in itertools.combinations(table, 3):
        if all(
            x == y == z or (x != y and y != z and x != z) for x, y, z in zip(a, b, c, strict=True)
        ):
            found.append((a, b, c))
    return found


def best_time(run: Callable[[], Any], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def bench_find_sets(tables: int, repeats: int) -> float:
    rng = random.Random(12)
    cards = [rng.sample(range(81), 12) for _ in range(tables)]
    attrs = [[attributes(c) for c in table] for table in cards]
    fast = [len(find_sets(t)) for t in cards]
    slow = [len(all_triples(t)) for t in attrs]
    if fast != slow:
        raise SystemExit("find_sets and the all-triples search disagree")
    baseline = best_time(lambda: [all_triples(t) for t in attrs], repeats)
    ours = best_time(lambda: [find_sets(t) for t in cards], 3 * repeats)  # short: more tries
    ratio = baseline / ours
    print(
        f"find_sets on {tables} random 12-card tables ({sum(fast)} sets): all-triples "
        f"{baseline:.3f} s, find_sets {ours:.4f} s ({1e6 * ours / tables:.2f} us a table)"
    )
    print(f"ratio find_sets: {ratio:.1f}x (target >= 25x)")
    return ratio


def bench_simulate(games: int, repeats: int) -> float:
    simulate(64, seed=0)  # warm up NumPy
    baseline = best_time(lambda: simulate_plain(games, seed=1), 1)
    ours = best_time(lambda: simulate(games, seed=1), repeats)
    ratio = baseline / ours
    print(
        f"simulate {games} games: plain {baseline:.2f} s ({games / baseline:.0f} games/s), "
        f"simulate {ours:.3f} s ({games / ours:.0f} games/s)"
    )
    print(f"ratio simulate: {ratio:.1f}x (target >= 10x)")
    return ratio


def bench_growth(sizes: Sequence[int], repeats: int) -> None:
    print("simulate time by number of games N:")
    for n in sizes:
        seconds = best_time(lambda n=n: simulate(n, seed=2), repeats)
        print(f"  N = {n:>7}: {seconds:8.3f} s, {1e6 * seconds / n:7.1f} us a game")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs (for the tests)")
    quick = parser.parse_args(argv).quick
    bench_find_sets(2_000 if quick else 20_000, 3)
    bench_simulate(2_000 if quick else 20_000, 2 if quick else 3)
    sizes = (250, 1_000, 4_000) if quick else (1_000, 4_000, 16_000, 64_000, 256_000)
    bench_growth(sizes, 1 if quick else 2)


if __name__ == "__main__":
    main()
