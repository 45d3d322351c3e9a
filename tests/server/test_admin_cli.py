"""``setgame admin``: the host grants, revokes and lists roles on the server's database;
bad input is one line quoting it, exit status 2, no traceback."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from clikit import assert_usage_error
from setgame.server.accounts import Accounts
from setgame.server.moderation import roles_of
from setgame.server.storage import Storage


async def _storage(db: Path) -> Storage:
    storage = Storage(str(db), create=True)
    await storage.open()
    return storage


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A server's database with the accounts "Ann" and "Bob"."""
    path = tmp_path / "setgame.db"

    async def make() -> None:
        storage = await _storage(path)
        try:
            for name in ("Ann", "Bob"):
                await Accounts(storage).claim(name, "correct horse")
        finally:
            await storage.close()

    asyncio.run(make())
    return path


def _roles(db: Path, name: str) -> set[str]:
    async def read() -> set[str]:
        storage = await _storage(db)
        try:
            account = await Accounts(storage).by_name(name)
            assert account is not None
            return await roles_of(storage, account.id)
        finally:
            await storage.close()

    return asyncio.run(read())


def test_grant_revoke_and_list_roles(setgame: Any, db: Path) -> None:
    assert setgame("admin", "list", "--db", str(db))[1] == "No account holds a role.\n"
    code, out, _ = setgame("admin", "grant", "ann", "moderator", "--db", str(db))
    assert (code, out) == (0, "Ann is now moderator.\n")  # any spelling of the name
    assert setgame("admin", "grant", "Bob", "admin", f"--db={db}")[1] == "Bob is now admin.\n"
    again = setgame("admin", "grant", "Ann", "moderator", "--db", str(db))
    assert again[1] == "Ann was already moderator.\n"
    assert _roles(db, "Ann") == {"moderator"}
    code, out, _ = setgame("admin", "list", "--db", str(db))
    rows = [line.split("\t") for line in out.splitlines()]
    assert [(name, role) for name, role, _ in rows] == [("Ann", "moderator"), ("Bob", "admin")]
    assert all(since.endswith(" UTC") for *_, since in rows)
    code, out, _ = setgame("admin", "revoke", "Ann", "moderator", "--db", str(db))
    assert (code, out) == (0, "Ann is no longer moderator.\n")
    assert setgame("admin", "revoke", "Ann", "moderator", "--db", str(db))[1] == (
        "Ann was not moderator.\n"
    )
    assert _roles(db, "Ann") == set()


def test_the_default_database_is_serves(
    setgame: Any, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(db.parent)  # setgame.db in the working folder, as `setgame serve`
    assert setgame("admin", "grant", "Bob", "moderator")[0] == 0
    assert _roles(db, "Bob") == {"moderator"}


@pytest.mark.parametrize(
    ("args", "tokens"),
    [
        (["grant", "Nobody", "moderator"], ["no account is named 'Nobody'"]),
        (["grant", "Ann", "overlord"], ["'overlord'", "moderator", "admin"]),
        (["revoke", "Ann", "king"], ["'king'"]),
        (["grant", "Ann"], ["Missing argument 'role'"]),
        (["grant", "\x07bell", "admin"], ["'\\x07bell'"]),
    ],
)
def test_bad_input_is_one_line_quoting_it_exit_2(
    setgame: Any, db: Path, args: list[str], tokens: list[str]
) -> None:
    assert_usage_error(setgame("admin", *args, "--db", str(db)), *tokens)


def test_a_missing_database_is_not_created(setgame: Any, tmp_path: Path) -> None:
    missing = tmp_path / "none.db"
    assert_usage_error(setgame("admin", "list", "--db", str(missing)), str(missing), "--create-db")
    assert not missing.exists()
    bad_url = setgame("admin", "list", "--db", "mysql://x/y")
    assert_usage_error(bad_url, "'mysql://x/y'")


def test_help_names_the_commands(setgame: Any) -> None:
    code, out, _ = setgame("admin", "--help")
    assert code == 0 and all(word in out for word in ("grant", "revoke", "list"))
    code, out, _ = setgame("--help")
    assert code == 0 and "admin" in out
    code, out, _ = setgame("admin", "grant", "--help")
    assert code == 0 and "--db" in out
