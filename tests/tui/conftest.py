"""Fixtures of the terminal game's tests."""

from __future__ import annotations

import pytest
from tests.tui.tuikit import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
