"""A fair per-address room cap (issue 21, finding 3): rooms finished or left do not count
against an address; solo, practice and the daily puzzle are never refused for other rooms;
a refusal names the rooms that count and that the player holds (their seat token, their
account), so that the page links to them, and only counts the others behind the address."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx

from server.roomkit import FakeConnection, practice_to_the_end, registry
from setgame.server.client import SESSION_COOKIE, Client, create_room, sign_in, table_groups
from setgame.server.limits import Limits
from setgame.server.protocol import RoomSettings
from setgame.server.puzzle import utc_now
from setgame.server.roomcap import SEATS_HEADER


async def play_solo_to_the_end(base: str, **settings: Any) -> str:
    """A solo room created over HTTP and played to its end over its websocket, as the page
    does; returns the room id."""
    rid = await create_room(base, mode="solo", public=False, **settings)
    async with await Client.connect(base, rid) as me:
        await me.join("Dana")
        await me.start()
        state = (await me.wait_update(lambda s: s["phase"] != "lobby"))["state"]
        while state["phase"] == "playing":
            groups = table_groups(state)
            if groups:
                await me.pick(groups[0])
            else:
                await me.no_set()
            version = me.version
            state = (await me.wait_update(lambda s, v=version: s["version"] > v))["state"]
        assert state["phase"] == "match_over", state["phase"]
    return rid


async def test_one_address_plays_30_solo_games_and_the_daily_puzzle(server_factory: Any) -> None:
    """With the default caps (20 rooms an address): 30 solo games one after the other, then
    the day's puzzle, from one address, none refused (they were, from the 21st)."""
    server = server_factory()
    played = [await play_solo_to_the_end(server, deck="beginner") for _ in range(30)]
    assert len(set(played)) == 30
    puzzle = await play_solo_to_the_end(server, variant="puzzle", day=utc_now().date().isoformat())
    async with httpx.AsyncClient(base_url=str(server), trust_env=False) as http:
        state = (await http.get(f"/api/rooms/{puzzle}")).json()["state"]
    assert state["phase"] == "match_over"


async def test_solo_is_never_refused_for_open_multiplayer_rooms(server_factory: Any) -> None:
    server = server_factory(env={"SETGAME_ROOMS_PER_CLIENT": "2"})
    async with httpx.AsyncClient(base_url=str(server), trust_env=False) as http:
        multi = [await http.post("/api/rooms", json={"mode": "multi"}) for _ in range(3)]
        assert [r.status_code for r in multi] == [201, 201, 429]
        refused = multi[-1].json()
        ids = sorted(r.json()["id"] for r in multi[:2])
        assert refused["code"] == "too_many_rooms"
        assert len(ids) == 2 and refused["rooms"] == [] and refused["others"] == 2  # nobody's seat
        assert "2 open multiplayer rooms (at most 2)" in refused["message"]
        for settings in ({"mode": "solo"}, {"mode": "practice"}):
            assert (await http.post("/api/rooms", json=settings)).status_code == 201
        day = {"mode": "solo", "variant": "puzzle", "day": utc_now().date().isoformat()}
        assert (await http.post("/api/rooms", json=day)).status_code == 201


async def test_finished_and_left_rooms_stop_counting(tmp_path: Path) -> None:
    limits = Limits(rooms_per_client=2, left_seconds=0.3)
    async with registry(tmp_path / "r.db", limits) as rooms:
        first = await rooms.create(RoomSettings(), "10.0.0.1")
        conn = FakeConnection()
        first.attach(conn)  # open: it counts however long ago it was created
        left = await rooms.create(RoomSettings(), "10.0.0.1")
        assert sorted(rooms.counting("10.0.0.1")) == sorted([first.id, left.id])
        await asyncio.sleep(0.4)  # nobody opened the second one: left
        assert rooms.counting("10.0.0.1") == [first.id]
        third = await rooms.create(RoomSettings(), "10.0.0.1")
        assert sorted(rooms.counting("10.0.0.1")) == sorted([first.id, third.id])
        left.attach(FakeConnection())  # someone came back: it counts again
        assert len(rooms.counting("10.0.0.1")) == 3


async def test_a_finished_multiplayer_room_does_not_count(tmp_path: Path) -> None:
    async with registry(tmp_path / "r.db", Limits(rooms_per_client=1)) as rooms:
        room = await rooms.create(RoomSettings(deck="beginner"), "10.0.0.1")
        conn = FakeConnection()
        room.attach(conn)
        await room.start(await room.join(conn, "Ann", "10.0.0.1"))
        assert rooms.counting("10.0.0.1") == [room.id]
        while room.phase == "playing":
            groups = table_groups(room.view(None))
            player = next(iter(room.seats))
            if groups:
                await room.call(player, room.version)
                await room.pick(player, list(groups[0]), room.version)
            else:
                await room.no_set(player)
        assert room.phase == "match_over"
        assert rooms.counting("10.0.0.1") == []  # still open in the player's tab: not counted
        await rooms.create(RoomSettings(), "10.0.0.1")


async def test_idle_rooms_of_an_address_make_way_for_its_new_ones(tmp_path: Path) -> None:
    """An address at its cap of rooms in memory: its idle, uncounted rooms leave memory
    (the longest idle first), so that one address never fills the server with them."""
    limits = Limits(rooms_per_client=3, away_grace=0.1)
    async with registry(tmp_path / "r.db", limits) as rooms:
        done = [await practice_to_the_end(rooms) for _ in range(3)]
        give_up = time.monotonic() + 10  # idle from their last durable write, which a busy
        while not all(r.idle(time.monotonic(), 0.1) for r in done):  # machine may delay
            assert time.monotonic() < give_up, "the finished rooms never went idle"
            await asyncio.sleep(0.05)
        for _ in range(2):
            await rooms.create(RoomSettings(mode="solo"), "10.0.0.1")
        mine = rooms.by_client["10.0.0.1"]
        assert len(mine) == 3
        assert done[0].id not in mine and done[1].id not in mine and done[2].id in mine
        assert await rooms.load(done[0].id) is not None  # a finished game stays, for its replay


PASSWORD = "correct horse"


async def test_a_refusal_names_only_the_rooms_the_player_holds(server_factory: Any) -> None:
    """Three people behind one address (a classroom) each open a room and sit in it: the
    fourth room is refused, and each is shown their own room (by the seat token the page
    sends, or by their signed-in account) and only the number of the others'."""
    server = str(server_factory(env={"SETGAME_ROOMS_PER_CLIENT": "3"}))
    async with httpx.AsyncClient(base_url=server, trust_env=False, timeout=30) as http:
        claimed = await http.post("/api/account/claim", json={"name": "Dee", "password": PASSWORD})
        assert claimed.status_code == 201, claimed.text
        session = await sign_in(server, "Dee", PASSWORD)
        rooms, seated = [], []
        for name, signed in (("Ann", None), ("Bob", None), ("Dee", session)):
            rid = await create_room(server, http=http)
            client = await Client.connect(server, rid, session=signed)
            await client.join(name)
            rooms.append(rid)
            seated.append(client)
        ann, bob, _ = seated
        try:

            async def refusal(
                headers: dict[str, str], cookies: dict[str, str] | None = None
            ) -> Any:
                async with httpx.AsyncClient(
                    base_url=server, trust_env=False, cookies=cookies
                ) as h:
                    answer = await h.post("/api/rooms", json={"mode": "multi"}, headers=headers)
                assert answer.status_code == 429, answer.text
                assert answer.json()["code"] == "too_many_rooms"
                return answer.json()

            def only(rid: str) -> list[dict[str, str]]:
                return [{"id": rid, "url": f"/room/{rid}"}]

            mine = await refusal({SEATS_HEADER: f"{ann.token} not-a-token!"})
            assert (mine["rooms"], mine["others"]) == (only(rooms[0]), 2)
            assert rooms[1] not in str(mine) and rooms[2] not in str(mine)
            mine = await refusal({SEATS_HEADER: f"{bob.token}"})
            assert (mine["rooms"], mine["others"]) == (only(rooms[1]), 2)
            mine = await refusal({}, cookies={SESSION_COOKIE: session})  # signed in: the account
            assert (mine["rooms"], mine["others"]) == (only(rooms[2]), 2)
            both = await refusal({SEATS_HEADER: f"{ann.token} {bob.token}"})
            two = sorted(rooms[:2])
            assert (both["rooms"], both["others"]) == (only(two[0]) + only(two[1]), 1)
            stranger = await refusal({})  # behind the same address, holding nothing
            assert (stranger["rooms"], stranger["others"]) == ([], 3)
            assert not any(rid in str(stranger) for rid in rooms)
            hostile = "x" * 70 + " " + " ".join(["tok3n_-" + "a" * 9] * 800)  # under the 16 KB head
            assert (await refusal({SEATS_HEADER: hostile[:60_000]}))["rooms"] == []
        finally:
            for client in seated:
                await client.close()
