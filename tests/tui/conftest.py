"""Fixtures of the terminal game's tests."""

from __future__ import annotations

import pytest

from tui.tuikit import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    """The app's clock, moved by the test."""
    return FakeClock()
