"""One judge of sets: the engine, the variants and the classic functions ask the same kind.

The rule is checked here from the cards' attributes, written out independently of the
library, against every path a claim can take: the classic functions, the set kind, and the
variants the engine plays (their ``is_claim``, ``find`` and ``explain``), so that breaking
the rule in the judge fails these R03/R04 tests whichever path it is broken on.
"""

from __future__ import annotations

import itertools
import random

import pytest

from setgame import explain, find_sets, has_set, is_set, third_card
from setgame.rules.decks import JUNIOR, MEGASET, STANDARD, Deck
from setgame.rules.flaws import SetFlaw
from setgame.rules.kinds import KINDS
from setgame.rules.sets import SET, third_table
from setgame.rules.variants import VARIANTS, find_variant

THREE_VALUED_SETS = [v for v in VARIANTS.values() if v.kind.name == "set"]


def rule(deck: Deck, cards: tuple[int, ...]) -> bool:
    """R03 from the attributes: each one all same or all different."""
    return all(len(set(values)) != 2 for values in zip(*map(deck.values, cards), strict=True))


def rule_flaws(deck: Deck, cards: tuple[int, ...]) -> list[SetFlaw]:
    """R04 from the attributes: where two share a value and the third differs."""
    flaws = []
    for attr, values in enumerate(zip(*map(deck.values, cards), strict=True)):
        if len(set(values)) == 2:
            common = next(v for v in values if values.count(v) == 2)
            flaws.append(SetFlaw(attr, common, next(v for v in values if v != common)))
    return flaws


def test_r03_every_variant_of_sets_is_judged_by_the_one_set_kind() -> None:
    assert THREE_VALUED_SETS, "the classic game and its relatives play sets"
    assert KINDS["set"] is SET
    for variant in THREE_VALUED_SETS:
        assert variant.kind is SET, variant.name


def test_r03_the_engine_and_the_classic_functions_agree_with_the_rule_on_every_triple() -> None:
    classic = find_variant("classic")
    for cards in itertools.combinations(STANDARD.cards, 3):
        expected = rule(STANDARD, cards)
        assert classic.is_claim(cards) is expected, STANDARD.names(cards)
        assert is_set(*cards) is expected
        assert SET.is_group(cards) is expected


def test_r04_the_engine_and_the_classic_explain_name_the_same_flaws() -> None:
    classic = find_variant("classic")
    rng = random.Random(3)
    for _ in range(2000):
        cards = tuple(rng.sample(STANDARD.cards, 3))
        expected = rule_flaws(STANDARD, cards)
        assert classic.explain(cards) == expected
        assert [SetFlaw(f.attribute, f.common, f.odd) for f in explain(*cards)] == expected


@pytest.mark.parametrize("deck", [STANDARD, JUNIOR, MEGASET], ids=lambda d: d.name)
def test_r05_the_third_card_follows_the_rule_on_every_three_valued_deck(deck: Deck) -> None:
    rng = random.Random(5)
    pairs = itertools.combinations(deck.cards, 2)
    sample = list(pairs) if deck is not MEGASET else [tuple(rng.sample(deck.cards, 2))
                                                      for _ in range(3000)]  # fmt: skip
    for a, b in sample:
        c = SET.third(a, b, deck)
        assert c not in (a, b) and rule(deck, (a, b, c)), deck.names((a, b, c))
        assert third_table(deck.width)[a * deck.space + b] == c
        if deck is STANDARD:
            assert third_card(a, b) == c


@pytest.mark.parametrize("name", ["classic", "junior", "megaset"])
def test_r03_the_variants_find_exactly_the_rules_sets(name: str) -> None:
    variant = find_variant(name)
    rng = random.Random(name)
    for _ in range(200):
        table = rng.sample(variant.deck.cards, variant.table_size)
        expected = [c for c in itertools.combinations(table, 3) if rule(variant.deck, c)]
        assert variant.find(table) == expected
        assert variant.has(table) is bool(expected)
        assert SET.count(table, variant.deck) == len(expected)
        if variant.deck is STANDARD:
            assert find_sets(table) == expected and has_set(table) is bool(expected)
