"""The engine as a state machine: replay, views, serialization, errors, golden games."""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamekit import play_out, started
from setgame import card_name, find_sets
from setgame.rules.game import (
    Action,
    Call,
    Game,
    GameError,
    Join,
    Leave,
    NoSet,
    Pick,
    Settings,
    Start,
    action_from_dict,
    action_to_dict,
)

GOLDEN = Path(__file__).parent / "golden"


def random_game(seed: int, settings: Settings, steps: int = 400) -> tuple[Game, list[dict]]:
    """A game driven by random (often illegal) actions; illegal ones are refused."""
    rng = random.Random(seed)
    players = ["p1"] if settings.solitary else ["p1", "p2", "p3"]
    game = Game(settings, seed)
    events: list[dict] = []
    at = 0.0
    for p in players:
        events += game.apply(Join(at, p, p.upper()))
    events += game.apply(Start(at, "p1"))
    for _ in range(steps):
        if game.phase == "match_over":
            break
        at += rng.choice([0.1, 0.5, 1.0, 7.0])
        events += game.advance(at)
        who = rng.choice(players)
        sets = find_sets(game.table)
        table = game.table
        choice = rng.random()
        action: Action
        if game.phase == "round_over":
            action = Start(at, who)
        elif choice < 0.35:
            action = Call(at, who)
        elif choice < 0.85 and len(table) >= 3:
            good = sets and choice < 0.7
            action = Pick(at, who, rng.choice(sets) if good else tuple(rng.sample(table, 3)))
        else:
            action = NoSet(at, who)
        with contextlib.suppress(GameError):
            events += game.apply(action)
    return game, events


MODES = [
    Settings(),
    Settings(penalty="lockout"),
    Settings(penalty="both", no_set="auto"),
    Settings(penalty="none", deck="beginner"),
    Settings(mode="solo"),
    Settings(mode="practice", deck="beginner"),
]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), mode=st.sampled_from(MODES))
def test_replaying_the_log_rebuilds_the_same_state_and_events(seed: int, mode: Settings) -> None:
    game, events = random_game(seed, mode)
    again = Game(mode, seed)
    replayed = [e for a in game.log for e in again.apply(a)]
    assert replayed == events
    assert again.snapshot() == game.snapshot()
    # and through JSON, as the server stores it
    stored = json.loads(json.dumps([action_to_dict(a) for a in game.log]))
    assert Game.replay(mode, seed, map(action_from_dict, stored)).snapshot() == game.snapshot()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), mode=st.sampled_from(MODES))
def test_cards_are_conserved(seed: int, mode: Settings) -> None:
    game, _ = random_game(seed, mode)
    snap = game.snapshot()["state"]
    won = sum(p.sets for p in game.players.values())
    assert len(set(snap["table"]) | set(snap["stock"])) == len(snap["table"]) + len(snap["stock"])
    assert set(snap["table"]).isdisjoint(snap["stock"])
    if game.phase == "playing":
        assert len(snap["table"]) + len(snap["stock"]) + 3 * won <= len(game.deck)


def test_view_never_shows_the_deck_or_the_seed() -> None:
    game = started(seed=424242)
    stock = game.snapshot()["state"]["stock"]
    for who in ("a", None):
        text = json.dumps(game.view(who, now=1.0))
        assert "424242" not in text
        assert not any(f'"{card_name(c)}"' in text for c in stock)
        assert game.view(who)["deck"] == len(stock)


def test_view_counts_down_the_pick_window() -> None:
    game = started(Settings(pick_seconds=5))
    game.apply(Call(10.0, "a"))
    view = game.view("b", now=12.0)
    assert view["holder"] == "a" and view["deadline_in"] == 3.0 and view["you"] == "b"


def test_illegal_actions_quote_their_input_and_change_nothing() -> None:
    game = started()
    before = game.snapshot()
    bad = [
        (Join(1, "z", ""), "bad_name"),
        (Join(1, "a", "Again"), "already_seated"),
        (Call(1, "nobody"), "unknown_player"),
        (Start(1, "a"), "bad_phase"),
        (Pick(1, "a", (0, 1, 2)), "not_holder"),
        (NoSet(-5, "a"), "time_backwards"),
    ]
    for action, code in bad:
        with pytest.raises(GameError) as err:
            game.apply(action)
        assert err.value.code == code
        assert isinstance(err.value, ValueError)
    assert game.snapshot() == before


def test_bad_settings_are_refused_with_the_value() -> None:
    with pytest.raises(GameError, match="'sometimes'"):
        Settings(penalty="sometimes")
    with pytest.raises(GameError, match="'color=X'"):
        Settings(deck="color=X")
    with pytest.raises(GameError, match="'colour'"):
        Settings.from_dict({"colour": "red"})
    assert Settings.from_dict(Settings(mode="solo").to_dict()) == Settings(mode="solo")


def test_action_json_round_trip_and_errors() -> None:
    pick = Pick(1.5, "a", (0, 40, 80))
    data = action_to_dict(pick)
    assert data == {"type": "pick", "at": 1.5, "player": "a", "cards": ["1RSD", "2GTO", "3POS"]}
    assert action_from_dict(data) == pick
    with pytest.raises(GameError, match="'dance'"):
        action_from_dict({"type": "dance"})
    with pytest.raises(GameError, match="'9ZZZ'"):
        action_from_dict(
            {"type": "pick", "at": 1, "player": "a", "cards": ["9ZZZ", "1RSD", "1RSO"]}
        )


def test_leaving_holder_releases_the_board_and_vote_completes() -> None:
    game = started(players=("a", "b", "c"))
    game.apply(Call(1.0, "a"))
    events = game.apply(Leave(1.5, "a"))
    assert [e["type"] for e in events] == ["left", "call_cancelled"]
    assert game.holder is None
    assert [p.id for p in game.present()] == ["b", "c"]


def golden_game(seed: int, settings: Settings) -> Game:
    game = started(settings, seed, ("a", "b", "c"))
    play_out(game, seed=seed)
    return game


VARIANT_VIEW_KEYS = ("variant", "previous", "found", "groups", "turned")


def without_variant_keys(view: dict[str, Any]) -> dict[str, Any]:
    """A classic view as it was before the variants (the golden digests were taken then): the
    keys the variants added are checked to be the classic ones, then dropped."""
    view = dict(view)
    assert view.pop("variant")["name"] == "classic"
    assert all(view.pop(key) is None for key in VARIANT_VIEW_KEYS[1:])
    settings = dict(view["settings"])
    added = (settings.pop("variant"), settings.pop("table"), settings.pop("day"))
    assert added == ("classic", 0, "")
    view["settings"] = settings
    return view


GOLDEN_CASES = {
    "multi-point-vote-7": (7, Settings()),
    "multi-lockout-auto-99": (99, Settings(penalty="lockout", no_set="auto", rounds="single")),
    "beginner-3": (3, Settings(deck="beginner")),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_replays_from_fixed_seeds(name: str) -> None:
    """The same seed and actions give the same game forever: a change here changes saved games."""
    seed, mode = GOLDEN_CASES[name]
    game = golden_game(seed, mode)
    golden = json.loads((GOLDEN / f"{name}.json").read_text())
    log = [action_to_dict(a) for a in game.log]
    assert log == golden["actions"]
    replayed = Game.replay(mode, seed, map(action_from_dict, golden["actions"]))
    view = without_variant_keys(replayed.view(None))
    digest = hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest()
    assert digest == golden["final_view_sha256"]
    assert replayed.result() == golden["result"]
    assert replayed.view(None)["table"] == golden["leftover"]
