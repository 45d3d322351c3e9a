"""How well ``setgame.photo`` reads photos: per kind of photo and per attribute (docs/photo.md).

Three sources, each split into what the reader was tuned on and what it is measured on:

- ``rendered``: tables made up by :mod:`setgame.photo.render` (kinds: dark, wood, white,
  pattern, clutter, warm, cool, webcam, print, steep); tuned on seeds 0-9, measured on
  seeds 1000 and up (``--seeds N`` of them per kind).
- ``boards``: the 24 phone photos of nine cards in ``../shared/photos/boards`` (one
  photographer, one deck, a black table): the 11 taken on 2016-12-31 for tuning, the 13
  taken on 2017-01-01 measured.
- ``crops``: the 3,240 single-card photos (the card already cut out: this measures the
  reading of a card, not the finding); tuned on files ``_00`` to ``_19`` of each card,
  measured on ``_20`` to ``_39``.

- ``harder`` (only with ``--only harder``): tables made up by :mod:`setgame.photo.harder`
  (touching cards, hard shadows, glare, 2700 K and 9000 K light, tablecloths, a moving
  webcam, a phone 30-40 degrees from flat, a pale print, many small cards); developed on
  seeds 0-9, measured on seeds 1000 and up (and 2000 and up: ``--first 2000``).

A card counts as found when a reported card's centre lies inside its true outline; as read
right when its code is also right. "reported right" is the share of reported cards that are
a true card read right (a card reported on a box or a sheet of paper is wrong). A photo's
sets are right when every set of the true table was found and no other.

    python scripts/photo_accuracy.py                  # measured part, 3 seeds per kind
    python scripts/photo_accuracy.py --seeds 10 --tuning   # the tuning part instead
    python scripts/photo_accuracy.py --only boards crops
    python scripts/photo_accuracy.py --only harder --seeds 5 --cache /tmp/photos
    python scripts/photo_accuracy.py --only harder --seeds 5 --first 2000   # a second part
    python scripts/photo_accuracy.py --only harder --seeds 5 --first 1000 2000   # both, summed
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from setgame.photo import harder, read_photo
from setgame.photo.card import read_card
from setgame.photo.reading import sets_of
from setgame.photo.render import KINDS, Scene, scene
from setgame.rules.cards import ATTRIBUTE_NAMES, attributes, parse_card

ROOT = Path(__file__).resolve().parents[1]
#: Where the labelled real photos are: $SETGAME_PHOTOS, else ``shared/photos`` beside the
#: repository (or beside the folder of work trees that holds it).
PHOTOS = next(
    (p for p in (Path(os.environ.get("SETGAME_PHOTOS", "/nonexistent")),
                 ROOT.parent / "shared" / "photos", ROOT.parents[1] / "shared" / "photos")
     if (p / "labels.json").exists()),
    ROOT.parent / "shared" / "photos",
)  # fmt: skip


@dataclass
class Tally:
    """Counts for one kind of photo."""

    photos: int = 0
    cards: int = 0
    found: int = 0
    right: int = 0
    reported: int = 0
    reported_right: int = 0
    attributes: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    sets_right: int = 0
    seconds: float = 0.0
    misses: list[str] = field(default_factory=list)

    def add_card(self, truth: str, read: str | None, where: str) -> None:
        self.cards += 1
        if read is None:
            self.misses.append(f"{where}: {truth} not found")
            return
        self.found += 1
        self.right += read == truth
        true_values, read_values = attributes(parse_card(truth)), attributes(parse_card(read))
        for i in range(4):
            self.attributes[i] += true_values[i] == read_values[i]
        if read != truth:
            self.misses.append(f"{where}: {truth} read as {read}")

    def row(self, name: str) -> dict[str, Any]:
        def share(a: int, b: int) -> float:
            return round(100 * a / b, 1) if b else 100.0

        return {
            "kind": name, "photos": self.photos, "cards": self.cards,
            "found": share(self.found, self.cards), "read right": share(self.right, self.cards),
            "reported right": share(self.reported_right, self.reported),
            **{a: share(self.attributes[i], self.found) for i, a in enumerate(ATTRIBUTE_NAMES)},
            "sets right": share(self.sets_right, self.photos) if self.photos else "-",
            "s/photo": round(self.seconds / self.photos, 2) if self.photos else "-",
        }  # fmt: skip


def centre_inside(corners: Any, quad: np.ndarray) -> bool:
    x, y = np.mean(np.asarray(corners, dtype=np.float32), axis=0)
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32), (float(x), float(y)),
                                False) >= 0  # fmt: skip


def score_photo(tally: Tally, data: bytes, truth: list[str], quads: list[np.ndarray] | None,
                where: str) -> None:  # fmt: skip
    """Read one photo and count it. With ``quads`` (the rendered photos) a reported card is
    the true card whose outline holds its centre; without (the boards: their outlines are not
    labelled), it is matched by its code, and the cards left over are paired in order (so a
    card read wrong still counts in the attributes, approximately)."""
    start = time.perf_counter()
    reading = read_photo(data)
    tally.seconds += time.perf_counter() - start
    tally.photos += 1
    tally.reported += len(reading.cards)
    codes = [card.code for card in reading.cards]
    if quads is not None:
        paired: dict[int, int] = {}
        for j, card in enumerate(reading.cards):
            inside = [i for i, q in enumerate(quads) if centre_inside(card.corners, q)]
            # cards that overlap: the one whose middle is nearest
            centre = np.mean(np.asarray(card.corners, dtype=np.float32), axis=0)
            inside.sort(key=lambda i: float(np.hypot(*(quads[i].mean(axis=0) - centre))))
            if inside and inside[0] not in paired:
                paired[inside[0]] = j
        for i, code in enumerate(truth):
            tally.add_card(code, codes[paired[i]] if i in paired else None, where)
        tally.reported_right += sum(codes[j] == truth[i] for i, j in paired.items())
        for j, card in enumerate(reading.cards):
            if j not in paired.values():
                tally.misses.append(f"{where}: {card.code} reported where no card lies")
    else:
        left = list(codes)
        missing = []
        for code in truth:
            if code in left:
                left.remove(code)
                tally.add_card(code, code, where)
                tally.reported_right += 1
            else:
                missing.append(code)
        for code in missing:
            tally.add_card(code, left.pop(0) if left else None, where)
    tally.sets_right += sorted(map(sorted, reading.sets)) == sorted(map(sorted, sets_of(truth)))


def rendered(seeds: Sequence[int], kinds: list[str], cache: Path | None = None,
             source: str = "rendered") -> dict[str, Tally]:  # fmt: skip
    """Made-up photos of each kind (``source``: ``rendered`` by :mod:`setgame.photo.render`,
    ``harder`` by :mod:`setgame.photo.harder`), each kept in ``cache`` once made."""
    tallies: dict[str, Tally] = defaultdict(Tally)
    make = harder.scene if source == "harder" else scene
    for kind in kinds:
        for seed in seeds:
            data, codes, quads = made(make, kind, seed, cache, source)
            name = f"{kind} (harder)" if source == "harder" else kind
            score_photo(tallies[name], data, codes, quads, f"{kind}/{seed}")
    return tallies


def made(make: Any, kind: str, seed: int, cache: Path | None,
         source: str) -> tuple[bytes, list[str], list[np.ndarray]]:  # fmt: skip
    """A made-up photo as a JPEG, its codes and its cards' outlines (from ``cache`` if it
    was made before: making a photo takes longer than reading it)."""
    stem = None if cache is None else cache / f"{source}-{kind}-{seed}"
    if stem is not None and stem.with_suffix(".json").exists():
        truth = json.loads(stem.with_suffix(".json").read_text())
        quads = [np.array(q, np.float32) for q in truth["corners"]]
        return stem.with_suffix(".jpg").read_bytes(), truth["codes"], quads
    photo: Scene = make(kind, seed)
    data = photo.jpeg()
    if stem is not None:
        stem.parent.mkdir(parents=True, exist_ok=True)
        stem.with_suffix(".jpg").write_bytes(data)
        corners = [q.tolist() for q in photo.corners]
        stem.with_suffix(".json").write_text(json.dumps({"codes": photo.codes,
                                                          "corners": corners}))  # fmt: skip
    return data, photo.codes, photo.corners


def boards(tuning: bool) -> dict[str, Tally]:
    labels = json.loads((PHOTOS / "labels.json").read_text())["boards"]
    tally = Tally()
    for path, codes in sorted(labels.items()):
        if ("-20161231_" in path) != tuning:  # tuned on the first day's, measured on the next
            continue
        score_photo(tally, (PHOTOS / path).read_bytes(), codes, None, path)
    return {"boards (real)": tally}


def crops(tuning: bool) -> dict[str, Tally]:
    labels = json.loads((PHOTOS / "labels.json").read_text())["crops"]
    tally = Tally()
    for name, code in sorted(labels.items()):
        index = int(Path(name).stem.rsplit("_", 1)[1])
        if (index < 20) != tuning:
            continue
        rgb = cv2.cvtColor(cv2.imread(str(PHOTOS / "crops" / name)), cv2.COLOR_BGR2RGB)
        start = time.perf_counter()
        reading = read_card(rgb)
        tally.seconds += time.perf_counter() - start
        read = None
        if reading is not None:
            from setgame.rules.cards import card_name, make_card

            read = card_name(make_card(*reading.values))
        tally.add_card(code, read, name)
        tally.reported += read is not None
        tally.reported_right += read == code
    return {"crops (real, one card)": tally}


def table(rows: list[dict[str, Any]]) -> str:
    heads = list(rows[0])
    widths = [max(len(str(h)), *(len(str(r[h])) for r in rows)) for h in heads]
    lines = ["  ".join(str(h).rjust(w) for h, w in zip(heads, widths, strict=True))]
    lines += ["  ".join(str(r[h]).rjust(w) for h, w in zip(heads, widths, strict=True))
              for r in rows]  # fmt: skip
    return "\n".join(lines)


PARTS = ["rendered", "harder", "boards", "crops"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="rendered photos per kind")
    parser.add_argument("--tuning", action="store_true", help="the tuning part instead")
    parser.add_argument("--first", type=int, nargs="+", metavar="FIRST",
                        help="the first seed (default: 0 with --tuning, else 1000); seeds 0-9 "
                        "are the tuning part, 1000 and up measured; several parts are summed")
    parser.add_argument("--only", nargs="*", choices=PARTS,
                        help="the parts measured (default: rendered, boards, crops)")
    parser.add_argument("--kinds", nargs="*", default=list(KINDS), choices=list(KINDS))
    parser.add_argument("--harder-kinds", nargs="*", default=list(harder.KINDS),
                        choices=list(harder.KINDS))
    parser.add_argument("--cache", type=Path, help="keep the made-up photos here")
    parser.add_argument("--misses", action="store_true", help="list every card read wrong")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    firsts = args.first if args.first is not None else [0 if args.tuning else 1000]
    if not 1 <= args.seeds <= 1000:  # each seed of each kind is a photo made and read
        parser.error(f"--seeds: want 1-1000 photos per kind, got {args.seeds}")
    if len(firsts) > 20 or not all(0 <= first <= 10**6 for first in firsts):
        parser.error(f"--first: want at most 20 seeds of 0-1000000, got {firsts}")
    real = {"boards", "crops"} & set(args.only or ())
    if real and not PHOTOS.exists():  # asked for by name: not to be left out in silence
        parser.error(f"no labelled photos at {str(PHOTOS)!r} for {sorted(real)}: "
                     "set SETGAME_PHOTOS")
    if args.only is None:
        args.only = ["rendered", "boards", "crops"]
        if not PHOTOS.exists():
            print(f"photo_accuracy: no labelled photos at {str(PHOTOS)!r} (set SETGAME_PHOTOS):"
                  " the real boards and crops are left out", file=sys.stderr)
    seeds = sorted({first + n for first in firsts for n in range(args.seeds)})
    tallies: dict[str, Tally] = {}
    if "rendered" in args.only:
        tallies.update(rendered(seeds, args.kinds, args.cache))
    if "harder" in args.only:
        tallies.update(rendered(seeds, args.harder_kinds, args.cache, "harder"))
    if "boards" in args.only and PHOTOS.exists():
        tallies.update(boards(args.tuning))
    if "crops" in args.only and PHOTOS.exists():
        tallies.update(crops(args.tuning))
    photos = [t for name, t in tallies.items() if not name.startswith("crops")]
    total = Tally()
    for t in photos:
        for name in ("photos", "cards", "found", "right", "reported", "reported_right",
                     "sets_right", "seconds"):  # fmt: skip
            setattr(total, name, getattr(total, name) + getattr(t, name))
        total.attributes = [a + b for a, b in zip(total.attributes, t.attributes, strict=True)]
    rows = [t.row(name) for name, t in tallies.items()] + [total.row("all photos")]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        part = "tuning" if args.tuning else "measured (not tuned on)"
        print(f"setgame.photo accuracy, {part}; percentages of cards (attributes: of found cards)")
        print(table(rows))
    if args.misses:
        for name, t in tallies.items():
            for miss in t.misses:
                print(f"  {name}: {miss}", file=sys.stderr)


if __name__ == "__main__":
    main()
