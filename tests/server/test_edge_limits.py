"""Every limit (``setgame.server.limits``): bounded, documented, read from its variable, and a
bad value refused with a message quoting it."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from setgame.server.limits import ENV_PREFIX, LimitError, Limits, limits_from_env

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
NUMBERS = [  # a bool is an int too: switches have no bounds
    f for f in fields(Limits) if type(f.default) in (int, float)
]


@pytest.mark.parametrize("field", fields(Limits), ids=lambda f: f.name)
def test_every_limit_is_documented_with_its_variable(field: object) -> None:
    name = ENV_PREFIX + field.name.upper()  # type: ignore[attr-defined]
    assert f"`{name}`" in DEPLOY.read_text(encoding="utf-8")
    assert field.metadata["doc"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("field", NUMBERS, ids=lambda f: f.name)
def test_every_number_is_bounded_and_refused_outside(field: object) -> None:
    meta, name = field.metadata, field.name  # type: ignore[attr-defined]
    key = ENV_PREFIX + name.upper()
    assert meta["min"] <= field.default <= meta["max"]  # type: ignore[attr-defined]
    for bad in (str(meta["min"] - 1), str(meta["max"] * 10), "", "many", "inf"):
        with pytest.raises(LimitError) as refused:
            Limits.from_env({key: bad})
        assert key in str(refused.value) and repr(bad) in str(refused.value)
    value = Limits.from_env({key: f" {meta['max']} "})
    assert getattr(value, name) == meta["max"]


def test_trusted_proxies_take_addresses_and_networks_only() -> None:
    assert Limits().trusted_proxies == ""  # nobody's X-Forwarded-For by default
    limits = limits_from_env(["127.0.0.1", "10.1.2.3/8"], env={})
    assert limits.trusted_proxies == "127.0.0.1,10.1.2.3/8"
    for bad in ("localhost", "10.0.0.0/33", "*"):
        with pytest.raises(LimitError, match=repr(bad).replace("*", r"\*")):
            limits_from_env([bad], env={})
