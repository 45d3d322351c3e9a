"""Accounts and player records on both databases (SQLite and PostgreSQL): claim, verify,
change the password, record a rated game, delete with its seats anonymized."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from setgame.analysis.ratings import NEW, Placing, rate
from setgame.server.accounts import ANONYMOUS, Accounts
from setgame.server.names import NameRefused
from setgame.server.players import Outcome, RatingKeeper, SeatResult
from setgame.server.registry import Rooms
from setgame.server.storage import SeatRow, Storage

PASSWORD = "correct horse"


@pytest.fixture(params=["sqlite", "postgresql"])
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    url = str(tmp_path / "a.db")
    if request.param == "postgresql":
        url = request.getfixturevalue("postgres_url")
    store = Storage(url)
    await store.open()
    yield store
    await store.close()


def uid() -> str:
    return uuid.uuid4().hex[:10]


async def test_claim_verify_change_and_refuse_lookalikes(storage: Storage) -> None:
    store = Accounts(storage)
    name = "Ann" + uid()
    account = await store.claim(name, PASSWORD)
    assert await store.verify(name.upper(), PASSWORD) == account
    assert await store.verify(name, "wrong password") is None
    with pytest.raises(NameRefused) as taken:
        await store.claim("".join(chr(ord(c) + 0xFEE0) for c in name), PASSWORD)  # fullwidth
    assert taken.value.code == "name_taken"
    with pytest.raises(NameRefused) as mixed:
        await store.claim(name.replace("A", "А", 1), PASSWORD)  # a Cyrillic А among Latin
    assert mixed.value.code == "name_mixed"
    changed = await store.change_password(account, "new secret")
    assert changed.epoch == account.epoch + 1
    assert await store.verify(name, PASSWORD) is None
    assert await store.verify(name, "new secret") == changed


async def test_sessions_end_one_by_one_everywhere_at_a_change_and_with_the_account(
    storage: Storage,
) -> None:
    store = Accounts(storage)
    account = await store.claim("Ses" + uid(), PASSWORD)
    one, two, three = [await store.open_session(account, 60.0) for _ in range(3)]
    gone = await store.open_session(account, -1.0)  # expired
    assert [await store.by_session(t) for t in (one, two, three, gone)] == [account] * 3 + [None]
    await store.end_session(one)
    assert await store.by_session(one) is None and await store.by_session(two) == account
    changed = await store.change_password(account, "new secret", keep=two)
    assert await store.by_session(two) == changed and await store.by_session(three) is None
    await store.end_sessions(changed)
    assert await store.by_session(two) is None
    four = await store.open_session(changed, 60.0)
    await store.delete(changed)
    assert await store.by_session(four) is None


async def test_a_rated_game_is_stored_and_a_deletion_anonymizes_every_trace(
    storage: Storage,
) -> None:
    store = Accounts(storage)
    room, game, name = uid(), uid(), "Bo" + uid()
    bob = await store.claim(name, PASSWORD)
    zed = await store.claim("Zed" + uid(), PASSWORD)
    await storage.create_room(room, {}, True)
    await storage.create_game(game, room, 1, {})
    for version, (player, who) in enumerate((("pb", bob), ("pz", zed)), start=1):
        action = {"type": "join", "at": 0.0, "player": player, "name": who.name}
        seat = SeatRow(player, who.name, "h" * 64, None, who.id)
        await storage.append(game, version, 0.0, action, room=room, seat=seat)
    keeper = RatingKeeper(Rooms(storage), storage)
    seats = [SeatResult("pb", None, 5, 5, 0), SeatResult("pz", None, 2, 2, 1)]
    await keeper.record(Outcome(game, room, "set", None, seats))
    async with storage.reading() as conn:
        rows = (await conn.exec_driver_sql("SELECT account, mu FROM ratings")).all()
    expected = rate([Placing(NEW, 1), Placing(NEW, 2)])
    assert sorted(r.mu for r in rows if r.account in (bob.id, zed.id)) == sorted(
        e.mu for e in expected
    )
    assert [s.account for s in await storage.seats(room)] == [bob.id, zed.id]

    await store.delete(bob)
    record = await storage.room_record(room)
    assert record is not None
    assert [s.name for s in record.seats] == [ANONYMOUS, zed.name]
    assert [a.action["name"] for a in record.actions] == [ANONYMOUS, zed.name]
    assert await store.by_id(bob.id) is None and await store.by_name(name) is None
    async with storage.reading() as conn:
        for table in ("ratings", "player_games", "account_seats"):
            left = (await conn.exec_driver_sql(f"SELECT account FROM {table}")).all()
            assert bob.id not in {r.account for r in left}, table
            assert zed.id in {r.account for r in left}, table  # the others keep theirs


async def test_a_profile_history_keeps_the_newest_rated_games_oldest_first(
    storage: Storage,
) -> None:
    from setgame.server import players
    from setgame.server.account_tables import player_games

    account = await Accounts(storage).claim("Hi" + uid(), PASSWORD)
    rows = [
        {"game": f"g{i}", "account": account.id, "room": "r", "family": family, "place": 1,
         "players": 2, "points": 1, "sets": 1, "wrong": 0, "finished": float(i),
         "mu_before": 25.0, "sigma_before": 8.0, "mu_after": 25.0 + i, "sigma_after": 8.0}
        for i, family in enumerate(["set"] * 5 + [None, "4set"])
    ]
    await storage.write(*[(player_games.insert().values(r), {}) for r in rows])
    old, players.HISTORY_GAMES = players.HISTORY_GAMES, 3  # type: ignore[misc]
    try:
        async with storage.reading() as conn:
            history = await players._history(conn, account.id)
    finally:
        players.HISTORY_GAMES = old  # type: ignore[misc]
    shown = [round(1000 + 24 * (25 + i - 24)) for i in range(7)]
    assert history == {
        "set": [[2.0, shown[2]], [3.0, shown[3]], [4.0, shown[4]]],
        "4set": [[6.0, shown[6]]],
    }
