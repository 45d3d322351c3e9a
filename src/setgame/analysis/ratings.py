"""Player ratings: OpenSkill's Plackett-Luce model, one rating per family of variants.

Pure: no I/O, no clock. The server stores the numbers (``mu``, ``sigma``, ``games``) and asks
this module for the new ones after each rated game.

Why Plackett-Luce (OpenSkill, Weng and Lin 2011): a SET game is a free-for-all of 2-8 players
ending in a ranking, often with ties. Elo rates pairs (a free-for-all becomes many fake duels),
Glicko the same; TrueSkill handles free-for-alls but is patented (Microsoft) and
trademarked, which a free project had better avoid; Plackett-Luce rates a whole ranking
at once, handles ties, keeps an uncertainty (``sigma``) per player, and its library
(``openskill``) is small, typed and maintained. Its update is closed-form, no iteration:
measured 0.1 ms for a game of eight, 8 ms at worst with this module's tie-breaks (eight
players tied three and five: 15 updates averaged); once per finished game.

This project's own choices (not from any rulebook):

- **Families.** One rating per family of variants that test the same skill; a player's
  classic games say nothing of their 4Set. :data:`FAMILIES` maps each variant to its family or
  to None (not rated): the puzzle is played alone.
- **The displayed rating** is conservative, ``mu - 3 sigma`` (a skill the player has with
  about 99.9% confidence; OpenSkill's ``ordinal``), scaled to a familiar range:
  ``1000 + 24 * ordinal``: a new player shows 1000 and climbs as the model learns them, an
  established average player shows about 1420, a strong one 1700. 24 = 200 / ``sigma0``: one
  initial uncertainty is 200 points, as in Elo's usual class width.
- **Provisional** until :data:`PROVISIONAL_GAMES` (20) games in the family: measured with this
  model, a player meeting established opponents has after 20 games about half their initial
  uncertainty left (sigma 4.2 of 8.3 head-to-head, 4.5 in four-player games; see the test),
  so the rating has stopped swinging by hundreds of points a game.
- **Ties** are rated as the average over the ways of breaking them (:func:`tie_breaks`):
  the model's own treatment of ties can rank a worse place above a better one.
- **Fair play** (:class:`FairPlay`, ``docs/rules.md`` "Ratings"): which finished games may
  move ratings at all (long enough, begun before a player left, within the daily allowances
  between the same accounts, the same address and against computer players, computer players
  within reach). The server counts; this module only states the rules and their numbers.
- **Computer players** have fixed ratings per level (:func:`bot_rating`), never updated: they
  anchor the scale (level 3 is the model's average player) and make games against them
  rateable. The levels are spaced 5 ``mu`` (120 displayed points) apart, chosen by hand until
  enough rated games against them allow measuring their strength.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce, PlackettLuceRating

MU: Final = 25.0
SIGMA: Final = MU / 3
"""OpenSkill's defaults: a new player's skill and its uncertainty."""
Z: Final = 3.0
"""Standard deviations below ``mu`` the displayed rating sits at (conservative)."""
SCALE: Final = 200 / SIGMA
BASE: Final = 1000
PROVISIONAL_GAMES: Final = 20
BOARD_GAMES: Final = 30
"""Rated games in a family before a player is on its board (established): more than
:data:`PROVISIONAL_GAMES`, because the board is what a farmer aims at. Under the daily
allowances (:class:`FairPlay`) one person with two accounts on one address gets at most two
rated games a day between them, so 30 such games take 15 days (the 20 of before took 10 s);
and after 30 games against established opponents about 44% of the initial uncertainty is
left instead of half (see the test)."""
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 8
BOT_SIGMA: Final = 2.0
"""A computer player's (fixed) uncertainty: well known, so games against it teach the model
about the person, and the bot's own rating never moves."""
BOT_MU: Final = {1: 15.0, 2: 20.0, 3: 25.0, 4: 30.0, 5: 35.0}

FAMILIES: Final[dict[str, str | None]] = {
    # finding sets of three among the standard attributes, whatever the deck or flow
    "classic": "set",
    "junior": "set",
    "set-chain": "set",
    "megaset": "set",
    "shuffle": "set",
    # remembering cards turned face down is another skill than spotting sets
    "memory": "memory",
    # completing a set from two pairs (five or six cards)
    "ultraset": "ultraset",
    "ultraset-chain": "ultraset",
    "ultra9": "ultraset",
    "ghostset": "ghostset",
    # four cards, four attributes' worth of sums: its own skill
    "4set": "4set",
    "4set-junior": "4set",
    # played alone (the daily puzzle): nothing to rank against
    "puzzle": None,
}

_MODEL: Final = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True, slots=True)
class FairPlay:
    """This project's rules for which games move ratings (``docs/rules.md``, "Ratings").

    A game counts when it lasted ``min_seconds`` of play (from the first deal to the end) and
    ``min_sets`` groups were taken in it: shorter ones prove nothing and are what a script
    plays. A player who left before the game had really begun (``begun_seconds`` of play and
    ``begun_sets`` groups taken, both) is left out of it: neither rated nor rating. Between
    the same two accounts at most ``pair_daily`` rated games a day (``window`` seconds,
    rolling), between accounts seated from one address at most ``address_daily``, and at
    most ``bot_daily`` against computer players per account; beyond, the game does not move
    those players' ratings. A computer player moves a person's rating only when its level is
    within ``bot_reach`` (in ``mu``, one level) of the person's own skill: beating a far
    weaker one, or losing to a far stronger one, teaches the model nothing but would shrink
    the person's uncertainty, which is what raised a farmer's shown rating."""

    min_seconds: float = 120.0
    min_sets: int = 6
    begun_seconds: float = 60.0
    begun_sets: int = 3
    pair_daily: int = 2
    address_daily: int = 2
    bot_daily: int = 5
    bot_reach: float = 5.0
    window: float = 86400.0

    def long_enough(self, seconds: float, sets: int) -> bool:
        return seconds >= self.min_seconds and sets >= self.min_sets

    def begun(self, seconds: float, sets: int) -> bool:
        """Whether a game had really begun ``seconds`` into play with ``sets`` taken."""
        return seconds >= self.begun_seconds and sets >= self.begun_sets

    def bot_in_reach(self, person: Rating, level: int) -> bool:
        return abs(bot_rating(level).mu - person.mu) <= self.bot_reach


class RatingError(ValueError):
    """A game that cannot be rated as given (the message quotes it)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one family."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - Z * self.sigma

    @property
    def display(self) -> int:
        """The rating shown to people: ``1000 + 24 * (mu - 3 sigma)``, rounded."""
        return round(BASE + SCALE * self.ordinal)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


NEW: Final = Rating()


def family_of(variant: str) -> str | None:
    """The rating family of a variant (by its registry name), None when it is not rated.

    >>> family_of("classic"), family_of("ultra9"), family_of("puzzle")
    ('set', 'ultraset', None)
    """
    if variant not in FAMILIES:
        raise RatingError(f"no rating family is decided for the variant {variant!r}")
    return FAMILIES[variant]


def bot_rating(level: int) -> Rating:
    """A computer player's fixed rating (levels 1-5)."""
    if level not in BOT_MU:
        raise RatingError(f"a computer player's level is 1-5, not {level!r}")
    return Rating(BOT_MU[level], BOT_SIGMA, PROVISIONAL_GAMES)


@dataclass(frozen=True, slots=True)
class Placing:
    """One seat of a finished game: its rating before, its place (1 = best, equal places
    for a tie) and whether it is a computer player (whose rating stays as it is)."""

    rating: Rating
    place: int
    bot: bool = False


def places(scores: Sequence[float]) -> list[int]:
    """Places from final scores, higher is better, ties share a place (competition ranking).

    >>> places([3, 5, 3, 0])
    [2, 1, 2, 4]
    """
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def rate(seats: Sequence[Placing]) -> list[Rating]:
    """The ratings after a game, in the order of ``seats``; a computer player's is returned
    unchanged. :class:`RatingError` for fewer than 2 or more than 8 seats, a place out of
    range, or no person in the game."""
    _check(seats)
    teams = [[PlackettLuceRating(s.rating.mu, s.rating.sigma)] for s in seats]
    runs = [_MODEL.rate(teams, ranks=order) for order in tie_breaks([s.place for s in seats])]
    return [
        s.rating
        if s.bot
        else Rating(
            math.fsum(run[i][0].mu for run in runs) / len(runs),
            math.fsum(run[i][0].sigma for run in runs) / len(runs),
            s.rating.games + 1,
        )
        for i, s in enumerate(seats)
    ]


def tie_breaks(placed: Sequence[int]) -> list[list[float]]:
    """Strict orders that break the ties of ``placed`` every way in turn: each tied player
    takes each of the group's places equally often (a rotation per order; as many orders as
    the least common multiple of the groups' sizes, at most 15 for 8 players).

    Why: OpenSkill's Plackett-Luce rates ties by Weng and Lin's approximation, which is not
    monotone: measured with openskill 6.2, eight equal players placed 2,1,1,3,5,2,2,4 leave
    the one in third place above the three tied second (25.65 against 25.07). Rated as the
    average over tie-breaks (the expected update under a fair coin for each tie), a better
    place never gains less, and tied equals stay equal.

    >>> tie_breaks([1, 1, 3])
    [[1.0, 2.0, 3.0], [2.0, 1.0, 3.0]]
    """
    groups: dict[int, list[int]] = {}
    for index, place in enumerate(placed):
        groups.setdefault(place, []).append(index)
    orders = []
    for turn in range(math.lcm(*(len(g) for g in groups.values()))):
        order = [0.0] * len(placed)
        for place, members in groups.items():
            shift = turn % len(members)
            for offset, index in enumerate(members[shift:] + members[:shift]):
                order[index] = float(place + offset)
        orders.append(order)
    return orders


def _check(seats: Sequence[Placing]) -> None:
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise RatingError(f"a rated game has 2-8 players, not {len(seats)}")
    for seat in seats:
        if isinstance(seat.place, bool) or not isinstance(seat.place, int):
            raise RatingError(f"a place is a whole number, not {seat.place!r}")
        if not 1 <= seat.place <= len(seats):
            raise RatingError(f"a place is 1-{len(seats)} in this game, not {seat.place!r}")
        if not (seat.rating.sigma > 0 and seat.rating.games >= 0):
            raise RatingError(f"not a rating: {seat.rating!r}")
    if all(seat.bot for seat in seats):
        raise RatingError("a game of computer players only is not rated")
