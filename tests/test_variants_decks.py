"""The variants' decks: encoding, notation and errors (R01, R02, R16 extended)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from setgame import beginner_deck, card_name, parse_card
from setgame.rules.cards import CardError
from setgame.rules.decks import DECKS, FOURSET, FOURSET_JUNIOR, JUNIOR, MEGASET, STANDARD, Deck

SIZES = {"standard": 81, "junior": 27, "megaset": 243, "4set": 256, "4set-junior": 64}


@pytest.mark.parametrize("name", SIZES)
def test_each_deck_has_one_card_per_combination(name: str) -> None:
    deck = DECKS[name]
    assert len(deck) == SIZES[name] == len(set(deck.cards))
    combos = {deck.values(c) for c in deck.cards}
    assert len(combos) == len(deck)
    assert all(deck.card(deck.values(c)) == c for c in deck.cards)


def test_r02_standard_notation_and_ints_do_not_change() -> None:
    for card in range(81):
        assert STANDARD.name_of(card) == card_name(card)
        assert STANDARD.parse(card_name(card).lower()) == card == parse_card(card_name(card))
    assert STANDARD.parse("2rtd") == 30


def test_r16_junior_is_the_beginner_deck() -> None:
    assert list(JUNIOR.cards) == beginner_deck()
    assert JUNIOR.parse("2RSD") == parse_card("2RSD")
    with pytest.raises(CardError, match="'2RTD'"):
        JUNIOR.parse("2RTD")  # striped: not in the Junior deck
    with pytest.raises(CardError):
        JUNIOR.check(parse_card("2RTD"))


def test_megaset_appends_the_border_as_a_fifth_digit() -> None:
    assert MEGASET.parse("2RTDS") == 30 * 3
    assert MEGASET.parse("2rtdt") == 30 * 3 + 2
    assert MEGASET.values(MEGASET.parse("3POSD")) == (2, 2, 2, 2, 1)
    assert [a.name for a in MEGASET.attributes][-1] == "border"
    with pytest.raises(CardError, match="'2RTD'"):
        MEGASET.parse("2RTD")  # a MegaSet card has five characters


def test_fourset_decks_have_four_values_and_keep_the_standard_letters() -> None:
    assert FOURSET.radix == 4 and FOURSET.width == 4
    for four, three in zip(FOURSET.attributes, STANDARD.attributes, strict=True):
        assert four.letters[:3] == three.letters and four.values[:3] == three.values
    assert FOURSET.values(FOURSET.parse("4bch")) == (3, 3, 3, 3)
    assert FOURSET_JUNIOR.cards == tuple(c for c in FOURSET.cards if FOURSET.values(c)[2] == 0)


@pytest.mark.parametrize("name", SIZES)
def test_letters_of_one_attribute_never_clash(name: str) -> None:
    for attribute in DECKS[name].attributes:
        assert len(set(attribute.letters)) == len(attribute.letters) == len(attribute.values)
        assert attribute.letters == attribute.letters.upper()


@pytest.mark.parametrize("name", SIZES)
def test_every_card_reads_back_from_its_name_in_any_case(name: str) -> None:
    deck = DECKS[name]
    for card in deck.cards:
        text = deck.name_of(card)
        assert deck.parse(text) == deck.parse(text.lower()) == deck.parse(f" {text} ") == card


@pytest.mark.parametrize(
    "bad", ["", "2RTDX", "5RSD", "2RTDSS", "x" * 10_000, "２RTD", None, 30, b"2RTD", ["2RTD"]]
)
def test_bad_card_text_is_a_card_error_quoting_it(bad: object) -> None:
    for deck in DECKS.values():
        with pytest.raises(CardError) as info:
            deck.parse(bad)
        assert isinstance(info.value, ValueError)
        assert repr(bad)[:20] in str(info.value)
        assert len(str(info.value)) < 400  # a hostile string is not echoed whole


@pytest.mark.parametrize("bad", [-1, 81, True, 2.0, "30", None])
def test_bad_card_numbers_are_card_errors(bad: object) -> None:
    with pytest.raises(CardError) as info:
        STANDARD.check(bad)
    assert repr(bad) in str(info.value)
    with pytest.raises(CardError):
        STANDARD.card((0, 0, 0, 3))


def test_duplicate_cards_are_refused_when_distinct() -> None:
    with pytest.raises(CardError, match="duplicate"):
        FOURSET.parse_many(["4BCH", "4bch"])
    assert FOURSET.parse_many(["4BCH", "4bch"], distinct=False) == [255, 255]


def test_a_deck_with_clashing_letters_is_refused() -> None:
    clash = STANDARD.attributes[0].__class__("color", "RGR", ("red", "green", "rose"))
    with pytest.raises(ValueError, match="share a letter"):
        Deck("bad", (clash,))


@given(st.sampled_from(list(DECKS.values())), st.data())
def test_values_and_cards_are_inverse(deck: Deck, data: st.DataObject) -> None:
    card = data.draw(st.sampled_from(deck.cards))
    assert deck.card(deck.values(card)) == card
    values = deck.values(card)
    assert sum(v * deck.radix ** (deck.width - 1 - i) for i, v in enumerate(values)) == card
