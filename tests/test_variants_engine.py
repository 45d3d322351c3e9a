"""The variants in the engine (issue 10): settings, notation, claims, and each flow of play."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setgame.rules.game import (
    Call,
    Game,
    GameError,
    Join,
    Leave,
    NoSet,
    Pick,
    Settings,
    Start,
    Tick,
    Turn,
    action_from_dict,
)
from setgame.rules.kinds import FOURSET, GHOSTSET, ULTRASET
from setgame.rules.penalties import PUZZLE_PENALTY_SECONDS
from setgame.rules.puzzle import daily_puzzle, parse_day
from setgame.rules.table import Table
from setgame.rules.variants import JUNIOR, SET_CHAIN, VARIANTS, find_variant

Event = dict[str, Any]


def started(variant: str, seed: int = 1, mode: str = "solo", **extra: Any) -> Game:
    game = Game(Settings(mode=mode, variant=variant, **extra), seed)
    players = ("a",) if mode != "multi" else ("a", "b")
    for p in players:
        game.apply(Join(0.0, p, p.upper()))
    game.apply(Start(0.0, "a"))
    return game


def step(game: Game, rng: random.Random, at: float) -> list[Event]:
    """One legal move of the only (solo) player: a random claimable group, turned up card
    by card in memory (a miss when none lies there: misses in a row deal more cards); more
    cards when none lies there."""
    if game.variant.flow.face_down:
        groups = game._t.groups()  # the engine's own knowledge: a perfect memory
        size = game.variant.claim_size
        where = (
            [game.table.index(c) for c in rng.choice(groups)] if groups else list(range(size))
        )
        return [e for pos in where for e in game.apply(Turn(at, "a", pos))]
    groups = game.groups_on_table()
    if groups:
        return game.apply(Pick(at, "a", rng.choice(groups)))
    return game.apply(NoSet(at, "a"))


def play_solo(game: Game, seed: int = 0) -> list[Event]:
    rng, events, at = random.Random(seed), [], 0.0
    while game.phase == "playing":
        at += 1.0
        events += step(game, rng, at)
    return events


# --- settings ------------------------------------------------------------------------------------


def test_settings_store_the_canonical_variant_and_old_settings_load_as_classic() -> None:
    assert Settings(variant="UltraSet").variant == "ultraset"
    assert Settings(variant=" ultraset chain ").variant == "ultraset-chain"
    old = {"mode": "solo", "deck": "beginner"}
    assert Settings.from_dict(old).variant == "classic"
    data = Settings(variant="junior", table=9).to_dict()
    assert data["variant"] == "junior" and data["table"] == 9 and data["day"] == ""
    assert Settings.from_dict(data) == Settings(variant="junior", table=9)
    assert Settings(variant="puzzle", day="2026-11-22").day == "2026-11-22"


@pytest.mark.parametrize(
    ("changes", "quoted"),
    [
        ({"variant": "chess"}, "'chess'"),
        ({"variant": "x" * 500}, "'xxxx"),
        ({"variant": 7}, "7"),
        ({"table": 7}, "7"),
        ({"variant": "junior", "table": 15}, "15"),
        ({"table": True}, "True"),
        ({"variant": "puzzle", "day": "22.11.2026"}, "'22.11.2026'"),
        ({"variant": "puzzle", "day": "2026-02-30"}, "'2026-02-30'"),
        ({"day": "2026-11-22"}, "'2026-11-22'"),
        ({"variant": "megaset", "deck": "beginner"}, "'beginner'"),
        ({"variant": "4set", "deck": "color=R"}, "'color=R'"),
    ],
)
def test_hostile_variant_settings_are_bad_settings_quoting_the_input(
    changes: dict[str, Any], quoted: str
) -> None:
    with pytest.raises(GameError) as err:
        Settings(**changes)
    assert err.value.code == "bad_setting" and quoted in str(err.value)
    with pytest.raises(GameError):
        Settings.from_dict(changes)


def test_r06_generalized_the_table_setting_is_a_size_the_variant_offers() -> None:
    """A size is a whole number, not a bool (``False == 0``) nor a float (``12.0 == 12``);
    a refused size is answered with the sizes the variant offers."""
    for bad in (False, 12.0, 9.0):
        with pytest.raises(GameError) as err:
            Settings(variant="junior", table=bad)
        assert str(err.value) == f"table must be 0 or 12 or 9 for Junior, not {bad!r}"


def test_table_setting_deals_the_size_the_variant_offers() -> None:
    assert len(started("junior", table=9).table) == 9
    assert len(started("junior").table) == 12
    assert len(started("megaset").table) >= 16 and len(started("ultra9").table) >= 9


# --- every variant, to the end -----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_variant_plays_a_solo_game_to_the_end_and_replays(name: str) -> None:
    game = started(name, seed=11)
    events = [*play_solo(game, seed=3)]
    assert game.phase == "match_over" and game.result()["solo"]["sets"] > 0
    # replay through JSON, as the server stores the actions: the same events, the same state
    stored = json.loads(json.dumps([game.action_dict(a) for a in game.log]))
    again = Game(game.settings, 11)
    replayed = [e for data in stored for e in again.apply(again.parse_action(data))]
    assert replayed[-len(events) :] == events
    assert again.snapshot() == game.snapshot()
    # a claim held claim_size cards in the deck's notation
    taken = [e for e in events if e["type"] == "set_taken"]
    deck = game.variant.deck
    assert all(len(deck.parse_many(e["cards"])) == game.variant.claim_size for e in taken)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    name=st.sampled_from(sorted(VARIANTS)),
    moves=st.integers(1, 40),
    wrong=st.floats(0, 0.5),
)
def test_r11_random_play_never_leaves_a_table_without_a_group_while_the_stock_has_cards(
    seed: int, name: str, moves: int, wrong: float
) -> None:
    """R11 generalized: the table grows until it holds a group that may be claimed now; and
    no card is ever in two places (table, previous claim, stock). Memory excepted: its
    face-down table grows after misses in a row, never because it holds no group."""
    game = started(name, seed, mode="multi", no_set="auto", rounds="single")
    rng = random.Random(seed)
    at = 0.0
    for _ in range(moves):
        if game.phase != "playing":
            break
        at += 1000.0  # past every fair-call cooldown
        groups = game._t.groups()
        assert groups or not game.deck_left or game.variant.flow.face_down
        state = game.snapshot()["state"]
        places = state["table"] + (state["previous"] or []) + state["stock"]
        assert len(places) == len(set(places)) and set(places) <= set(game.deck)
        who = rng.choice("ab")
        game.apply(Call(at, who))
        # any cards (most often no group: a wrong call), or a group
        random_cards = rng.random() < wrong
        cards = rng.sample(game.table, game.variant.claim_size) if random_cards else []
        cards = cards or (
            list(rng.choice(groups)) if groups else rng.sample(game.table, game.variant.claim_size)
        )
        if game.variant.flow.face_down:
            for c in cards:
                game.apply(Turn(at, who, game.table.index(c)))
        elif game._t.already_found(cards):
            with pytest.raises(GameError):
                game.apply(Pick(at, who, tuple(cards)))
            game.apply(Tick(at + 60))
        else:
            game.apply(Pick(at, who, tuple(cards)))
    memory = game.variant.flow.face_down
    assert game.phase == "match_over" or game._t.groups() or not game.deck_left or memory


def test_r09_generalized_cards_are_replaced_while_the_table_would_fall_below_its_size() -> None:
    table = Table(SET_CHAIN, 12)
    table.deal(range(81), "k")
    table.cards += [table.stock.pop()]  # 13 cards: a chain claim takes two, one is replaced
    table.previous = [table.stock.pop() for _ in range(3)]
    stock = list(table.stock)
    linked = table.groups()[0]
    on_table = [c for c in linked if c in table.cards]
    positions = [table.cards.index(c) for c in on_table]
    fields = table.take(linked)
    assert fields["positions"] == positions and fields["replaced"] == [stock[-1]]
    assert len(table.cards) == 12 and table.cards[positions[0]] == stock[-1]
    assert table.previous == list(linked) and fields["previous"] == table.names(linked)


def test_r15_the_last_cards_are_the_tables_size() -> None:
    table = Table(JUNIOR, 9)
    table.deal(JUNIOR.deck.cards, "k")
    table.cards += table.stock
    table.stock = []
    assert len(table.cards) == 27 and not table.last_cards()
    table.cards = table.cards[:10]
    assert not table.last_cards()
    table.cards = table.cards[:9]
    assert table.last_cards()


# --- notation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "width"), [("megaset", 5), ("4set", 4), ("4set-junior", 4)])
def test_card_codes_of_other_decks_round_trip_through_views_and_actions(
    name: str, width: int
) -> None:
    game = started(name, seed=4)
    view = game.view("a")
    deck = game.variant.deck
    assert all(len(code) == width for code in view["table"])
    assert deck.parse_many(view["table"]) == game.table
    assert view["variant"] == {
        "name": name,
        "title": game.variant.title,
        "claim": game.variant.claim_size,
        "links": 0,
        "flow": "normal",
        "kind": game.variant.kind.name,
    }
    group = game.groups_on_table()[0]
    data = {"type": "pick", "at": 1, "player": "a", "cards": deck.names(group)}
    assert game.parse_action(data) == Pick(1, "a", tuple(group))
    with pytest.raises(GameError) as err:
        action_from_dict(data)  # the standard deck cannot read these codes
    assert err.value.code == "bad_card"
    events = game.apply(game.parse_action(data))
    assert events[0]["type"] == "set_taken" and events[0]["cards"] == data["cards"]


def test_turn_and_long_picks_in_json() -> None:
    game = started("memory", seed=1)
    data = {"type": "turn", "at": 2.0, "player": "a", "position": 5}
    assert game.parse_action(data) == Turn(2.0, "a", 5)
    assert game.action_dict(Turn(2.0, "a", 5)) == data
    codes = ["1RSD"] * 10_000  # hostile: read no further than a claim can be, then refused
    action = action_from_dict({"type": "pick", "at": 1, "player": "a", "cards": codes})
    assert isinstance(action, Pick) and len(action.cards) == 7
    classic = started("classic")
    with pytest.raises(GameError) as err:
        classic.apply(action)
    assert err.value.code == "bad_pick"


def test_4set_codes_use_the_fourth_letters() -> None:
    game = started("4set", seed=2)
    letters = "".join(game.view()["table"])
    deck = game.variant.deck
    everything = "".join(deck.names(deck.cards))
    assert {"4", "B", "C", "H"} <= set(everything)
    assert set(letters) <= set(everything)


# --- claims judged by the kind -------------------------------------------------------------------


def wrong_group(game: Game) -> tuple[int, ...]:
    """claim_size cards of the table that are not a good claim."""
    rng = random.Random(0)
    while True:
        cards = tuple(rng.sample(game.table, game.variant.claim_size))
        if not game.variant.is_claim(cards, game.previous):
            return cards


@pytest.mark.parametrize(
    ("name", "kind", "flaw"),
    [
        ("ultraset", ULTRASET, "pairing"),
        ("ghostset", GHOSTSET, "count"),
        ("4set", FOURSET, "count"),
    ],
)
def test_picks_are_judged_by_the_variants_kind(name: str, kind: Any, flaw: str) -> None:
    game = started(name, seed=8, mode="practice")
    deck = game.variant.deck
    with pytest.raises(GameError) as err:  # three cards are no claim of four or six
        game.apply(Pick(1, "a", tuple(game.table[:3])))
    assert err.value.code == "bad_pick"
    bad = wrong_group(game)
    [wrong] = game.apply(Pick(1, "a", bad))
    assert wrong["type"] == "wrong_call" and wrong["flaws"]
    assert {f["type"] for f in wrong["flaws"]} == {flaw}
    for f in wrong["flaws"]:
        if f["type"] == "pairing":  # the completions of two pairs, in the deck's notation
            assert len(deck.parse_many(f["thirds"], distinct=False)) == 2
            assert all(len(pair) == 2 for pair in f["pairs"]) and f["attributes"]
        else:
            assert sum(f["counts"]) == game.variant.claim_size
    good = game.groups_on_table()[0]
    assert kind.is_group(good, deck)
    assert game.apply(Pick(2, "a", good))[0]["type"] == "set_taken"


def test_a_classic_set_flaw_keeps_its_keys_and_gains_its_type() -> None:
    game = started("classic", seed=3, mode="practice")
    [wrong] = game.apply(Pick(1, "a", wrong_group(game)))
    assert wrong["flaws"] and all(
        set(f) == {"type", "attribute", "common", "odd"} and f["type"] == "set"
        for f in wrong["flaws"]
    )


def test_a_pick_of_cards_not_on_the_table_is_refused_in_the_deck_notation() -> None:
    game = started("megaset", seed=1)
    away = next(c for c in game.variant.deck.cards if c not in game.table)
    with pytest.raises(GameError) as err:
        game.apply(Pick(1, "a", (away, *game.table[:2])))
    assert err.value.code == "not_on_table" and game.variant.deck.name_of(away) in str(err.value)


# --- chain flows ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "links"), [("set-chain", 1), ("ultraset-chain", 2)])
def test_chain_claims_must_use_exactly_the_links_of_the_previous_claim(
    name: str, links: int
) -> None:
    game = started(name, seed=6, mode="practice", no_set="auto")
    assert game.view()["previous"] is None  # before the first claim
    first = list(game.groups_on_table()[0])
    [taken, *_] = game.apply(Pick(1, "a", first))
    deck = game.variant.deck
    assert taken["previous"] == deck.names(first) == game.view()["previous"]
    assert len(taken["replaced"]) == game.variant.claim_size  # all came from the table
    assert not set(first) & set(game.table)
    view = game.view()
    assert view["variant"]["links"] == links
    # a group of the kind that uses a wrong number of the previous cards is a wrong call
    tried = 0
    for used in set(range(game.variant.claim_size + 1)) - {links}:
        pool = game.table + first
        unlinked = [
            g for g in game.variant.kind.find(pool, deck) if len(set(g) & set(first)) == used
        ]
        if not unlinked:
            continue
        before = game.table
        [wrong] = game.apply(Pick(2, "a", unlinked[0]))
        assert wrong["type"] == "wrong_call"
        assert {"type": "link", "used": used, "needed": links} in wrong["flaws"]
        assert game.table == before and game.previous == first
        tried += 1
    assert tried
    # a linked claim: its table cards are replaced, the previous cards not reused leave
    linked = game.groups_on_table()[0]
    assert len(set(linked) & set(first)) == links
    size, taken_off = len(game.table), game.variant.claim_size - links
    [taken, *_] = game.apply(Pick(3, "a", linked))
    # R09 generalized: replaced while the table would fall below its size (12)
    assert len(taken["replaced"]) == min(taken_off, max(0, 12 - (size - taken_off)))
    assert game.previous == list(linked)
    gone = set(first) - set(linked)
    assert not gone & set(game.table) and not gone & set(game.previous)


def test_set_chain_claims_with_zero_or_three_links_are_link_flaws() -> None:
    """Two cards of a set decide the third, so a set with two cards of the previous set is the
    previous set itself: a Set-Chain claim uses 0, 1 or 3 of them, and only 1 is good."""
    deck = find_variant("set-chain").deck
    for seed in range(200):
        game = started("set-chain", seed=seed, mode="practice", no_set="auto")
        first = list(game.groups_on_table()[0])
        game.apply(Pick(1, "a", first))
        sets = game.variant.kind.find(game.table + first, deck)
        by_links = {len(set(g) & set(first)): g for g in sets}
        assert 2 not in by_links and by_links[3] == tuple(first)
        if 0 in by_links:
            break
    else:
        pytest.fail("no seed with an unlinked set")
    for used in (0, 3):
        [wrong] = game.apply(Pick(2, "a", by_links[used]))
        assert wrong["flaws"] == [{"type": "link", "used": used, "needed": 1}]


def test_chain_view_shows_previous_and_groups_may_use_it() -> None:
    game = started("set-chain", seed=2, mode="practice", no_set="auto")
    first = list(game.groups_on_table()[0])
    game.apply(Pick(1, "a", first))
    groups = game.groups_on_table()
    assert groups and all(len(set(g) & set(first)) == 1 for g in groups)


def test_r14_a_new_round_of_a_chain_match_starts_without_a_previous_claim() -> None:
    game = started("set-chain", seed=4, mode="multi", no_set="auto")
    at = 0.0
    while game.phase == "playing":
        at += 100.0
        game.apply(Call(at, "a"))
        game.apply(Pick(at, "a", game.groups_on_table()[0]))
    assert game.phase == "round_over" and game.view()["previous"] is not None
    [started_event, *_] = game.apply(Start(at + 1, "b"))
    assert started_event["round"] == 2 and game.view()["previous"] is None
    assert len(game.table) >= 12 and game.deck_left + len(game.table) == 81


# --- puzzle --------------------------------------------------------------------------------------


def test_daily_puzzle_ends_when_its_six_sets_are_found() -> None:
    day = "2026-11-22"
    game = started("puzzle", mode="solo", day=day)  # seed 1: the day's table dealt from it
    cards = daily_puzzle(parse_day(day), 1)
    assert cards != daily_puzzle(parse_day(day))  # not the public table (seed 0)
    view = game.view("a")
    assert game.table == list(cards) and view["deck"] == 0 and view["groups"] == 6
    assert view["found"] == [] and view["players"][0]["penalty_seconds"] == 0
    assert view["penalty_seconds"] == 0 and game.view(None)["penalty_seconds"] is None
    groups = game.groups_on_table()
    assert len(groups) == 6
    with pytest.raises(GameError) as err:
        game.apply(NoSet(1, "a"))
    assert err.value.code == "auto_deal"
    bad = wrong_group(game)
    [wrong] = game.apply(Pick(1, "a", bad))
    assert wrong["penalty_seconds"] == PUZZLE_PENALTY_SECONDS and wrong["penalty"] == "time"
    assert not wrong["point_lost"] and game.view("a")["players"][0]["penalty_seconds"] == 10
    assert game.view("a")["penalty_seconds"] == 10
    for i, group in enumerate(groups):
        assert game.phase == "playing"
        events = game.apply(Pick(2 + i, "a", group))
        assert events[0]["found"][-1] == game.variant.deck.names(group)
        if i == 0:
            before = game.snapshot()
            with pytest.raises(GameError) as err:
                game.apply(Pick(3, "a", tuple(reversed(group))))
            assert err.value.code == "already_found" and game.snapshot() == before
    assert game.phase == "match_over" and game.table == list(cards)
    solo = game.result()["solo"]
    assert solo["sets"] == 6 and solo["penalty_seconds"] == 10
    assert solo["seconds"] == 7 + 10  # clock (0 to 7) plus the penalty


def test_puzzle_table_changes_only_when_every_group_is_found() -> None:
    game = started("puzzle", seed=5, mode="practice")
    first = game.table
    groups = game.groups_on_table()
    assert game.view()["groups"] == len(groups) > 0
    at = 1.0
    for group in groups[:-1]:
        game.apply(Pick(at, "a", group))
        at += 1
        assert game.table == first and game.view()["found"][-1] == game.names(group)
    [last, *_] = game.apply(Pick(at, "a", groups[-1]))
    assert last["new_table"] is True and game.view()["found"] == []
    assert not set(game.table) & set(first) and len(game.table) >= 12
    assert game.groups_on_table()


def test_puzzle_in_multi_costs_a_point_not_time() -> None:
    game = started("puzzle", seed=5, mode="multi")
    game.apply(Call(1, "a"))
    [wrong] = game.apply(Pick(1.5, "a", wrong_group(game)))
    assert "penalty_seconds" not in wrong and wrong["penalty"] == "point"


# --- shuffle -------------------------------------------------------------------------------------


def test_shuffle_reshuffles_deterministically_after_every_claim() -> None:
    one, two = started("shuffle", seed=9), started("shuffle", seed=9)
    before = one.table
    group = one.groups_on_table()[0]
    [taken, *_] = one.apply(Pick(1, "a", group))
    assert taken["reshuffled"] is True and taken["table"] == one.names(one.table)
    assert taken["replaced"] == []
    assert two.apply(Pick(1, "a", group))[0] == taken  # same seed, same shuffle
    assert one.table != [c for c in before if c not in group]  # dealt anew, not closed up
    assert not set(group) & set(one.table) and one.deck_left + len(one.table) == 81 - 3
    other = started("shuffle", seed=10)
    assert other.table != before or other.apply(Pick(1, "a", other.groups_on_table()[0]))


# --- memory --------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["solo", "multi"])
def test_memory_never_shows_a_face_down_card_before_it_is_turned(mode: str) -> None:
    """Every event and every view (each player's and a spectator's) of a whole game."""
    game = Game(Settings(mode=mode, variant="memory", rounds="single"), 12)
    players = ["a"] if mode == "solo" else ["a", "b"]
    deck = game.variant.deck
    shown: set[int] = set()  # cards turned up so far
    rng = random.Random(1)

    def check(data: Any) -> None:
        text = json.dumps(data)
        hidden = [c for c in game.table if c not in shown]
        assert not any(f'"{deck.name_of(c)}"' in text for c in hidden), text
        assert not any(f'"{deck.name_of(c)}"' in text for c in game._t.stock)

    def apply(action: Any, at: float) -> list[Event]:
        events = game.apply(action)
        check(events)
        for who in (*players, None):
            check(game.view(who, now=at))
        return events

    for p in players:
        apply(Join(0.0, p, p.upper()), 0.0)
    apply(Start(0.0, "a"), 0.0)
    at, turn = 0.0, 0
    while game.phase == "playing":
        at += 1000.0  # past every fair-call cooldown
        turn += 1
        who = players[turn % len(players)]
        if mode == "multi":
            apply(Call(at, who), at)
        groups = game._t.groups()
        picks = rng.sample(range(len(game.table)), 3) if rng.random() < 0.3 else None
        if picks is None:  # a group when one lies there, else a miss (misses deal more)
            picks = [game.table.index(c) for c in groups[0]] if groups else [0, 1, 2]
        for pos in picks:
            shown.add(game.table[pos])
            apply(Turn(at, who, pos), at)
    assert game.phase == "match_over" and sum(game.result()["totals"].values()) > 0


def test_memory_turns_judges_and_turns_back() -> None:
    game = started("memory", seed=3, mode="multi")
    view = game.view("a")
    assert view["table"] == [None] * 12 and view["turned"] == []
    assert game.groups_on_table() == []
    with pytest.raises(GameError) as err:
        game.apply(Pick(1, "a", tuple(game.table[:3])))
    assert err.value.code == "face_down"
    with pytest.raises(GameError) as err:
        game.apply(Turn(1, "a", 0))
    assert err.value.code == "not_holder"  # in multi, call first
    game.apply(Call(1, "a"))
    with pytest.raises(GameError) as err:
        game.apply(Pick(1, "a", tuple(game.table[:3])))
    assert err.value.code == "face_down"
    for bad in (-1, 12, True, "0"):
        with pytest.raises(GameError) as err:
            game.apply(Turn(1, "a", bad))  # type: ignore[arg-type]
        assert err.value.code == "bad_position"
    bad = wrong_group(game)
    positions = [game.table.index(c) for c in bad]
    [turned, *_] = game.apply(Turn(1.1, "a", positions[0]))
    assert turned == {
        "type": "card_turned",
        "at": 1.1,
        "player": "a",
        "position": positions[0],
        "card": game.names([bad[0]])[0],
    }
    assert game.view("b")["table"][positions[0]] == game.names([bad[0]])[0]
    with pytest.raises(GameError) as err:
        game.apply(Turn(1.2, "a", positions[0]))
    assert err.value.code == "already_turned"
    game.apply(Turn(1.2, "a", positions[1]))
    [_, wrong] = game.apply(Turn(1.3, "a", positions[2]))
    assert wrong["type"] == "wrong_call" and wrong["positions"] == positions
    assert not wrong["point_lost"] and not wrong["locked"] and wrong["cooldown"] > 0
    assert game.view()["table"] == [None] * 12 and game.turned == []
    # the pick window covers the turning: a timeout turns the cards back too
    game.apply(Call(2, "b"))
    game.apply(Turn(2.5, "b", 0))
    events = game.apply(Tick(20))
    assert events[0]["reason"] == "timeout" and game.turned == []


def test_memory_cards_turn_back_when_the_holder_leaves() -> None:
    game = started("memory", seed=3, mode="multi")
    game.apply(Call(1, "a"))
    game.apply(Turn(1.5, "a", 4))
    assert game.view("b")["turned"] == [4] and game.view("b")["table"][4] is not None
    events = game.apply(Leave(2, "a"))
    assert [e["type"] for e in events] == ["left", "call_cancelled"]
    assert game.turned == [] and game.view("b")["table"] == [None] * 12


def test_memory_good_claim_is_taken_and_replaced_face_down() -> None:
    game = started("memory", seed=4, mode="solo")
    group = game._t.groups()[0]
    positions = [game.table.index(c) for c in group]
    events = [e for p in positions for e in game.apply(Turn(1, "a", p))]
    taken = next(e for e in events if e["type"] == "set_taken")
    assert taken["positions"] == positions and taken["cards"] == game.names(group)
    assert taken["replaced"] == [None] * 3 and taken["table"] == [None] * 12
    with pytest.raises(GameError) as err:
        game.apply(NoSet(2, "a"))
    assert err.value.code == "auto_deal"


# --- the table's state, as the snapshot (and so every replay check) records it --------------------


def test_r06_generalized_a_table_before_its_deal_holds_nothing() -> None:
    assert Table(SET_CHAIN, 12).snapshot() == {
        "table": [],
        "stock": [],
        "previous": None,
        "found": [],
        "turned": [],
        "reshuffles": 0,
        "blind_misses": 0,
    }


def test_r09_generalized_the_snapshot_records_each_flows_state() -> None:
    """What each flow keeps beside the layout is state: a replay that differs there differs."""
    shuffle = started("shuffle", seed=9, mode="multi", no_set="auto")
    assert shuffle.snapshot()["state"]["reshuffles"] == 0
    for at, count in ((10.0, 1), (20.0, 2)):
        shuffle.apply(Call(at, "a"))
        shuffle.apply(Pick(at, "a", shuffle.groups_on_table()[0]))
        assert shuffle.snapshot()["state"]["reshuffles"] == count
    while shuffle.phase == "playing":  # to the next round: its count starts again
        at += 10.0
        shuffle.apply(Call(at, "a"))
        shuffle.apply(Pick(at, "a", shuffle.groups_on_table()[0]))
    shuffle.apply(Start(at + 1, "b"))
    assert shuffle.snapshot()["state"]["reshuffles"] == 0

    chain = started("set-chain", seed=4)
    group = chain.groups_on_table()[0]
    chain.apply(Pick(1, "a", group))
    assert chain.snapshot()["state"]["previous"] == list(group)

    puzzle = started("puzzle", seed=5, mode="practice")
    group = puzzle.groups_on_table()[0]
    puzzle.apply(Pick(1, "a", group))
    assert puzzle.snapshot()["state"]["found"] == [list(group)]

    memory = started("memory", seed=3)
    memory.apply(Turn(1, "a", 4))
    assert memory.snapshot()["state"]["turned"] == [4]


def test_r10_memory_a_miss_costs_neither_a_set_nor_a_lockout() -> None:
    """Memory: missing is the game's normal course, whatever the penalty setting; only the
    fair-call wait applies (this project's own reading, docs/variants.md)."""
    game = started("memory", seed=3, mode="multi", penalty="both")
    game.apply(Call(1, "a"))
    for c in game._t.groups()[0]:
        game.apply(Turn(1.5, "a", game.table.index(c)))
    assert game.players["a"].sets == 1
    game.apply(Call(2, "a"))
    for c in wrong_group(game)[:-1]:
        game.apply(Turn(2.5, "a", game.table.index(c)))
    [_, wrong] = game.apply(Turn(2.6, "a", game.table.index(wrong_group(game)[-1])))
    assert wrong["type"] == "wrong_call" and wrong["penalty"] == "none"
    assert wrong["point_lost"] is False and wrong["locked"] is False and wrong["score"] == 1
    assert game.players["a"].locked is False and wrong["cooldown"] > 0


def test_r15_a_puzzle_alone_adds_ten_seconds_for_every_wrong_pick() -> None:
    game = started("puzzle", seed=5, mode="solo")
    for at in (1.0, 2.0, 3.0):
        [wrong] = game.apply(Pick(at, "a", wrong_group(game)))
        assert wrong["penalty_seconds"] == PUZZLE_PENALTY_SECONDS
    assert game.view("a")["penalty_seconds"] == 3 * PUZZLE_PENALTY_SECONDS


def test_turn_errors_name_the_variant_and_the_position() -> None:
    classic = started("classic")
    with pytest.raises(GameError) as err:
        classic.apply(Turn(1, "a", 0))
    assert err.value.code == "face_up"
    assert str(err.value) == "Classic: the cards lie face up: pick them"
    game = started("memory", seed=3)
    for bad in (12, "0"):
        with pytest.raises(GameError) as err:
            game.apply(Turn(1, "a", bad))  # type: ignore[arg-type]
        assert err.value.code == "bad_position"
        assert str(err.value) == f"no card lies at position {bad!r}"
    game.apply(Turn(1, "a", 4))
    with pytest.raises(GameError) as err:
        game.apply(Turn(1, "a", 4))
    assert str(err.value) == "the card at position 4 is already up"


@pytest.mark.parametrize("name", ["classic", "puzzle"])
def test_the_public_view_holds_every_key_of_a_viewers_view_in_order(name: str) -> None:
    """The server builds the public view once and patches each viewer's own keys into it
    (server/fanout.py): a viewer's own key must already be there, in its place, as None."""
    game = started(name, seed=5)
    public, own = game.public_view(now=1.0), game.own_view("a")
    assert list(public) == list(game.view("a", now=1.0)) and set(own) <= set(public)
    assert all(public[key] is None for key in own)


def test_pick_and_no_set_errors_of_the_flows_say_why() -> None:
    memory = started("memory", seed=3)
    with pytest.raises(GameError) as err:
        memory.apply(Pick(1, "a", tuple(memory.table[:3])))
    assert str(err.value) == "the cards lie face down: turn them up one by one"
    puzzle = started("puzzle", seed=5, mode="practice")
    group = puzzle.groups_on_table()[0]
    puzzle.apply(Pick(1, "a", group))
    with pytest.raises(GameError) as err:
        puzzle.apply(Pick(2, "a", group))
    assert str(err.value) == f"already found: {puzzle.names(group)!r}"
    with pytest.raises(GameError) as err:
        puzzle.apply(NoSet(3, "a"))
    assert str(err.value) == "Puzzle deals more cards by itself when needed"


def _memory_with(holds_set: bool) -> Game:
    """A solo Memory game whose first face-down table holds a set, or holds none."""
    for seed in range(10_000):
        game = started("memory", seed=seed)
        if bool(game._t.groups()) == holds_set and len(game.table) == 12:
            return game
    raise AssertionError("no such seed")


def _public(events: list[Event]) -> list[tuple[Any, ...]]:
    """What an event tells about the face-down table: its type, why cards came, the count
    of cards on the table and in the deck (turned cards' names left out: they differ)."""
    return [
        (e["type"], e.get("why"), len(e.get("table") or ()), e.get("deck"), e.get("reason"))
        for e in events
    ]


def test_memory_deals_on_misses_in_a_row_whether_or_not_a_set_lies_face_down() -> None:
    """Memory's deal tells nothing: a table with a set and one without, missed the same way,
    give the same public events (three cards after 12 / 3 = 4 misses in a row, then after
    15 / 3 = 5), and a table without a set is not grown at the deal (before, it was at once,
    telling everyone that no set lay face down)."""
    with_set, without = _memory_with(True), _memory_with(False)
    assert len(with_set.table) == len(without.table) == 12  # no growth at the deal
    seen: dict[bool, list[tuple[Any, ...]]] = {True: [], False: []}
    for holds, game in ((True, with_set), (False, without)):
        at = 0.0
        for _ in range(9):
            table = game._t.cards
            miss = next(  # the same kind of turn in both games: three cards that are no set
                trio
                for trio in ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3), (0, 1, 4))
                if not game.variant.kind.count([table[i] for i in trio], game.variant.deck)
            )
            for pos in miss:
                at += 1.0
                seen[holds] += _public(game.apply(Turn(at, "a", pos)))
    assert seen[True] == seen[False]
    added = [e for e in seen[True] if e[0] == "cards_added"]
    assert added == [
        ("cards_added", "misses", 15, 66, None),
        ("cards_added", "misses", 18, 63, None),
    ]


def test_memory_round_ends_after_misses_once_the_deck_is_empty() -> None:
    """With the deck empty, the misses in a row that would deal end the round instead
    (whatever lies face down); a good claim starts the count again."""
    game = started("memory", seed=2, rounds="single")
    game._t.stock.clear()  # the end of a round, reached quickly
    at, events = 0.0, []
    for n in range(4):
        assert game.phase == "playing", n
        table = game._t.cards
        trio = next(
            t for t in ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3), (0, 1, 4), (0, 2, 4))
            if not game.variant.kind.count([table[i] for i in t], game.variant.deck)
        )
        for pos in trio:
            at += 1.0
            events += game.apply(Turn(at, "a", pos))
    assert game.phase == "match_over"
    assert [e["type"] for e in events].count("wrong_call") == 4
    assert "cards_added" not in [e["type"] for e in events]
