"""The ``setgame`` command: solve, check, simulate, odds, serve, play.

Bad input (an unknown card, a duplicate, a wrong count, a bad option value) is
one line on standard error naming the bad token, and exit status 2.

Start-up is kept close to ``import setgame``: this module imports nothing beyond
the rules core, and answers the hot command lines itself (``setgame``,
``setgame --help``, ``setgame solve [--json] [--variant NAME] [CARDS]``; the
variants, and NumPy with them, are imported only when ``--variant`` is given).
Every other command line goes to the Typer app in :mod:`setgame.commands`, whose import alone costs
several times ``import setgame`` (Typer builds pydantic adapters for each
parameter), and which imports Rich's tables and progress bars only where a
command uses them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from setgame.catalog import gettext, language_from_environment
from setgame.solving import SolveError, solve_cards, solve_stream

if TYPE_CHECKING:
    from setgame.variants import Variant

SUMMARY = "SET, the card game: find sets, check them, simulate games, play."

#: One line per command for ``setgame --help``; the Typer app shows the same lines.
COMMANDS: dict[str, str] = {
    "solve": "Print the sets among CARDS, or among each table read from standard input.",
    "check": "Say whether three cards form a set (exit 0) or explain why not (exit 1).",
    "simulate": "Play whole games with nobody erring and print statistics (R17).",
    "odds": "The probability that random cards hold no set, and the same in play (R17).",
    "serve": "Run the multiplayer game server (web client included).",
    "play": "Play SET in the terminal: solo, against bots, practice, or online.",
    "admin": "Grant, revoke and list moderator and admin roles (on serve's database).",
}


def help_text() -> str:
    """The top-level help, in plain text (no Rich: it is printed on the fast path)."""
    width = max(map(len, COMMANDS))
    lines = [
        "Usage: setgame [OPTIONS] COMMAND [ARGS]...",
        "",
        f"  {SUMMARY}",
        "",
        "Options:",
        "  --help  Show this message and exit.",
        "",
        "Commands:",
        *(f"  {name:<{width}}  {text}" for name, text in COMMANDS.items()),
        "",
        "Run 'setgame COMMAND --help' for the options of a command.",
    ]
    return "\n".join(lines)


#: The names ``--variant`` takes (the registry's, :data:`setgame.variants.VARIANTS`;
#: a test keeps them equal), for the help without importing the variants.
VARIANT_NAMES: tuple[str, ...] = (
    "classic", "junior", "set-chain", "ultraset", "ultraset-chain", "ultra9", "megaset",
    "ghostset", "4set", "4set-junior", "puzzle", "shuffle", "memory",
)  # fmt: skip


def main(argv: Sequence[str] | None = None) -> None:
    """The ``setgame`` entry point: usage errors are one line on stderr, exit 2."""
    args = list(argv) if argv is not None else sys.argv[1:]
    if not args or args == ["--help"]:
        print(help_text())
        sys.exit(0)
    if args[0] == "solve" and (plain := solve_args(args[1:])) is not None:
        _solve(*plain)
    from setgame.commands import run

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
    lang = language_from_environment()  # the words of the catalog (setgame.catalog)
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
    from setgame.variants import VariantError, find_variant

    try:
        return find_variant(name)
    except VariantError as error:
        raise SolveError(str(error)) from None


def exit_with(message: str, code: int) -> NoReturn:
    sys.stdout.flush()
    print(message, file=sys.stderr)
    sys.exit(code)


__all__ = ["COMMANDS", "SUMMARY", "VARIANT_NAMES", "help_text", "main", "solve_args"]
