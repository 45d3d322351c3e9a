"""The daily puzzle: 12 cards, exactly 6 sets, the same for everyone on a date (issue 10)."""

from __future__ import annotations

import datetime

import pytest

from setgame import card_names, count_sets, find_sets
from setgame.rules.puzzle import (
    PUBLIC_SEED,
    PuzzleError,
    daily_puzzle,
    daily_seed,
    draw,
    make_puzzle,
    parse_day,
)
from setgame.rules.variants import find_variant

DAY = datetime.date(2026, 11, 22)


def days(count: int, start: datetime.date = DAY) -> list[datetime.date]:
    return [start + datetime.timedelta(days=k) for k in range(count)]


def test_daily_puzzle_has_twelve_different_cards_and_exactly_six_sets() -> None:
    for day in days(60, datetime.date(2025, 12, 1)):
        cards = daily_puzzle(day)
        assert len(cards) == 12 == len(set(cards))
        assert all(0 <= c < 81 for c in cards)
        assert count_sets(cards) == 6 == len(find_sets(cards))


def test_daily_puzzle_is_the_same_every_time_for_a_date() -> None:
    assert daily_puzzle(DAY) == daily_puzzle(datetime.date(2026, 11, 22))
    assert daily_puzzle(parse_day("2026-11-22")) == daily_puzzle(DAY)
    # Pinned: a day's puzzle must never change between versions (it is shared and compared).
    assert " ".join(card_names(daily_puzzle(DAY))) == (
        "2RSD 3GSS 2GTD 1PSS 1POO 1RSO 3GTS 2ROO 1PTO 3GOS 3RTS 1POD"
    )


def test_different_dates_give_different_tables() -> None:
    tables = [frozenset(daily_puzzle(day)) for day in days(400, datetime.date(2025, 1, 1))]
    assert len(set(tables)) == len(tables)


def test_a_puzzle_is_drawn_from_its_seed_alone() -> None:
    assert draw(b"a", tuple(range(81)), 12) == draw(b"a", tuple(range(81)), 12)
    assert draw(b"a", tuple(range(81)), 12) != draw(b"b", tuple(range(81)), 12)
    assert sorted(draw(b"c", tuple(range(81)), 81)) == list(range(81))  # a permutation
    ultra = find_variant("ultraset")
    table = make_puzzle(b"u", size=9, groups=3, variant=ultra)
    assert ultra.kind.count(table, ultra.deck) == 3


@pytest.mark.parametrize(
    "bad", ["2026-02-30", "2026-11-22T00:00", "20261122", "2026-W47-7", "", "x" * 999,
            "２０２６-11-22", None, 20261122]
)
def test_bad_dates_are_refused_quoting_them(bad: object) -> None:
    with pytest.raises(PuzzleError) as info:
        parse_day(bad)
    assert isinstance(info.value, ValueError) and repr(bad)[:15] in str(info.value)
    assert len(str(info.value)) < 200


def test_a_daily_puzzle_needs_a_date_not_a_time_or_text() -> None:
    for bad in (datetime.datetime(2026, 11, 22, 8, 0), "2026-11-22", None):
        with pytest.raises(PuzzleError, match="needs a date"):
            daily_puzzle(bad)  # type: ignore[arg-type]


def test_impossible_puzzles_are_refused() -> None:
    with pytest.raises(PuzzleError):
        make_puzzle(b"x", size=2)
    with pytest.raises(PuzzleError):
        make_puzzle(b"x", size=12, groups=-1)


def test_a_day_under_a_server_key_cannot_be_computed_without_the_key() -> None:
    """Issue 20: the server deals a day from ``daily_seed(day, key)``; the public table (seed
    0, the pinned one above) and another key's are other cards, and the seed never repeats
    from one day to the next (knowing today's tells nothing of tomorrow's)."""
    key, other = b"k" * 32, b"o" * 32
    seeds = [daily_seed(day, key) for day in days(200)]
    assert len(set(seeds)) == 200 and all(0 < s < 2**62 for s in seeds)
    assert daily_seed(DAY, key) == daily_seed(DAY, key) != daily_seed(DAY, other)
    dealt = daily_puzzle(DAY, daily_seed(DAY, key))
    assert dealt == daily_puzzle(DAY, daily_seed(DAY, key))  # the same for everyone that day
    assert dealt != daily_puzzle(DAY) and dealt != daily_puzzle(DAY, daily_seed(DAY, other))
    assert count_sets(dealt) == 6 and len(set(dealt)) == 12
    assert daily_puzzle(DAY, PUBLIC_SEED) == daily_puzzle(DAY)  # offline play, old games
    with pytest.raises(PuzzleError):
        daily_seed("2026-11-22", key)  # type: ignore[arg-type]
