"""The fast simulation against the plain one, and what every whole game must satisfy."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from setgame import find_sets, parse_cards
from setgame.analysis.simulate import (
    LINES,
    SimulationStats,
    TableCount,
    _choose_sets,
    simulate,
    simulate_plain,
)


@pytest.fixture(scope="module")
def fast() -> SimulationStats:
    return simulate(20_000, seed=11)


@pytest.fixture(scope="module")
def plain() -> SimulationStats:
    return simulate_plain(2_500, seed=12)


def z_score(p1: float, n1: int, p2: float, n2: int) -> float:
    """Two-proportion z statistic (0 when both are 0 or 1)."""
    pooled = (p1 * n1 + p2 * n2) / (n1 + n2)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return 0.0 if spread == 0 else (p1 - p2) / spread


def test_simulate_is_deterministic_from_the_seed() -> None:
    assert simulate(700, seed=3) == simulate(700, seed=3)
    assert simulate(700, seed=3) != simulate(700, seed=4)
    assert simulate_plain(50, seed=3) == simulate_plain(50, seed=3)


@pytest.mark.parametrize("stats_name", ["fast", "plain"])
def test_r12_every_game_ends_with_no_set_and_no_card_left_in_the_deck(
    stats_name: str, request: pytest.FixtureRequest
) -> None:
    stats: SimulationStats = request.getfixturevalue(stats_name)
    assert sum(stats.leftover.values()) == stats.games
    # The 81 cards sum to 0 in GF(3)^4, and so does each set: what is left sums to 0
    # too, so it is never 3 cards (3 cards summing to 0 are a set), and always 3k.
    assert all(left % 3 == 0 and left != 3 and left <= 20 for left in stats.leftover)
    left = sum(size * n for size, n in stats.leftover.items())
    assert stats.sets_taken * 3 + left == 81 * stats.games
    # Each ending table is a table met with no set.
    for size, n in stats.leftover.items():
        assert stats.tables[size].no_set >= n


@pytest.mark.parametrize("stats_name", ["fast", "plain"])
def test_r09_r11_table_sizes(stats_name: str, request: pytest.FixtureRequest) -> None:
    stats: SimulationStats = request.getfixturevalue(stats_name)
    assert all(size % 3 == 0 and size <= 21 for size in stats.tables)
    # Sets found on 12 cards while the deck lasts keep the table at 12 (R09); it grows
    # only past a table with no set (R11): 15-card tables need 12-card ones without.
    assert stats.tables[12].seen > stats.tables[15].seen
    assert stats.tables[15].seen <= stats.tables[12].no_set + stats.tables[18].seen
    assert stats.tables.get(21, TableCount()).no_set == 0  # R17


def test_fast_and_plain_agree_in_distribution(
    fast: SimulationStats, plain: SimulationStats
) -> None:
    for size in (9, 12, 15):
        a, b = fast.tables[size], plain.tables[size]
        z = z_score(a.no_set_rate, a.seen, b.no_set_rate, b.seen)
        assert abs(z) < 5, (size, a, b)
    for left in (0, 6, 9, 12):
        p1 = fast.leftover.get(left, 0) / fast.games
        p2 = plain.leftover.get(left, 0) / plain.games
        assert abs(z_score(p1, fast.games, p2, plain.games)) < 5, left
    assert fast.sets_per_game == pytest.approx(plain.sets_per_game, abs=0.1)


def test_in_play_twelve_card_tables_lack_a_set_more_often_than_random_ones(
    fast: SimulationStats,
) -> None:
    # Random 12 cards: 3.2% (test_odds); in play about 6.6%, clearly apart.
    assert 0.055 < fast.tables[12].no_set_rate < 0.08


def test_r16_beginner_deck_games() -> None:
    for stats in (simulate(2_000, seed=1, deck="beginner"), simulate_plain(300, 1, "beginner")):
        assert stats.tables[12].no_set == 0  # 27 cards of one shading: any 10 hold a set
        assert set(stats.leftover) <= {0, 6, 9}
        assert 7 <= stats.sets_per_game <= 9


def test_progress_reports_every_game() -> None:
    seen: list[int] = []
    simulate(10_000, seed=1, progress=seen.append)
    assert sum(seen) == 10_000 and len(seen) >= 2


def test_json_form() -> None:
    stats = simulate(100, seed=2)
    data = stats.to_json(seconds=0.5)
    assert data["games"] == 100 and data["games_per_second"] == 200
    assert list(data["tables"]) == sorted(data["tables"], key=int)
    assert all(isinstance(k, str) for k in [*data["tables"], *data["leftover"]])
    assert stats.to_json()["games_per_second"] is None


@pytest.mark.parametrize("games", [0, -5, True, 2.5])
def test_bad_number_of_games(games: object) -> None:
    with pytest.raises(ValueError, match=repr(games).replace(".", r"\.")):
        simulate(games, seed=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        simulate_plain(games, seed=1)  # type: ignore[arg-type]


def test_bad_deck() -> None:
    with pytest.raises(ValueError, match="'half'"):
        simulate(10, seed=1, deck="half")


def test_each_set_on_a_table_is_taken_equally_often() -> None:
    table = parse_cards(
        [
            "1RSD",
            "2RSD",
            "3RSD",
            "1GSD",
            "1PSD",
            "2GTO",
            "3POS",
            "1RTO",
            "2PSO",
            "3GTS",
            "2GSS",
            "3PTD",
        ]
    )
    sets = {frozenset(s) for s in find_sets(table)}
    assert len(sets) >= 3
    games = 64 * len(sets) * 5
    onboard = np.zeros((81, games), dtype=bool)
    onboard[table] = True  # the same table in every game
    uniform = (np.arange(games) + 0.5) / games  # evenly spread draws
    chosen = _choose_sets(onboard, games, uniform)
    taken = Counter(frozenset(LINES[line].tolist()) for line in chosen)
    assert set(taken) == sets
    assert set(taken.values()) == {games // len(sets)}
