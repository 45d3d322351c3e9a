"""The kinds of set against plain brute-force definitions (issue 10, "What it must show").

Each ``plain_*`` below is the definition as the rulebook or the issue words it,
checked card by card over every combination; the kinds' finders use pair
tables, XOR and triple sums instead, so agreement is a real check.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from setgame import explain, find_sets, third_card
from setgame.rules.cards import CardError
from setgame.rules.decks import FOURSET as FOUR_DECK
from setgame.rules.decks import FOURSET_JUNIOR, JUNIOR, MEGASET, STANDARD, Deck
from setgame.rules.flaws import CountFlaw, PairingFlaw, SetFlaw
from setgame.rules.kinds import (
    FOURSET,
    GHOSTSET,
    SET,
    ULTRASET,
    Kind,
    KindError,
    is_fourset,
    is_ghostset,
    is_set,
    is_ultraset,
)

Cards = tuple[int, ...]


def plain_set(deck: Deck, cards: Sequence[int]) -> bool:
    """R03: every attribute all the same or all different."""
    columns = zip(*(deck.values(c) for c in cards), strict=True)
    return len(set(cards)) == 3 and all(len(set(col)) in (1, 3) for col in columns)


def plain_ultra(cards: Sequence[int]) -> bool:
    """Two pairs whose completing third cards are the same card."""
    a, b, c, d = cards
    splits = (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))
    return any(third_card(*p) == third_card(*q) for p, q in splits)


def plain_ghost(deck: Deck, cards: Sequence[int]) -> bool:
    """Values taken as 0-2 sum to 0 mod 3 in every attribute."""
    columns = zip(*(deck.values(c) for c in cards), strict=True)
    return all(sum(col) % 3 == 0 for col in columns)


def plain_four(deck: Deck, cards: Sequence[int]) -> bool:
    """Every attribute: all the same, all different, or two pairs."""
    columns = zip(*(deck.values(c) for c in cards), strict=True)
    return all(sorted(Counter(col).values()) in ([4], [1, 1, 1, 1], [2, 2]) for col in columns)


def brute(deck: Deck, table: Sequence[int], size: int, rule: object) -> set[frozenset[int]]:
    assert callable(rule)
    return {frozenset(g) for g in itertools.combinations(table, size) if rule(g)}


def tables(deck: Deck, low: int, high: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.sampled_from(deck.cards), min_size=low, max_size=high, unique=True)


# --- set (R03 on every three-valued deck) ---------------------------------------------


def test_set_on_the_standard_deck_is_setgame_sets() -> None:
    rng = random.Random(1)
    for _ in range(200):
        table = rng.sample(range(81), 15)
        assert SET.find(table) == find_sets(table)
    assert SET.count(STANDARD.cards) == 1080


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([STANDARD, JUNIOR, MEGASET]), st.data())
def test_set_finder_agrees_with_the_plain_definition(deck: Deck, data: st.DataObject) -> None:
    table = data.draw(tables(deck, 0, 18))
    found = SET.find(table, deck)
    assert {frozenset(g) for g in found} == brute(deck, table, 3, lambda g: plain_set(deck, g))
    assert len(found) == len({frozenset(g) for g in found}) == SET.count(table, deck)
    assert all(is_set(g, deck) for g in found)


def test_megaset_sets_use_five_attributes_and_every_pair_completes_once() -> None:
    # Every pair of the 243 cards has exactly one completing card: 243 * 242 / 6 sets.
    assert SET.count(MEGASET.cards, MEGASET) == 243 * 242 // 6
    a, b = MEGASET.parse("1RSDS"), MEGASET.parse("2RSDS")
    assert is_set((a, b, MEGASET.parse("3RSDS")), MEGASET)
    assert not is_set((a, b, MEGASET.parse("3RSDD")), MEGASET)  # two single, one double


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([STANDARD, MEGASET]), st.data())
def test_set_explanation_names_exactly_the_failing_attributes(
    deck: Deck, data: st.DataObject
) -> None:
    cards = data.draw(st.lists(st.sampled_from(deck.cards), min_size=3, max_size=3, unique=True))
    flaws = SET.explain(cards, deck)
    columns = list(zip(*(deck.values(c) for c in cards), strict=True))
    assert [f.attribute for f in flaws] == [i for i, c in enumerate(columns) if len(set(c)) == 2]
    for flaw in flaws:
        assert isinstance(flaw, SetFlaw)
        col = columns[flaw.attribute]
        assert col.count(flaw.common) == 2 and col.count(flaw.odd) == 1
    assert (flaws == []) == plain_set(deck, cards)
    if deck is STANDARD:  # R04: the same flaws as setgame.rules.sets.explain
        old = explain(*cards)
        assert [(f.attribute, f.common, f.odd) for f in flaws] == [
            (f.attribute, f.common, f.odd) for f in old
        ]


@pytest.mark.parametrize(
    ("kind", "deck"),
    [(SET, MEGASET), (ULTRASET, STANDARD), (GHOSTSET, STANDARD), (FOURSET, FOUR_DECK)],
)
def test_has_tells_whether_a_table_holds_a_group_of_the_kind(kind: Kind, deck: Deck) -> None:
    rng = random.Random(7)
    answers = set()
    for size in range(kind.size - 1, 13):
        table = rng.sample(deck.cards, size)
        answers.add(kind.has(table, deck))
        assert kind.has(table, deck) == bool(kind.find(table, deck))
    assert answers == {False, True}


# --- UltraSet -------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(tables(STANDARD, 0, 15))
def test_ultraset_count_agrees_with_brute_force(table: list[int]) -> None:
    found = ULTRASET.find(table)
    assert {frozenset(g) for g in found} == brute(STANDARD, table, 4, plain_ultra)
    assert len(found) == len(set(map(frozenset, found))) == ULTRASET.count(table)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(STANDARD.cards), min_size=3, max_size=3, unique=True))
def test_any_two_pairs_with_the_same_completion_are_an_ultraset(cards: list[int]) -> None:
    a, b, c = cards
    target = third_card(a, b)
    assume(target != c)  # {a, b, c} a set: no fourth card pairs with c to complete c
    d = third_card(c, target)  # so that third(c, d) == target as well
    assert d not in (a, b, c)
    assert is_ultraset((a, b, c, d)) and is_ultraset((d, c, b, a))
    assert ULTRASET.completion((c, a, d, b)) == target
    assert ULTRASET.explain((a, b, c, d)) == []


def test_ultraset_explanation_gives_each_split_and_where_completions_differ() -> None:
    rng = random.Random(4)
    checked = 0
    while checked < 200:
        cards = rng.sample(range(81), 4)
        if plain_ultra(cards):
            continue
        flaws = ULTRASET.explain(cards)
        assert len(flaws) == 3 and all(isinstance(f, PairingFlaw) for f in flaws)
        for flaw in flaws:
            (a, b), (c, d) = flaw.pairs
            assert {a, b, c, d} == set(cards)
            x, y = flaw.thirds
            assert (x, y) == (third_card(a, b), third_card(c, d)) and x != y
            differ = [i for i in range(4) if STANDARD.values(x)[i] != STANDARD.values(y)[i]]
            assert list(flaw.attributes) == differ
        checked += 1


def test_ultraset_count_over_the_deck_is_40_pairs_per_completion() -> None:
    # Each card completes 40 pairs (the other 80 cards in pairs); two of them are one UltraSet.
    assert ULTRASET.count(STANDARD.cards) == 81 * 40 * 39 // 2
    assert len(ULTRASET.find(STANDARD.cards)) == ULTRASET.count(STANDARD.cards)


def test_ultraset_is_judged_on_the_deck_it_is_given() -> None:
    """UltraSet on MegaSet's five attributes: 1RSDS 2RSDS and 1GSDS 2PSDS are both completed
    by 3RSDS (two sets through one card); with the fifth attribute off, no split matches."""
    a, b, c, d, t = map(MEGASET.parse, ("1RSDS", "2RSDS", "1GSDS", "2PSDS", "3RSDS"))
    assert is_set((a, b, t), MEGASET) and is_set((c, d, t), MEGASET)
    assert is_ultraset((a, c, b, d), MEGASET) and ULTRASET.is_group((d, a, c, b), MEGASET)
    assert ULTRASET.completion((a, b, c, d), MEGASET) == t
    assert ULTRASET.explain((a, b, c, d), MEGASET) == []
    off = MEGASET.parse("2PSDD")
    assert not is_ultraset((a, b, c, off), MEGASET)
    flaws = ULTRASET.explain((a, b, c, off), MEGASET)
    assert len(flaws) == 3 and 4 in flaws[0].attributes  # the completions differ in size


def test_ultraset_completion_of_repeated_cards_is_none() -> None:
    # (0, 0) and (1, 1) are "completed" alike (by no card): repeats are never an UltraSet
    assert ULTRASET.completion((0, 0, 1, 1)) is None
    assert ULTRASET.completion((0, 1, 0, 1)) is None and not is_ultraset((0, 0, 1, 1))


# --- GhostSet -------------------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(tables(STANDARD, 0, 12))
def test_ghostset_count_agrees_with_brute_force(table: list[int]) -> None:
    found = GHOSTSET.find(table)
    expected = brute(STANDARD, table, 6, lambda g: plain_ghost(STANDARD, g))
    assert {frozenset(g) for g in found} == expected
    assert len(found) == len(expected) == GHOSTSET.count(table)
    assert all(is_ghostset(g) for g in found)


def test_a_ghostset_sums_to_zero_and_splits_into_three_pairs_whose_thirds_form_a_set() -> None:
    rng = random.Random(6)
    ghosts = [g for _ in range(30) for g in GHOSTSET.find(rng.sample(range(81), 12))]
    assert len(ghosts) > 100
    for ghost in ghosts:
        assert plain_ghost(STANDARD, ghost)
        a, *rest = ghost
        assert any(
            is_set(thirds)
            for b in rest
            for c, d, e, f in _pairings_of_four([x for x in rest if x != b])
            for thirds in [(third_card(a, b), third_card(c, d), third_card(e, f))]
        )


def _pairings_of_four(cards: list[int]) -> list[Cards]:
    a, b, c, d = cards
    return [(a, b, c, d), (a, c, b, d), (a, d, b, c)]


def test_ghostset_splits_allowed_per_attribute_are_the_counts_equal_mod_3() -> None:
    # Six values 0-2 sum to 0 mod 3 exactly when the counts are 6-0-0, 4-1-1, 3-3-0 or 2-2-2.
    allowed = set()
    for values in itertools.product(range(3), repeat=6):
        counts = tuple(values.count(v) for v in range(3))
        if sum(values) % 3 == 0:
            allowed.add(tuple(sorted(counts)))
        assert (sum(values) % 3 == 0) == (len({c % 3 for c in counts}) == 1)
    assert allowed == {(0, 0, 6), (1, 1, 4), (0, 3, 3), (2, 2, 2)}


def test_ghostset_explanation_counts_each_value_of_each_failing_attribute() -> None:
    rng = random.Random(7)
    for _ in range(300):
        cards = rng.sample(range(81), 6)
        flaws = GHOSTSET.explain(cards)
        columns = list(zip(*(STANDARD.values(c) for c in cards), strict=True))
        assert [f.attribute for f in flaws] == [i for i, c in enumerate(columns) if sum(c) % 3]
        for flaw in flaws:
            assert isinstance(flaw, CountFlaw)
            assert flaw.counts == tuple(columns[flaw.attribute].count(v) for v in range(3))


# --- 4Set -----------------------------------------------------------------------------


def test_fourset_rule_is_xor_zero_for_every_four_values() -> None:
    for values in itertools.product(range(4), repeat=4):
        pattern = sorted(Counter(values).values()) in ([4], [1, 1, 1, 1], [2, 2])
        a, b, c, d = values
        assert pattern == (a ^ b ^ c ^ d == 0), values


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([FOUR_DECK, FOURSET_JUNIOR]), st.data())
def test_fourset_count_agrees_with_brute_force(deck: Deck, data: st.DataObject) -> None:
    table = data.draw(tables(deck, 0, 16))
    found = FOURSET.find(table, deck)
    assert {frozenset(g) for g in found} == brute(deck, table, 4, lambda g: plain_four(deck, g))
    assert len(found) == len(set(map(frozenset, found))) == FOURSET.count(table, deck)
    assert all(is_fourset(g, deck) for g in found)


def test_fourset_explanation_counts_each_value_of_each_failing_attribute() -> None:
    deck = FOURSET.deck
    assert deck is FOUR_DECK  # the kind's own deck, used when none is given
    cards = deck.parse_many(["1RSD", "2RSD", "3RSO", "4RSO"])
    assert FOURSET.explain(cards, deck) == []  # shapes in two pairs: fine
    cards = deck.parse_many(["1RSD", "2RSD", "3GSO", "4RSH"])
    assert FOURSET.explain(cards) == [CountFlaw(1, (3, 1, 0, 0)), CountFlaw(3, (2, 1, 0, 1))]
    assert not is_fourset(cards) and FOURSET.find(cards) == [] and FOURSET.count(cards) == 0


# --- errors -----------------------------------------------------------------------------


def test_a_kind_refuses_a_deck_of_another_radix() -> None:
    with pytest.raises(KindError, match="4set"):
        ULTRASET.find(FOUR_DECK.cards[:12], FOUR_DECK)
    with pytest.raises(KindError, match="standard"):
        FOURSET.find(range(12), STANDARD)


def test_each_judge_refuses_a_deck_of_another_radix() -> None:
    """The module's judges pass the deck on: none falls back to its kind's own deck."""
    for judge in (is_set, is_ultraset, is_ghostset):
        with pytest.raises(KindError, match="4set"):
            judge(FOUR_DECK.cards[:6], FOUR_DECK)
    with pytest.raises(KindError, match="standard"):
        is_fourset(range(4), STANDARD)


def test_ghostset_is_judged_on_the_deck_it_is_given_attribute_by_attribute() -> None:
    # two disjoint MegaSet sets: each sums to 0 mod 3 on all five attributes, so both do
    first, second = next(
        (a, b)
        for a, b in itertools.combinations(SET.find(MEGASET.cards[:60], MEGASET), 2)
        if not set(a) & set(b)
    )
    assert is_ghostset(first + second, MEGASET) and GHOSTSET.explain(first + second, MEGASET) == []
    # a standard GhostSet with one card moved: colour sums to 1, number to 2 (3 in all):
    ghost = GHOSTSET.find(range(12))[0]
    moved = ghost[0] // 27 * 27 + (ghost[0] // 9 + 1) % 3 * 9 + ghost[0] % 9  # colour + 1
    moved = (moved // 27 + 2) % 3 * 27 + moved % 27  # number + 2
    cards = (moved, *ghost[1:])
    assert len(set(cards)) == 6 and not is_ghostset(cards) and not plain_ghost(STANDARD, cards)
    assert [f.attribute for f in GHOSTSET.explain(cards)] == [0, 1]


@pytest.mark.parametrize("kind", [ULTRASET, GHOSTSET, FOURSET])
def test_groups_are_listed_in_table_order_and_counted_in_whole_numbers(kind: Kind) -> None:
    """find lists each group's cards in table order, and the groups by their positions."""
    table = random.Random(3).sample(kind.deck.cards, 14 if kind is GHOSTSET else 20)
    found = kind.find(table, kind.deck)
    positions = [[table.index(c) for c in group] for group in found]
    assert len(found) > 3 and positions == sorted(positions)
    assert all(p == sorted(p) for p in positions)
    count = kind.count(table, kind.deck)
    assert type(count) is int and count == len(found)


def test_bad_picks_and_tables() -> None:
    assert not is_set((0, 0, 0)) and not is_ultraset((0, 1, 2)) and not is_ghostset(range(5))
    with pytest.raises(CardError, match="4 different cards"):
        ULTRASET.explain((0, 1, 2))
    with pytest.raises(CardError, match="each card once"):
        GHOSTSET.find((0, 1, 2, 3, 4, 0))
    with pytest.raises(CardError, match="81"):
        SET.find((0, 1, 81))
    with pytest.raises(CardError, match="'x'"):
        SET.is_group((0, 1, "x"))  # type: ignore[arg-type]
    assert GHOSTSET.find((0, 1, 2)) == [] and ULTRASET.count(()) == 0
    assert len(GHOSTSET.find(range(30))) > 1000
    with pytest.raises(CardError, match="more cards than the standard deck holds"):
        SET.find(itertools.cycle(range(81)))  # endless input is read no further than 82
    with pytest.raises(KindError, match="31 cards are too many"):
        GHOSTSET.find(range(31))  # bounded: listing GhostSets grows as n**6
