"""The rules a reading of the rulebooks found the engine deviating from, tested in the engine.

A player who leaves and returns is the same seat (R10, R14); solo is won as ``001`` and
``004`` read (R15); who votes "no set" (R11, this project's reading); and each stored game
replays under the rules it was played with. The server's side is in
``tests/server/test_rejoin.py``.
"""

from __future__ import annotations

import pytest

from gamekit import not_a_set, play_out_round, seed_where, started, take_any
from setgame.game import Call, Game, GameError, Join, Leave, Pick, Settings, Start
from setgame.sets import has_set


def refused(game: Game, action: Call | Join) -> str:
    with pytest.raises(GameError) as err:
        game.apply(action)
    return err.value.code


def wrong_call(game: Game, player: str, at: float) -> None:
    game.apply(Call(at, player))
    game.apply(Pick(at + 0.5, player, not_a_set(game.table)))


# --- R10: leaving does not wipe a lockout, a wait or a score ----------------------------------


def test_r10_lockout_survives_leave_and_rejoin() -> None:
    game = seed_where(lambda g: has_set(g.table), Settings(penalty="lockout"), ("a", "b", "c"))
    wrong_call(game, "a", 1.0)
    assert game.players["a"].locked and game.players["a"].sets == 0
    game.apply(Leave(2.0, "a"))
    assert "a" in game.players and not game.players["a"].present  # kept: it holds a lockout
    events = game.apply(Join(3.0, "a", "A"))
    assert events == [{"type": "joined", "at": 3.0, "player": "a", "name": "A", "returned": True}]
    assert game.players["a"].locked and game.order == ["a", "b", "c"]
    assert refused(game, Call(20.0, "a")) == "locked_out"  # past the fair-call wait too
    take_any(game, "b", 21.0)  # another player's set lifts it, as for anyone (R10)
    assert not game.players["a"].locked


def test_r10_fair_call_wait_survives_leave_and_rejoin() -> None:
    game = seed_where(lambda g: has_set(g.table), Settings(pick_seconds=5), ("a", "b"))
    wrong_call(game, "a", 1.0)  # no set held: no point lost, but a 5 s wait from 1.5
    game.apply(Leave(2.0, "a"))
    game.apply(Join(2.5, "a", "A"))
    assert refused(game, Call(3.0, "a")) == "cooling_down"
    assert game.cooldown_end("a", 3.0) == 6.5
    wrong_call(game, "a", 7.0)  # the second miss in a row: the wait doubles, as if never gone
    assert game.cooldown_end("a", 8.0) == 7.5 + 10


def test_r10_score_survives_leave_and_rejoin() -> None:
    game = seed_where(lambda g: has_set(g.table), players=("a", "b"))
    take_any(game, "a", 1.0)
    game.apply(Leave(2.0, "a"))
    game.apply(Join(3.0, "a", "Ann"))  # a new name for the same seat
    a = game.players["a"]
    assert (a.present, a.sets, a.name) == (True, 1, "Ann")
    assert game.view("a")["players"][0]["score"] == 1


def test_r10_a_seated_player_cannot_join_twice_and_a_full_room_takes_nobody_back() -> None:
    game = seed_where(lambda g: has_set(g.table), players=("a", "b"))
    assert refused(game, Join(1.0, "a", "A")) == "already_seated"
    solo = seed_where(lambda g: has_set(g.table), Settings(mode="solo"), ("me",))
    take_any(solo, "me", 1.0)
    solo.apply(Leave(2.0, "me"))
    solo.apply(Join(3.0, "me", "Me"))  # a solo player may come back to their own game
    assert solo.players["me"].sets == 1 and solo.phase == "playing"
    assert refused(solo, Join(4.0, "x", "X")) == "room_full"


def test_r10_a_seat_with_nothing_to_keep_still_leaves_no_trace() -> None:
    game = started(players=("a", "b"))
    game.apply(Join(1.0, "c", "C"))
    game.apply(Leave(2.0, "c"))
    assert "c" not in game.players and game.order == ["a", "b"]


# --- R14: everyone deals once ------------------------------------------------------------------


def test_r14_rejoin_does_not_deal_again() -> None:
    game = started(seed=8, players=("a", "b"))
    assert (game.round, game.rounds, game.dealer) == (1, 2, "a")
    game.apply(Leave(1.0, "a"))  # the dealer leaves holding nothing, and comes back
    game.apply(Join(1.5, "a", "A"))
    assert game.rounds == 2 and game.view()["rounds"] == 2
    at = play_out_round(game, 2.0)
    game.apply(Start(at + 1, "a"))
    assert (game.round, game.dealer) == (2, "b")
    play_out_round(game, at + 1)
    assert game.phase == "match_over" and game.round == 2


def test_r14_a_player_who_left_before_dealing_deals_once_on_return() -> None:
    game = started(seed=8, players=("a", "b", "c"))
    game.apply(Leave(1.0, "b"))
    assert game.rounds == 2
    game.apply(Join(1.5, "b", "B"))
    assert game.rounds == 3
    dealers = [game.dealer]
    at = 2.0
    while game.phase != "match_over":
        at = play_out_round(game, at) + 1
        if game.phase == "round_over":
            game.apply(Start(at, "a"))
            dealers.append(game.dealer)
    # b held nothing when it left, so its place went with it: back, it sits (and deals) last
    assert dealers == ["a", "c", "b"]
