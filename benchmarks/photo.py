"""How long ``setgame photo`` takes on a 12-megapixel photo, process start included, beside
decoding the same image alone (issue 24: at most 2 s on this 2-core machine).

Makes a 4000 x 3000 JPEG of twelve cards (:func:`setgame.photo.render.scene`, kind
``steep``; a phone's 12 megapixels), then times, each in a fresh process and ``--tries``
times (the median counts):

- ``decode``: ``python -c`` that imports Pillow and decodes the JPEG at full size;
- ``photo``: ``setgame photo IMAGE --json`` (Python's start, the imports, the decoding at the
  size the reader needs, the finding and the reading, the printing);

and, in this process, ``read_photo`` alone. It prints the medians with their spread (the
lowest and highest try), the ratio photo/decode (of the medians, and the spread of each
try's ratio), and the load average before and after (on a busy machine every figure grows; the ratio
less so).

    python benchmarks/photo.py              # 5 tries
    python benchmarks/photo.py --tries 2    # quicker
    python benchmarks/photo.py --json
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DECODE = "import sys; from PIL import Image; Image.open(sys.argv[1]).convert('RGB').load()"


def timed(command: list[str]) -> tuple[float, float]:
    """The wall-clock seconds of ``command`` in a fresh process, and the CPU seconds it used
    (user and system: on a busy machine the wall clock counts the waits for a core, the CPU
    time does not)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median(pairs: list[tuple[float, float]], which: int) -> float:
    return round(statistics.median(pair[which] for pair in pairs), 3)


def spread(values: list[float]) -> list[float]:
    """The lowest and the highest of ``values``: how far the tries scattered about the median."""
    return [round(min(values), 3), round(max(values), 3)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.tries <= 50:  # each try starts two processes and reads 12 megapixels
        parser.error(f"--tries: want 1-50, got {args.tries}")
    from setgame.photo import read_photo
    from setgame.photo.render import scene

    photo = scene("steep", 0)
    data = photo.jpeg(quality=92)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table-12mp.jpg"
        path.write_bytes(data)
        setgame = [sys.executable, "-c", "from setgame.cli.main import main; main()"]
        decode: list[tuple[float, float]] = []
        command: list[tuple[float, float]] = []
        library: list[float] = []
        found = 0
        for _ in range(args.tries):
            decode.append(timed([sys.executable, "-c", DECODE, str(path)]))
            command.append(timed([*setgame, "photo", str(path), "--json"]))
            start = time.perf_counter()
            reading = read_photo(data)
            library.append(time.perf_counter() - start)
            found = sum(a == b for a, b in zip(sorted(c.code for c in reading.cards),
                                                sorted(photo.codes), strict=False))  # fmt: skip
    result = {
        "image": f"{photo.image.shape[1]} x {photo.image.shape[0]} JPEG, {len(data):,} bytes",
        "tries": args.tries,
        "decode_s": median(decode, 0),
        "photo_s": median(command, 0),
        "decode_cpu_s": median(decode, 1),
        "photo_cpu_s": median(command, 1),
        "read_photo_s": round(statistics.median(library), 3),
        "ratio": round(median(command, 0) / median(decode, 0), 2),
        # each try's photo over the decoding timed just before it, in the same minute
        "ratio_spread": spread([c[0] / d[0] for c, d in zip(command, decode, strict=True)]),
        "decode_spread_s": spread([d[0] for d in decode]),
        "photo_spread_s": spread([c[0] for c in command]),
        "read_photo_spread_s": spread(library),
        "cpu_ratio": round(median(command, 1) / median(decode, 1), 2),
        "cards_read_right": f"{found} of {len(photo.codes)}",
        "load_before": [round(v, 2) for v in load_before],
        "load_after": [round(v, 2) for v in os.getloadavg()],
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"image: {result['image']}; {result['cards_read_right']} cards read right")
    print(f"load average {' '.join(map(str, result['load_before']))} (before), "
          f"{' '.join(map(str, result['load_after']))} (after), {result['cpus']} CPUs")  # fmt: skip
    print(f"median of {args.tries} tries, each a fresh process:")
    print("  (wall clock; CPU time user + system)")
    print(f"  decode alone (python -c, Pillow, full size): {result['decode_s']:.3f} s "
          f"({_range(result['decode_spread_s'])}); CPU {result['decode_cpu_s']:.3f} s")
    print(f"  setgame photo IMAGE --json:                  {result['photo_s']:.3f} s "
          f"({_range(result['photo_spread_s'])}); CPU {result['photo_cpu_s']:.3f} s "
          "(target: at most 2 s)")
    print(f"  read_photo in this process:                  {result['read_photo_s']:.3f} s "
          f"({_range(result['read_photo_spread_s'])})")
    print(f"ratio photo_vs_decode: {result['ratio']:.2f}x (tries "
          f"{result['ratio_spread'][0]:.2f}-{result['ratio_spread'][1]:.2f}x; "
          f"CPU: {result['cpu_ratio']:.2f}x)")


def _range(low_high: list[float]) -> str:
    return f"{low_high[0]:.3f}-{low_high[1]:.3f} s"


if __name__ == "__main__":
    main()
