"""Helpers of the HTTP API's tests: a refusal, checked as ``docs/protocol.md`` promises it."""

from __future__ import annotations

import httpx


def assert_refused(answer: httpx.Response, code: str, quoted: str, status: int = 400) -> None:
    """``answer`` refuses with ``status`` and the error ``code``, its message quoting
    ``quoted`` (what was wrong in the request)."""
    assert answer.status_code == status, answer.text
    assert answer.json()["code"] == code
    assert quoted in answer.json()["message"]
