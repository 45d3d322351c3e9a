"""Speed of the rules core and the command, each beside its baselines in one run.

    python3 benchmarks/bench_core.py [--quick] [--tries N]

- the finder on random 12-card tables: ``find_sets`` and ``find_sets_batch``
  against the all-triples search most SET programs use, the plain pair loop with
  a third-card lookup, and (where ``cc`` is found) a small C reference compiled
  at run time into a temporary directory and called through ctypes;
- ``has_set`` and ``count_sets`` against the way they were written before
  (through ``iter_sets``: every set built, then the first taken or all counted);
- ``setgame solve --json`` over 100,000 random 12-card tables read from a file,
  against the per-table loop it replaced (parse, find_sets, json.dumps, print);
- start-up of ``setgame --help`` and ``setgame solve 1RSD 2RSD 3RSD`` as a ratio
  to ``python3 -c "import setgame"`` (fresh processes);
- ``simulate`` against the plain pure-Python simulation, and how its time grows.

Every compared side gets the same number of tries, taken in turn (a try of each
side, then the next round), so a busy machine slows them alike. Each figure is
the median of the tries with the lowest and highest beside it; a ratio is the
ratio of the medians. The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import ctypes
import io
import itertools
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import setgame
from setgame.analysis.batch import find_sets_batch
from setgame.analysis.simulate import simulate, simulate_plain
from setgame.analysis.solving import solve_stream
from setgame.rules.cards import attributes, card_names, parse_cards
from setgame.rules.sets import THIRD, count_sets, find_sets, has_set, iter_sets

Attrs = tuple[int, int, int, int]


# --- timing --------------------------------------------------------------------------


@dataclass(frozen=True)
class Timing:
    """Seconds per try: the median and the spread of equal numbers of tries."""

    tries: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.tries)

    def text(self, per: int = 1, unit: str = "s") -> str:
        scale = {"s": 1.0, "ms": 1e3, "us": 1e6}[unit] / per
        low, high = min(self.tries), max(self.tries)
        return (
            f"{scale * self.median:.3g} {unit} "
            f"({scale * low:.3g}-{scale * high:.3g}, {len(self.tries)} tries)"
        )


def compare(sides: dict[str, Callable[[], Any]], tries: int) -> dict[str, Timing]:
    """Time each side ``tries`` times, one try of every side per round."""
    times: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(tries):
        for name, run in sides.items():
            started = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - started)
    return {name: Timing(t) for name, t in times.items()}


def ratio(name: str, slow: Timing, fast: Timing, target: str = "") -> float:
    """Print ``ratio NAME: X.Xx`` (slow median over fast median) and return it."""
    value = slow.median / fast.median
    spread = sorted(s / f for s, f in zip(slow.tries, fast.tries, strict=True))
    note = f", target {target}" if target else ""
    print(f"ratio {name}: {value:.2f}x (per round {spread[0]:.2f}-{spread[-1]:.2f}{note})")
    return value


def load_average() -> str:
    try:
        return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    except OSError:
        return "load average unknown"


# --- the finder and its baselines ------------------------------------------------------


def all_triples(table: Sequence[Attrs]) -> list[tuple[Attrs, Attrs, Attrs]]:
    """The usual search: every triple, every attribute all same or all different."""
    found = []
    for a, b, c in itertools.combinations(table, 3):
        if all(
            x == y == z or (x != y and y != z and x != z) for x, y, z in zip(a, b, c, strict=True)
        ):
            found.append((a, b, c))
    return found


def pair_loop(cards: Sequence[int]) -> list[tuple[int, int, int]]:
    """The plain pair loop: for each pair, look up the third card and where it lies."""
    position = {card: i for i, card in enumerate(cards)}
    found = []
    n = len(cards)
    for i in range(n - 2):
        a = cards[i]
        for j in range(i + 1, n - 1):
            k = position.get(THIRD[a * 81 + cards[j]], -1)
            if k > j:
                found.append((a, cards[j], cards[k]))
    return found


C_SOURCE = r"""
/* The sets of m tables of n cards each: the same pair loop with a third-card table. */
long find_sets(const unsigned char *third, const unsigned char *tables, long m, int n,
               unsigned char *found) {
    long total = 0;
    for (long t = 0; t < m; t++) {
        const unsigned char *cards = tables + t * n;
        signed char where[82];
        for (int c = 0; c < 82; c++) where[c] = -1;
        for (int k = 0; k < n; k++) where[cards[k]] = (signed char)k;
        for (int i = 0; i < n - 2; i++) {
            const unsigned char *row = third + 81 * cards[i];
            for (int j = i + 1; j < n - 1; j++) {
                int k = where[row[cards[j]]];
                if (k > j) {
                    found[3 * total] = cards[i];
                    found[3 * total + 1] = cards[j];
                    found[3 * total + 2] = cards[k];
                    total++;
                }
            }
        }
    }
    return total;
}
"""


def c_finder(workdir: Path) -> Callable[[bytes, int, int], list[tuple[int, int, int]]] | None:
    """The C reference, compiled with ``cc -O2`` into ``workdir``; None without a compiler."""
    compiler = shutil.which("cc")
    if compiler is None:
        return None
    source, library = workdir / "finder.c", workdir / "finder.so"
    source.write_text(C_SOURCE)
    built = subprocess.run(
        [compiler, "-O2", "-shared", "-fPIC", "-o", str(library), str(source)],
        capture_output=True,
        text=True,
    )
    if built.returncode:
        print(f"(no C reference: cc failed: {built.stderr.strip()[:200]})")
        return None
    lib = ctypes.CDLL(str(library))
    lib.find_sets.restype = ctypes.c_long
    # 81 (no card) for an equal pair, as in setgame.rules.sets.ROWS.
    third = bytes(81 if a == b else THIRD[a * 81 + b] for a in range(81) for b in range(81))

    def run(tables: bytes, m: int, n: int) -> list[tuple[int, int, int]]:
        out = ctypes.create_string_buffer(3 * m * n * n)
        total = lib.find_sets(third, tables, ctypes.c_long(m), ctypes.c_int(n), out)
        raw = out.raw[: 3 * total]
        return list(zip(raw[0::3], raw[1::3], raw[2::3], strict=True))

    return run


def bench_finder(count: int, tries: int) -> None:
    rng = random.Random(12)
    tables = [rng.sample(range(81), 12) for _ in range(count)]
    attrs = [[attributes(c) for c in table] for table in tables]
    packed = b"".join(map(bytes, tables))
    expected = [find_sets(t) for t in tables]
    if [pair_loop(t) for t in tables] != expected or find_sets_batch(tables) != expected:
        raise SystemExit("the finders disagree")
    if [len(all_triples(t)) for t in attrs] != list(map(len, expected)):
        raise SystemExit("find_sets and the all-triples search disagree")
    sides: dict[str, Callable[[], Any]] = {
        "all-triples": lambda: [all_triples(t) for t in attrs],
        "pair loop": lambda: [pair_loop(t) for t in tables],
        "find_sets": lambda: [find_sets(t) for t in tables],
        "find_sets_batch": lambda: find_sets_batch(tables),
    }
    with tempfile.TemporaryDirectory() as workdir:
        c_run = c_finder(Path(workdir))
        if c_run is not None:
            if c_run(packed, count, 12) != list(itertools.chain.from_iterable(expected)):
                raise SystemExit("the C reference disagrees")
            sides["C reference"] = lambda: c_run(packed, count, 12)
        timing = compare(sides, tries)
    print(f"finding the sets of {count} random 12-card tables, per table:")
    for name, t in timing.items():
        print(f"  {name:16s} {t.text(count, 'us')}")
    ratio("find_sets", timing["all-triples"], timing["find_sets"], ">= 25x")
    ratio("find_sets_vs_pair_loop", timing["pair loop"], timing["find_sets"])
    ratio("batch_vs_find_sets", timing["find_sets"], timing["find_sets_batch"])
    if "C reference" in timing:
        # Below 1: how many times slower than C.
        ratio("find_sets_vs_c", timing["C reference"], timing["find_sets"])
        ratio("batch_vs_c", timing["C reference"], timing["find_sets_batch"])
    else:
        print("(no C compiler found: no C reference)")


# --- has_set and count_sets against their former selves ---------------------------------


def has_set_before(cards: Iterable[int]) -> bool:
    """has_set as it was: build every set, take the first."""
    return next(iter_sets(list(cards)), None) is not None


def count_sets_before(cards: Iterable[int]) -> int:
    """count_sets as it was: build every set, count them."""
    return sum(1 for _ in iter_sets(list(cards)))


def bench_has_count(count: int, tries: int) -> None:
    rng = random.Random(13)
    tables = [rng.sample(range(81), 12) for _ in range(count)]
    if [has_set(t) for t in tables] != [has_set_before(t) for t in tables]:
        raise SystemExit("has_set disagrees with its former self")
    if [count_sets(t) for t in tables] != [count_sets_before(t) for t in tables]:
        raise SystemExit("count_sets disagrees with its former self")
    timing = compare(
        {
            "has_set before": lambda: [has_set_before(t) for t in tables],
            "has_set": lambda: [has_set(t) for t in tables],
            "count_sets before": lambda: [count_sets_before(t) for t in tables],
            "count_sets": lambda: [count_sets(t) for t in tables],
        },
        tries,
    )
    print(f"has_set and count_sets on {count} random 12-card tables, per table:")
    for name, t in timing.items():
        print(f"  {name:18s} {t.text(count, 'us')}")
    ratio("has_set", timing["has_set before"], timing["has_set"])
    ratio("count_sets", timing["count_sets before"], timing["count_sets"])


# --- setgame solve --json over a file of tables ----------------------------------------


def solve_per_table(stream: TextIO, out: TextIO) -> None:
    """``setgame solve --json`` as it was: read every line, then a table at a time."""
    tables = [(n, line.split()) for n, line in enumerate(stream, 1) if line.strip()]
    for _, table in tables:
        parsed = parse_cards(table)
        sets = find_sets(parsed)
        answer = {"cards": card_names(parsed), "sets": [card_names(s) for s in sets]}
        print(json.dumps(answer), file=out)


def bench_solve(count: int, tries: int) -> None:
    rng = random.Random(14)
    lines = "".join(" ".join(card_names(rng.sample(range(81), 12))) + "\n" for _ in range(count))
    with tempfile.TemporaryDirectory() as workdir:
        path = Path(workdir) / "tables.txt"
        path.write_text(lines)
        old, new = io.StringIO(), io.StringIO()
        with path.open() as stream:
            solve_per_table(stream, old)
        with path.open() as stream:
            solve_stream(stream, True, new)
        if old.getvalue() != new.getvalue():
            raise SystemExit("setgame solve --json and the per-table loop disagree")

        def run(solver: Callable[[TextIO, TextIO], None]) -> Callable[[], None]:
            def once() -> None:
                with path.open() as stream, open(os.devnull, "w") as sink:
                    solver(stream, sink)

            return once

        timing = compare(
            {
                "per-table loop": run(solve_per_table),
                "setgame solve": run(lambda s, o: solve_stream(s, True, o)),
            },
            tries,
        )
    print(f"setgame solve --json over {count} random 12-card tables (file to /dev/null):")
    for name, t in timing.items():
        rate = count / t.median
        print(f"  {name:15s} {t.text()}, {rate:,.0f} tables/s")
    ratio("solve_json", timing["per-table loop"], timing["setgame solve"], ">= 3x")


# --- start-up --------------------------------------------------------------------------


def bench_startup(tries: int) -> None:
    # The children import the same setgame as this process.
    source = str(Path(setgame.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")])}
    commands = {
        "import setgame": [sys.executable, "-c", "import setgame"],
        "setgame --help": [sys.executable, "-m", "setgame", "--help"],
        "setgame solve": [sys.executable, "-m", "setgame", "solve", "1RSD", "2RSD", "3RSD"],
    }

    def start(command: list[str]) -> Callable[[], None]:
        return lambda: subprocess.run(command, stdout=subprocess.DEVNULL, check=True, env=env)

    for command in commands.values():  # warm the file cache and the bytecode
        start(command)()
    timing = compare({name: start(c) for name, c in commands.items()}, tries)
    print("start-up, fresh processes:")
    for name, t in timing.items():
        print(f"  {name:15s} {t.text(unit='ms')}")
    # Below 1 is slower than import setgame: the target is at least 0.5 (within 2x).
    base = timing["import setgame"]
    ratio("startup_help", base, timing["setgame --help"], ">= 0.5x (within 2x of import)")
    ratio("startup_solve", base, timing["setgame solve"], ">= 0.5x (within 2x of import)")


# --- simulate ---------------------------------------------------------------------------


def bench_simulate(games: int, tries: int) -> None:
    simulate(64, seed=0)  # warm up NumPy
    timing = compare(
        {"plain": lambda: simulate_plain(games, seed=1), "simulate": lambda: simulate(games, 1)},
        tries,
    )
    print(f"simulate {games} games:")
    for name, t in timing.items():
        print(f"  {name:9s} {t.text()}, {games / t.median:,.0f} games/s")
    ratio("simulate", timing["plain"], timing["simulate"], ">= 10x")


def bench_growth(sizes: Sequence[int], tries: int) -> None:
    print("simulate time by number of games N:")
    for n in sizes:
        t = compare({"simulate": lambda n=n: simulate(n, seed=2)}, tries)["simulate"]
        print(f"  N = {n:>7}: {t.median:8.3f} s, {1e6 * t.median / n:7.1f} us a game")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs (for the tests)")
    parser.add_argument("--tries", type=int, default=0, help="tries of each side (default 5)")
    args = parser.parse_args(argv)
    quick = args.quick
    tries = args.tries or (3 if quick else 5)
    print(f"{load_average()} (before), {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    bench_finder(2_000 if quick else 20_000, tries)
    bench_has_count(2_000 if quick else 20_000, tries)
    bench_solve(5_000 if quick else 100_000, tries)
    bench_startup(tries if quick else 3 * tries)
    bench_simulate(2_000 if quick else 20_000, tries)
    sizes = (250, 1_000, 4_000) if quick else (1_000, 4_000, 16_000, 64_000, 256_000)
    bench_growth(sizes, 1 if quick else 3)
    print(f"{load_average()} (after)")


if __name__ == "__main__":
    main()
