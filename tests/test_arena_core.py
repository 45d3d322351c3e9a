"""The arena's pure rules (``setgame.arena``; ``docs/rules.md``, "Arenas (ours)"): the points
of a game and the streak, the standings and the podium, the pairing."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from setgame.arena import (
    Entry,
    GameResult,
    Waiting,
    bot_level,
    finishes,
    pair,
    podium,
    ranked,
    score,
)
from setgame.arena.standings import places

OPEN = {"bot_after": 20.0, "repeat_after": 10.0, "last_start": 1000.0}


def _result(finish: str, at: float, place: float = 1.0) -> GameResult:
    return GameResult(finish, place, 2, (1000,), at)  # type: ignore[arg-type]


# --- points -------------------------------------------------------------------------------


def test_points_win_shared_other_in_every_room_size() -> None:
    for seats in (2, 3, 4):
        totals = {f"p{i}": i for i in range(seats)}
        top = f"p{seats - 1}"
        assert finishes(totals)[top] == "won"
        assert all(f == "lost" for p, f in finishes(totals).items() if p != top)
    assert score("won", 0)[0] == 2 and score("shared", 0)[0] == 1 and score("lost", 0)[0] == 0


def test_streak_doubles_after_two_wins_until_a_game_is_not_won() -> None:
    streak, got = 0, []
    for finish in ("won", "won", "won", "won", "shared", "won", "won", "won", "lost", "won"):
        points, streak = score(finish, streak)
        got.append(points)
    assert got == [2, 2, 4, 4, 1, 2, 2, 4, 0, 2]


def test_leaving_forfeits_and_hands_on_the_win() -> None:
    result = finishes({"a": 9, "b": 4, "c": 2}, left={"a"})
    assert result == {"a": "left", "b": "won", "c": "lost"}
    assert score("left", 5) == (0, 0)


@given(st.lists(st.sampled_from(["won", "shared", "lost", "left"]), max_size=40))
def test_points_follow_the_streak(sequence: list[str]) -> None:
    streak = 0
    for finish in sequence:
        points, after = score(finish, streak)  # type: ignore[arg-type]
        if finish == "won":
            assert after == streak + 1 and points == (4 if streak >= 2 else 2)
        else:
            assert after == 0 and points == (1 if finish == "shared" else 0)
        streak = after


@given(st.dictionaries(st.text("abcdef", min_size=1, max_size=2), st.integers(0, 9), min_size=1,
                       max_size=4), st.data())
def test_one_first_place_or_a_shared_one(totals: dict[str, int], data: st.DataObject) -> None:
    left = data.draw(st.sets(st.sampled_from(sorted(totals))))
    result = finishes(totals, left)
    firsts = [p for p, f in result.items() if f in ("won", "shared")]
    if len(left) < len(totals):
        assert firsts and (len(firsts) == 1) == (result[firsts[0]] == "won")
    assert all(result[p] == "left" for p in left)
    ranks = places(totals, left)
    assert sorted(ranks.values()) == sorted(ranks.values())  # every seat has a place
    assert abs(sum(ranks.values()) - sum(range(1, len(totals) + 1))) < 1e-9


# --- standings ------------------------------------------------------------------------------


def test_standings_points_then_performance_then_earlier() -> None:
    a, b, c = (Entry(k, name, 1000, 0.0) for k, name in [("a", "Ann"), ("b", "Bob"), ("c", "Cy")])
    a.record(_result("won", 10.0))
    b.record(GameResult("won", 1.0, 2, (1400,), 20.0))  # a stronger opponent: better performance
    c.record(_result("won", 5.0))  # same points and performance as Ann, reached earlier
    assert [e.name for e in ranked([a, b, c])] == ["Bob", "Cy", "Ann"]


def test_podium_is_three_who_played() -> None:
    entries = [Entry(k, k, 1000, 0.0) for k in "abcde"]
    for entry, finish in zip(entries, ["won", "shared", "lost", "won"], strict=False):
        entry.record(_result(finish, 1.0))
    top = podium(ranked(entries))
    assert [e.key for e in top] == ["a", "d", "b"]
    assert podium(ranked([Entry("x", "x", 1000, 0.0)])) == []


@settings(max_examples=60)
@given(st.lists(st.lists(st.sampled_from(["won", "shared", "lost", "left"]), max_size=8),
                min_size=1, max_size=8))
def test_standings_are_ordered_by_points(histories: list[list[str]]) -> None:
    entries = []
    for i, history in enumerate(histories):
        entry = Entry(f"k{i}", f"n{i}", 1000 + i, 0.0)
        total = 0
        for t, finish in enumerate(history):
            total += entry.record(_result(finish, float(t)))
        assert entry.points == total
        entries.append(entry)
    order = ranked(entries)
    assert [e.points for e in order] == sorted((e.points for e in order), reverse=True)
    assert ranked(reversed(entries)) == order  # deterministic: the input order does not matter


# --- pairing --------------------------------------------------------------------------------


def test_pairs_by_standing() -> None:
    waiting = [Waiting(k, pts, 1000, 0.0) for k, pts in [("a", 0), ("b", 8), ("c", 2), ("d", 6)]]
    assert pair(waiting, 2, 1.0, **OPEN).rooms == [("b", "d"), ("c", "a")]


def test_avoids_the_last_opponents_while_others_wait() -> None:
    waiting = [
        Waiting("a", 4, 1000, 0.0, frozenset({"b"})),
        Waiting("b", 4, 1000, 0.0, frozenset({"a"})),
        Waiting("c", 2, 1000, 0.0, frozenset({"d"})),
        Waiting("d", 2, 1000, 0.0, frozenset({"c"})),
    ]
    assert sorted(map(sorted, pair(waiting, 2, 1.0, **OPEN).rooms)) == [["a", "c"], ["b", "d"]]
    alone = waiting[:2]  # nobody else waits: not at once, but after ``repeat_after``
    assert pair(alone, 2, 1.0, **OPEN).rooms == []
    assert pair(alone, 2, 10.0, **OPEN).rooms == [("a", "b")]


def test_a_bot_after_the_wait_and_smaller_rooms_of_people_first() -> None:
    waiting = [Waiting("a", 0, 1000, 0.0), Waiting("b", 0, 1000, 0.0)]
    assert pair(waiting[:1], 2, 19.0, **OPEN).bots == []
    assert pair(waiting[:1], 2, 20.0, **OPEN).bots == ["a"]
    late = pair(waiting, 4, 20.0, **OPEN)
    assert late.rooms == [("a", "b")] and late.bots == []


def test_nobody_starts_a_game_that_cannot_finish() -> None:
    waiting = [Waiting("a", 0, 1000, 0.0), Waiting("b", 0, 1000, 0.0)]
    assert pair(waiting, 2, 1000.5, **OPEN).paired() == set()


def test_bot_level_is_close() -> None:
    assert bot_level(1000) == 1 and bot_level(1450) == 3 and bot_level(9999) == 5


waitings = st.lists(
    st.builds(
        Waiting,
        key=st.text("abcdefghij", min_size=1, max_size=3),
        points=st.integers(0, 20),
        rating=st.integers(800, 2000),
        since=st.floats(0, 60),
        last=st.frozensets(st.text("abcdefghij", min_size=1, max_size=3), max_size=3),
    ),
    max_size=24,
    unique_by=lambda w: w.key,
)


@settings(max_examples=200)
@given(waitings, st.integers(2, 4), st.floats(0, 60), st.floats(0, 80))
def test_pairing_properties(waiting: list[Waiting], size: int, now: float, last: float) -> None:
    bounds = {"bot_after": 20.0, "repeat_after": 10.0, "last_start": last}
    result = pair(waiting, size, now, **bounds)
    seen = [k for room in result.rooms for k in room] + result.bots
    assert len(seen) == len(set(seen))  # nobody twice
    if now > last:
        assert not seen
        return
    by_key = {w.key: w for w in waiting}
    for room in result.rooms:
        assert 2 <= len(room) <= size
        if len(room) < size:  # a smaller room only of players who waited too long
            assert all(now - by_key[k].since >= 20.0 for k in room)
        for x, y in itertools.combinations(room, 2):
            a, b = by_key[x], by_key[y]
            if b.key in a.last or a.key in b.last:  # a repeat only after waiting
                assert any(now - by_key[k].since >= 10.0 for k in room)
    for key in result.bots:
        assert now - by_key[key].since >= 20.0
    for w in waiting:  # whoever waited too long plays now, with people or a bot
        if now - w.since >= 20.0:
            assert w.key in seen
    assert pair(list(reversed(waiting)), size, now, **bounds) == result  # deterministic
