"""The clock the status bar shows: time played, stopped between rounds and while offline.

The engine's clock is the match's: it runs from the first deal to the end, breaks
included, and a room's view keeps it going while the socket is closed. The screen
shows the time spent playing: the clock stands still from a round's end to the next
deal and while the connection is lost, and goes on from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class GameClock:
    """Time played, from the views' match clock.

    >>> c = GameClock()
    >>> c.shown({"phase": "playing", "clock": 10.0})
    10.0
    >>> over = {"phase": "round_over"}
    >>> c.shown({**over, "clock": 10.5}), c.shown({**over, "clock": 39})
    (10.0, 10.0)
    >>> c.shown({"phase": "playing", "clock": 40.0})  # 29.5 s between rounds not counted
    10.5
    >>> c.shown({"phase": "playing", "clock": 41.5}), c.shown({"phase": "playing", "clock": 1.0})
    (12.0, 1.0)
    """

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self._paused = 0.0  # match-clock seconds not played
        self._stopped_at: float | None = None  # match clock when it stopped
        self._last = 0.0  # the latest match clock seen
        self._shown = 0.0

    def shown(self, view: Mapping[str, Any], *, offline: bool = False) -> float:
        """The seconds to show for ``view``."""
        raw = view.get("clock")
        if not isinstance(raw, int | float):
            return self._shown
        clock = float(raw)
        if clock < self._last:  # a new match: the clock started again
            self._reset()
        self._last = clock
        if view.get("phase") == "match_over" and self._stopped_at is None:
            self._shown = max(0.0, clock - self._paused)  # the engine stopped it at the end
        if view.get("phase") != "playing" or offline:
            if self._stopped_at is None:
                self._stopped_at = clock
            return self._shown
        if self._stopped_at is not None:
            self._paused += max(0.0, clock - self._stopped_at)
            self._stopped_at = None
        self._shown = max(0.0, clock - self._paused)
        return self._shown
