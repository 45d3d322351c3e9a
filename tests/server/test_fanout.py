"""One update encoded once for a whole room (``fanout.py``, ``Game.public_view``/``own_view``):
each viewer must still get, byte for byte, the text of their own full view."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest

from setgame.rules.game import Call, Game, GameError, Join, NoSet, Pick, Settings, Start
from setgame.rules.variants import VARIANTS
from setgame.server import protocol as p
from setgame.server.fanout import Fanout

PLAYERS = ("a", "b", "c")


def driven(settings: Settings, seed: int, steps: int = 60) -> list[tuple[Game, float, list[Any]]]:
    """A game driven by random actions (many refused), with its state after each step."""
    rng = random.Random(seed)
    players = PLAYERS[:1] if settings.solitary else PLAYERS
    game = Game(settings, seed)
    at, states = 0.0, []
    for player in players:
        game.apply(Join(at, player, player.upper()))
    game.apply(Start(at, players[0]))
    for _ in range(steps):
        at += rng.choice([0.2, 1.0, 6.0])
        events = game.advance(at)
        who = rng.choice(players)
        groups = game.groups_on_table()
        size = game.variant.claim_size
        table = [card for card in game.table if card is not None]
        choice = rng.random()
        if game.phase == "round_over":
            action: Any = Start(at, who)
        elif choice < 0.3:
            action = Call(at, who)
        elif choice < 0.85 and len(table) >= size:
            good = groups and choice < 0.6
            action = Pick(at, who, rng.choice(groups) if good else tuple(rng.sample(table, size)))
        else:
            action = NoSet(at, who)
        with contextlib.suppress(GameError):
            events += game.apply(action)
        states.append((game, at + 0.05, events))
        if game.phase == "match_over":
            break
    return states


CASES = [
    Settings(),
    Settings(penalty="lockout", no_set="auto"),
    Settings(mode="solo"),
    *(Settings(mode=mode, variant=name) for name in VARIANTS for mode in ("multi", "solo")),
]


@pytest.mark.parametrize("settings", CASES, ids=lambda s: f"{s.variant}-{s.mode}-{s.penalty}")
def test_a_view_is_the_public_view_with_the_viewers_own_keys(settings: Settings) -> None:
    """Everything in a view but ``own_view``'s keys is the same for every viewer, in the same
    key order: a room sends one encoding of it to all (a per-viewer key added to ``view``
    without ``own_view`` would leak one player's view to the others)."""
    owns = set()
    for game, now, _ in driven(settings, seed=len(settings.variant) * 7 + 3):
        public = game.public_view(now)
        assert public == game.view(None, now)
        for viewer in (None, *game.players, "stranger"):
            full = game.view(viewer, now)
            merged = public | game.own_view(viewer)
            assert full == merged and list(full) == list(merged)
            owns.add(tuple(sorted(game.own_view(viewer).items(), key=str)))
    assert len(owns) > 1  # the viewers' own keys did differ


def test_own_view_names_the_viewer_and_their_puzzle_penalty() -> None:
    game = Game(Settings(mode="solo", variant="puzzle"), 1)
    game.apply(Join(0.0, "a", "A"))
    game.apply(Start(0.0, "a"))
    wrong = next(
        cards
        for cards in _triples(game.table)
        if frozenset(cards) not in {frozenset(g) for g in game.groups_on_table()}
    )
    game.apply(Pick(1.0, "a", wrong))
    assert game.own_view("a") == {"you": "a", "penalty_seconds": 10.0}
    assert game.own_view(None) == game.own_view("x") == {"you": None, "penalty_seconds": None}
    assert Game(Settings(), 1).own_view("a") == {"you": None}  # not seated: nobody


def _triples(table: list[Any]) -> list[tuple[Any, ...]]:
    cards = [c for c in table if c is not None]
    return [
        (a, b, c)
        for i, a in enumerate(cards)
        for j, b in enumerate(cards[i + 1 :], i + 1)
        for c in cards[j + 1 :]
    ]


@pytest.mark.parametrize("variant", ["classic", "puzzle", "4set", "memory"])
def test_fanout_text_is_the_encoding_of_each_viewers_own_update(variant: str) -> None:
    for game, now, events in driven(Settings(mode="multi", variant=variant), seed=11, steps=25):
        public = game.public_view(now)
        fanout = Fanout(p.Update(version=3, events=events, state=public), game.own_view(None))
        for viewer in (None, *game.players):
            own = game.own_view(viewer)
            expected = p.encode(p.Update(version=3, events=events, state=public | own))
            assert fanout.text(own) == expected
        assert public == game.public_view(now)  # the marks were taken out again


HOSTILE = ["\x00", '"you":\x00', "\\u0000", "ünï\u2028\x01", '"}]', "p" * 24]


@pytest.mark.parametrize("text", HOSTILE)
def test_fanout_is_exact_whatever_the_names_and_events_hold(text: str) -> None:
    """Names and events are the players' own text: a NUL, quotes or the key itself in them
    must neither split the encoding at the wrong place nor change a byte."""
    state: dict[str, Any] = {
        "version": 9,
        "players": [{"id": text, "name": text}, {"id": "b", "name": "B"}],
        "you": None,
        "table": [text, None],
        "penalty_seconds": None,
        "result": {"you": text},
    }
    events = [{"type": "joined", "name": text, "you": text}]
    fanout = Fanout(
        p.Update(version=9, events=events, state=state), {"you": 0, "penalty_seconds": 0}
    )
    for own in ({"you": text, "penalty_seconds": 1.5}, {"you": None, "penalty_seconds": None}):
        expected = p.encode(p.Update(version=9, events=events, state=state | own))
        assert fanout.text(own) == expected


def test_fanout_without_own_keys_is_one_encoding() -> None:
    message = p.Update(version=1, events=[], state={"phase": "lobby"})
    assert Fanout(message, {}).text({}) == p.encode(message)
