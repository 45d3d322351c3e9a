"""``setgame play --arena URL`` (issue 23): the terminal joins an arena on a real server
process (its times scaled down, ``server.arenakit``), is paired with a scripted player,
plays the game by keys, and shows the standings between games; an arena that is not there
and a bad address are said in words, exit 2."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.arenakit import BY_HAND, Player, free_port, new_arena, server
from setgame.cli.main import main
from setgame.tui.app import SetApp
from setgame.tui.arena import ArenaSession
from tui.tuikit import FakeClock, a_set, keys_for, message, until

pytestmark = pytest.mark.slow

_until = functools.partial(until, timeout=20)  # an arena's steps wait on its pairing rounds


@pytest.fixture(scope="module")
def arena_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = Path(tmp_path_factory.mktemp("tui-arena")) / "arena.db"
    with server(db, free_port(), BY_HAND) as base:
        yield base


def _board(app: SetApp) -> str:
    return str(app.arena_board.content)


async def test_the_terminal_plays_an_arenas_pairing_and_shows_the_standings(
    arena_base: str, clock: FakeClock
) -> None:
    arena = new_arena(arena_base, "TuiHost")
    session = ArenaSession(f"{arena_base}/arena/{arena}", name="Tess")
    app = SetApp(session, clock=clock, poll_seconds=3600)
    olga = Player(arena_base, arena, "Olga", delay=6.0)  # much slower than Tess's keys
    async with app.run_test(size=(100, 30)) as pilot:
        await _until(app, clock, lambda: app.view.get("phase") == "arena")
        assert app.screen.has_class("arena-between") and app.arena_board.display
        await _until(app, clock, lambda: "Tess" in _board(app), timeout=2)
        assert "Arena: Classic" in _board(app)
        assert "p: pause or play on" in str(app.holder_bar.content)
        opponent = asyncio.create_task(olga.run(time.monotonic() + 60))
        await _until(app, clock, lambda: app.view.get("phase") == "playing")
        assert not app.screen.has_class("arena-between")
        assert _board(app).startswith("Arena: Classic · place ")  # one line beside the game
        names = sorted(p["name"] for p in app.view["players"])
        assert names == ["Olga", "Tess"] and app.view["you"] is not None
        await pilot.press("p")  # pause: this game goes on, no new one comes after it
        await _until(app, clock, lambda: " · paused · " in _board(app))

        while app.view["phase"] == "playing":  # Tess takes sets by keys
            triple = a_set(app)
            if triple is None or app.view.get("holder") is not None:
                await _until(app, clock, lambda: True)
                continue
            await pilot.press("space")
            await _until(app, clock, lambda: app.view.get("holder") is not None)
            if app.view["holder"] != app.view["you"]:
                continue
            await pilot.press(*keys_for(app, triple))
            gone = lambda: triple[0] not in app.view["table"] or app.view["phase"] != "playing"  # noqa: B023, E731
            await _until(app, clock, gone)
        assert app.view["phase"] == "match_over"
        assert "the arena pairs you again by itself" in str(app.holder_bar.content)

        # the results a moment, then the standings: Tess won, 2 points in 1 game
        await _until(app, clock, lambda: app.view.get("phase") == "arena", timeout=10)
        await _until(app, clock, lambda: "1. Tess — 2 points, 1 game [paused]" in _board(app))
        assert "2. Olga — 0 points, 1 game" in _board(app)
        assert "Paused: press p to play on." in _board(app)
        await _until(app, clock, lambda: True, timeout=1)
        assert app.view["phase"] == "arena"  # paused: not paired again
        await pilot.press("p")  # play on: paired with Olga again
        await _until(app, clock, lambda: "Paused" not in _board(app))
        await _until(app, clock, lambda: app.view["phase"] != "arena")
        await pilot.press("q", "y")
    opponent.cancel()
    await asyncio.gather(opponent, return_exceptions=True)
    assert session.ws is not None and session.ws.close_code is not None


async def test_an_arena_that_is_not_there_is_said_in_words(
    arena_base: str, clock: FakeClock
) -> None:
    app = SetApp(ArenaSession(f"{arena_base}/arena/nosuch", name="Tess"), lang="de", clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        said = message(app)
        assert "gibt es keine Arena „nosuch“" in said and "4004" not in said
        assert app.screen.has_class("failed")
        await pilot.press("q", "y")
    assert app.return_code == 2


def test_a_bad_arena_address_exits_2_quoting_it(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in ("http://127.0.0.1:8000/room/abc", "nonsense", "ftp://host/arena/x"):
        with pytest.raises(SystemExit) as done:
            main(["play", "--arena", bad])
        err = capsys.readouterr().err
        assert done.value.code == 2, err
        assert err.startswith("setgame: error: not an arena address: ") and repr(bad) in err
        assert "Traceback" not in err and err.count("\n") == 1


def test_the_arena_option_is_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    assert "--arena" in out and "/arena/<id>" in out


async def test_the_terminal_comes_back_to_the_arena_after_a_restart(
    tmp_path: Path, clock: FakeClock
) -> None:
    """The server stops and starts again (the arena's standings are stored): the terminal
    says it reconnects, comes back with its participant's token, and is still in."""
    db, port = tmp_path / "restart.db", free_port()
    with contextlib.ExitStack() as running:
        base = running.enter_context(server(db, port, BY_HAND))
        arena = new_arena(base, "TuiHost")
        session = ArenaSession(f"{base}/arena/{arena}", name="Tess")
        app = SetApp(session, clock=clock, poll_seconds=3600)
        async with app.run_test(size=(100, 30)) as pilot:
            await _until(app, clock, lambda: "1. Tess — 0 points, 0 games" in _board(app))
            assert session.token
            running.close()  # the server stops
            await _until(app, clock, lambda: "reconnecting" in message(app))
            assert session.offline
            running.enter_context(server(db, port, BY_HAND))  # and starts again
            await _until(app, clock, lambda: message(app) == "Connected again", timeout=60)
            await _until(app, clock, lambda: "1. Tess — 0 points, 0 games" in _board(app))
            assert not session.offline and (session.you or {}).get("state") == "waiting"
            await pilot.press("q", "y")
        assert app.return_code == 0
