"""The ``setgame`` command: solve, check, simulate, odds, serve, play.

Bad input (an unknown card, a duplicate, a wrong count, a bad option value) is
one line on standard error naming the bad token, and exit status 2.

Start-up is kept close to ``import setgame``: this module imports nothing beyond
the rules core, and answers the hot command lines itself (``setgame``,
``setgame --help``, ``setgame solve [--json] [CARDS]``). Every other command line
goes to the Typer app in :mod:`setgame.commands`, whose import alone costs
several times ``import setgame`` (Typer builds pydantic adapters for each
parameter), and which imports Rich's tables and progress bars only where a
command uses them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from setgame.catalog import gettext, language_from_environment
from setgame.solving import SolveError, solve_cards, solve_stream

SUMMARY = "SET, the card game: find sets, check them, simulate games, play."

#: One line per command for ``setgame --help``; the Typer app shows the same lines.
COMMANDS: dict[str, str] = {
    "solve": "Print the sets among CARDS, or among each table read from standard input.",
    "check": "Say whether three cards form a set (exit 0) or explain why not (exit 1).",
    "simulate": "Play whole games with nobody erring and print statistics (R17).",
    "odds": "The probability that random cards hold no set, and the same in play (R17).",
    "serve": "Run the multiplayer game server (web client included).",
    "play": "Play SET in the terminal: solo, against bots, practice, or online.",
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


def main(argv: Sequence[str] | None = None) -> None:
    """The ``setgame`` entry point: usage errors are one line on stderr, exit 2."""
    args = list(argv) if argv is not None else sys.argv[1:]
    if not args or args == ["--help"]:
        print(help_text())
        sys.exit(0)
    if args[0] == "solve" and all(a == "--json" or not a.startswith("-") for a in args[1:]):
        _solve(args[1:])
    from setgame.commands import run

    run(args)


def _solve(args: list[str]) -> NoReturn:
    """``setgame solve`` without Typer: the cards given, or the tables on stdin."""
    as_json = "--json" in args
    cards = [a for a in args if a != "--json"]
    lang = language_from_environment()  # the words of the catalog (setgame.catalog)
    try:
        if cards:
            solve_cards(cards, as_json, sys.stdout, lang)
        else:
            solve_stream(sys.stdin, as_json, sys.stdout, lang)
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


def exit_with(message: str, code: int) -> NoReturn:
    sys.stdout.flush()
    print(message, file=sys.stderr)
    sys.exit(code)


__all__ = ["COMMANDS", "SUMMARY", "help_text", "main"]
