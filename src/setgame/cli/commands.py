"""The Typer app behind the ``setgame`` command (entry point: :func:`setgame.cli.main.main`).

Bad input (an unknown card, a duplicate, a wrong count, a bad option value) is
one line on standard error naming the bad token, and exit status 2. Rich's
tables and progress bars are imported only by the commands that draw them.

The output speaks the language of the environment (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``, as gettext reads them), or ``--lang`` where a command
has it; its words are the gettext catalog's (:mod:`setgame.words.catalog`). Option help,
click's own usage errors and ``--json`` output stay English.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console

from setgame.analysis.solving import SolveError, solve_cards, solve_stream
from setgame.cli.admin import admin_app
from setgame.cli.summary import COMMANDS, SUMMARY, VARIANT_NAMES, exit_with
from setgame.rules.cards import card_names, parse_cards
from setgame.rules.sets import explain
from setgame.words.catalog import N_, gettext, language_from_environment, ngettext
from setgame.words.i18n import LANGUAGES, explain_text

if TYPE_CHECKING:  # imported where used: the variants load NumPy
    from setgame.analysis.simulate import SimulationStats
    from setgame.rules.variants import Variant

app = typer.Typer(
    name="setgame",
    help=SUMMARY,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: Typer's rich panels show a flag as "--json <bool>"
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _click_class(name: str) -> type[Exception]:
    """One of click's exception classes as this Typer uses them (newer Typers
    vendor their own click)."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == name)


class UsageFailure(_click_class("UsageError")):  # type: ignore[misc]
    """Bad input from the command line: exit status 2 (one line from :func:`main`)."""


def lang() -> str:
    """The language of this run's messages (the environment's; ``--lang`` sets it)."""
    return _language[0]


_language = [language_from_environment()]


def fail(message: str) -> NoReturn:
    raise UsageFailure(message)


@contextmanager
def bad_input() -> Iterator[None]:
    """Turn the library's ValueErrors (which quote the bad input) into usage failures."""
    try:
        yield
    except ValueError as error:
        fail(str(error))


class Language(StrEnum):
    en = "en"
    ru = "ru"
    pl = "pl"
    it = "it"
    de = "de"


assert tuple(Language) == LANGUAGES, "the --lang choices follow setgame.words.i18n"


class DeckName(StrEnum):
    full = "full"
    beginner = "beginner"


VARIANT_HELP = (
    f"One of {', '.join(VARIANT_NAMES)} (case, spaces and underscores do not matter)."
)


def find_variant(name: str) -> Variant:
    """The variant called ``name`` (imported here: the variants load NumPy); an unknown
    one is a usage error quoting it and listing the names."""
    from setgame.rules.variants import find_variant as lookup

    with bad_input():
        return lookup(name)


# --- solve ----------------------------------------------------------------------


@app.command(short_help=COMMANDS["solve"])
def solve(
    cards: Annotated[
        list[str] | None, typer.Argument(help="Cards such as 1RSD 2GTO 3POS.", metavar="CARDS")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per table.")] = False,
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant",
            help=f"List the groups of this variant's kind instead of sets. {VARIANT_HELP} Cards "
            "are in its deck's notation (MegaSet: 5 characters such as 2RTDS; 4Set: also 4, "
            "B blue, C checkered, H heart); a group has 3, 4 or 6 cards. Chain and puzzle "
            "variants list every group of their kind (a table alone has no previous claim).",
        ),
    ] = None,
) -> None:
    """Print the sets among CARDS; with no cards, read tables from standard input,
    one table a line (cards separated by spaces)."""
    chosen = None if variant is None else find_variant(variant)
    try:
        if cards:
            solve_cards(cards, as_json, sys.stdout, lang(), chosen)
        else:
            solve_stream(sys.stdin, as_json, sys.stdout, lang(), chosen)
    except SolveError as error:
        fail(str(error))


# --- check ----------------------------------------------------------------------


@app.command(short_help=COMMANDS["check"])
def check(
    cards: Annotated[
        list[str], typer.Argument(help="Three cards, e.g. 1RSD 2GTO 3POS.", metavar="CARDS")
    ],
    language: Annotated[
        Language | None,
        typer.Option("--lang", help="Language of the explanation (default: the environment's)."),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="One JSON object: the cards, whether they are a set, and the flaws as the "
            "server's wrong_call event gives them (docs/protocol.md).",
        ),
    ] = False,
) -> None:
    """Say whether three cards form a set (exit 0) or explain why not (exit 1)."""
    if language is not None:
        _language[0] = language.value
    if len(cards) != 3:
        given = " ".join(map(repr, cards))
        fail(
            gettext(
                lang(),
                "check takes exactly three cards, got {n}: {cards}",
                n=len(cards),
                cards=given,
            )
        )
    with bad_input():
        a, b, c = parse_cards(cards)
    flaws = explain(a, b, c)
    if as_json:
        from setgame.rules.claims import flaw_dicts
        from setgame.rules.variants import CLASSIC

        found = flaw_dicts(CLASSIC, (a, b, c), None)
        result = {"cards": card_names((a, b, c)), "set": not flaws, "flaws": found}
        print(json.dumps(result, ensure_ascii=False))
    else:
        out.print(f"{' '.join(card_names((a, b, c)))}: {explain_text(flaws, lang())}")
    if flaws:
        raise typer.Exit(1)


# --- simulate -------------------------------------------------------------------


@app.command(short_help=COMMANDS["simulate"])
def simulate(
    games: Annotated[int, typer.Option("--games", min=1, help="Number of whole games.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Random seed (same seed, same games).")] = 0,
    deck: Annotated[DeckName, typer.Option("--deck", help="Deck to play with.")] = DeckName.full,
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")] = False,
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant",
            help=f"Play whole games of this variant. {VARIANT_HELP} --deck beginner only "
            "with variants on the standard deck.",
        ),
    ] = None,
) -> None:
    """Play whole games with nobody erring and print statistics (R17).

    At each step a uniformly random set on the table is taken; cards are replaced
    only at 12 cards with cards left; three are added when there is no set; a game
    ends when the deck is empty and no set remains. With --variant, the variant's
    groups, table size and flow: the table grows by three until it holds a group
    to claim; chain claims use cards of the previous claim; puzzle keeps found
    groups until all are found; shuffle deals anew after each claim; memory plays
    as the normal flow (nobody forgets).
    """
    chosen = None if variant is None else find_variant(variant)
    started = time.perf_counter()
    with _progress(games, gettext(lang(), "Simulating")) as advance:
        stats = _play_games(chosen, games, seed, deck.value, advance)
    seconds = time.perf_counter() - started
    if as_json:
        print(json.dumps(stats.to_json(seconds)))
        return
    _print_simulation(stats.to_json(seconds), chosen)


def _play_games(
    variant: Variant | None, games: int, seed: int, deck: str, progress: Any
) -> SimulationStats:
    """Whole games of ``variant`` (None: classic, by the fast batch loop)."""
    from setgame.analysis.simulate import games_of, variant_cards
    from setgame.rules.variants import CLASSIC

    if variant is not None and variant is not CLASSIC:
        with bad_input():
            variant_cards(variant, deck)
    return games_of(variant or CLASSIC, games, seed, deck, progress)


@contextmanager
def _progress(total: int, label: str) -> Iterator[Any]:
    """A progress bar on standard error when it is a terminal, else nothing."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = (*Progress.get_default_columns()[:1], BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TimeRemainingColumn(), console=err, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.advance(task, done)


def _print_simulation(data: dict[str, Any], variant: Variant | None = None) -> None:
    from rich.table import Table

    from setgame.words.catalog import format_number

    language = lang()
    title = ngettext(language, "{n} game", "{n} games", data["games"])
    if variant is not None and variant.name != "classic":
        title = gettext(language, "{variant}: {games}", variant=variant.title, games=title)
    table = Table(title=title, title_justify="left")
    for heading in _simulation_headings(variant, language):
        table.add_column(heading, justify="right")
    for size, count in data["tables"].items():
        share = count["no_set"] / count["seen"]
        percent = format_number(language, 100 * share, 2) + "%"
        table.add_row(size, str(count["seen"]), str(count["no_set"]), percent)
    out.print(table)
    left = ", ".join(f"{size}: {n}" for size, n in data["leftover"].items())
    out.print(gettext(language, "games by cards left at the end: {left}", left=left))
    per_game = format_number(language, data["sets_per_game"], 3)
    if variant is None or variant.name == "classic":
        out.print(gettext(language, "sets per game: {value}", value=per_game))
    else:
        out.print(gettext(language, "claims per game: {value}", value=per_game))
    speed = format_number(language, data["games_per_second"], 0)
    out.print(gettext(language, "games per second: {value}", value=speed))


def _simulation_headings(variant: Variant | None, language: str) -> list[str]:
    """The columns of the statistics: "no set", or "no UltraSet" for another kind."""
    if variant is None or variant.kind.name == "set":
        headings = (N_("cards on table"), N_("seen"), N_("no set"), N_("share with no set"))
        return [gettext(language, h) for h in headings]
    kind = {"ultraset": "UltraSet", "ghostset": "GhostSet", "4set": "4Set"}[variant.kind.name]
    return [
        gettext(language, "cards on table"),
        gettext(language, "seen"),
        gettext(language, "no {kind}", kind=kind),
        gettext(language, "share with no {kind}", kind=kind),
    ]


# --- odds -----------------------------------------------------------------------


@app.command(short_help=COMMANDS["odds"])
def odds(
    cards: Annotated[
        int | None,
        typer.Option(
            "--cards", min=0, max=256, help="Cards on the table (default 12, or the variant's)."
        ),
    ] = None,
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples",
            min=1,
            help="Random draws for the estimate (default 100000; 20000 with a variant, fewer "
            "for large tables).",
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            min=1,
            help="Simulated games for the in-play figure (default 10000; 1000 with a variant).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant",
            help=f"The groups of this variant among random cards of its deck. {VARIANT_HELP}",
        ),
    ] = None,
    every_variant: Annotated[
        bool,
        typer.Option(
            "--every-variant",
            help="A Markdown table of every variant's figures at its table size.",
        ),
    ] = False,
) -> None:
    """The probability that CARDS random cards hold no set, and the same during real
    play, beside the figures the rulebooks quote (R17). With --variant: the mean
    number of the variant's groups and the share of tables with none (exact where
    known, and sampled), the same during play, and the published figures."""
    if every_variant or (variant is not None and find_variant(variant).name != "classic"):
        _variant_odds(variant, every_variant, cards, samples, games, seed, as_json)
        return
    cards = 12 if cards is None else cards
    samples = 100_000 if samples is None else samples
    games = 10_000 if games is None else games
    from setgame.analysis import odds as odds_module
    from setgame.analysis.simulate import simulate as run

    with bad_input():
        exact = odds_module.exact_no_set(cards)
    sampled = odds_module.sample_no_set(cards, samples, seed)
    language = lang()
    with _progress(games, gettext(language, "Simulating play")) as advance:
        play = odds_module.play_no_set(cards, run(games, seed, progress=advance))
    random_cards = sampled if exact is None else odds_module.Estimate(float(exact), 0.0, 0)
    if as_json:  # JSON is for programs: its notes stay English
        notes = odds_module.comparison(cards, random_cards, play)
        print(json.dumps(_odds_json(cards, exact, sampled, play, games, notes)))
        return
    _print_odds(cards, exact, random_cards, sampled, play, samples, games)


def _variant_odds(
    name: str | None,
    every: bool,
    cards: int | None,
    samples: int | None,
    games: int | None,
    seed: int,
    as_json: bool,
) -> None:
    """``odds --variant NAME`` and ``odds --every-variant``."""
    from setgame.analysis import odds as odds_module
    from setgame.rules.variants import VARIANTS

    if every and (name is not None or cards is not None):
        fail(gettext(lang(), "--every-variant takes no --variant or --cards"))
    chosen = list(VARIANTS.values()) if every else [find_variant(str(name))]
    games = 1000 if games is None else games
    with bad_input():
        for variant in chosen:
            odds_module.check_request(variant, cards, samples)
    rows = []
    with _progress(games * len(chosen), gettext(lang(), "Simulating play")) as advance:
        for variant in chosen:
            stats = _play_games(variant, games, seed, "full", advance)
            rows.append(odds_module.variant_odds(variant, cards, samples, seed, stats))
    if as_json:
        data = [row.to_json() for row in rows]
        print(json.dumps(data if every else data[0]))
    elif every:
        print(odds_module.markdown_table(rows, lang()), end="")
    else:
        for line in odds_module.text_lines(rows[0], lang()):
            out.print(line, markup=False)


def _print_odds(
    cards: int, exact: Any, random_cards: Any, sampled: Any, play: Any, samples: int, games: int
) -> None:
    from setgame.analysis import odds as odds_module

    language = lang()
    out.print(
        ngettext(language, "Probability that {n} card holds no set",
                 "Probability that {n} cards hold no set", cards)
    )  # fmt: skip
    if exact is not None:
        estimate = _estimate_text(random_cards)
        out.print(
            "  "
            + gettext(
                language,
                "random cards, exact: {estimate} (= {exact})",
                estimate=estimate,
                exact=exact,
            )
        )
    draws = ngettext(language, "{n} draw", "{n} draws", samples)
    out.print(
        "  "
        + gettext(
            language,
            "random cards, {draws}: {estimate}",
            draws=draws,
            estimate=_estimate_text(sampled),
        )
    )
    played = ngettext(language, "{n} game", "{n} games", games)
    if play is None:
        out.print(
            "  "
            + gettext(
                language,
                "during play ({games}): no {cards}-card table met",
                games=played,
                cards=cards,
            )
        )
    else:
        tables = ngettext(language, "{n} table", "{n} tables", play.samples)
        estimate = _estimate_text(play)
        out.print(
            "  "
            + gettext(
                language,
                "during play ({games}, {tables}): {estimate}",
                games=played,
                tables=tables,
                estimate=estimate,
            )
        )
    for figure in odds_module.figures_for(cards):
        out.print(
            "  "
            + gettext(
                language,
                "rulebook {sources}: {quoted}",
                sources=figure.sources,
                quoted=figure.quoted,
            )
        )
    for note in odds_module.comparison(cards, random_cards, play, language):
        out.print(note)


def _estimate_text(estimate: Any) -> str:
    from setgame.words.catalog import format_number, format_percent

    language = lang()
    if estimate.odds_against == float("inf"):
        odds_text = gettext(language, "never")
    else:
        odds_text = gettext(language, "odds {odds}:1 against",
                            odds=format_number(language, estimate.odds_against, 1))  # fmt: skip
    error = " ± " + format_percent(language, estimate.stderr) if estimate.stderr else ""
    percent = format_percent(language, estimate.probability)
    return gettext(
        language, "{percent}{error} ({odds})", percent=percent, error=error, odds=odds_text
    )


def _odds_json(
    cards: int, exact: Any, sampled: Any, play: Any, games: int, notes: list[str]
) -> dict[str, Any]:
    from setgame.analysis.odds import figures_for

    def pack(estimate: Any) -> dict[str, float | int] | None:
        if estimate is None:
            return None
        return {"p": estimate.probability, "stderr": estimate.stderr, "n": estimate.samples}

    return {
        "cards": cards,
        "exact": None if exact is None else {"p": float(exact), "fraction": str(exact)},
        "sampled": pack(sampled),
        "play": pack(play),
        "games": games,
        "rulebooks": [
            {"sources": f.sources, "quoted": f.quoted, "p": f.probability}
            for f in figures_for(cards)
        ],
        "notes": notes,
    }


# --- photo ----------------------------------------------------------------------


@app.command(short_help=COMMANDS["photo"])
def photo(
    image: Annotated[Path, typer.Argument(help="A photo: JPEG, PNG or WebP.", metavar="IMAGE")],
    as_json: Annotated[
        bool,
        typer.Option("--json", help='One JSON object: {"cards": [{"code", "corners", '
                     '"confidence"}], "sets": [[...]], "seconds"} (docs/photo.md).'),
    ] = False,
    draw: Annotated[
        Path | None,
        typer.Option("--draw", metavar="OUT.png",
                     help="Write the photo with each card outlined and each set in its color."),
    ] = None,
    language: Annotated[
        Language | None, typer.Option("--lang", help="Language (default: the environment's).")
    ] = None,
) -> None:
    """Find the SET cards in a photo of a table, read them, and print them and the sets
    among them. A file that is not a photo, is damaged, or is too large is an error
    (exit status 2)."""
    from setgame.cli import photo as photo_cli

    if language is not None:
        _language[0] = language.value
    try:
        data, reading = photo_cli.read(image, lang())
        if draw is not None:
            photo_cli.draw(data, reading, draw, lang())
    except photo_cli.PhotoFailure as failure:
        fail(str(failure))
    if as_json:
        photo_cli.print_json(reading, sys.stdout)
    else:
        photo_cli.print_reading(reading, str(image), lang(), sys.stdout)


# --- serve and play (implemented by the server and the terminal app) ------------


@app.command(short_help=COMMANDS["serve"])
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port.")] = 8000,
    db: Annotated[
        str | None, typer.Option("--db", help="Database URL or SQLite file path.")
    ] = None,
    create_db: Annotated[
        bool,
        typer.Option(
            "--create-db",
            help="Create the database if it does not exist (else a missing one is an error).",
        ),
    ] = False,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            help="Address or network of a reverse proxy whose X-Forwarded-For is believed "
            "(repeatable; default $SETGAME_TRUSTED_PROXIES, else none).",
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            help="redis:// URL: run as one of several processes over one PostgreSQL "
            "database (docs/cluster.md).",
        ),
    ] = None,
) -> None:
    """Run the multiplayer game server (web client included). Limits come from SETGAME_*
    variables (docs/deploy.md); a bad one stops the server before it starts."""
    from setgame.server import serve as run_server
    from setgame.server.limits import LimitError, limits_from_env

    try:
        limits = limits_from_env(trusted_proxy)
    except LimitError as exc:
        exit_with(gettext(lang(), "setgame: error: {message}", message=str(exc)), 2)
    run_server(host=host, port=port, db=db, limits=limits, create_db=create_db, redis=redis)


app.add_typer(admin_app, name="admin", short_help=COMMANDS["admin"])


class Mode(StrEnum):
    solo = "solo"
    bots = "bots"
    practice = "practice"


@app.command(short_help=COMMANDS["play"])
def play(
    mode: Annotated[Mode, typer.Option("--mode", help="What to play.")] = Mode.solo,
    bots: Annotated[int, typer.Option("--bots", min=1, max=7, help="Computer opponents.")] = 1,
    level: Annotated[int, typer.Option("--level", min=1, max=5, help="Bot level (1-5).")] = 2,
    deck: Annotated[DeckName, typer.Option("--deck", help="Deck to play with.")] = DeckName.full,
    variant: Annotated[
        str, typer.Option("--variant", help="Variant (classic, set-chain, ultraset, ...).")
    ] = "classic",
    puzzle: Annotated[
        bool, typer.Option("--puzzle", help="The daily puzzle (of DATE, YYYY-MM-DD; today).")
    ] = False,
    date: Annotated[
        str | None,
        typer.Argument(help="With --puzzle: the day (default: today, UTC).", metavar="DATE"),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Random seed.")] = None,
    language: Annotated[
        Language | None, typer.Option("--lang", help="Language (default: the environment's).")
    ] = None,
    connect: Annotated[
        str | None, typer.Option("--connect", help="Server URL to play online.")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="Your name online.")] = None,
    arena: Annotated[
        str | None,
        typer.Option(
            "--arena",
            help="Arena URL (http://host:port/arena/<id>): join it and play its games one "
            "after another, the standings between them.",
        ),
    ] = None,
) -> None:
    """Play SET in the terminal: solo, against bots, practice, online, or in an arena;
    any variant, or the daily puzzle (--puzzle [DATE])."""
    from setgame.tui import run as run_tui

    chosen, day = _play_variant(variant, puzzle, date, deck.value)
    extra: dict[str, Any] = {"variant": chosen, "day": day} if chosen != "classic" else {}
    if arena is not None:
        if connect is not None:
            fail(f"--arena and --connect do not go together: {arena!r}, {connect!r}")
        extra["arena"] = arena
    online = connect if connect is not None else arena
    if online is not None and name is not None:
        language_ = language.value if language is not None else lang()
        session = _sign_in(online, name, language_)
        if session is not None:  # a claimed name, its password given: play as its owner
            extra["signed_in"] = session
    with bad_input():  # a bad option (a room address) is refused before the game starts
        code = run_tui(
            mode=mode.value,
            bots=bots,
            level=level,
            deck=deck.value,
            seed=seed,
            lang=language.value if language is not None else lang(),
            connect=connect,
            name=name,
            **extra,
        )
    if code:  # the game could not open (2: a bad address or room; 1: the server)
        raise typer.Exit(code)


def _sign_in(url: str, name: str, language: str) -> str | None:
    """A claimed name asks for its password (hidden) and signs in: the session; a guest's
    name asks nothing (None), nor does an address the game itself will word (as without
    ``--name``)."""
    import asyncio
    from urllib.parse import urlsplit

    import httpx

    from setgame.server.client import ServerError, claimed_session

    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None

    def ask(claimed: str) -> str:
        words = gettext(language, "Password for {name}", name=claimed)
        text: str = typer.prompt(words, hide_input=True)
        return text

    try:
        return asyncio.run(claimed_session(f"{parts.scheme}://{parts.netloc}", name, ask))
    except ServerError as error:
        fail(f"cannot sign in as {name!r}: {error}")
    except (httpx.HTTPError, OSError, ValueError):
        return None


def _play_variant(variant: str, puzzle: bool, date: str | None, deck: str) -> tuple[str, str]:
    """The variant and day to play, checked as a room's settings are. ``--puzzle`` is the
    puzzle variant on a day: today in UTC by default; a future day is refused, as the
    server does."""
    import datetime

    from setgame.rules.game import Settings
    from setgame.rules.puzzle import parse_day
    from setgame.rules.variants import find_variant

    with bad_input():
        chosen = find_variant(variant).name
    if date is not None and not puzzle:
        fail(f"a date goes with --puzzle: {date!r}")
    day = ""
    if puzzle:
        if chosen not in ("classic", "puzzle"):
            fail(f"--puzzle plays the puzzle variant, not {variant!r}")
        today = datetime.datetime.now(datetime.UTC).date()
        with bad_input():
            wanted = today if date is None else parse_day(date)
        if wanted > today:
            fail(f"no puzzle for a future date: {date!r} (today is {today.isoformat()}, UTC)")
        chosen, day = "puzzle", wanted.isoformat()
    with bad_input():
        Settings(variant=chosen, deck=deck, day=day)
    return chosen, day


def run(args: list[str]) -> NoReturn:
    """Run the command line ``args`` through the Typer app; usage errors are one
    line on stderr, exit 2."""
    _language[0] = language_from_environment()  # each run reads it afresh (tests run many)
    try:
        code = app(args=args, prog_name="setgame", standalone_mode=False)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except typer.Abort:
        exit_with(gettext(lang(), "setgame: aborted"), 130)
    except _click_class("ClickException") as error:
        message = error.format_message()  # type: ignore[attr-defined]
        if type(error).__name__ == "NoArgsIsHelpError":  # bare `setgame`: the help
            out.print(message, markup=False)
            sys.exit(0)
        line = _one_line(message, error, args)
        exit_with(gettext(lang(), "setgame: error: {message}", message=line), 2)
    sys.exit(code if isinstance(code, int) else 0)


def _one_line(message: str, error: Exception, args: list[str]) -> str:
    """Typer's message on one line, with the bad value quoted when it names an option."""
    text = " ".join(message.replace("Value error, ", "").split())
    opts = getattr(getattr(error, "param", None), "opts", None) or []
    for i, arg in enumerate(args):
        name, equals, value = arg.partition("=")
        if name in opts and (equals or i + 1 < len(args)):
            given = value if equals else args[i + 1]
            return text if repr(given) in text else f"{text} (got {given!r})"
    return text


__all__ = ["app", "run"]
