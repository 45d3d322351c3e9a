"""Variants as deck x kind x flow, registered by name (issue 10)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from setgame import find_sets
from setgame.rules import decks, kinds
from setgame.rules.decks import STANDARD
from setgame.rules.flaws import LinkFlaw, SetFlaw
from setgame.rules.flows import FLOWS, NORMAL
from setgame.rules.variants import CLASSIC, VARIANTS, Variant, VariantError, find_variant

ISSUE_NAMES = [
    "Classic", "Junior", "Set-Chain", "UltraSet", "UltraSet-Chain", "Ultra9", "MegaSet",
    "GhostSet", "4Set", "4Set Junior", "Puzzle", "Shuffle", "Memory",
]


def test_every_variant_of_the_issue_is_registered_by_its_name() -> None:
    assert [v.title for v in VARIANTS.values()] == ISSUE_NAMES
    for title in ISSUE_NAMES:
        assert find_variant(title).title == title
        assert find_variant(title.upper().replace("-", " ")).title == title
        assert find_variant(f"  {title.lower().replace(' ', '_')} ").title == title


@pytest.mark.parametrize(
    ("name", "deck", "kind", "flow", "table", "claim"),
    [
        ("classic", decks.STANDARD, kinds.SET, "normal", 12, 3),
        ("junior", decks.JUNIOR, kinds.SET, "normal", 12, 3),
        ("set-chain", decks.STANDARD, kinds.SET, "chain", 12, 3),
        ("ultraset", decks.STANDARD, kinds.ULTRASET, "normal", 12, 4),
        ("ultraset-chain", decks.STANDARD, kinds.ULTRASET, "ultra-chain", 12, 4),
        ("ultra9", decks.STANDARD, kinds.ULTRASET, "normal", 9, 4),
        ("megaset", decks.MEGASET, kinds.SET, "normal", 16, 3),
        ("ghostset", decks.STANDARD, kinds.GHOSTSET, "normal", 12, 6),
        ("4set", decks.FOURSET, kinds.FOURSET, "normal", 15, 4),
        ("4set-junior", decks.FOURSET_JUNIOR, kinds.FOURSET, "normal", 12, 4),
        ("puzzle", decks.STANDARD, kinds.SET, "puzzle", 12, 3),
        ("shuffle", decks.STANDARD, kinds.SET, "shuffle", 12, 3),
        ("memory", decks.STANDARD, kinds.SET, "memory", 12, 3),
    ],
)
def test_each_variant_composes_a_deck_a_kind_and_a_flow(
    name: str, deck: object, kind: object, flow: str, table: int, claim: int
) -> None:
    variant = VARIANTS[name]
    assert (variant.deck, variant.kind, variant.flow.name) == (deck, kind, flow)
    assert (variant.table_size, variant.claim_size) == (table, claim)


def test_junior_offers_nine_cards_too() -> None:
    assert VARIANTS["junior"].table_sizes == (9,)
    assert all(v.table_sizes == () for k, v in VARIANTS.items() if k != "junior")


def test_variants_state_only_what_differs_from_classic() -> None:
    # Every variant is Classic with a few fields replaced; at most four fields change.
    fields = [f.name for f in dataclasses.fields(Variant) if f.name not in ("name", "title")]
    for variant in VARIANTS.values():
        changed = [f for f in fields if getattr(variant, f) != getattr(CLASSIC, f)]
        assert len(changed) <= 4, (variant.name, changed)


def test_flows_state_only_what_differs_from_normal() -> None:
    assert set(FLOWS) == {"normal", "chain", "ultra-chain", "puzzle", "shuffle", "memory"}
    fields = [f.name for f in dataclasses.fields(NORMAL) if f.name != "name"]
    for flow in FLOWS.values():
        changed = [f for f in fields if getattr(flow, f) != getattr(NORMAL, f)]
        assert len(changed) == (0 if flow is NORMAL else 1), flow
    assert (FLOWS["chain"].links, FLOWS["ultra-chain"].links) == (1, 2)


def test_cards_replaced_per_claim_follow_kind_and_flow() -> None:
    replaced = {name: v.replaced_per_claim for name, v in VARIANTS.items()}
    assert replaced["classic"] == 3 and replaced["ghostset"] == 6 and replaced["4set"] == 4
    assert replaced["set-chain"] == 2 and replaced["ultraset-chain"] == 2
    assert replaced["puzzle"] == 0


@pytest.mark.parametrize("bad", ["", "chess", "x" * 5000, None, 3, ["classic"], "classic\x00"])
def test_unknown_variants_are_refused_quoting_the_name(bad: object) -> None:
    with pytest.raises(VariantError) as info:
        find_variant(bad)
    assert isinstance(info.value, ValueError)
    assert repr(bad)[:30] in str(info.value) and len(str(info.value)) < 400


def test_inconsistent_variants_are_refused() -> None:
    with pytest.raises(VariantError, match="deck"):
        CLASSIC.derive("bad", "Bad", kind=kinds.FOURSET)
    with pytest.raises(VariantError, match="table"):
        CLASSIC.derive("bad", "Bad", table_size=2)
    with pytest.raises(VariantError, match="links"):
        CLASSIC.derive("bad", "Bad", flow=NORMAL.derive("bad", links=3))


def test_classic_find_and_explain_are_the_core_rules() -> None:
    rng = random.Random(2)
    table = rng.sample(range(81), 12)
    assert CLASSIC.find(table) == find_sets(table)
    assert CLASSIC.needs_more(table) == (not find_sets(table))
    three = STANDARD.parse_many(["1RSD", "2RSD", "3GSD"])
    assert CLASSIC.explain(three) == [SetFlaw(1, 0, 1)] and not CLASSIC.is_claim(three)


def test_set_chain_claims_use_exactly_one_card_of_the_previous_set() -> None:
    chain = find_variant("set-chain")
    deck = chain.deck
    previous = deck.parse_many(["1RSD", "2RSD", "3RSD"])
    linked = deck.parse_many(["1RSD", "1GSD", "1PSD"])  # one card of the previous set
    unlinked = deck.parse_many(["1RSO", "1GSO", "1PSO"])
    twice = deck.parse_many(["1RSD", "2RSD", "3RSD"])  # the previous set again: three cards
    assert chain.is_claim(linked, previous) and chain.explain(linked, previous) == []
    assert not chain.is_claim(unlinked, previous)
    assert chain.explain(unlinked, previous) == [LinkFlaw(0, 1)]
    assert chain.explain(twice, previous) == [LinkFlaw(3, 1)]
    assert chain.is_claim(unlinked, None)  # the first set of a game needs no link
    table = [*previous, *linked[1:], *unlinked]
    assert frozenset(linked) in {frozenset(g) for g in chain.find(table, previous)}
    assert all(len(set(previous) & set(g)) == 1 for g in chain.find(table, previous))
    assert frozenset(unlinked) not in {frozenset(g) for g in chain.find(table, previous)}
    assert chain.needs_more(unlinked, previous) and not chain.needs_more(unlinked)


def test_ultraset_chain_claims_use_exactly_two_cards_of_the_previous_one() -> None:
    chain = find_variant("ultraset-chain")
    rng = random.Random(3)
    table = rng.sample(range(81), 15)
    groups = kinds.ULTRASET.find(table)
    previous = groups[0]
    found = chain.find(table, previous)
    assert found == [g for g in groups if len(set(g) & set(previous)) == 2] != []
    for group in groups:
        flaws = chain.explain(group, previous)
        assert chain.is_claim(group, previous) == (group in found) == (flaws == [])
