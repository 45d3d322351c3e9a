"""A player who leaves and joins again during a match is the same seat, through a real server
(R10, R14): the same token, the same signed-in account or (a guest) the same name in that
room takes the departed seat back, with its lockout, its fair-call wait, its points and its
place in the deal. The engine's side is in ``tests/test_rules_audit.py``."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from itertools import combinations
from typing import Any

import pytest

from setgame import is_set, parse_card
from setgame.server.client import Client, ServerError, create_room, table_sets


@pytest.fixture
async def opened() -> AsyncIterator[list[Client]]:
    clients: list[Client] = []
    yield clients
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)


async def seated(
    server: str, clients: list[Client], names: tuple[str, ...], **settings: Any
) -> str:
    room = await create_room(server, **settings)
    for name in names:
        client = await Client.connect(server, room)
        clients.append(client)
        await client.join(name)
    await clients[0].start()
    for client in clients:
        await client.wait_update(lambda s: s["phase"] == "playing")
    return room


async def until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "condition not reached in time"
        await asyncio.sleep(0.005)


def not_a_set(table: list[str]) -> tuple[str, ...]:
    return next(t for t in combinations(table, 3) if not is_set(*map(parse_card, t)))


async def wrong_call(client: Client) -> None:
    await client.call()
    await client.wait_update(lambda s: s["holder"] == client.player)
    await client.pick(not_a_set(client.table))
    await client.wait_event("wrong_call")


async def leave(client: Client, watcher: Client) -> None:
    before = watcher.version
    await client.leave()
    await watcher.wait_event("left", after=before)


async def test_r10_lockout_survives_leave_and_rejoin_through_the_server(
    live_server: str, opened: list[Client]
) -> None:
    await seated(live_server, opened, ("Ann", "Bob", "Cid"), penalty="lockout", no_set="auto")
    ann, bob, _ = opened
    await wrong_call(ann)
    seat = ann.player
    await leave(ann, bob)
    assert bob.seat(seat) is not None and bob.seat(seat)["present"] is False  # kept, departed
    again = await ann.join("Ann")  # the same name in this room: the same person
    assert again == seat
    await until(lambda: bob.seat(seat) is not None and bob.seat(seat)["present"])
    assert ann.me is not None and ann.me["locked"] is True
    await ann.call()
    assert (await ann.wait_error()).code == "locked_out"


async def test_r10_fair_call_wait_and_score_survive_leave_and_rejoin_by_token(
    live_server: str, opened: list[Client]
) -> None:
    room = await seated(
        live_server, opened, ("Ann", "Bob"), penalty="point", no_set="auto", pick_seconds=30
    )
    ann, bob = opened
    cards = table_sets(ann.state)[0]
    await ann.call()
    await ann.wait_update(lambda s: s["holder"] == ann.player)
    await ann.pick(cards)
    await ann.wait_event("set_taken")
    await wrong_call(ann)  # a point back to the box, and 30 s before Ann may call again
    seat, token = ann.player, ann.token
    await leave(ann, bob)
    back = await Client.connect(live_server, room, token=token)  # hello with the old token
    opened.append(back)
    assert back.state is not None and back.state["you"] is None  # departed: a spectator now
    assert await back.join("Annie") == seat  # a new name, the same seat
    await until(lambda: back.me is not None and back.me["present"])
    me = back.me
    assert me is not None and me["name"] == "Annie" and me["wrong"] == 1
    assert me["cooldown_in"] is not None and me["cooldown_in"] > 20
    await back.call()
    assert (await back.wait_error()).code == "cooling_down"


async def test_r14_rejoin_does_not_deal_again(live_server: str, opened: list[Client]) -> None:
    await seated(live_server, opened, ("Ann", "Bob"), deck="beginner", no_set="auto")
    ann, bob = opened
    assert (bob.state or {})["rounds"] == 2
    seat = ann.player
    await leave(ann, bob)
    assert await ann.join("Ann") == seat
    await until(lambda: bob.seat(seat) is not None and bob.seat(seat)["present"])
    assert (bob.state or {})["rounds"] == 2  # not 3: Ann dealt round 1 already
    await until(lambda: (ann.state or {}).get("rounds") == 2)


async def test_r10_someone_else_joining_takes_a_new_seat(
    live_server: str, opened: list[Client]
) -> None:
    await seated(live_server, opened, ("Ann", "Bob", "Cid"), penalty="lockout", no_set="auto")
    ann, bob, _ = opened
    await wrong_call(ann)
    seat = ann.player
    await leave(ann, bob)
    stranger = await Client.connect(live_server, bob.room)
    opened.append(stranger)
    new = await stranger.join("Dee")
    await until(lambda: stranger.me is not None)
    assert new != seat and stranger.me is not None and stranger.me["locked"] is False
    assert bob.seat(seat) is not None and bob.seat(seat)["present"] is False


async def test_a_name_like_another_seats_in_the_room_is_refused(
    live_server: str, opened: list[Client]
) -> None:
    """This project's own rule: a second "Ann" (or a lookalike of it) in one room is refused
    (``name_taken``, quoting it), as a second name is in an arena; a guest back in their own
    departed seat is no other seat."""
    room = await create_room(live_server)
    for name in ("Ann", "Anna"):
        client = await Client.connect(live_server, room)
        opened.append(client)
        await client.join(name)
    ann, anna = opened
    other = await Client.connect(live_server, room)
    opened.append(other)
    for lookalike in ("Ann", "ann", " Ann. ", "Аnn"):  # the last with a Cyrillic А
        with pytest.raises(ServerError) as refused:
            await other.join(lookalike)
        assert refused.value.code in {"name_taken", "name_mixed"}
        assert repr(lookalike.strip()) in str(refused.value)
    with pytest.raises(ServerError) as refused:
        await other.join("ann")
    assert refused.value.code == "name_taken" and "looks like 'Ann'" in str(refused.value)
    await ann.start()
    await anna.wait_update(lambda s: s["phase"] == "playing")
    seat = ann.player
    await leave(ann, anna)
    with pytest.raises(ServerError) as refused:  # not Ann's own spelling: not her seat back
        await other.join("Ann.")
    assert refused.value.code == "name_taken"
    assert await other.join("ANN") == seat  # a guest back by name takes the seat again
    await until(lambda: anna.seat(seat) is not None and anna.seat(seat)["present"])
    shown = sorted(s["name"] for s in anna.state["players"]) if anna.state else []
    assert shown == ["ANN", "Anna"]
