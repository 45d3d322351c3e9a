"""SET in the terminal (Textual): solo, practice, against bots, or in an online room.

``setgame play`` calls :func:`run`; tests build :class:`~setgame.tui.app.SetApp`
with a session and a clock of their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from setgame.words.i18n import check_language

if TYPE_CHECKING:
    from setgame.tui.app import SetApp

__all__ = ["build_app", "run"]


def build_app(
    mode: str = "solo",
    *,
    bots: int = 1,
    level: int = 2,
    deck: str = "full",
    seed: int | None = None,
    lang: str = "en",
    connect: str | None = None,
    name: str | None = None,
    variant: str = "classic",
    day: str = "",
    signed_in: str | None = None,
    arena: str | None = None,
) -> SetApp:
    """The app for these options; bad options raise ``ValueError`` quoting them."""
    from setgame.tui.app import SetApp
    from setgame.tui.local import LocalSession

    check_language(lang)
    if arena is not None:  # an arena's games, one after another (setgame.tui.arena)
        from setgame.tui.arena import ArenaSession

        return SetApp(ArenaSession(arena, name=name, session=signed_in), lang=lang)
    if connect is not None:
        from setgame.tui.remote import RemoteSession

        return SetApp(RemoteSession(connect, name=name, session=signed_in), lang=lang)
    session = LocalSession(
        mode,
        bots=bots,
        level=level,
        deck=deck,
        seed=seed,
        name=name or "You",
        variant=variant,
        day=day,
    )
    return SetApp(session, lang=lang)


def run(
    mode: str = "solo",
    *,
    bots: int = 1,
    level: int = 2,
    deck: str = "full",
    seed: int | None = None,
    lang: str = "en",
    connect: str | None = None,
    name: str | None = None,
    variant: str = "classic",
    day: str = "",
    signed_in: str | None = None,
    arena: str | None = None,
) -> int:
    """Play in this terminal until the player quits; the exit status: 0, or 2 when the
    room or arena could not be found (a bad address, room or arena), 1 when its server could
    not be reached or went away. Bad options raise ``ValueError`` before the game starts."""
    app = build_app(
        mode,
        bots=bots,
        level=level,
        deck=deck,
        seed=seed,
        lang=lang,
        connect=connect,
        name=name,
        variant=variant,
        day=day,
        signed_in=signed_in,
        arena=arena,
    )
    app.run()
    return app.return_code or 0
