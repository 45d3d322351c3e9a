"""Helpers for running the ``setgame`` command in this process (tests/test_cli*.py; the
``setgame`` fixture built on :func:`run` is in tests/conftest.py)."""

from __future__ import annotations

import io
import sys

import pytest

from setgame.cli.main import main


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *args: str,
    stdin: str | None = None,
) -> tuple[int, str, str]:
    """Run ``setgame ARGS`` in this process: (exit status, stdout, stderr)."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out, err = capsys.readouterr()
    code = done.value.code
    return (code if isinstance(code, int) else 0), out, err


def assert_usage_error(result: tuple[int, str, str], *tokens: str) -> None:
    """Exit status 2 and one line on stderr naming every token, no traceback."""
    code, _, err = result
    assert code == 2, result
    assert err.startswith("setgame: error: ")
    assert err.count("\n") == 1, err  # one line
    for token in tokens:
        assert token in err, (token, err)
    assert "Traceback" not in err
