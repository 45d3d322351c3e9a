"""Refresh the shipped word lists (``src/setgame/server/wordlists/``) from the npm package
``naughty-words`` (the LDNOOBW lists, CC BY 4.0), unpacked by npm:

    npm pack naughty-words@1.2.0 && tar xzf naughty-words-1.2.0.tgz
    python3 scripts/wordlists.py package/

Writes ``<lang>.txt`` for each language of the clients (one entry a line, as published,
after a header naming the source) and copies the license. Our own changes are not made
here: they are ``keep.txt`` beside the lists (``setgame.server.wordfilter``).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

LANGS = ("en", "ru", "pl", "it", "de")
OUT = Path(__file__).resolve().parent.parent / "src" / "setgame" / "server" / "wordlists"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    package = Path(argv[0])
    meta = json.loads((package / "package.json").read_text())
    if meta.get("name") != "naughty-words" or meta.get("license") != "CC-BY-4.0":
        print(f"{package}: not the naughty-words package (CC-BY-4.0)", file=sys.stderr)
        return 2
    for lang in LANGS:
        words = json.loads((package / f"{lang}.json").read_text(encoding="utf-8"))
        head = (
            f"# {lang}: from the npm package naughty-words {meta['version']}, the List of\n"
            "# Dirty, Naughty, Obscene, and Otherwise Bad Words (LDNOOBW, Shutterstock and\n"
            "# contributors), CC BY 4.0 (LICENSE beside this file); unchanged: written by\n"
            "# scripts/wordlists.py.\n"
        )
        body = "".join(f"{word.strip()}\n" for word in words if word.strip())
        (OUT / f"{lang}.txt").write_text(head + body, encoding="utf-8")
    shutil.copyfile(package / "LICENSE", OUT / "LICENSE")
    print(f"wrote {', '.join(LANGS)} from naughty-words {meta['version']} into {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
