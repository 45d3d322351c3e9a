"""``setgame admin``: the host grants and revokes roles (``moderator``, ``admin``) and lists
them, on the database ``setgame serve`` uses (``--db``, the same default). A running server
sees a change at its next request (roles are read from the database each time).

Bad input (an unknown name or role, a missing database) is one line on standard error
quoting it, exit status 2 (``setgame.cli.commands.run``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Annotated, Any, TypeVar

import typer

from setgame.words.catalog import N_, gettext, language_from_environment

T = TypeVar("T")

admin_app = typer.Typer(
    name="admin",
    help="Grant, revoke and list the roles of accounts (moderator, admin).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help, as the setgame command's
)

Db = Annotated[
    str | None,
    typer.Option("--db", help="Database URL or SQLite file path (as setgame serve takes it)."),
]


UsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
"""click's (Typer vendors its own in newer releases): exit 2, one line (``commands.run``)."""


class Role(StrEnum):
    moderator = "moderator"
    admin = "admin"


def _with_storage(db: str | None, work: Callable[[Any], Awaitable[T]]) -> T:
    """Run ``work(storage)`` on the database (which must exist: nothing is created); a
    database or moderation error is a usage error (exit 2) quoting it."""
    from setgame.server.moderation import ModerationError
    from setgame.server.storage import Storage, StorageError, database_url

    async def run() -> T:
        storage = Storage(database_url(db), create=False)
        await storage.open()
        try:
            return await work(storage)
        finally:
            await storage.close()

    try:
        return asyncio.run(run())
    except (StorageError, ModerationError) as error:
        raise UsageError(str(error)) from None


def _say(message: str, **fields: object) -> None:
    typer.echo(gettext(language_from_environment(), message, **fields))


@admin_app.command("grant")
def grant(
    name: Annotated[str, typer.Argument(help="The account's name.")],
    role: Annotated[Role, typer.Argument(help="moderator or admin.")],
    db: Db = None,
) -> None:
    """Give an account a role."""
    from setgame.server import moderation

    account, new = _with_storage(db, lambda s: moderation.grant(s, name, role.value))
    if new:
        _say(N_("{name} is now {role}."), name=account.name, role=role.value)
    else:
        _say(N_("{name} was already {role}."), name=account.name, role=role.value)


@admin_app.command("revoke")
def revoke(
    name: Annotated[str, typer.Argument(help="The account's name.")],
    role: Annotated[Role, typer.Argument(help="moderator or admin.")],
    db: Db = None,
) -> None:
    """Take a role from an account."""
    from setgame.server import moderation

    account, held = _with_storage(db, lambda s: moderation.revoke(s, name, role.value))
    if held:
        _say(N_("{name} is no longer {role}."), name=account.name, role=role.value)
    else:
        _say(N_("{name} was not {role}."), name=account.name, role=role.value)


@admin_app.command("list")
def list_roles(db: Db = None) -> None:
    """Every role held, by name: name, role, and the day it was granted (UTC)."""
    from setgame.server import moderation

    held = _with_storage(db, moderation.role_holders)
    if not held:
        _say(N_("No account holds a role."))
    for name, role, granted in held:
        typer.echo(f"{name}\t{role}\t{moderation.iso(granted)}")
