"""The daily puzzle cannot be forged (issue 20, finding 4): its cards depend on the server's
secret, its time is the server's from the day's cards first sent to that player to the last
pick, and its board ranks only such times, none under what a person can do.

The server's clock cannot be set from outside: where a test needs time to have passed since
the cards were first sent, it moves that recorded sending back in the database, as if the
player had waited."""

from __future__ import annotations

import asyncio
import datetime
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from setgame import card_name, find_sets, parse_cards
from setgame.rules.puzzle import daily_puzzle
from setgame.server import players
from setgame.server.account_tables import account_seats, puzzle_starts, solo_games
from setgame.server.app import build
from setgame.server.keys import server_secret
from setgame.server.limits import Limits
from setgame.server.players import HUMAN_FLOOR, SoloResult
from setgame.server.puzzle import utc_now
from setgame.server.storage import Storage

from .accountkit import TestClient, claim


def _server(path: Path) -> TestClient:
    return TestClient(build(Storage(str(path)), limits=Limits()))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with _server(tmp_path / "daily.db") as c:
        yield c


def _today() -> str:
    return utc_now().date().isoformat()


def _cards(client: TestClient) -> list[str]:
    answer = client.get("/api/puzzle/daily")
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == "private, no-store"
    cards: list[str] = answer.json()["cards"]
    return cards


def _until(ws: Any, check: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        assert message["type"] != "error", message
        if message["type"] == "update" and check(message["state"]):
            state: dict[str, Any] = message["state"]
            return state


def _solve(client: TestClient, name: str) -> dict[str, Any]:
    """Today's puzzle in a room, solved as fast as a script can: the final state."""
    answer = client.post("/api/rooms", json={"mode": "solo", "variant": "puzzle",
                                             "day": _today(), "public": False})
    room = answer.json()["id"]
    with client.websocket_connect(f"/ws/{room}") as ws:
        ws.send_json({"type": "hello"})
        while ws.receive_json()["type"] != "welcome":
            pass
        ws.send_json({"type": "join", "name": name})
        ws.send_json({"type": "start"})
        state = _until(ws, lambda s: s["phase"] == "playing")
        dealt = list(state["table"])
        for _ in range(6):
            found = [sorted(g) for g in state["found"]]
            fresh = [
                [card_name(c) for c in s] for s in find_sets(parse_cards(state["table"]))
                if sorted(card_name(c) for c in s) not in found
            ]
            version = state["version"]
            ws.send_json({"type": "pick", "cards": fresh[0], "version": version})
            state = _until(ws, lambda s, seen=version: s["version"] > seen)
        assert state["phase"] == "match_over"
        state["dealt"] = dealt
        return state


def _sql(client: TestClient, *writes: Any) -> None:
    async def run() -> None:
        await client.app.state.storage.write(*[(w, {}) for w in writes])  # type: ignore[attr-defined]

    client.portal.call(run)  # type: ignore[union-attr]


def _rows(client: TestClient, query: Any) -> list[Any]:
    async def run() -> list[Any]:
        async with client.app.state.storage.reading() as conn:  # type: ignore[attr-defined]
            return list((await conn.execute(query)).all())

    return client.portal.call(run)  # type: ignore[union-attr, no-any-return]


def _wait_rows(client: TestClient, query: Any, count: int) -> list[Any]:
    deadline = time.monotonic() + 5
    while len(rows := _rows(client, query)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return rows


def _earlier(client: TestClient, seconds: float) -> None:
    """As if today's cards had first been sent ``seconds`` earlier (see the module)."""
    _sql(client, puzzle_starts.update().where(puzzle_starts.c.day == _today())
         .values(sent=puzzle_starts.c.sent - seconds))


def _board(client: TestClient) -> list[dict[str, Any]]:
    board: list[dict[str, Any]] = client.get("/api/leaderboard?board=daily").json()
    return board


# --- the cards ------------------------------------------------------------------------------


def test_todays_cards_depend_on_the_server_secret_not_on_the_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SETGAME_SECRET")  # each database makes and keeps its own
    with _server(tmp_path / "one.db") as one:
        first = _cards(one)
        dealt = _solve(one, "Ann")["dealt"]  # a room deals the same cards the API shows
        assert dealt == first
    with _server(tmp_path / "two.db") as two:  # another server, another secret
        assert _cards(two) != first
    with _server(tmp_path / "one.db") as again:  # the secret is kept in the database
        assert _cards(again) == first
    public = [card_name(c) for c in daily_puzzle(utc_now().date())]  # what the source gives
    assert first != public


def test_the_secret_is_setgame_secret_when_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SETGAME_SECRET", "s" * 40)
    with _server(tmp_path / "a.db") as a, _server(tmp_path / "b.db") as b:
        assert _cards(a) == _cards(b)  # processes of a cluster agree

    async def stored() -> tuple[bytes, bytes, bytes]:
        storage = Storage(str(tmp_path / "c.db"))
        await storage.open()
        try:
            made = await server_secret(storage, env={})
            return made, await server_secret(storage, env={}), await server_secret(
                storage, env={"SETGAME_SECRET": "given"}
            )
        finally:
            await storage.close()

    made, again, given = asyncio.run(stored())
    assert made == again and len(made) == 64 and given == b"given"


def test_a_future_day_is_still_refused_and_a_past_day_is_free(client: TestClient) -> None:
    assert client.get("/api/puzzle/daily?date=2999-01-01").json()["code"] == "future_date"
    past = client.get("/api/puzzle/daily?date=2026-01-01")
    assert past.status_code == 200 and "immutable" in past.headers["cache-control"]
    assert _rows(client, sa.select(puzzle_starts)) == []  # no clock: no board ranks past days


# --- the clock --------------------------------------------------------------------------------


def test_asking_for_todays_cards_starts_the_players_clock_first(client: TestClient) -> None:
    claim(client, "Ann")
    before = time.time()
    _cards(client)
    rows = _rows(client, sa.select(puzzle_starts.c.who, puzzle_starts.c.sent))
    assert sorted(w[:2] for w, _ in rows) == ["a:", "n:"]  # the account and the address
    assert all(before <= sent <= time.time() for _, sent in rows)
    assert not any("testclient" in w for w, _ in rows)  # the address only as a keyed hash
    _cards(client)  # asked again: the first sending stays
    assert _rows(client, sa.select(puzzle_starts.c.who, puzzle_starts.c.sent)) == rows
    _earlier(client, 40.0)  # Ann took 40 s offline before playing
    final = _solve(client, "Ann")
    assert final["result"]["solo"]["seconds"] < 5  # the room's own clock: a script's speed
    [(seconds, timed)] = _wait_rows(
        client, sa.select(solo_games.c.seconds, solo_games.c.timed), 1
    )
    assert timed is True and 40.0 <= seconds < 50.0
    assert [(r["name"], r["seconds"] >= 40.0) for r in _board(client)] == [("Ann", True)]


def test_cards_seen_as_a_guest_on_the_same_address_start_the_clock(client: TestClient) -> None:
    _cards(client)  # a guest (or a second account) fetches today's cards first
    _earlier(client, 30.0)
    claim(client, "Ann")
    _solve(client, "Ann")
    [(seconds,)] = _wait_rows(client, sa.select(solo_games.c.seconds), 1)
    assert seconds >= 30.0


def test_a_second_try_is_timed_from_the_first_deal(client: TestClient) -> None:
    claim(client, "Ann")
    _solve(client, "Ann")  # the first deal starts the clock
    _wait_rows(client, sa.select(solo_games), 1)
    _earlier(client, 25.0)
    _solve(client, "Ann")  # the cards known: fast, but timed from the first deal
    rows = _wait_rows(client, sa.select(solo_games.c.seconds), 2)
    assert max(s for (s,) in rows) >= 25.0
    assert [r["seconds"] >= 25.0 for r in _board(client)] == [True]


def test_a_solve_faster_than_a_person_is_not_ranked(client: TestClient) -> None:
    claim(client, "Ann")
    final = _solve(client, "Ann")
    assert final["result"]["solo"]["seconds"] < HUMAN_FLOOR
    [(seconds, timed)] = _wait_rows(
        client, sa.select(solo_games.c.seconds, solo_games.c.timed), 1
    )
    assert timed is True and seconds < HUMAN_FLOOR
    assert _board(client) == []  # kept, not ranked
    assert client.get("/api/players/Ann").json()["daily_streak"] == 1


def test_a_solve_without_a_recorded_sending_is_not_ranked(client: TestClient) -> None:
    """A time the server did not take from the first sending (its clock could not be
    stored) is kept but never ranked, however human it looks."""
    claim(client, "Ann")
    account = client.get("/api/account").json()
    assert account["signed_in"]
    app: Any = client.app

    async def record() -> None:
        store = app.state.storage
        who = await app.state.accounts.by_name("Ann")
        await store.create_room("rx", {}, False)
        await store.create_game("gx", "rx", 1, {})
        await store.write((account_seats.insert().values(room="rx", player="pa",
                                                         account=who.id), {}))
        solo = SoloResult("gx", "rx", "pa", "puzzle", "full", _today(), 95.0, 6, 0)
        await app.state.keeper.record_solo(solo)

    client.portal.call(record)  # type: ignore[union-attr]
    assert _rows(client, sa.select(solo_games.c.seconds, solo_games.c.timed)) == [(95.0, False)]
    assert _board(client) == []


def test_the_board_page_states_the_servers_floor() -> None:
    """The page says which times are not ranked with the server's own number."""
    script = Path(players.__file__).parents[1] / "web" / "static" / "js" / "leaderboard.js"
    found = re.search(r"const HUMAN_FLOOR = (\d+(?:\.\d+)?);", script.read_text())
    assert found is not None and float(found.group(1)) == HUMAN_FLOOR


def test_old_days_sendings_are_forgotten(client: TestClient) -> None:
    """Only today's board reads the sendings: the first clock of a day deletes those of the
    days before yesterday (a solve begun yesterday may end today)."""
    today = utc_now().date()
    yesterday = (today - datetime.timedelta(days=1)).isoformat()
    _sql(client, puzzle_starts.insert().values(who="n:old", day="2020-01-01", sent=1.0),
         puzzle_starts.insert().values(who="n:late", day=yesterday, sent=2.0))
    claim(client, "Ann")
    _solve(client, "Ann")
    _wait_rows(client, sa.select(solo_games), 1)
    days = sorted(d for (d,) in _rows(client, sa.select(puzzle_starts.c.day).distinct()))
    assert days == [yesterday, today.isoformat()]


def test_no_card_leaves_without_its_clock(tmp_path: Path) -> None:
    """Today's cards are answered only once the clock is stored: the database's files
    deleted under the server, the API answers 503 and no card; a past day still answers."""
    db = tmp_path / "lost.db"
    with _server(db) as client:
        for name in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            name.unlink(missing_ok=True)
        answer = client.get("/api/puzzle/daily")
        assert answer.status_code == 503 and answer.json()["code"] == "storage_error"
        assert "cards" not in answer.json() and answer.headers["cache-control"] == "no-store"
        assert client.get("/api/puzzle/daily?date=2026-01-01").status_code == 200
