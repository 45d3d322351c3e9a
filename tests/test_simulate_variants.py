"""Whole games of every variant (``setgame simulate --variant``)."""

from __future__ import annotations

import itertools
import random

import pytest

from setgame.analysis.simulate import _Counts, _play, simulate, simulate_variant
from setgame.rules.variants import (
    CLASSIC,
    MEMORY,
    PUZZLE,
    SET_CHAIN,
    SHUFFLE,
    ULTRASET,
    VARIANTS,
    find_variant,
)

GAMES = 40


@pytest.mark.parametrize("name", list(VARIANTS))
def test_r12_every_game_of_every_variant_ends(name: str) -> None:
    variant = find_variant(name)
    stats = simulate_variant(variant, GAMES, seed=3)
    assert stats.variant == name and stats.games == GAMES
    assert sum(stats.leftover.values()) == GAMES
    for size, count in stats.tables.items():
        assert 0 <= count.no_set <= count.seen, size
    # A game ends on a table with nothing to claim, counted as such (a puzzle's last
    # table, its groups all found, is not counted: see setgame.analysis.simulate).
    for size, games in stats.leftover.items() if variant.flow.removes_claims else ():
        assert stats.tables[size].no_set >= games


@pytest.mark.parametrize("name", [n for n, v in VARIANTS.items() if not v.flow.links
                                  and v.flow.removes_claims])  # fmt: skip
def test_every_card_is_claimed_or_left(name: str) -> None:
    """Normal, shuffle and memory flows: each claim takes its cards out of the game."""
    variant = find_variant(name)
    stats = simulate_variant(variant, GAMES, seed=5)
    left = sum(size * n for size, n in stats.leftover.items())
    assert stats.sets_taken * variant.claim_size + left == len(variant.deck) * GAMES


@pytest.mark.parametrize("name", ["set-chain", "ultraset-chain"])
def test_chain_claims_take_only_their_table_cards(name: str) -> None:
    """After the first claim a chain claim reuses ``links`` cards of the previous one,
    so only claim - links cards leave the table."""
    variant = find_variant(name)
    stats = simulate_variant(variant, GAMES, seed=7)
    left = sum(size * n for size, n in stats.leftover.items())
    per_claim = variant.claim_size - variant.flow.links
    assert left + GAMES * variant.flow.links + stats.sets_taken * per_claim == 81 * GAMES


def test_r11_generalized_an_ultraset_table_of_10_or_more_never_lacks_one() -> None:
    stats = simulate_variant(ULTRASET, 200, seed=1)
    assert all(count.no_set == 0 for size, count in stats.tables.items() if size >= 10)
    assert stats.tables[12].seen > 200


def test_memory_plays_as_the_normal_flow() -> None:
    memory = simulate_variant(MEMORY, 100, seed=9)
    classic = simulate_variant(CLASSIC, 100, seed=9)
    assert (memory.tables, memory.leftover, memory.sets_taken) == (
        classic.tables, classic.leftover, classic.sets_taken
    )  # fmt: skip


def test_classic_by_the_variant_loop_agrees_with_the_fast_loop() -> None:
    plain = simulate_variant(CLASSIC, 1500, seed=2)
    fast = simulate(1500, seed=2)
    assert abs(plain.sets_per_game - fast.sets_per_game) < 0.2  # about 24.4 both
    assert abs(plain.tables[12].no_set_rate - fast.tables[12].no_set_rate) < 0.015


def twelve_card_deck(seed: int) -> list[int]:
    return random.Random(seed).sample(range(81), 12)


@pytest.mark.parametrize("seed", range(6))
def test_puzzle_finds_every_set_of_a_table_once(seed: int) -> None:
    """A 12-card deck is one puzzle table: every set on it is found once, none removed."""
    cards = twelve_card_deck(seed)
    counts = _Counts(claims=[])
    _play(PUZZLE, cards, random.Random(seed), counts)
    assert counts.claims is not None
    assert sorted(map(sorted, counts.claims)) == sorted(map(sorted, PUZZLE.find(cards)))
    assert len(PUZZLE.find(cards)) == len(set(counts.claims))
    assert counts.leftover == {12: 1}


@pytest.mark.parametrize("seed", range(6))
def test_chain_claims_after_the_first_are_linked(seed: int) -> None:
    """With no stock, a chain game takes a set, then only sets through exactly one card
    of the previous set, until there is none."""
    cards = twelve_card_deck(seed)
    counts = _Counts(claims=[])
    _play(SET_CHAIN, cards, random.Random(seed), counts)
    claims = counts.claims
    assert claims is not None and len(claims) == counts.taken
    assert all(SET_CHAIN.kind.is_group(claim) for claim in claims)
    for previous, claim in itertools.pairwise(claims):
        assert len(set(previous) & set(claim)) == 1
    left = set(cards).difference(*claims)
    assert counts.leftover == {len(left): 1}
    if claims:
        assert not SET_CHAIN.find([*left, *claims[-1]], claims[-1])  # nothing linked is left
    else:
        assert not SET_CHAIN.find(cards)


def test_shuffle_deals_a_new_table_after_each_claim() -> None:
    stats = simulate_variant(SHUFFLE, 300, seed=4)
    # Tables are dealt afresh, so 12 cards lack a set about as often as random ones (3.2%),
    # not twice as often as in play by R09 (6.7%).
    assert stats.tables[12].no_set_rate < 0.05
    classic = simulate(300, seed=4)
    assert classic.tables[12].no_set_rate > 0.05


def test_progress_reports_every_game() -> None:
    seen: list[int] = []
    simulate_variant(ULTRASET, 250, seed=1, progress=seen.append)
    assert sum(seen) == 250 and len(seen) == 3


@pytest.mark.parametrize("games", [0, -1, True, 1.5])
def test_bad_number_of_games(games: object) -> None:
    with pytest.raises(ValueError, match="games"):
        simulate_variant(ULTRASET, games, seed=1)  # type: ignore[arg-type]


def test_bad_deck() -> None:
    with pytest.raises(ValueError, match="'beginner'"):
        simulate_variant(find_variant("4set"), 5, seed=1, deck="beginner")
    with pytest.raises(ValueError, match="'half'"):
        simulate_variant(ULTRASET, 5, seed=1, deck="half")
    stats = simulate_variant(ULTRASET, 20, seed=1, deck="beginner")
    assert sum(stats.leftover.values()) == 20
