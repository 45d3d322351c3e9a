"""Bot drivers and the fair-call rule: a bot waits for its cooldown instead of calling into a
refusal (the terminal's local session and the server's bot task)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from gamekit import not_a_set
from setgame.bots.policy import Plan
from setgame.rules.game import Call, Game, Join, Start, Tick
from setgame.rules.sets import find_sets
from setgame.server.bots import _due
from setgame.tui.local import LocalSession, looked_at


def _session() -> LocalSession:
    session = LocalSession("bots", bots=1, level=1, seed=3)
    asyncio.run(session.open(0.0))
    return session


def _plan(session: LocalSession, at: float, *, good: bool) -> None:
    """Give bot1 a plan for the current table (a set, or three cards that are not one)."""
    table = tuple(session.game.table)
    cards = find_sets(table)[0] if good else not_a_set(table)
    seat = session.seats["bot1"]
    seat.looked_at, seat.plan = looked_at(session.game.view("bot1", at)), Plan("set", at, cards)


def test_fair_call_local_bot_waits_for_its_cooldown() -> None:
    session = _session()
    game = session.game
    _plan(session, 0.1, good=False)
    session.poll(0.2)
    assert game.holder == "bot1"
    events = session.poll(0.2 + session.seats["bot1"].bot.pick_delay)  # the wrong pick
    wrong = next(e for e in events if e["type"] == "wrong_call")
    until = game.players["bot1"].cooldown_until
    assert wrong["cooldown"] == 5.0 and until is not None
    assert find_sets(game.table)  # seed 3: the table still holds a set
    _plan(session, until - 3.0, good=True)  # due during the cooldown
    assert session.poll(until - 1.0) == []  # no refused call, no error: the bot waits
    assert game.holder is None
    session.poll(until)
    assert game.holder == "bot1"  # and calls once the cooldown is over


def test_fair_call_server_bot_plans_after_its_cooldown() -> None:
    game = Game()
    for p in ("a", "b"):
        game.apply(Join(0.0, p, p.upper()))
    game.apply(Start(0.0, "a"))
    game.apply(Call(1.0, "a"))
    game.apply(Tick(6.0))  # cooldown until 11.0
    room: Any = SimpleNamespace(game=game, now=lambda: 7.0)
    assert _due(room, "a", Plan("set", 8.0, (0, 1, 2))) == 11.0
    assert _due(room, "a", Plan("set", 12.0, (0, 1, 2))) == 12.0
    assert _due(room, "a", Plan("no_set", 8.0)) == 8.0  # declaring is not calling
    assert _due(room, "b", Plan("set", 8.0, (0, 1, 2))) == 8.0


def _play_alone(variant: str, *, level: int = 4, limit: float = 3000.0) -> list[dict[str, Any]]:
    """Two bots and a player who only joins "no set" votes, through a whole match of
    ``variant``: every event."""
    session = LocalSession("bots", bots=2, level=level, seed=5, variant=variant)
    asyncio.run(session.open(0.0))
    events: list[dict[str, Any]] = []
    now = 0.0
    while session.game.phase != "match_over" and now < limit:
        now += 0.25
        events += session.poll(now)
        if session.game.phase == "round_over":
            asyncio.run(session.start(now))
        view = session.view(now)
        if view["no_set_votes"] and "you" not in view["no_set_votes"] and view["deck"]:
            asyncio.run(session.no_set(now))
    assert session.game.phase == "match_over", f"{variant}: not over by {limit} s"
    return events


def test_memory_bots_turn_cards_up_and_take_sets() -> None:
    """The terminal's driver carries out turn plans: call, then one turn per position, in
    the pick window (no bot runs out of time), and bots remember what was turned."""
    events = _play_alone("memory")
    turned = [e for e in events if e["type"] == "card_turned"]
    taken = [e for e in events if e["type"] == "set_taken"]
    misses = [e for e in events if e["type"] == "wrong_call"]
    assert turned and all(e["player"].startswith("bot") for e in turned)
    assert len(taken) > 20 and not [e for e in misses if e.get("reason") == "timeout"]
    assert len(turned) == 3 * (len(taken) + len(misses))  # every claim turned whole
    assert len(taken) > len(misses)  # memory pays off: more finds than misses


def test_chain_and_puzzle_bots_play_a_match_to_the_end() -> None:
    for variant in ("set-chain", "ultraset-chain", "puzzle"):
        events = _play_alone(variant, limit=4000.0)
        taken = [e for e in events if e["type"] == "set_taken"]
        assert taken and not [e for e in events if e["type"] == "error"]
        if variant != "puzzle":
            assert all(e.get("previous") is not None for e in taken)
