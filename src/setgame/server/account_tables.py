"""The tables of player accounts (``accounts.py``), apart from ``storage.py``'s so that both
the storage (retention, restoring seats) and the accounts can use them. Their history is
in ``migrations/versions`` (``0002``, ``0003``, ``0006``, ``0010``, ``0012``)."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    # name_key(name): unique, so that no two accounts hold lookalike names
    sa.Column("key", sa.String(128), nullable=False, unique=True),
    sa.Column("password", sa.String(256), nullable=False),  # argon2id, with its parameters
    sa.Column("created", sa.Float, nullable=False),
    # bumped by a password change: the sessions signed with an older one end
    sa.Column("epoch", sa.Integer, nullable=False),
)
account_seats = sa.Table(
    "account_seats",
    metadata,
    # the seat (room, player) a signed-in player took; kept when the seat is left (its games
    # name the player), deleted with the room by retention and with the account
    sa.Column("room", sa.String(32), primary_key=True),
    sa.Column("player", sa.String(16), primary_key=True),
    sa.Column("account", sa.String(16), sa.ForeignKey("accounts.id"), nullable=False, index=True),
)
player_games = sa.Table(
    "player_games",
    metadata,
    # one row per finished multiplayer game and signed-in player in it (rated or not): the
    # profile's figures; deleted with the account, kept when the game's replay expires
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("account", sa.String(16), sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("room", sa.String(32), nullable=False),
    sa.Column("family", sa.String(16), nullable=True),  # ratings.FAMILIES; None: unrated
    sa.Column("place", sa.Integer, nullable=False),  # 1 = best; ties share a place
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("points", sa.Integer, nullable=False),
    sa.Column("sets", sa.Integer, nullable=False),
    sa.Column("wrong", sa.Integer, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=True),
    sa.Column("sigma_before", sa.Float, nullable=True),
    sa.Column("mu_after", sa.Float, nullable=True),
    sa.Column("sigma_after", sa.Float, nullable=True),
    sa.Column("finished", sa.Float, nullable=False),
    # fair play (0010, docs/rules.md "Ratings"): a keyed hash of the seat's address (never the
    # address), the computer players in the game, and why it did not move this rating
    sa.Column("address", sa.String(32), nullable=True),
    sa.Column("bots", sa.Integer, nullable=True),
    sa.Column("unrated", sa.String(16), nullable=True),
    sa.Index("ix_player_games_account", "account", "finished"),
    sa.Index("ix_player_games_address", "address", "finished"),
)
solo_games = sa.Table(
    "solo_games",
    metadata,
    # one row per finished solo game of a signed-in player (classic or the daily puzzle): the
    # solo and daily boards and the profile's best times; deleted with the account
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("account", sa.String(16), sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("variant", sa.String(32), nullable=False),
    sa.Column("deck", sa.String(40), nullable=False),
    sa.Column("day", sa.String(10), nullable=True),  # the daily puzzle's date (YYYY-MM-DD)
    sa.Column("seconds", sa.Float, nullable=False),  # penalty seconds included
    sa.Column("sets", sa.Integer, nullable=False),
    sa.Column("wrong", sa.Integer, nullable=False),
    sa.Column("finished", sa.Float, nullable=False),
    # the daily puzzle: timed by the server from the day's cards first sent to that player
    sa.Column("timed", sa.Boolean, nullable=True),
    sa.Index("ix_solo_games_board", "variant", "deck", "seconds"),
    sa.Index("ix_solo_games_account", "account", "finished"),
)
ratings = sa.Table(
    "ratings",
    metadata,
    # the current rating of an account in one family (setgame.analysis.ratings)
    sa.Column("account", sa.String(16), sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("family", sa.String(16), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
)
puzzle_starts = sa.Table(
    "puzzle_starts",
    metadata,
    # when a day's puzzle cards were first sent to one player: ``a:<account>`` or
    # ``n:<keyed hash of the address>``; the daily board times from the earlier of the two
    sa.Column("who", sa.String(40), primary_key=True),
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("sent", sa.Float, nullable=False),  # Unix time
)
server_keys = sa.Table(
    "server_keys",
    metadata,
    # the server's secret when SETGAME_SECRET is not set (made at the first start):
    # the daily puzzle's cards and the address hashes depend on it (server/keys.py)
    sa.Column("name", sa.String(16), primary_key=True),
    sa.Column("value", sa.String(128), nullable=False),
)
sessions = sa.Table(
    "sessions",
    metadata,
    # one row per signed-in browser (account_api.py): the cookie holds a random token, the
    # table its SHA-256 (a copy of the table signs nobody in); deleted by signing out (this
    # one, or all of the account's), by a password change (the others) and with the account
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("account", sa.String(16), sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False, index=True),
)
