"""Cards and sets (R01-R05, R16) beyond the rule tests: notation, lookups, decks, flaws.

Every expected value here is written out by hand or recomputed from the attribute rule
itself (R03), never taken from the module under test.
"""

from __future__ import annotations

import itertools
import random

import pytest

from setgame.rules.cards import (
    ATTRIBUTES,
    CARDS,
    COLOR,
    NUMBER,
    SHADING,
    SHAPE,
    CardError,
    attribute,
    attributes,
    beginner_deck,
    card_name,
    card_names,
    deck_with,
    describe,
    format_cards,
    full_deck,
    make_card,
    parse_card,
    parse_cards,
    parse_deck,
)
from setgame.rules.sets import (
    Flaw,
    _as_bytes,
    _limits,
    _third,
    count_sets,
    explain,
    find_sets,
    has_set,
    is_set,
    iter_sets,
    third_card,
)
from setgame.words.i18n import flaw_text


def digits(card: int) -> tuple[int, int, int, int]:
    """The four base-3 digits, most significant first (the module docstring's encoding)."""
    return (card // 27 % 3, card // 9 % 3, card // 3 % 3, card % 3)


def rule_says_set(a: int, b: int, c: int) -> bool:
    return all(len({x, y, z}) != 2 for x, y, z in zip(digits(a), digits(b), digits(c), strict=True))


def brute_sets(cards: list[int]) -> list[tuple[int, int, int]]:
    return [t for t in itertools.combinations(cards, 3) if rule_says_set(*t)]


# --- cards (R01, R02) -----------------------------------------------------------------------


def test_r01_attributes_are_the_base_3_digits() -> None:
    assert (NUMBER, COLOR, SHADING, SHAPE) == ATTRIBUTES == (0, 1, 2, 3)
    for card in CARDS:
        assert attributes(card) == digits(card)
        assert tuple(attribute(card, a) for a in ATTRIBUTES) == digits(card)
    assert attributes(80) == (2, 2, 2, 2) and attributes(30) == (1, 0, 1, 0)


def test_r01_make_card_builds_from_values_and_checks_them() -> None:
    assert make_card(0, 0, 0, 0) == 0 and make_card(2, 2, 2, 2) == 80
    assert make_card(1, 0, 1, 0) == 30 and make_card(0, 1, 0, 0) == 9
    assert make_card(0, 0, 1, 0) == 3 and make_card(0, 0, 0, 1) == 1
    for values in itertools.product(range(3), repeat=4):
        assert digits(make_card(*values)) == values
    for bad in ((3, 0, 0, 0), (0, -1, 0, 0), (0, 0, 3, 0), (0, 0, 0, 5)):
        with pytest.raises(CardError) as err:
            make_card(*bad)
        assert str(err.value) == f"attribute values must be 0, 1 or 2: {bad!r}"


def test_r02_notation_of_every_card() -> None:
    letters = ("123", "RGP", "STO", "DOS")
    for card in CARDS:
        name = "".join(letters[a][v] for a, v in enumerate(digits(card)))
        assert card_name(card) == name
        assert parse_card(name) == parse_card(name.lower()) == parse_card(f" {name}\t") == card
    assert card_name(30) == "2RTD" and parse_card("3POS") == 80


def test_r02_bad_cards_are_refused_with_the_input() -> None:
    for bad in (True, -1, 81, 2.0, "1"):
        with pytest.raises(CardError) as err:
            card_name(bad)  # type: ignore[arg-type]
        assert str(err.value) == f"not a card number (0-80): {bad!r}"
    assert card_name(0) == "1RSD" and card_name(80) == "3POS"
    with pytest.raises(CardError) as err:
        parse_card(30)  # type: ignore[arg-type]
    assert str(err.value) == "a card is four characters such as '2RTD', not 30"
    with pytest.raises(CardError) as err:
        parse_card("2RTX")
    assert str(err.value) == (
        "not a card: '2RTX' (expected number 1-3, color R/G/P, shading S/T/O, shape D/O/S, "
        "e.g. '2RTD')"
    )


def test_r02_describe_in_english() -> None:
    assert describe(30) == "two red striped diamonds"
    assert describe(0) == "one red solid diamond"
    assert describe(80) == "three purple open squiggles"
    assert describe(parse_card("1GTO")) == "one green striped oval"


def test_r02_parse_cards_and_names() -> None:
    assert parse_cards(["1rsd", "3POS"]) == [0, 80]
    with pytest.raises(CardError) as err:
        parse_cards(["1RSD", "2RSD", "1rsd"])
    assert str(err.value) == "duplicate card: '1rsd' (same as '1RSD')"
    assert parse_cards(["1RSD", "1rsd"], distinct=False) == [0, 0]
    assert card_names([80, 0, 30]) == ["3POS", "1RSD", "2RTD"]
    assert format_cards([0, 30]) == "1RSD 2RTD" and format_cards([]) == ""


# --- decks (R01, R16) -----------------------------------------------------------------------


def test_r16_decks_by_attribute_value() -> None:
    assert full_deck() == list(range(81))
    full = full_deck()
    full.pop()
    assert full_deck() == list(range(81))  # a fresh list each time
    for attr, value in itertools.product(range(4), range(3)):
        deck = deck_with(attr, value)
        assert deck == [c for c in range(81) if digits(c)[attr] == value]
    assert beginner_deck() == [c for c in range(81) if digits(c)[2] == 0]
    for bad in ((4, 0), (-1, 0), (0, 3), (1, -1)):
        with pytest.raises(CardError) as err:
            deck_with(*bad)
        assert str(err.value) == f"no such attribute/value: {bad[0]!r}/{bad[1]!r}"


def test_r16_parse_deck_names() -> None:
    assert parse_deck(" Full ") == list(range(81))
    assert parse_deck("BEGINNER") == beginner_deck()
    assert parse_deck("color=G") == deck_with(COLOR, 1)
    assert parse_deck("shading=o") == deck_with(SHADING, 2)
    assert parse_deck("number=3") == deck_with(NUMBER, 2)
    assert parse_deck("shape=D") == deck_with(SHAPE, 0)
    assert parse_deck("Shape=S") == deck_with(SHAPE, 2)
    for bad in ("", "colour=R", "color=X", "color=RG", "color=", "=R", "color", "half", 3):
        with pytest.raises(CardError) as err:
            parse_deck(bad)  # type: ignore[arg-type]
        assert str(err.value) == (
            f"not a deck: {bad!r} (expected 'full', 'beginner' or an attribute value "
            "such as 'color=R')"
        )


# --- sets (R03-R05) -------------------------------------------------------------------------


def test_r05_third_card_of_every_pair() -> None:
    for a, b in itertools.combinations(range(81), 2):
        c = third_card(a, b)
        assert c not in (a, b) and rule_says_set(a, b, c) and third_card(b, a) == c
        assert _third(a, b) == c
    assert _third(5, 5) == 5  # a card "completes" itself: the table's diagonal
    assert third_card(parse_card("1RSD"), parse_card("2GTO")) == parse_card("3POS")
    with pytest.raises(CardError) as err:
        third_card(30, 30)
    assert str(err.value) == "two different cards make a pair, got '2RTD' twice"
    with pytest.raises(CardError):
        third_card(0, 81)


def test_r03_is_set_checks_its_cards() -> None:
    assert is_set(0, 40, 80) and not is_set(0, 40, 79) and not is_set(0, 0, 0)
    for bad in ((0, 1, 81), (0, -1, 2), (True, 1, 2), (0, 1, "2")):
        with pytest.raises(CardError):
            is_set(*bad)  # type: ignore[arg-type]
    rng = random.Random(3)
    for _ in range(2000):
        a, b, c = rng.sample(range(81), 3)
        assert is_set(a, b, c) == rule_says_set(a, b, c)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 12, 15, 21, 44, 45, 46, 60, 81])
def test_r03_find_sets_agrees_with_the_rule(size: int) -> None:
    rng = random.Random(size)
    cards = rng.sample(range(81), size)
    expected = brute_sets(cards)
    assert find_sets(cards) == sorted(
        expected, key=lambda t: (cards.index(t[0]), cards.index(t[1]))
    )
    assert find_sets(iter(cards)) == find_sets(cards)  # any iterable
    assert list(iter_sets(cards)) == find_sets(cards)
    assert count_sets(cards) == len(expected)
    assert has_set(cards) is bool(expected)
    assert has_set(iter(cards)) is bool(expected)


def test_r03_the_whole_deck_holds_1080_sets() -> None:
    assert count_sets(range(81)) == 1080 == len(find_sets(range(81)))
    assert count_sets(reversed(range(81))) == 1080


def test_r03_a_set_free_table_has_no_set() -> None:
    cap = [parse_card(c) for c in ("1RSD", "1RSO", "1RTD", "1RTO", "1GSD", "1GSO", "1GTD")]
    cap += [parse_card("1GTO")]  # 8 cards: no three of them form a set (values 0 and 1 only)
    assert find_sets(cap) == [] and not has_set(cap) and count_sets(cap) == 0


def test_r03_finders_refuse_what_is_not_a_card() -> None:
    for bad in ([0, 1, 81], [0, 2, -1], [0, 1, 2.0], [0, 1, 300]):
        with pytest.raises(CardError) as err:
            find_sets(bad)  # type: ignore[arg-type]
        assert str(err.value) == f"not a card number (0-80): {bad[-1]!r}"
    with pytest.raises(CardError):
        find_sets([0, 1, 2, *range(3, 60), 81])  # the looped path checks too
    with pytest.raises(CardError):
        has_set([0, 1, 2, 81])


def test_r03_packed_helpers() -> None:
    assert _as_bytes([0, 5, 80]) == bytes([0, 5, 80])
    assert _as_bytes([]) == b""
    high, least = _limits(2)
    assert high == int.from_bytes(b"\x80" * 4, "little")
    assert least.to_bytes(4, "little") == bytes([127, 84, 127, 127])
    _, least3 = _limits(3)
    assert least3.to_bytes(9, "little") == bytes([127, 84, 85, 127, 127, 85, 127, 127, 127])


def test_r03_sets_keep_the_table_order() -> None:
    table = [80, 0, 40, 1]
    assert find_sets(table) == [(80, 0, 40)]
    assert find_sets([40, 80, 0]) == [(40, 80, 0)]


# --- R04 explanations -----------------------------------------------------------------------


def test_r04_explain_names_each_two_and_one_attribute() -> None:
    a, b, c = parse_card("1RSD"), parse_card("1RSO"), parse_card("2GSO")
    flaws = explain(a, b, c)
    assert flaws == [Flaw(NUMBER, 0, 1), Flaw(COLOR, 0, 1), Flaw(SHAPE, 1, 0)]
    assert str(flaws[1]) == flaws[1].text() == "two are red, one is green"
    russian = flaw_text(flaws[1], "ru")  # the words belong to the catalog; the language is passed
    assert flaws[1].text("ru") == russian != flaw_text(flaws[1], "en")
    flaw = flaws[1]
    assert (flaw.attribute_name, flaw.common_name, flaw.odd_name) == ("color", "red", "green")
    assert flaws[2].attribute_name == "shape" and flaws[2].odd_name == "diamond"
    assert explain(0, 40, 80) == []


def test_r04_explain_finds_the_common_value_wherever_the_odd_card_lies() -> None:
    x, y = parse_card("1RSD"), parse_card("1GSD")  # differ in color only
    z = parse_card("1GSO")
    for order in itertools.permutations((x, y, z)):
        flaws = explain(*order)
        assert Flaw(COLOR, 1, 0) in flaws and Flaw(SHAPE, 0, 1) in flaws
        assert len(flaws) == 2


def test_r04_explain_needs_three_different_cards() -> None:
    with pytest.raises(CardError) as err:
        explain(0, 0, 1)
    assert str(err.value) == "three different cards are needed, got ['1RSD', '1RSD', '1RSO']"
    with pytest.raises(CardError):
        explain(0, 1, 81)
