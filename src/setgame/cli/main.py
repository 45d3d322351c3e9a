"""The ``setgame`` command: solve, check, simulate, odds, serve, play.

Bad input (an unknown card, a duplicate, a wrong count, a bad option value) is
one line on standard error naming the bad token, and exit status 2.

Start-up is kept close to ``import setgame``: this module imports nothing beyond
the rules core, and answers the hot command lines itself (``setgame``,
``setgame --help``, ``setgame solve [--json] [--variant NAME] [CARDS]``; the
variants, and NumPy with them, are imported only when ``--variant`` is given).
Every other command line goes to the Typer app in :mod:`setgame.cli.commands`, whose import
alone costs several times ``import setgame`` (Typer builds pydantic adapters for each
parameter), and which imports Rich's tables and progress bars only where a
command uses them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from setgame.analysis.solving import SolveError, solve_cards, solve_stream
from setgame.cli.summary import exit_with, help_text
from setgame.words.catalog import gettext, language_from_environment

if TYPE_CHECKING:
    from setgame.rules.variants import Variant

def main(argv: Sequence[str] | None = None) -> None:
    """The ``setgame`` entry point: usage errors are one line on stderr, exit 2."""
    args = list(argv) if argv is not None else sys.argv[1:]
    if not args or args == ["--help"]:
        print(help_text())
        sys.exit(0)
    if args[0] == "solve" and (plain := solve_args(args[1:])) is not None:
        _solve(*plain)
    from setgame.cli.commands import run

    run(args)


def solve_args(args: list[str]) -> tuple[list[str], bool, str | None] | None:
    """The cards, ``--json`` and ``--variant`` of a plain ``solve`` command line, or
    None when it has anything else (``--help``, a bad option: Typer answers those)."""
    cards: list[str] = []
    as_json, variant = False, None
    rest = iter(args)
    for arg in rest:
        if arg == "--json":
            as_json = True
        elif arg == "--variant":
            variant = next(rest, None)
            if variant is None:
                return None
        elif arg.startswith("--variant="):
            variant = arg.partition("=")[2]
        elif arg.startswith("-"):
            return None
        else:
            cards.append(arg)
    return cards, as_json, variant


def _solve(cards: list[str], as_json: bool, name: str | None) -> NoReturn:
    """``setgame solve`` without Typer: the cards given, or the tables on stdin."""
    lang = language_from_environment()  # the words of the catalog (setgame.words.catalog)
    try:
        variant = None if name is None else _variant(name)
        if cards:
            solve_cards(cards, as_json, sys.stdout, lang, variant)
        else:
            solve_stream(sys.stdin, as_json, sys.stdout, lang, variant)
        sys.stdout.flush()
    except SolveError as error:
        exit_with(gettext(lang, "setgame: error: {message}", message=error), 2)
    except BrokenPipeError:  # `setgame solve < tables | head`: the reader has had enough
        # Point stdout at /dev/null so that the flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except KeyboardInterrupt:
        exit_with("setgame: aborted", 130)
    sys.exit(0)


def _variant(name: str) -> Variant:
    """The variant called ``name``; a SolveError quoting it (and listing the names)."""
    from setgame.rules.variants import VariantError, find_variant

    try:
        return find_variant(name)
    except VariantError as error:
        raise SolveError(str(error)) from None


__all__ = ["main", "solve_args"]
