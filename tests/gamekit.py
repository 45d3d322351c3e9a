"""Helpers for driving the engine in tests: seat players, find seeds with a property."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from setgame.rules.cards import Card
from setgame.rules.game import Call, Game, GameError, Join, NoSet, Pick, Settings, Start
from setgame.rules.sets import find_sets, has_set, is_set


def started(
    settings: Settings | None = None, seed: int = 1, players: Sequence[str] = ("a", "b")
) -> Game:
    settings = settings or Settings()
    game = Game(settings, seed)
    for p in players:
        game.apply(Join(0.0, p, p.upper()))
    game.apply(Start(0.0, players[0]))
    return game


def seed_where(
    predicate: Callable[[Game], bool],
    settings: Settings | None = None,
    players: Sequence[str] = ("a", "b"),
    tries: int = 2000,
) -> Game:
    """The first seed whose freshly dealt game satisfies ``predicate``."""
    for seed in range(tries):
        game = started(settings, seed, players)
        if predicate(game):
            return game
    raise AssertionError("no seed found")


def not_a_set(table: Sequence[Card]) -> tuple[Card, Card, Card]:
    for i in range(len(table)):
        for j in range(i + 1, len(table)):
            for k in range(j + 1, len(table)):
                if not is_set(table[i], table[j], table[k]):
                    return (table[i], table[j], table[k])
    raise AssertionError("every triple is a set")


def take_any(game: Game, player: str, at: float) -> list[dict[str, object]]:
    """``player`` calls and picks the first set on the table (multi) or just picks (solo)."""
    cards = find_sets(game.table)[0]
    events = [] if game.settings.solitary else game.apply(Call(at, player))
    return events + game.apply(Pick(at + 0.1, player, cards))


def play_out_round(game: Game, at: float, who: str | None = None) -> float:
    """Play the current round to its end from the clock ``at``: ``who`` (by default the first
    present player) takes every set, and every active player declares no set when none lies
    on the table. Returns the clock at the end."""
    who = who or game.present()[0].id
    while game.phase == "playing":
        at += 1.0
        if has_set(game.table):
            take_any(game, who, at)
        else:
            for p in game.active():
                game.apply(NoSet(at, p.id))
    return at


def play_out(game: Game, seed: int = 0, start_at: float = 1.0) -> float:
    """Play the game to its end with nobody erring; return the clock at the end."""
    rng = random.Random(seed)
    at = start_at
    players = [p.id for p in game.present()]
    while game.phase != "match_over":
        at += 1.0
        if game.phase == "round_over":
            game.apply(Start(at, players[0]))
            continue
        sets = find_sets(game.table)
        if sets:
            who = rng.choice(players)
            if not game.settings.solitary:
                game.apply(Call(at, who))
            game.apply(Pick(at + 0.5, who, rng.choice(sets)))
        else:
            for p in players:
                try:
                    game.apply(NoSet(at, p))
                except GameError as exc:  # already dealt by the vote, or auto
                    assert exc.code in {"auto_deal", "already_declared"}, exc
    return at
