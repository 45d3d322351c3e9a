"""One test (at least) per rule of docs/rules.md, through the library and the engine."""

from __future__ import annotations

import itertools

import pytest

from gamekit import not_a_set, play_out, seed_where, started, take_any
from setgame import (
    CARDS,
    SHADING,
    attribute,
    beginner_deck,
    card_name,
    deck_with,
    explain,
    find_sets,
    has_set,
    is_set,
    parse_card,
    third_card,
)
from setgame.rules.cards import CardError
from setgame.rules.game import (
    Away,
    Call,
    Game,
    GameError,
    Join,
    NoSet,
    Pick,
    Settings,
    Start,
    Tick,
    _remove_compact,
)


def test_r01_deck_has_81_distinct_cards_one_per_combination() -> None:
    game = Game(Settings(), seed=3)
    assert sorted(game.deck) == list(range(81))
    assert len({card_name(c) for c in CARDS}) == 81


def test_r02_notation_reads_number_color_shading_shape() -> None:
    assert card_name(parse_card("2rtd")) == "2RTD"
    assert parse_card(" 3pos ") == 80
    for bad in ("4RTD", "2XTD", "2RTDX", "", "2RT"):
        with pytest.raises(CardError) as err:
            parse_card(bad)
        assert repr(bad) in str(err.value)


def test_r03_set_needs_all_same_or_all_different_on_every_attribute() -> None:
    a, b, c = (parse_card(x) for x in ("1RSD", "2GTO", "3POS"))
    assert is_set(a, b, c)
    assert not is_set(a, b, parse_card("3POO"))
    for x, y, z in itertools.combinations(range(0, 81, 7), 3):
        rule = all(len({attribute(v, i) for v in (x, y, z)}) != 2 for i in range(4))
        assert is_set(x, y, z) == rule


def test_r04_every_rejected_triple_names_a_two_and_one_attribute() -> None:
    flaws = explain(parse_card("2RSS"), parse_card("2RTS"), parse_card("2GOS"))
    assert [str(f) for f in flaws] == ["two are red, one is green"]
    for x, y, z in itertools.combinations(range(0, 81, 5), 3):
        assert (explain(x, y, z) == []) == is_set(x, y, z)


def test_r05_two_cards_complete_to_exactly_one_third() -> None:
    for a, b in itertools.combinations(CARDS, 2):
        thirds = [c for c in CARDS if c not in (a, b) and is_set(a, b, c)]
        assert thirds == [third_card(a, b)]


def test_r06_deal_is_twelve_cards_in_three_rows_of_four() -> None:
    game = started(seed=11)
    assert len(game.table) == 12
    assert game.deck_left == 81 - 12
    assert len(set(game.table)) == 12
    events = started(seed=11).log
    assert Game.replay(game.settings, 11, events).table == game.table


def test_r07_no_turns_any_player_may_call_at_any_moment() -> None:
    game = started(players=("a", "b", "c"))
    game.apply(Call(0.5, "c"))  # the third seat calls first: there are no turns
    assert game.holder == "c"


def test_r08_first_caller_controls_the_board_until_resolved() -> None:
    game = seed_where(lambda g: has_set(g.table))
    game.apply(Call(1.0, "a"))
    with pytest.raises(GameError) as err:
        game.apply(Call(1.1, "b"))
    assert err.value.code == "board_held"
    with pytest.raises(GameError) as err:
        game.apply(Pick(1.2, "b", find_sets(game.table)[0]))
    assert err.value.code == "board_held"
    with pytest.raises(GameError) as err:
        game.apply(NoSet(1.3, "b"))
    assert err.value.code == "board_held"
    assert "'A' holds the board" in str(err.value)
    assert game.holder == "a" and game.deadline == 1.0 + game.settings.pick_seconds
    game.apply(Pick(2.0, "a", find_sets(game.table)[0]))
    assert game.holder is None and game.deadline is None
    game.apply(Call(2.5, "b"))  # the board is free again
    assert game.holder == "b"


def test_r08_default_pick_window_is_five_seconds() -> None:
    assert Settings().pick_seconds == 5.0
    game = started()
    events = game.apply(Call(1.0, "a"))
    assert events == [{"type": "called", "at": 1.0, "player": "a", "deadline": 6.0}]
    assert not game.due(5.999) and game.due(6.0)
    assert game.advance(5.999) == []
    with pytest.raises(GameError) as err:
        game.apply(Pick(6.0, "a", not_a_set(game.table)))
    assert err.value.code == "expired"
    assert game.advance(6.0)[0]["reason"] == "timeout"


def test_r08_pick_window_must_be_1_to_60_seconds() -> None:
    for bad in (0.5, 61, True, "5"):
        with pytest.raises(GameError) as err:
            Settings(pick_seconds=bad)  # type: ignore[arg-type]
        assert err.value.code == "bad_setting" and repr(bad) in str(err.value)
    assert Settings(pick_seconds=1).pick_seconds == 1
    assert Settings(pick_seconds=60).pick_seconds == 60


def test_r08_must_call_before_picking() -> None:
    game = seed_where(lambda g: has_set(g.table))
    with pytest.raises(GameError) as err:
        game.apply(Pick(1.0, "a", find_sets(game.table)[0]))
    assert err.value.code == "not_holder"


def test_r08_pick_window_is_a_room_setting() -> None:
    game = started(Settings(pick_seconds=3))
    game.apply(Call(1.0, "a"))
    assert game.deadline == 4.0
    with pytest.raises(GameError) as err:
        game.apply(Pick(4.5, "a", find_sets(game.table)[0] if has_set(game.table) else ()))
    assert err.value.code == "expired"


def test_r09_valid_set_scores_and_is_replaced_in_place_at_twelve() -> None:
    game = seed_where(lambda g: has_set(g.table))
    before = game.table
    cards = find_sets(before)[0]
    events = take_any(game, "a", 1.0)
    taken = events[-1] if events[-1]["type"] == "set_taken" else events[1]
    assert taken["type"] == "set_taken"
    after = game.table
    assert len(after) == 12
    for pos, card in enumerate(before):
        if card in cards:
            assert after[pos] not in before  # a new card from the deck, in the same place
        else:
            assert after[pos] == card
    assert game.players["a"].score == 1
    assert game.deck_left == 81 - 15


def test_r09_above_twelve_the_last_cards_fill_the_gaps() -> None:
    """15 -> 12: cards of the last positions move into the gaps, the others stay put."""
    table = list(range(15))
    assert _remove_compact(table, [1, 5, 13]) == [0, 12, 2, 3, 4, 14, 6, 7, 8, 9, 10, 11]
    assert _remove_compact(table, [12, 13, 14]) == list(range(12))
    assert _remove_compact(table, [14, 3, 0]) == [12, 1, 2, 13, *range(4, 12)]
    assert _remove_compact(list(range(18)), [0, 1, 2]) == [15, 16, 17, *range(3, 15)]
    game = seed_where(lambda g: not has_set(g.table))
    game.apply(NoSet(1.0, "a"))
    game.apply(NoSet(1.0, "b"))
    while not has_set(game.table):
        game.apply(NoSet(2.0, "a"))
        game.apply(NoSet(2.0, "b"))
    big = game.table
    cards = find_sets(big)[0]
    game.apply(Call(3.0, "a"))
    taken = game.apply(Pick(3.5, "a", cards))[0]
    positions = [big.index(c) for c in cards]
    assert taken["positions"] == positions and taken["replaced"] == []
    assert game.table == _remove_compact(big, positions)


def test_r09_above_twelve_cards_are_not_replaced() -> None:
    game = seed_where(lambda g: not has_set(g.table))
    game.apply(NoSet(1.0, "a"))
    game.apply(NoSet(1.0, "b"))
    assert len(game.table) == 15
    while not has_set(game.table):
        game.apply(NoSet(2.0, "a"))
        game.apply(NoSet(2.0, "b"))
    big = game.table
    left = game.deck_left
    take_any(game, "b", 3.0)
    assert len(game.table) == len(big) - 3
    assert game.deck_left == left
    assert set(game.table) < set(big)


def test_r09_the_software_checks_the_cards() -> None:
    game = started(seed=5)
    game.apply(Call(1.0, "a"))
    with pytest.raises(GameError) as err:
        game.apply(Pick(1.5, "a", tuple(c for c in CARDS if c not in game.table)[:3]))
    assert err.value.code == "not_on_table"
    with pytest.raises(GameError) as err:
        game.apply(Pick(1.5, "a", (game.table[0], game.table[0], game.table[1])))
    assert err.value.code == "bad_pick"
    assert game.holder == "a"  # a malformed claim changes nothing


def _err_then_set(settings: Settings) -> Game:
    game = seed_where(lambda g: has_set(g.table), settings)
    take_any(game, "a", 1.0)  # a wins a set first, so it has a point to lose
    game.apply(Call(2.0, "a"))
    game.apply(Pick(2.5, "a", not_a_set(game.table)))
    return game


def test_r10_wrong_call_costs_a_point_by_default() -> None:
    game = _err_then_set(Settings())
    assert game.players["a"].score == 0
    assert not game.players["a"].locked
    game.apply(Call(3.0, "b"))
    events = game.apply(Pick(3.5, "b", not_a_set(game.table)))
    assert events[0]["point_lost"] is False  # nothing to lose: a player with no sets loses nothing
    assert game.players["b"].score == 0
    assert events[0]["flaws"]  # R04: the reason comes with the penalty


def test_r10_timeout_is_a_wrong_call() -> None:
    game = seed_where(lambda g: has_set(g.table), Settings(pick_seconds=2))
    take_any(game, "a", 0.0)  # a holds a set, so the penalty can take one
    table = game.table
    game.apply(Call(1.0, "a"))
    assert game.advance(2.5) == []
    events = game.advance(3.0)
    assert events == [
        {
            "type": "wrong_call",
            "at": 3.0,
            "player": "a",
            "cards": None,
            "reason": "timeout",
            "flaws": [],
            "penalty": "point",
            "point_lost": True,
            "locked": False,
            "cooldown": 2.0,
            "score": 0,
        }
    ]
    assert game.players["a"].score == 0 and game.players["a"].wrong == 1
    assert game.holder is None and game.deadline is None
    assert game.table == table  # the cards stay


def test_r10_lockout_until_another_player_finds_a_set() -> None:
    game = seed_where(
        lambda g: len(find_sets(g.table)) >= 2, Settings(penalty="lockout"), ("a", "b", "c")
    )
    take_any(game, "a", 1.0)
    game.apply(Call(2.0, "a"))
    event = game.apply(Pick(2.5, "a", not_a_set(game.table)))[0]
    assert event["locked"] is True and event["point_lost"] is False
    assert game.players["a"].score == 1 and game.players["a"].locked
    with pytest.raises(GameError) as err:
        game.apply(Call(30.0, "a"))  # long after the fair-call cooldown: still locked
    assert err.value.code == "locked_out" and "'A' is locked out" in str(err.value)
    with pytest.raises(GameError) as err:
        game.apply(NoSet(30.0, "a"))
    assert err.value.code == "locked_out"
    game.apply(Call(31.0, "b"))
    game.apply(Pick(31.5, "b", not_a_set(game.table)))  # another wrong call lifts nothing
    assert game.players["a"].locked and game.players["b"].locked
    while not has_set(game.table):
        game.apply(NoSet(32.0, "c"))
    take_any(game, "c", 33.0)  # another player finds a set
    assert not game.players["a"].locked and not game.players["b"].locked
    game.apply(Call(34.0, "a"))
    assert game.holder == "a"


def test_r10_all_locked_out_lifts_every_lockout() -> None:
    game = seed_where(lambda g: has_set(g.table), Settings(penalty="lockout"), ("a", "b", "c"))
    game.apply(Call(1.0, "a"))
    game.apply(Pick(1.5, "a", not_a_set(game.table)))
    game.apply(Call(2.0, "b"))
    game.apply(Pick(2.5, "b", not_a_set(game.table)))
    assert game.players["a"].locked and game.players["b"].locked  # several err in a row
    game.apply(Call(3.0, "c"))
    events = game.apply(Pick(3.5, "c", not_a_set(game.table)))
    assert events[-1]["type"] == "lockouts_lifted"
    assert not any(p.locked for p in game.players.values())


def test_r10_both_and_none() -> None:
    both = _err_then_set(Settings(penalty="both"))
    assert both.players["a"].score == 0 and both.players["a"].locked
    none = _err_then_set(Settings(penalty="none"))
    assert none.players["a"].score == 1 and not none.players["a"].locked


def test_r11_vote_deals_three_more_when_everyone_declares() -> None:
    game = seed_where(lambda g: not has_set(g.table), players=("a", "b", "c"))
    events = game.apply(NoSet(1.0, "a"))
    assert [e["type"] for e in events] == ["no_set_declared"]
    game.apply(NoSet(1.0, "b"))
    assert len(game.table) == 12
    events = game.apply(NoSet(1.0, "c"))
    assert events[1]["type"] == "cards_added" and len(game.table) == 15
    assert not any(p.declared for p in game.players.values())


def test_r11_locked_out_players_do_not_vote() -> None:
    game = seed_where(lambda g: not has_set(g.table), Settings(penalty="lockout"), ("a", "b", "c"))
    game.apply(Call(1.0, "a"))
    game.apply(Pick(1.5, "a", not_a_set(game.table)))
    game.apply(NoSet(2.0, "b"))
    events = game.apply(NoSet(2.0, "c"))
    assert any(e["type"] == "cards_added" for e in events)


def test_r11_auto_deals_until_a_set_and_21_always_hold_one() -> None:
    game = seed_where(lambda g: len(g.table) > 12, Settings(no_set="auto"))
    assert has_set(game.table) and len(game.table) in (15, 18, 21)
    with pytest.raises(GameError) as err:
        game.apply(NoSet(1.0, "a"))
    assert err.value.code == "auto_deal"


def test_r12_round_ends_when_deck_is_empty_and_no_set_remains() -> None:
    game = started(Settings(rounds="single"), seed=4)
    play_out(game)
    over = game.result()
    assert game.phase == "match_over" and game.deck_left == 0
    assert not has_set(game.table)
    assert sum(over["totals"].values()) * 3 + len(game.table) == 81


def test_r13_score_is_one_point_per_set_less_penalties() -> None:
    game = seed_where(lambda g: has_set(g.table), Settings(rounds="single"))
    taken = {"a": 0, "b": 0}
    at = 0.0
    for who in ("a", "a", "b", "a"):  # three sets for a, one for b
        at += 1
        while not has_set(game.table):
            game.apply(NoSet(at, "a"))
            game.apply(NoSet(at, "b"))
        take_any(game, who, at)
        taken[who] += 1
    game.apply(Call(at + 1, "a"))
    game.apply(Pick(at + 1.5, "a", not_a_set(game.table)))  # a returns one set
    a, b = game.players["a"], game.players["b"]
    assert (a.score, b.score) == (taken["a"] - 1, taken["b"]) == (2, 1)
    assert [p["score"] for p in game.view()["players"]] == [2, 1]
    assert [p["total"] for p in game.view()["players"]] == [2, 1]  # live total in play
    end = play_out_round_by(game, "b", at + 10)
    totals = game.result()["totals"]
    assert totals == {"a": 2, "b": 1 + end}  # every set b took after, a point each


def test_r14_match_has_a_round_per_player_and_the_deal_rotates() -> None:
    game = started(seed=8, players=("a", "b", "c"))
    dealers = [game.dealer]
    at = 1.0
    round_totals = []
    while game.phase != "match_over":
        at = play_out_round(game, at)
        round_totals.append(game.players["a"].total)
        if game.phase == "round_over":
            at += 1
            game.apply(Start(at, "b"))
            dealers.append(game.dealer)
    assert game.rounds == 3 and dealers == ["a", "b", "c"]
    assert round_totals[0] < round_totals[1] < round_totals[2]  # totals add up across rounds
    result = game.result()
    assert result["totals"] == {"a": round_totals[2], "b": 0, "c": 0}
    assert result["winners"] == ["a"]


def test_r14_ties_share_the_win_and_the_highest_total_wins() -> None:
    game = started(players=("a", "b", "c"))
    game.players["a"].total = game.players["b"].total = 7
    game.players["c"].total = 6
    assert game.result()["winners"] == ["a", "b"]
    game.players["c"].total = 8
    assert game.result() == {"totals": {"a": 7, "b": 7, "c": 8}, "winners": ["c"]}
    assert Game().result() == {"totals": {}, "winners": []}


def play_out_round_by(game: Game, who: str, at: float) -> int:
    """``who`` takes every set until the round ends; the number of sets taken."""
    taken = 0
    while game.phase == "playing":
        at += 1
        if has_set(game.table):
            take_any(game, who, at)
            taken += 1
        else:
            for p in game.active():
                game.apply(NoSet(at, p.id))
    return taken


def play_out_round(game: Game, at: float) -> float:
    round_no = game.round
    while game.phase == "playing" and game.round == round_no:
        at += 1
        sets = find_sets(game.table)
        if sets:
            game.apply(Call(at, "a"))
            game.apply(Pick(at + 0.5, "a", sets[0]))
        else:
            for p in ("a", "b", "c"):
                game.apply(NoSet(at, p))
    return at


def test_r14_single_round_setting() -> None:
    game = started(Settings(rounds="single"), players=("a", "b", "c"))
    assert game.rounds == 1


def test_r15_solo_more_cards_costs_a_point_and_is_cancelled_at_the_end() -> None:
    game = seed_where(lambda g: True, Settings(mode="solo"), ("me",))
    with pytest.raises(GameError) as err:
        game.apply(Call(0.5, "me"))  # no call in solo
    assert err.value.code == "no_call"
    events = game.apply(NoSet(1.0, "me"))
    assert events[0]["type"] == "more_cards_asked" and len(game.table) == 15
    assert game.players["me"].score == -1
    events: list[dict[str, object]] = []
    at = 2.0
    while game.phase == "playing":  # take the first set each time; ask when there is none
        at += 1
        if has_set(game.table):
            events += game.apply(Pick(at, "me", find_sets(game.table)[0]))
        else:
            events += game.apply(NoSet(at, "me"))
    asks = 1 + sum(e["type"] == "more_cards_asked" for e in events)
    last_12 = [  # sets taken with the deck empty and at most 12 cards on the table before
        e for e in events if e["type"] == "set_taken" and e["deck"] == 0 and len(e["table"]) <= 9
    ]
    solo = game.result()["solo"]
    sets = (81 - len(game.table)) // 3  # every card that left the table went in a set
    assert (solo["sets"], solo["penalties"], solo["score"]) == (sets, asks, sets - asks)
    assert solo["cancelled"] == len(last_12)
    assert solo["won"] is (len(last_12) >= 1)  # one such set cancels the penalty (issue 19)
    assert solo["seconds"] == at  # from the deal at 0 to the last pick


def test_r15_solo_takes_one_player() -> None:
    game = Game(Settings(mode="solo"))
    game.apply(Join(0, "me", "Me"))
    with pytest.raises(GameError) as err:
        game.apply(Join(0, "you", "You"))
    assert err.value.code == "room_full"


def test_r16_beginner_deck_is_the_27_solid_cards() -> None:
    deck = beginner_deck()
    assert len(deck) == 27 and all(attribute(c, SHADING) == 0 for c in deck)
    assert len(find_sets(deck)) == 117  # 27 * 26 / 6: a 3-attribute game
    game = started(Settings(deck="beginner"), seed=2)
    assert set(game.table) | set() <= set(deck)
    play_out(game)
    assert game.phase == "match_over"
    assert len(deck_with(0, 2)) == 27  # 002: one value of any attribute


def test_r17_twenty_one_cards_always_hold_a_set_in_play() -> None:
    # the engine never deals past 21: a table of 21 refuses more cards
    game = seed_where(lambda g: True, Settings(mode="solo"), ("me",))
    for at in range(3):
        game.apply(NoSet(float(at), "me"))
    assert len(game.table) == 21 and has_set(game.table)
    with pytest.raises(GameError) as err:
        game.apply(NoSet(5.0, "me"))
    assert err.value.code == "table_full"


def test_r08_tick_when_no_pick_window_expired_is_refused() -> None:
    game = started()
    with pytest.raises(GameError) as err:
        game.apply(Tick(1.0))
    assert err.value.code == "not_due"


def test_r11_a_player_who_is_away_does_not_hold_up_the_vote() -> None:
    game = seed_where(lambda g: not has_set(g.table), players=("a", "b", "c"))
    game.apply(NoSet(1.0, "a"))
    game.apply(NoSet(1.0, "b"))
    assert len(game.table) == 12  # c has not declared
    events = game.apply(Away(2.0, "c", True))
    assert [e["type"] for e in events][:2] == ["away", "cards_added"]
    assert len(game.table) == 15
    game.apply(Away(3.0, "c", False))
    assert game.view("a")["players"][2]["away"] is False


def test_r10_all_locked_lifts_when_the_only_other_player_is_away() -> None:
    game = seed_where(lambda g: has_set(g.table), Settings(penalty="lockout"), ("a", "b"))
    game.apply(Call(1.0, "a"))
    game.apply(Pick(1.5, "a", not_a_set(game.table)))
    assert game.players["a"].locked
    events = game.apply(Away(2.0, "b", True))
    assert events[-1] == {"type": "lockouts_lifted", "at": 2.0, "reason": "all_locked"}
    with pytest.raises(GameError) as err:
        game.apply(Away(2.5, "b", True))
    assert err.value.code == "no_change"
