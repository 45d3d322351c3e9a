"""Computer players agree with a person's "no set" within their agree time (R11 vote), over
the real websocket protocol of a running server, as the terminal game's bots do: they have
looked at that table already and only check, they do not take the long look of declaring
first (``Bot.agree_time`` against ``Bot.thinking_time``).

Beginner bots (level 1) look about 32 s on a 12-card table without a set before they say so;
they agree in about 1.8 s (a log-normal spread: under 5.5 s in 999 of 1000). The person takes
every set at once, so the bots hardly ever do, until a table without a set comes up.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from setgame.server.client import Client, create_room, table_sets

PACE = 0.12  # seconds before each call: two messages a take, under 20 a second
AGREE_BOUND = 8.0  # seconds: two level-1 bots agreeing; their own look would take 11 s or more


async def a_table_without_a_set(me: Client, limit: float = 90.0) -> None:
    """Take every set at once (call, pick) until the table holds none while the deck still
    has cards; start the next round or game when one ends."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        state = me.state
        assert state is not None
        if state["phase"] == "round_over":
            await me.start()
        elif state["phase"] == "match_over":
            await me.again()
        elif state["phase"] == "playing" and not state["holder"]:
            sets = table_sets(state)
            if not sets and state["deck"] > 0:
                return
            if sets:
                await asyncio.sleep(PACE)  # within the server's rate limit (docs/protocol.md)
                await me.call()
                await me.wait_update(lambda s: s["holder"] is not None, 5)
                if me.state is not None and me.state["holder"] == me.player:
                    await me.pick(sets[0])
        version = me.version
        await me.wait_update(lambda s, v=version: s["version"] > v, 30)
    raise AssertionError(f"no table without a set in {limit} s")


async def test_r11_bots_agree_with_no_set_within_their_agree_time(live_server: Any) -> None:
    room = await create_room(str(live_server), bots=2, bot_level=1, public=False)
    me = await Client.connect(str(live_server), room)
    try:
        await me.join("Nadia")
        await me.start()
        await me.wait_update(lambda s: s["phase"] == "playing")
        await a_table_without_a_set(me)
        count = len(me.state["table"]) if me.state else 0
        asked = time.monotonic()
        await me.no_set()
        added = await me.wait_event("cards_added", timeout=30)
        waited = time.monotonic() - asked
        assert waited < AGREE_BOUND, f"the bots took {waited:.1f} s to agree"
        assert len(added["cards"]) == 3 and me.state is not None
        assert len(me.state["table"]) == count + 3
    finally:
        await me.close()
