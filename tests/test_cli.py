"""The ``setgame`` command: every command, its output formats and its errors."""

from __future__ import annotations

import json
import os
import random
import select
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from clikit import assert_usage_error
from setgame import card_names, explain, find_sets, parse_cards
from setgame.cli.commands import _progress, app
from setgame.server.limits import Limits
from setgame.words.i18n import LANGUAGES, explain_text

SRC = Path(__file__).resolve().parents[1] / "src"





# --- solve --------------------------------------------------------------------------


def test_r03_solve_prints_the_sets_among_the_cards(setgame: Any) -> None:
    code, out, _ = setgame("solve", "1rsd", "2GTO", "3pos", "1RSO")
    assert code == 0
    assert out.splitlines() == ["1 set among 4 cards: 1RSD 2GTO 3POS 1RSO", "  1RSD 2GTO 3POS"]


@pytest.mark.parametrize(
    ("env", "line"),
    [
        ("ru_RU.UTF-8", "1 сет среди карт (4 карты): 1RSD 2GTO 3POS 1RSO"),
        ("pl_PL.UTF-8", "1 SET wśród kart (4 karty): 1RSD 2GTO 3POS 1RSO"),
        ("de_DE.UTF-8", "1 SET unter 4 Karten: 1RSD 2GTO 3POS 1RSO"),
        ("fr_FR.UTF-8", "1 set among 4 cards: 1RSD 2GTO 3POS 1RSO"),
    ],
)
def test_solve_speaks_the_language_of_the_environment(
    setgame: Any, monkeypatch: pytest.MonkeyPatch, env: str, line: str
) -> None:
    monkeypatch.setenv("LANG", env)
    code, out, _ = setgame("solve", "1rsd", "2GTO", "3pos", "1RSO")
    assert code == 0 and out.splitlines()[0] == line


def test_errors_speak_the_language_of_the_environment(
    setgame: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGUAGE", "it")
    code, _, err = setgame("check", "1RSD", "2GTO")
    assert code == 2
    assert err == "setgame: errore: check vuole esattamente tre carte, ricevute 2: '1RSD' '2GTO'\n"


def test_solve_json_is_one_object_per_table_in_input_order(setgame: Any) -> None:
    code, out, _ = setgame("solve", "--json", "3pos", "1rsd", "2gto", "1GSD")
    assert code == 0
    assert json.loads(out) == {
        "cards": ["3POS", "1RSD", "2GTO", "1GSD"],
        "sets": [["3POS", "1RSD", "2GTO"]],
    }


def test_solve_reads_tables_from_stdin_one_a_line(setgame: Any) -> None:
    tables = "1RSD 2RSD 3RSD 1GSD\n\n1RSD 2GTO\n1rsd 1GSD 1PSD 1RTD 1RSO\n"
    code, out, _ = setgame("solve", "--json", stdin=tables)
    assert code == 0
    objects = [json.loads(line) for line in out.splitlines()]
    assert [o["cards"] for o in objects] == [
        ["1RSD", "2RSD", "3RSD", "1GSD"],
        ["1RSD", "2GTO"],
        ["1RSD", "1GSD", "1PSD", "1RTD", "1RSO"],
    ]
    assert [o["sets"] for o in objects] == [
        [["1RSD", "2RSD", "3RSD"]],
        [],
        [["1RSD", "1GSD", "1PSD"]],
    ]


def test_solve_text_from_stdin_separates_tables(setgame: Any) -> None:
    code, out, _ = setgame("solve", stdin="1RSD 2RSD 3RSD\n1RSD 2GTO\n")
    assert code == 0
    assert out.splitlines() == [
        "1 set among 3 cards: 1RSD 2RSD 3RSD",
        "  1RSD 2RSD 3RSD",
        "",
        "0 sets among 2 cards: 1RSD 2GTO",
    ]


def test_solve_unknown_card_is_a_usage_error(setgame: Any) -> None:
    assert_usage_error(setgame("solve", "1RSD", "4RSD"), "'4RSD'")


def test_solve_duplicate_card_is_a_usage_error(setgame: Any) -> None:
    assert_usage_error(setgame("solve", "1RSD", "2GTO", "1rsd"), "'1rsd'")


def test_solve_bad_line_on_stdin_names_the_line_and_token(setgame: Any) -> None:
    code, out, err = setgame("solve", "--json", stdin="1RSD 2RSD 3RSD\n1RSD XYZ\n")
    assert_usage_error((code, out, err), "'XYZ'")
    assert "line 2" in err
    assert json.loads(out)["cards"] == ["1RSD", "2RSD", "3RSD"]  # the good table came first


def test_solve_answers_each_line_before_the_input_ends() -> None:
    """Standard input is read in chunks of what has arrived, not all before answering."""
    with subprocess.Popen(
        [sys.executable, "-m", "setgame", "solve", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as child:
        assert child.stdin is not None and child.stdout is not None
        try:
            child.stdin.write("1RSD 2RSD 3RSD\n")
            child.stdin.flush()
            ready, _, _ = select.select([child.stdout], [], [], 30)
            assert ready, "no answer to the first line while the input stays open"
            assert json.loads(child.stdout.readline())["sets"] == [["1RSD", "2RSD", "3RSD"]]
            child.stdin.write("1RSD 2GTO\n")
            child.stdin.close()
            assert json.loads(child.stdout.readline())["sets"] == []
        finally:
            child.kill()


def test_solve_stops_quietly_when_the_reader_closes_the_pipe() -> None:
    lines = "1RSD 2RSD 3RSD 1GTO 2GTO 3GTO\n" * 50_000
    command = f"{sys.executable} -m setgame solve --json | head -n 1"
    done = subprocess.run(
        ["sh", "-c", command], input=lines, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["cards"][0] == "1RSD"
    assert done.stderr == ""


def test_solve_json_from_stdin_is_what_json_dumps_writes(setgame: Any) -> None:
    rng = random.Random(5)
    tables = [rng.sample(range(81), rng.choice([3, 12, 15])) for _ in range(300)]
    names = [card_names(t) for t in tables]
    lines = [" ".join(n.lower() if i % 7 else n for n in t) for i, t in enumerate(names)]
    code, out, _ = setgame("solve", "--json", stdin="\n".join(lines))  # no final newline
    assert code == 0
    expected = [
        json.dumps({"cards": card_names(t), "sets": [card_names(s) for s in find_sets(t)]})
        for t in tables
    ]
    assert out.splitlines() == expected


def expected_text(table: list[int]) -> str:
    sets = find_sets(table)
    head = f"{len(sets)} set{'' if len(sets) == 1 else 's'} among {len(table)} cards: "
    return "\n".join(
        [head + " ".join(card_names(table))] + ["  " + " ".join(card_names(s)) for s in sets]
    )


@pytest.mark.parametrize("size", [3, 12, 15])
def test_solve_stdin_of_equal_tables_read_as_one_array(setgame: Any, size: int) -> None:
    """Blocks whose lines all hold `size` cards one space apart take the array path:
    its answers are the ones of the line-by-line path, in both formats."""
    rng = random.Random(size)
    tables = [rng.sample(range(81), size) for _ in range(200)]
    lines = "".join(" ".join(card_names(t)).lower() + "\n" for t in tables)
    code, out, _ = setgame("solve", "--json", stdin=lines)
    assert code == 0
    expected = [
        json.dumps({"cards": card_names(t), "sets": [card_names(s) for s in find_sets(t)]})
        for t in tables
    ]
    assert out.splitlines() == expected
    code, out, _ = setgame("solve", stdin=lines)
    assert code == 0
    assert out == "\n\n".join(map(expected_text, tables)) + "\n"


@pytest.mark.parametrize("bad", ["1RSX", "1RSD", "4RSD"])
def test_solve_bad_card_in_a_block_of_equal_tables(setgame: Any, bad: str) -> None:
    rng = random.Random(2)
    tables = [card_names(rng.sample(range(81), 12)) for _ in range(100)]
    tables[60] = ["1RSD", *card_names(rng.sample(range(1, 81), 10)), bad]  # 1RSD is card 0
    code, out, err = setgame("solve", "--json", stdin="".join(" ".join(t) + "\n" for t in tables))
    assert_usage_error((code, out, err), repr(bad))
    assert "line 61" in err
    assert [json.loads(line)["cards"] for line in out.splitlines()] == tables[:60]


def test_solve_counts_lines_by_newlines_only(setgame: Any) -> None:
    code, out, err = setgame("solve", "--json", stdin="1RSD 2RSD\x0c3RSD\r\n\n1RSD XYZ\n")
    assert code == 2 and "line 3" in err and "'XYZ'" in err
    assert json.loads(out)["sets"] == [["1RSD", "2RSD", "3RSD"]]  # a form feed is a blank


def test_solve_refuses_an_endless_line(setgame: Any) -> None:
    assert_usage_error(setgame("solve", stdin="1RSD " * 20_000), "longer than")


# --- check ----------------------------------------------------------------------


def test_r03_check_a_set_exits_0(setgame: Any) -> None:
    code, out, _ = setgame("check", "1RSD", "2GTO", "3POS")
    assert code == 0
    assert out == "1RSD 2GTO 3POS: That is a set.\n"


def test_r04_check_a_non_set_explains_and_exits_1(setgame: Any) -> None:
    code, out, _ = setgame("check", "1RSD", "2RSD", "3GSD")
    assert code == 1
    assert out == "1RSD 2RSD 3GSD: Not a set: two are red, one is green.\n"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_r04_check_explains_in_each_language(setgame: Any, lang: str) -> None:
    cards = ["1RSD", "2GTO", "3POO"]
    code, out, _ = setgame("check", "--lang", lang, *cards)
    assert code == 1
    expected = explain_text(explain(*parse_cards(cards)), lang)
    assert out == f"1RSD 2GTO 3POO: {expected}\n"


def test_r04_check_json_gives_the_flaws(setgame: Any) -> None:
    """Issue 21: ``check --json``, the flaws as the server's wrong_call event words them."""
    code, out, _ = setgame("check", "--json", "1RSD", "2RSD", "3GSD")
    assert code == 1
    assert json.loads(out) == {
        "cards": ["1RSD", "2RSD", "3GSD"],
        "set": False,
        "flaws": [{"type": "set", "attribute": 1, "common": 0, "odd": 1}],
    }
    code, out, _ = setgame("check", "--json", "--lang", "de", "1RSD", "2GTO", "3POS")
    assert code == 0 and json.loads(out) == {
        "cards": ["1RSD", "2GTO", "3POS"], "set": True, "flaws": []
    }  # fmt: skip
    assert_usage_error(setgame("check", "--json", "1RSD", "2GTO", "3PXS"), "'3PXS'")


@pytest.mark.parametrize("count", [2, 4])
def test_check_needs_exactly_three_cards(setgame: Any, count: int) -> None:
    cards = ["1RSD", "2GTO", "3POS", "1GSD"][:count]
    assert_usage_error(setgame("check", *cards), f"got {count}")


def test_check_unknown_card_and_language(setgame: Any) -> None:
    assert_usage_error(setgame("check", "1RSD", "2GTO", "3PXS"), "'3PXS'")
    assert_usage_error(setgame("check", "--lang", "fr", "1RSD", "2GTO", "3POS"), "'fr'")
    assert_usage_error(setgame("check", "1RSD", "2GTO", "1RSD"), "'1RSD'")


# --- simulate -----------------------------------------------------------------------


def test_simulate_json_has_the_documented_shape(setgame: Any) -> None:
    code, out, err = setgame("simulate", "--games", "300", "--seed", "5", "--json")
    assert code == 0
    assert err == ""  # no progress bar: stderr is not a terminal
    data = json.loads(out)
    assert set(data) == {
        "variant", "games", "tables", "leftover", "sets_per_game", "games_per_second"
    }  # fmt: skip
    assert data["variant"] == "classic" and data["games"] == 300
    assert data["tables"]["12"]["seen"] >= 300
    for count in data["tables"].values():
        assert set(count) == {"seen", "no_set"} and 0 <= count["no_set"] <= count["seen"]
    assert sum(data["leftover"].values()) == 300
    left = sum(int(k) * n for k, n in data["leftover"].items()) / 300
    assert data["sets_per_game"] == pytest.approx((81 - left) / 3)
    assert data["games_per_second"] > 0


def test_simulate_is_reproducible_from_the_seed(setgame: Any) -> None:
    def tables(seed: str) -> Any:
        return json.loads(setgame("simulate", "--games", "200", "--seed", seed, "--json")[1])[
            "tables"
        ]

    assert tables("3") == tables("3")
    assert tables("3") != tables("4")


def test_r16_simulate_with_the_beginner_deck(setgame: Any) -> None:
    data = json.loads(setgame("simulate", "--games", "200", "--deck", "beginner", "--json")[1])
    assert data["tables"]["12"]["no_set"] == 0  # 12 of 27 solid cards always hold a set
    assert max(map(int, data["leftover"])) <= 9


def test_simulate_prints_a_table_of_statistics(setgame: Any) -> None:
    code, out, _ = setgame("simulate", "--games", "100")
    assert code == 0
    assert "100 games" in out and "no set" in out and "sets per game" in out


def test_simulate_bad_options(setgame: Any) -> None:
    assert_usage_error(setgame("simulate", "--games", "0"), "--games")
    assert_usage_error(setgame("simulate", "--games", "many"), "'many'")
    assert_usage_error(setgame("simulate", "--deck", "tiny"), "'tiny'")


def test_progress_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    with _progress(10, "x") as advance:
        assert advance is None
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    with _progress(10, "x") as advance:
        assert callable(advance)
        advance(10)


# --- odds ---------------------------------------------------------------------------


def test_r17_odds_compares_with_the_rulebooks(setgame: Any) -> None:
    code, out, _ = setgame("odds", "--samples", "4000", "--games", "300")
    assert code == 0
    assert "Probability that 12 cards hold no set" in out
    assert "33:1" in out and "3%" in out and "during play" in out


def test_r17_odds_json(setgame: Any) -> None:
    code, out, _ = setgame("odds", "--cards", "5", "--samples", "2000", "--games", "50", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["cards"] == 5
    assert data["exact"]["fraction"] == "5328/6083"
    assert abs(data["sampled"]["p"] - data["exact"]["p"]) < 5 * data["sampled"]["stderr"]
    assert data["play"] is None  # no 5-card table is met in play


def test_r17_odds_for_21_cards_is_zero(setgame: Any) -> None:
    data = json.loads(
        setgame("odds", "--cards", "21", "--samples", "500", "--games", "20", "--json")[1]
    )
    assert data["exact"]["p"] == 0 and data["sampled"]["p"] == 0
    assert data["rulebooks"][0]["sources"] == "000"


def test_odds_bad_options(setgame: Any) -> None:
    assert_usage_error(setgame("odds", "--cards", "82"), "82")
    assert_usage_error(setgame("odds", "--cards", "257"), "'257'")
    assert_usage_error(setgame("odds", "--samples", "0"), "--samples")


# --- serve and play: wiring to the server and the terminal app ----------------------


def fake_module(monkeypatch: pytest.MonkeyPatch, name: str, attr: str) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    module = types.ModuleType(name)
    setattr(module, attr, lambda **kwargs: calls.append(kwargs))
    monkeypatch.setitem(sys.modules, name, module)
    return calls


def test_serve_calls_the_server(setgame: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_module(monkeypatch, "setgame.server", "serve")
    assert setgame("serve")[0] == 0
    assert setgame("serve", "--host", "0.0.0.0", "--port", "9000", "--db", "x.db")[0] == 0
    assert setgame("serve", "--create-db")[0] == 0
    url = "redis://127.0.0.1:6379/0"
    assert setgame("serve", "--db", "postgresql+asyncpg://h/db", "--redis", url)[0] == 0
    limits = Limits.from_env()
    base = {"host": "127.0.0.1", "port": 8000, "db": None, "limits": limits, "redis": None}
    assert calls == [
        {**base, "create_db": False},
        {**base, "host": "0.0.0.0", "port": 9000, "db": "x.db", "create_db": False},
        {**base, "create_db": True},
        {**base, "db": "postgresql+asyncpg://h/db", "create_db": False, "redis": url},
    ]
    assert_usage_error(setgame("serve", "--port", "70000"), "'70000'")


def test_serve_passes_the_trusted_proxies(setgame: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_module(monkeypatch, "setgame.server", "serve")
    monkeypatch.setenv("SETGAME_HEADER_SECONDS", "3")
    args = ["--trusted-proxy", "10.0.0.1", "--trusted-proxy", "fd00::/8"]
    assert setgame("serve", *args)[0] == 0
    (call,) = calls
    assert call["limits"].trusted_proxies == "10.0.0.1,fd00::/8"
    assert call["limits"].header_seconds == 3.0


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("SETGAME_HELLO_SECONDS", "soon"),
        ("SETGAME_HELLO_SECONDS", "nan"),
        ("SETGAME_BODY_BYTES", "1e9"),
        ("SETGAME_BODY_BYTES", "99999999"),
        ("SETGAME_UNAUTH_PER_CLIENT", "0"),
        ("SETGAME_TRUSTED_PROXIES", "proxy.example.org"),
    ],
)
def test_serve_refuses_a_bad_limit_quoting_it(
    setgame: Any, monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    calls = fake_module(monkeypatch, "setgame.server", "serve")
    monkeypatch.setenv(variable, value)
    result = setgame("serve")
    assert_usage_error(result, repr(value))
    assert variable in result[2] and calls == []  # stopped before starting


def test_serve_refuses_a_bad_trusted_proxy_option(
    setgame: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_module(monkeypatch, "setgame.server", "serve")
    assert_usage_error(setgame("serve", "--trusted-proxy", "10.0.0.300"), "'10.0.0.300'")


def test_python_m_server_refuses_a_bad_limit(tmp_path: Path) -> None:
    env = {**os.environ, "SETGAME_JSON_DEPTH": "deep", "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, "-m", "setgame.server", "--port", "1", "--db", str(tmp_path / "x.db")],
        capture_output=True, text=True, env=env, timeout=60,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "SETGAME_JSON_DEPTH" in done.stderr
    assert "'deep'" in done.stderr and "Traceback" not in done.stderr


def test_play_calls_the_terminal_app(setgame: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_module(monkeypatch, "setgame.tui", "run")
    assert setgame("play")[0] == 0
    args = ["--mode", "bots", "--bots", "2", "--level", "5", "--deck", "beginner"]
    args += ["--seed", "7", "--lang", "pl", "--connect", "ws://h:1", "--name", "Ala"]
    assert setgame("play", *args)[0] == 0
    defaults = dict(mode="solo", bots=1, level=2, deck="full", seed=None, lang="en")
    chosen = dict(mode="bots", bots=2, level=5, deck="beginner", seed=7, lang="pl")
    assert calls == [
        {**defaults, "connect": None, "name": None},
        {**chosen, "connect": "ws://h:1", "name": "Ala"},
    ]
    assert_usage_error(setgame("play", "--level", "6"), "'6'")
    assert_usage_error(setgame("play", "--mode", "chaos"), "'chaos'")
    assert_usage_error(setgame("play", "--lang", "xx"), "'xx'")


def test_play_refuses_a_bad_room_address_before_the_game(setgame: Any) -> None:
    """Issue 21: exit 2 quoting it, no traceback (the real terminal app, never started)."""
    assert_usage_error(setgame("play", "--connect", "foo"), "'foo'", "not a room address")


# --- help and the entry points ------------------------------------------------------


@pytest.mark.parametrize("command", ["solve", "check", "simulate", "odds", "serve", "play"])
def test_every_command_has_help(setgame: Any, command: str) -> None:
    code, out, _ = setgame(command, "--help")
    assert code == 0
    assert "Usage" in out and command in out


@pytest.mark.parametrize(
    ("command", "flags"),
    [
        (["solve"], ["--json"]),
        (["check"], ["--json"]),
        (["simulate"], ["--json"]),
        (["odds"], ["--json", "--every-variant"]),
        (["serve"], ["--create-db"]),
        (["play"], ["--puzzle"]),
        (["admin", "grant"], []),
    ],
)
def test_help_shows_flags_as_flags(setgame: Any, command: list[str], flags: list[str]) -> None:
    """Issue 21: a flag takes no value, so its help line names none (not "--json <bool>")."""
    code, out, _ = setgame(*command, "--help")
    assert code == 0 and "<bool>" not in out and "--help " in out
    for flag in flags:
        line = next(line for line in out.splitlines() if line.strip().startswith(flag))
        assert line.split()[0] == flag and not line.split()[1].startswith("<"), line


def test_bare_setgame_prints_help(setgame: Any) -> None:
    code, out, _ = setgame()
    assert code == 0
    assert "solve" in out and "simulate" in out


def test_unknown_command_is_a_usage_error(setgame: Any) -> None:
    assert_usage_error(setgame("sovle"), "'sovle'")


def test_python_m_setgame_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "setgame", "check", "1RSD", "2GTO", "3PXS"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().startswith("setgame: error: not a card: '3PXS'")
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_typer_app_alone_also_exits_2_on_bad_input() -> None:
    result = CliRunner().invoke(app, ["solve", "1RSD", "XX"])
    assert result.exit_code == 2
    assert "'XX'" in result.output
    assert not isinstance(result.exception, ValueError)
