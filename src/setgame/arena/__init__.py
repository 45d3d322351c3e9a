"""Arenas (issue 23): tournaments in a fixed window of time, players paired again and again.

The pure part, as the rules are: no I/O, no asyncio, no clock (every time is passed in, in
seconds). ``points`` scores one game, ``standings`` orders the players and names the podium,
``pairing`` decides who plays whom. These are this project's own rules (no rulebook has
tournaments): ``docs/rules.md``, "Arenas (ours)". The server drives them
(``setgame.server.arenas``).
"""

from setgame.arena.pairing import Pairing, Waiting, bot_level, pair
from setgame.arena.points import Finish, finishes, score
from setgame.arena.standings import Entry, GameResult, podium, ranked

__all__ = [
    "Entry",
    "Finish",
    "GameResult",
    "Pairing",
    "Waiting",
    "bot_level",
    "finishes",
    "pair",
    "podium",
    "ranked",
    "score",
]
