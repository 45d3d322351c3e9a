"""A seated player whose connection is gone for longer than a reload counts as away:
they no longer hold up the no-set vote (R11) or the all-locked-out release (R10)."""

from __future__ import annotations

from itertools import combinations

import pytest

from setgame import is_set, parse_card
from setgame.server.client import Client, create_room


def not_a_set(table: list[str]) -> list[str]:
    for triple in combinations(table, 3):
        if not is_set(*(parse_card(code) for code in triple)):
            return list(triple)
    raise AssertionError(f"every triple of {table!r} is a set")


async def test_r10_lockout_lifts_when_the_other_player_goes_away(
    server_factory: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SETGAME_AWAY_GRACE", "0.5")
    server = server_factory()  # type: ignore[operator]
    rid = await create_room(server, penalty="lockout", pick_seconds=10)
    ann, bob = await Client.connect(server, rid), await Client.connect(server, rid)
    try:
        await ann.join("Ann")
        await bob.join("Bob")
        await ann.start()
        await ann.wait_update(lambda s: s["phase"] == "playing")
        await ann.call()
        await ann.wait_update(lambda s: s["holder"] == ann.player)
        await ann.pick(not_a_set(ann.table))
        await ann.wait_update(lambda s: any(p["locked"] for p in s["players"]))
        await bob.close()  # Bob's browser is gone: after the grace Ann may call again
        update = await ann.wait_update(lambda s: not any(p["locked"] for p in s["players"]), 5)
        kinds = [e["type"] for e in update["events"]]
        assert kinds == ["away", "lockouts_lifted"]
        back = await bob.reconnect()
        await ann.wait_event("back", timeout=5)
        await back.close()
    finally:
        await ann.close()
        await bob.close()
