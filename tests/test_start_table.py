"""``start`` (this project's own setting, issue 24): a practice game laid from the cards of a
photographed table, the rest of the deck as the stock."""

from __future__ import annotations

import json

import pytest

from setgame.rules.cards import parse_cards
from setgame.rules.game import Game, GameError, Join, Pick, Settings, Start
from setgame.rules.sets import find_sets

TABLE = ["1RSD", "2GTO", "3POS", "1GSD", "2PTO", "3RSS", "1PSO"]


def started(settings: Settings, seed: int = 7) -> Game:
    game = Game(settings, seed)
    game.apply(Join(at=0.0, player="a", name="Ann"))
    game.apply(Start(at=1.0, player="a"))
    return game


def test_the_round_starts_with_the_given_cards_and_the_rest_is_the_stock() -> None:
    settings = Settings(mode="practice", start=[c.lower() for c in TABLE])
    assert settings.start == tuple(TABLE)  # canonical codes, a tuple
    game = started(settings)
    view = game.view("a")
    assert view["table"] == TABLE
    assert view["deck"] == 81 - len(TABLE)
    stock = game._t.stock
    assert not set(stock) & set(parse_cards(TABLE))
    assert len(set(stock)) == 81 - len(TABLE)


def test_a_set_taken_from_the_photographed_table_is_replaced_from_the_stock() -> None:
    game = started(Settings(mode="practice", start=TABLE))
    group = find_sets(parse_cards(TABLE))[0]
    events = game.apply(Pick(at=2.0, player="a", cards=tuple(group)))
    assert events[0]["type"] == "set_taken"
    table = game.view("a")["table"]
    assert len(table) == len(TABLE)  # below 12 cards every taken place is filled (R09)
    assert not set(parse_cards(table)) & set(group)


def test_the_setting_survives_its_json_form() -> None:
    settings = Settings(mode="practice", start=TABLE)
    again = Settings.from_dict(json.loads(json.dumps(settings.to_dict())))
    assert again == settings
    assert started(again, 3).view("a")["table"] == started(settings, 3).view("a")["table"]


@pytest.mark.parametrize(
    ("fields", "quoted"),
    [
        ({"mode": "solo"}, "practice game only"),
        ({"mode": "multi"}, "practice game only"),
        ({"variant": "ultraset"}, "practice game only"),
        ({"start": ["1RSD", "1rsd"]}, "duplicate card: '1rsd'"),
        ({"start": ["1RSD", "9XYZ"]}, "'9XYZ'"),
        ({"start": ["1RSD", 5]}, "5"),
        ({"start": "1RSD"}, "'1RSD'"),
        ({"deck": "beginner", "start": ["1RTD"]}, "'1RTD' is not in the deck 'beginner'"),
        ({"start": [f"{n}{c}{s}D" for n in "123" for c in "RGP" for s in "STO"][:22]},
         "22 cards: at most 21"),
    ],
)
def test_a_bad_start_is_refused_quoting_it(fields: dict[str, object], quoted: str) -> None:
    given: dict[str, object] = {"mode": "practice", "start": TABLE} | fields
    with pytest.raises(GameError) as info:
        Settings(**given)  # type: ignore[arg-type]
    assert info.value.code == "bad_setting"
    assert quoted in str(info.value)


def test_no_start_deals_as_always() -> None:
    plain, empty = Settings(mode="practice"), Settings(mode="practice", start=[])  # type: ignore[arg-type]
    assert empty.start == ()
    assert started(plain).view("a")["table"] == started(empty).view("a")["table"]
