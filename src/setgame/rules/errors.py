"""The engine's one exception: an action or setting the rules do not allow."""

from __future__ import annotations


class GameError(ValueError):
    """An action the rules do not allow now. ``code`` is a short stable string."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
