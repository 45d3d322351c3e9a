"""Computer opponents: person-like timing, levels, legal plans."""

from __future__ import annotations

import random
import statistics

import pytest

from setgame import find_sets, full_deck, is_set
from setgame.bots import LEVELS, Bot


def tables(n: int, seed: int = 1) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(full_deck(), 12) for _ in range(n)]


def test_plans_are_sets_from_the_table_at_the_top_level() -> None:
    bot = Bot(5, seed=1)
    for table in tables(200):
        plan = bot.plan(table, now=10.0)
        assert plan is not None and plan.at > 10.0
        if plan.kind == "set":
            assert plan.cards is not None and set(plan.cards) <= set(table)
            assert is_set(*plan.cards)
        else:
            assert not find_sets(table)


def test_low_levels_make_wrong_calls_sometimes() -> None:
    bot = Bot(1, seed=2)
    plans = [bot.plan(t, 0.0) for t in tables(400, seed=3)]
    wrong = [p for p in plans if p and p.kind == "set" and not is_set(*p.cards)]
    assert 30 < len(wrong) < 130  # about 20 %


def test_fewer_sets_on_the_table_means_slower_reactions() -> None:
    bot = Bot(3, seed=4)
    many = statistics.median(bot.thinking_time(6, 12) for _ in range(500))
    one = statistics.median(bot.thinking_time(1, 12) for _ in range(500))
    assert one > 1.8 * many


def test_higher_levels_are_faster() -> None:
    medians = [
        statistics.median(Bot(level, seed=5).thinking_time(3, 12) for _ in range(300))
        for level in sorted(LEVELS)
    ]
    assert medians == sorted(medians, reverse=True)
    assert all(Bot(level).pick_delay < 5 for level in LEVELS)  # inside the default pick window


def test_no_set_tables_are_declared_after_a_look() -> None:
    rng = random.Random(9)
    while True:
        table = rng.sample(full_deck(), 12)
        if not find_sets(table):
            break
    plan = Bot(2, seed=1).plan(table, 5.0)
    assert plan is not None and plan.kind == "no_set" and plan.cards is None


def test_bad_level_is_refused() -> None:
    with pytest.raises(ValueError, match="must be 1-5, not 9"):
        Bot(9)
