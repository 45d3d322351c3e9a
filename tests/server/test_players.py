"""Rated games and profiles: a finished game of signed-in players moves their ratings and
shows in ``GET /api/players/<name>``; guests make a game unrated; the room setting ``rated``;
deleted accounts leave no figures."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from setgame import card_name, find_sets, parse_cards
from setgame.analysis.ratings import NEW, PROVISIONAL_GAMES, Placing, Rating, bot_rating, rate
from setgame.server.account_tables import player_games, ratings
from setgame.server.app import build
from setgame.server.limits import Limits
from setgame.server.players import Outcome, RatingKeeper, SeatResult
from setgame.server.storage import Storage

from .accountkit import PASSWORD, Browser, TestClient, claim

FAST = {"deck": "beginner", "rounds": "single", "no_set": "auto", "pick_seconds": 10}
LENIENT = Limits(
    rated_min_seconds=0, rated_min_sets=0, rated_begun_seconds=0, rated_begun_sets=0,
    rated_pair_daily=1000, rated_address_daily=1000,
)
"""The fair-play rules (tests/server/test_fair_play.py) relaxed: these tests play games of a
second between two accounts of one address, and test what rated games do."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(build(Storage(str(tmp_path / "p.db")), limits=LENIENT)) as c:
        yield c


def _until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "error":
            raise AssertionError(message)
        if message["type"] == kind:
            return message


def _seat(stack: contextlib.ExitStack, client: TestClient, room: str, name: str) -> Any:
    ws = stack.enter_context(client.websocket_connect(f"/ws/{room}"))
    ws.send_json({"type": "hello"})
    _until(ws, "welcome")
    ws.send_json({"type": "join", "name": name})
    _until(ws, "joined")
    return ws


def _state(ws: Any, check: Any) -> dict[str, Any]:
    """The state of the first update that passes ``check`` (earlier ones: others' news)."""
    while True:
        state: dict[str, Any] = _until(ws, "update")["state"]
        if check(state):
            return state


def _play_to_the_end(ws: Any) -> dict[str, Any]:
    """Start, then take every set on the table until the match is over; the final state."""
    ws.send_json({"type": "start"})
    return _take_all(ws, _state(ws, lambda s: s["phase"] != "lobby"))


def _take_all(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    me = state["you"]
    for _ in range(200):
        if state["phase"] == "match_over":
            return state
        sets = find_sets(parse_cards(state["table"]))
        assert sets, state  # no_set auto: the server deals when there is none
        ws.send_json({"type": "call", "version": state["version"]})
        state = _state(ws, lambda s: s["holder"] == me)
        cards = [card_name(c) for c in sets[0]]
        ws.send_json({"type": "pick", "cards": cards, "version": state["version"]})
        state = _state(ws, lambda s: s["holder"] is None)
    raise AssertionError("the game did not end")


def _room(client: TestClient, **settings: Any) -> str:
    answer = client.post("/api/rooms", json=FAST | settings)
    assert answer.status_code == 201, answer.json()
    room: str = answer.json()["id"]
    return room


def _profile(client: TestClient, name: str, games: int = 1) -> dict[str, Any]:
    """The profile once the game's record is stored (it is written just after the end)."""
    deadline = time.monotonic() + 5
    while True:
        answer = client.get(f"/api/players/{name}")
        assert answer.status_code == 200, answer.json()
        body: dict[str, Any] = answer.json()
        if body["games"] >= games or time.monotonic() > deadline:
            return body
        time.sleep(0.05)


def _game(client: TestClient, others: list[tuple[str, bool]], **settings: Any) -> None:
    """Ann (signed in, plays every set) against ``others`` (name, signed in?)."""
    claim(client, "Ann")
    room = _room(client, **settings)
    browsers = []
    for name, signed in others:
        browser = Browser(client)
        if signed:
            with browser as c:
                claim(c, name)
        browsers.append((browser, name))
    with contextlib.ExitStack() as stack:
        ann = _seat(stack, client, room, "Ann")
        for browser, name in browsers:
            with browser as c:
                _seat(stack, c, room, name)
        final = _play_to_the_end(ann)
    assert final["result"]["winners"] == [final["you"]]


def test_a_rated_game_between_signed_in_players_moves_both_ratings(client: TestClient) -> None:
    _game(client, [("Bob", True)])
    ann, bob = _profile(client, "Ann"), _profile(client, "bob")
    assert (ann["games"], ann["wins"], bob["games"], bob["wins"]) == (1, 1, 1, 0)
    assert ann["sets"] > 0 and bob["sets"] == 0
    assert ann["rating"] > NEW.display and ann["rating"] > bob["rating"]
    assert ann["provisional"] and bob["provisional"]
    assert ann["ratings"]["set"] == {"rating": ann["rating"], "provisional": True, "games": 1}
    expected = rate([Placing(NEW, 1), Placing(NEW, 2)])  # what the model says, stored as is
    assert (ann["rating"], bob["rating"]) == (expected[0].display, expected[1].display)
    (last,) = ann["recent"]
    assert (last["place"], last["players"], last["family"], last["rating"]) == (
        1, 2, "set", ann["rating"]
    )
    assert last["sets"] == ann["sets"]
    assert ann["history"] == {"set": [[last["finished"], ann["rating"]]]}
    assert client.get(f"/api/games/{last['game']}/replay").is_success  # the replay it links to


def test_the_room_is_told_each_players_rating_change_at_the_end(client: TestClient) -> None:
    """Issue 21: once the server has recorded the game, the room gets ``ratings``: each
    signed-in seat's shown rating before and after (and a spectator who comes later too)."""
    claim(client, "Ann")
    room = _room(client)
    with contextlib.ExitStack() as stack:
        ann = _seat(stack, client, room, "Ann")
        with Browser(client) as c:
            claim(c, "Bob")
            bob = _seat(stack, c, room, "Bob")
        final = _play_to_the_end(ann)
        told = _until(ann, "ratings")
        assert _until(bob, "ratings") == told
    expected = rate([Placing(NEW, 1), Placing(NEW, 2)])
    ids = {p["name"]: p["id"] for p in final["players"]}
    assert told["game"] == final["game"]
    assert sorted(told["changes"], key=lambda c: c["player"]) == sorted(
        [
            {"player": ids["Ann"], "before": NEW.display, "after": expected[0].display},
            {"player": ids["Bob"], "before": NEW.display, "after": expected[1].display},
        ],
        key=lambda c: c["player"],
    )
    with client.websocket_connect(f"/ws/{room}") as late:
        late.send_json({"type": "hello"})
        _until(late, "welcome")
        assert _until(late, "ratings") == told


def test_an_unrated_game_tells_why_each_rating_stayed(client: TestClient) -> None:
    claim(client, "Ann")
    room = _room(client, rated=False)
    with contextlib.ExitStack() as stack:
        ann = _seat(stack, client, room, "Ann")
        with Browser(client) as c:
            _seat(stack, c, room, "Zoe")
        _play_to_the_end(ann)
        (change,) = _until(ann, "ratings")["changes"]
    assert change | {"player": ""} == {"player": "", "before": None, "after": None,
                                       "unrated": "room"}  # fmt: skip


def test_a_signed_in_player_sits_as_their_account_whatever_name_is_sent(
    client: TestClient,
) -> None:
    """Issue 21: the name field is only a guest's; signed in, the seat is the account's
    (so their games count for them, and a rated room seats them)."""
    claim(client, "Ann")
    room = _room(client, rated=True)
    with contextlib.ExitStack() as stack:
        ws = _seat(stack, client, room, "Somebody Else")
        ws.send_json({"type": "start"})
        state = _state(ws, lambda s: True)
    (me,) = [p for p in state["players"] if p["id"] == state["you"]]
    assert (me["name"], me["kind"]) == ("Ann", "player")


def test_a_guest_at_the_table_makes_the_game_unrated_but_it_counts(client: TestClient) -> None:
    _game(client, [("Zoe", False)])
    ann = _profile(client, "Ann")
    assert (ann["games"], ann["wins"], ann["ratings"]) == (1, 1, {})
    assert ann["recent"][0]["family"] is None and ann["recent"][0]["rating"] is None
    assert ann["history"] == {}  # unrated games draw nothing
    assert ann["rating"] == NEW.display and ann["provisional"]


def test_a_room_set_unrated_changes_no_rating(client: TestClient) -> None:
    _game(client, [("Bob", True)], rated=False)
    assert _profile(client, "Ann")["ratings"] == {} and _profile(client, "Bob")["games"] == 1


def test_a_rated_room_seats_signed_in_players_only(client: TestClient) -> None:
    claim(client, "Ann")
    room = _room(client, rated=True)
    with Browser(client) as guest, guest.websocket_connect(f"/ws/{room}") as ws:
        ws.send_json({"type": "hello"})
        _until(ws, "welcome")
        ws.send_json({"type": "join", "name": "Zoe"})
        while (answer := ws.receive_json())["type"] != "error":
            pass
        assert answer["code"] == "rated_room" and "'Zoe'" in answer["message"]


@pytest.mark.parametrize(
    ("settings", "code", "quoted"),
    [
        ({"mode": "solo", "rated": True}, "bad_setting", "'solo'"),
        ({"mode": "practice", "rated": True}, "bad_setting", "'practice'"),
        ({"rated": True, "variant": "puzzle"}, "bad_setting", "'puzzle'"),
        ({"rated": "yes"}, "bad_settings", "yes"),
        ({"rated": 1}, "bad_settings", "rated"),
    ],
)
def test_the_rated_setting_refuses_bad_values_quoting_them(
    client: TestClient, settings: dict[str, Any], code: str, quoted: str
) -> None:
    answer = client.post("/api/rooms", json=settings)
    assert answer.status_code == 400 and answer.json()["code"] == code
    assert quoted in answer.json()["message"]


@pytest.mark.parametrize("name", ["Nobody", "x" * 500, "%00", "Bot"])
def test_an_unknown_player_is_404_quoting_the_name(client: TestClient, name: str) -> None:
    answer = client.get(f"/api/players/{name}")
    assert answer.status_code == 404 and answer.json()["code"] == "no_player"
    assert name[:40] in answer.json()["message"].replace("\\x00", "%00") or name == "%00"


def test_a_new_account_has_a_profile_before_any_game(client: TestClient) -> None:
    claim(client, "Ann")
    body = client.get("/api/players/АNN").json()  # any lookalike spelling finds it
    assert body == {
        "name": "Ann", "rating": NEW.display, "provisional": True, "games": 0, "wins": 0,
        "provisional_games": PROVISIONAL_GAMES,
        "sets": 0, "ratings": {}, "recent": [], "history": {},
        "solo": {}, "daily_streak": 0, "seconds_per_set": None, "wrong": 0,
        "arenas": {"played": 0, "best": []},
    }


def test_a_deleted_account_leaves_no_figures(client: TestClient) -> None:
    _game(client, [("Bob", True)])
    assert _profile(client, "Ann")["games"] == 1
    _solo(client, "Ann", deck="beginner")
    assert [r["name"] for r in _board(client, "solo-beginner", 1)] == ["Ann"]
    assert client.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
    assert client.get("/api/players/Ann").status_code == 404
    assert client.get("/api/leaderboard?board=solo-beginner").json() == []  # its times gone
    claim(client, "Ann")  # a new Ann starts from nothing
    assert _profile(client, "Ann", games=0)["games"] == 0
    assert _profile(client, "Ann", games=0)["solo"] == {}


async def test_a_game_is_recorded_once_and_bots_keep_their_ratings(tmp_path: Path) -> None:
    storage = Storage(str(tmp_path / "k.db"))
    await storage.open()
    try:
        from setgame.server.accounts import Accounts
        from setgame.server.registry import Rooms

        account = await Accounts(storage).claim("Ann", PASSWORD)
        await storage.create_room("r1", {}, True)
        await storage.create_game("g1", "r1", 1, {})
        from setgame.server.account_tables import account_seats

        await storage.write(
            (account_seats.insert().values(room="r1", player="pa", account=account.id), {})
        )
        keeper = RatingKeeper(Rooms(storage), storage)
        outcome = Outcome(
            "g1", "r1", "set", None,
            [SeatResult("pa", None, 3, 3, 1), SeatResult("pb", 4, 4, 4, 0)],
        )
        await keeper.record(outcome)
        await keeper.record(outcome)  # again (a restart, a second look): nothing changes
        async with storage.reading() as conn:
            rows = (await conn.exec_driver_sql("SELECT mu, sigma, games FROM ratings")).all()
            played = (await conn.exec_driver_sql("SELECT place, wrong FROM player_games")).all()
        expected = rate([Placing(NEW, 2), Placing(bot_rating(4), 1, bot=True)])[0]
        assert [tuple(r) for r in rows] == [(expected.mu, expected.sigma, 1)]
        assert [tuple(r) for r in played] == [(2, 1)]
        assert bot_rating(5) == Rating(35.0, 2.0, 20)  # fixed: nothing stored for the bot
    finally:
        await storage.close()


def test_the_leaderboard_lists_established_players_of_one_family(client: TestClient) -> None:
    from setgame.server.account_tables import ratings
    from setgame.server.accounts import Accounts

    async def seed() -> None:
        store: Accounts = client.app.state.accounts  # type: ignore[attr-defined]
        for name, family, mu, sigma, games in (
            ("Ann", "set", 30.0, 3.0, 35),
            ("Bob", "set", 28.0, 2.0, 30),
            ("Cid", "set", 40.0, 5.0, 29),  # fewer than BOARD_GAMES (30): not listed
            ("Dee", "ultraset", 26.0, 2.5, 30),
        ):
            account = await store.claim(name, PASSWORD)
            values = {"account": account.id, "family": family, "mu": mu, "sigma": sigma,
                      "games": games}
            await store.storage.write((ratings.insert().values(values), {}))

    client.portal.call(seed)  # type: ignore[union-attr]
    board = client.get("/api/leaderboard", params={"board": "set"}).json()
    expected = [("Bob", Rating(28.0, 2.0, 30)), ("Ann", Rating(30.0, 3.0, 35))]
    assert board == [{"name": n, "rating": r.display, "games": r.games} for n, r in expected]
    assert [e["name"] for e in client.get("/api/leaderboard?board=ultraset").json()] == ["Dee"]
    assert client.get("/api/leaderboard?board=4set").json() == []


@pytest.mark.parametrize(
    ("query", "quoted"),
    [
        ("", "not nothing"),
        ("?board=", "not ''"),
        ("?board=chess", "not 'chess'"),
        ("?board=puzzle", "not 'puzzle'"),
        ("?board=" + "x" * 500, "not '" + "x" * 40 + "'"),
    ],
)
def test_an_unknown_board_is_refused_quoting_it(
    client: TestClient, query: str, quoted: str
) -> None:
    answer = client.get("/api/leaderboard" + query)
    assert answer.status_code == 400 and answer.json()["code"] == "unknown_board"
    message = answer.json()["message"]
    assert message == (
        "board is one of 4set, ghostset, memory, set, ultraset, solo-full, solo-beginner, "
        f"daily, {quoted}"
    )


def test_leaving_a_rated_game_before_its_end_counts_as_last_place(client: TestClient) -> None:
    claim(client, "Ann")
    room = _room(client)
    bob = Browser(client)
    with bob as c:
        claim(c, "Bob")
    with contextlib.ExitStack() as stack:
        ann = _seat(stack, client, room, "Ann")
        with bob as c:
            bob_ws = _seat(stack, c, room, "Bob")
        ann.send_json({"type": "start"})
        state = _state(ann, lambda s: s["phase"] == "playing")
        bob_ws.send_json({"type": "leave"})  # no points yet: the engine forgets Bob
        state = _state(ann, lambda s: len(s["players"]) == 1)
        final = _take_all(ann, state)
    assert [p["name"] for p in final["players"]] == ["Ann"]
    ann_p, bob_p = _profile(client, "Ann"), _profile(client, "Bob")
    assert (bob_p["games"], bob_p["wins"], bob_p["ratings"]["set"]["games"]) == (1, 0, 1)
    expected = rate([Placing(NEW, 1), Placing(NEW, 2)])  # Bob placed last, as a loss
    assert (ann_p["rating"], bob_p["rating"]) == (expected[0].display, expected[1].display)


def test_a_game_that_ended_as_the_server_stopped_is_recorded_at_the_next_start(
    tmp_path: Path,
) -> None:
    db = tmp_path / "c.db"
    with TestClient(build(Storage(str(db)), limits=LENIENT)) as client:
        _game(client, [("Bob", True)])
        before = _profile(client, "Ann")

        async def forget() -> None:  # as if the server had stopped before recording it
            await client.app.state.storage.write(  # type: ignore[attr-defined]
                (player_games.delete(), {}), (ratings.delete(), {})
            )

        client.portal.call(forget)  # type: ignore[union-attr]
        assert client.get("/api/players/Ann").json()["games"] == 0
    with TestClient(build(Storage(str(db), create=False), limits=LENIENT)) as again:
        assert _profile(again, "Ann") == before  # the same game, the same rating
        assert _profile(again, "Bob")["games"] == 1
    with TestClient(build(Storage(str(db), create=False), limits=LENIENT)) as third:
        assert _profile(third, "Ann")["games"] == 1  # recorded once, not at every start


# --- solo boards (classic per deck, today's daily puzzle) and the profile's solo figures ---


def _play_solo(ws: Any) -> dict[str, Any]:
    """Start a solo game and pick a set not yet found until the match is over (Puzzle keeps
    found groups on its table: they are skipped); three more cards when none is left."""
    ws.send_json({"type": "start"})
    state = _state(ws, lambda s: s["phase"] != "lobby")
    for _ in range(200):
        if state["phase"] == "match_over":
            return state
        found = [sorted(g) for g in state.get("found") or []]
        sets = [
            [card_name(c) for c in s] for s in find_sets(parse_cards(state["table"]))
        ]
        fresh = [s for s in sets if sorted(s) not in found]
        version = state["version"]
        if fresh:
            ws.send_json({"type": "pick", "cards": fresh[0], "version": version})
        else:
            ws.send_json({"type": "no_set", "version": version})
        state = _state(ws, lambda s, seen=version: s["version"] > seen)
    raise AssertionError("the solo game did not end")


def _solo(client: TestClient, name: str | None, **settings: Any) -> dict[str, Any]:
    room = _room(client, mode="solo", **settings)
    with contextlib.ExitStack() as stack:
        return _play_solo(_seat(stack, client, room, name or "Guest"))


def _board(client: TestClient, board: str, rows: int) -> list[dict[str, Any]]:
    """The board once ``rows`` rows are there (a game's record is written just after it)."""
    deadline = time.monotonic() + 5
    while True:
        answer = client.get("/api/leaderboard", params={"board": board})
        assert answer.status_code == 200, answer.json()
        body: list[dict[str, Any]] = answer.json()
        if len(body) >= rows or time.monotonic() > deadline:
            return body
        time.sleep(0.05)


def test_solo_boards_list_signed_in_players_best_time_per_deck(tmp_path: Path) -> None:
    with TestClient(build(Storage(str(tmp_path / "s.db")), limits=LENIENT)) as guest:
        _solo(guest, None, deck="beginner")  # a guest's time is on no board
        claim(guest, "Ann")
        times = [_solo(guest, "Ann", deck="beginner")["result"]["solo"]["seconds"]]
        board = _board(guest, "solo-beginner", 1)
        assert board == [{"name": "Ann", "seconds": round(times[0], 3), "games": 1}]
        times.append(_solo(guest, "Ann", deck="beginner")["result"]["solo"]["seconds"])
        deadline = time.monotonic() + 5
        while _board(guest, "solo-beginner", 1)[0]["games"] < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _board(guest, "solo-beginner", 1) == [
            {"name": "Ann", "seconds": round(min(times), 3), "games": 2}
        ]
        assert _board(guest, "solo-full", 0) == []  # another deck, another board
        profile = _profile(guest, "Ann", games=0)
        assert profile["solo"] == {"beginner": {"seconds": round(min(times), 3), "games": 2}}
        assert profile["games"] == 0  # multiplayer figures stay multiplayer only
        assert profile["seconds_per_set"] is not None and profile["seconds_per_set"] >= 0
        assert profile["daily_streak"] == 0


def test_todays_daily_puzzle_board_and_the_streak(client: TestClient) -> None:
    from setgame.server.puzzle import utc_now

    today = utc_now().date().isoformat()
    claim(client, "Ann")
    final = _solo(client, "Ann", variant="puzzle", day=today, deck="full", no_set="auto")
    assert final["result"]["solo"]["seconds"] < 10  # a script's solve: no person is so fast
    profile = _profile(client, "Ann", games=0)
    deadline = time.monotonic() + 5
    while profile["daily_streak"] == 0 and time.monotonic() < deadline:
        profile = _profile(client, "Ann", games=0)
    assert profile["daily_streak"] == 1
    assert _board(client, "daily", 0) == []  # not ranked (tests/server/test_daily_fair.py)
    assert profile["solo"] == {}  # the puzzle is not a classic solo time


def test_r_own_streak_counts_days_in_a_row_ending_today_or_yesterday() -> None:
    import datetime

    from setgame.server.players import streak

    day = datetime.date(2026, 3, 10)
    assert streak([], day) == 0
    assert streak(["2026-03-10", "2026-03-09", "2026-03-08", "2026-03-06"], day) == 3
    assert streak(["2026-03-09", "2026-03-08"], day) == 2  # today not played yet: still on
    assert streak(["2026-03-08", "2026-03-07"], day) == 0  # yesterday missed: broken
    assert streak(["2026-03-10", "2026-03-08"], day) == 1


def test_a_solo_game_that_ended_unrecorded_is_recorded_at_the_next_start(
    client: TestClient,
) -> None:
    """The server stopped between the end and the record: catch_up rebuilds the solo game from
    its stored log (as for multiplayer games); a second catch_up finds nothing."""
    from setgame.server.account_tables import solo_games
    from setgame.server.registry import Rooms

    claim(client, "Ann")
    seconds = _solo(client, "Ann", deck="beginner")["result"]["solo"]["seconds"]
    assert len(_board(client, "solo-beginner", 1)) == 1
    storage: Storage = client.app.state.accounts.storage  # type: ignore[attr-defined]

    async def forget_and_catch_up() -> tuple[int, int]:
        await storage.write((solo_games.delete(), {}))  # as if never recorded
        keeper = RatingKeeper(Rooms(storage), storage)
        return await keeper.catch_up(), await keeper.catch_up()

    first, second = client.portal.call(forget_and_catch_up)  # type: ignore[union-attr]
    assert (first, second) == (1, 0)
    assert _board(client, "solo-beginner", 1) == [
        {"name": "Ann", "seconds": round(seconds, 3), "games": 1}
    ]
