"""What the ``setgame`` command offers, and how it stops on an error.

The one-line summaries of its commands, the names ``--variant`` takes, the top-level
help and :func:`exit_with`: shared by the fast entry point (:mod:`setgame.cli.main`)
and the Typer app (:mod:`setgame.cli.commands`), so that neither imports the other's
module for them. Imports nothing: the entry point's start-up stays short.
"""

from __future__ import annotations

import sys
from typing import NoReturn

SUMMARY = "SET, the card game: find sets, check them, simulate games, play."

#: One line per command for ``setgame --help``; the Typer app shows the same lines.
COMMANDS: dict[str, str] = {
    "solve": "Print the sets among CARDS, or among each table read from standard input.",
    "check": "Say whether three cards form a set (exit 0) or explain why not (exit 1).",
    "simulate": "Play whole games with nobody erring and print statistics (R17).",
    "odds": "The probability that random cards hold no set, and the same in play (R17).",
    "photo": "Find the cards and the sets in a photo of a real table (JPEG, PNG, WebP).",
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


#: The names ``--variant`` takes (the registry's, :data:`setgame.rules.variants.VARIANTS`;
#: a test keeps them equal), for the help without importing the variants.
VARIANT_NAMES: tuple[str, ...] = (
    "classic", "junior", "set-chain", "ultraset", "ultraset-chain", "ultra9", "megaset",
    "ghostset", "4set", "4set-junior", "puzzle", "shuffle", "memory",
)  # fmt: skip


def exit_with(message: str, code: int) -> NoReturn:
    """``message`` on standard error, after what standard output holds, and exit ``code``."""
    sys.stdout.flush()
    print(message, file=sys.stderr)
    sys.exit(code)
