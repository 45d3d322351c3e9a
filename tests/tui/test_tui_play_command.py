"""``setgame play --variant NAME`` and ``setgame play --puzzle [DATE]`` (issue 10): the
options reach the terminal app, checked first; bad ones exit 2 quoting them."""

from __future__ import annotations

import datetime
import sys
import types
from typing import Any

import pytest

from setgame.cli.main import main


def _setgame(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, list[dict[str, Any]], str]:
    """Run ``setgame ARGS`` with a stand-in terminal app: (status, its calls, stderr)."""
    calls: list[dict[str, Any]] = []
    module = types.ModuleType("setgame.tui")
    module.run = lambda **kwargs: calls.append(kwargs)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "setgame.tui", module)
    with pytest.raises(SystemExit) as done:
        main(list(args))
    code = done.value.code
    return (code if isinstance(code, int) else 0), calls, capsys.readouterr().err


@pytest.fixture
def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    return lambda *args: _setgame(capsys, monkeypatch, "play", *args)


def _refused(result: tuple[int, list[dict[str, Any]], str], token: str) -> None:
    code, calls, err = result
    assert code == 2 and not calls
    assert err.startswith("setgame: error: ") and err.count("\n") == 1, err
    assert token in err and "Traceback" not in err


def test_play_a_variant(play: Any) -> None:
    code, calls, _ = play("--variant", "UltraSet Chain", "--mode", "bots")
    assert code == 0 and calls[0]["variant"] == "ultraset-chain" and calls[0]["day"] == ""
    code, calls, _ = play("--variant", "classic")
    assert code == 0 and "variant" not in calls[0]  # the classic game, as before variants


def test_play_a_bad_variant_exits_2_quoting_it(play: Any) -> None:
    _refused(play("--variant", "ultrafast"), "'ultrafast'")
    _refused(play("--variant", "megaset", "--deck", "beginner"), "'beginner'")


def test_play_the_daily_puzzle(play: Any) -> None:
    today = datetime.datetime.now(datetime.UTC).date()
    code, calls, _ = play("--puzzle")
    assert code == 0 and calls[0]["variant"] == "puzzle"
    assert calls[0]["day"] in {today.isoformat(), (today + datetime.timedelta(1)).isoformat()}
    code, calls, _ = play("--puzzle", "2026-11-22", "--mode", "practice")
    assert code == 0 and calls[0]["day"] == "2026-11-22" and calls[0]["mode"] == "practice"


def test_play_a_future_or_bad_puzzle_date_exits_2_quoting_it(play: Any) -> None:
    future = (datetime.datetime.now(datetime.UTC).date() + datetime.timedelta(3)).isoformat()
    _refused(play("--puzzle", future), repr(future))
    _refused(play("--puzzle", "2026-13-01"), "'2026-13-01'")
    _refused(play("--puzzle", "yesterday"), "'yesterday'")
    _refused(play("2026-11-22"), "'2026-11-22'")  # a date without --puzzle
    _refused(play("--puzzle", "--variant", "ghostset"), "'ghostset'")
