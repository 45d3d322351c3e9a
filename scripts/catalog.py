"""Manage the gettext catalog with Babel: ``python3 scripts/catalog.py extract|update|compile``.

- ``extract``: write ``src/setgame/locale/setgame.pot`` from the code (``babel.cfg``).
- ``update``: merge the ``.pot`` into each language's ``.po`` (new messages empty).
- ``compile``: write each ``.mo`` beside its ``.po`` (a build does this; at run time a
  missing or older ``.mo`` is compiled into a cache, see ``setgame.words.catalog``).

Run from the repository root.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "src" / "setgame" / "locale"
POT = LOCALE / "setgame.pot"
#: The functions whose arguments are messages, Python's and JavaScript's.
KEYWORDS = (
    "gettext:2",
    "ngettext:2,3",
    "pgettext:2c,3",
    "N_",
    "NP_:1c,2",
    "tr:1",
    "t:1",
    "tn:1,2",
)


def extract_args(output: Path) -> list[str]:
    keywords = [arg for k in KEYWORDS for arg in ("-k", k)]
    return [
        "pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"), "--no-default-keywords",
        *keywords, "--no-location", "--sort-output", "--no-wrap", "--project", "setgame",
        "--copyright-holder", "the setgame authors", "-o", str(output), str(ROOT),
    ]  # fmt: skip


def main(command: str) -> None:
    sys.path.insert(0, str(ROOT / "src"))  # the HTML extractor lives in the package
    cli = CommandLineInterface()
    if command == "extract":
        cli.run(extract_args(POT))
    elif command == "update":
        cli.run(["pybabel", "-q", "update", "-i", str(POT), "-d", str(LOCALE), "-D", "setgame",
                 "--no-wrap", "--ignore-obsolete", "--no-fuzzy-matching"])  # fmt: skip
    elif command == "compile":  # as the build does: each .mo with the checksum of its .po
        from setgame.words.catalog import compile_catalog

        for po in sorted(LOCALE.glob("*/LC_MESSAGES/setgame.po")):
            compile_catalog(po, po.with_suffix(".mo"), stamp=True)
    else:
        raise SystemExit(f"unknown command: {command!r} (extract, update or compile)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "")
