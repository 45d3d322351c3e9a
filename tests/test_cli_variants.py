"""``setgame solve/simulate/odds --variant``: the variants on the command line (issue 10)."""

from __future__ import annotations

import itertools
import json
import random
import select
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from typer.testing import CliRunner

from clikit import assert_usage_error
from setgame.cli.commands import app
from setgame.cli.summary import VARIANT_NAMES
from setgame.rules.decks import FOURSET, MEGASET, STANDARD, Deck
from setgame.rules.variants import VARIANTS, find_variant

# --- plain definitions, to check the command's answers against -------------------


def values(deck: Deck, name: str) -> list[int]:
    return [a.letters.index(ch) for a, ch in zip(deck.attributes, name, strict=True)]


def plain_groups(kind: str, deck: Deck, names: Sequence[str]) -> list[list[str]]:
    """Every group of ``kind`` among ``names``, by the definitions of issue 10."""

    def is_set(trio: Sequence[str]) -> bool:
        return all(len({values(deck, n)[i] for n in trio}) != 2 for i in range(deck.width))

    def third(a: str, b: str) -> tuple[int, ...]:
        return tuple(-(x + y) % 3 for x, y in zip(values(deck, a), values(deck, b), strict=True))

    def is_group(cards: Sequence[str]) -> bool:
        if kind == "set":
            return is_set(cards)
        if kind == "ultraset":
            a, b, c, d = cards
            splits = (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))
            return any(third(*p) == third(*q) for p, q in splits)
        if kind == "ghostset":
            return all(sum(values(deck, n)[i] for n in cards) % 3 == 0 for i in range(deck.width))
        return all(  # 4set: all same, all different, or two pairs
            sorted(Counter(values(deck, n)[i] for n in cards).values())
            in ([4], [1, 1, 1, 1], [2, 2])
            for i in range(deck.width)
        )

    size = {"set": 3, "ultraset": 4, "ghostset": 6, "4set": 4}[kind]
    return [list(c) for c in itertools.combinations(names, size) if is_group(c)]


def table(deck: Deck, size: int, seed: int) -> list[str]:
    return deck.names(random.Random(seed).sample(deck.cards, size))


# --- solve --variant ------------------------------------------------------------


def test_solve_ultraset_prints_the_ultraset_of_a_table(setgame: Any) -> None:
    cards = ("1rsd", "2RSD", "1GSD", "2GSD", "3POS")
    code, out, err = setgame("solve", "--variant", "ultraset", *cards)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "1 UltraSet among 5 cards: 1RSD 2RSD 1GSD 2GSD 3POS",
        "  1RSD 2RSD 1GSD 2GSD",
    ]


@pytest.mark.parametrize(
    ("variant", "kind", "deck", "size"),
    [
        ("ultraset", "ultraset", STANDARD, 12),
        ("UltraSet Chain", "ultraset", STANDARD, 12),
        ("ghostset", "ghostset", STANDARD, 10),
        ("megaset", "set", MEGASET, 16),
        ("4set", "4set", FOURSET, 15),
        ("puzzle", "set", STANDARD, 12),
    ],
)
def test_solve_json_lists_every_group_of_the_kind(
    setgame: Any, variant: str, kind: str, deck: Deck, size: int
) -> None:
    for seed in range(3):
        names = table(deck, size, seed)
        code, out, _ = setgame("solve", "--json", f"--variant={variant}", *names)
        assert code == 0
        data = json.loads(out)
        assert data["cards"] == names
        claim = {"set": 3, "ultraset": 4, "ghostset": 6, "4set": 4}[kind]
        assert all(len(group) == claim for group in data["sets"])
        expected = plain_groups(kind, deck, names)
        assert sorted(map(sorted, data["sets"])) == sorted(map(sorted, expected))
        assert out == json.dumps({"cards": names, "sets": data["sets"]}) + "\n"


def test_solve_cards_in_the_variant_decks_notation(setgame: Any) -> None:
    code, out, _ = setgame("solve", "--variant", "megaset", "1rsds", "2RSDD", "3RSDT", "1GTOS")
    assert code == 0
    assert out.splitlines() == [
        "1 set among 4 cards: 1RSDS 2RSDD 3RSDT 1GTOS",
        "  1RSDS 2RSDD 3RSDT",
    ]
    code, out, _ = setgame("solve", "--json", "--variant", "4set", "4BCH", "3PTS", "2GOO", "1RSD")
    assert code == 0
    assert json.loads(out)["sets"] == [["4BCH", "3PTS", "2GOO", "1RSD"]]


def test_solve_variant_classic_is_plain_solve(setgame: Any) -> None:
    cards = ("1RSD", "2GTO", "3POS", "1RSO")
    assert setgame("solve", "--variant", "Classic", *cards) == setgame("solve", *cards)


def test_solve_variant_speaks_the_language_of_the_environment(
    setgame: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    code, out, _ = setgame("solve", "--variant", "ultraset", "1RSD", "2RSD", "1GSD", "2GSD")
    assert code == 0
    assert out.splitlines()[0] == "1 UltraSet unter 4 Karten: 1RSD 2RSD 1GSD 2GSD"


def test_solve_variant_reads_tables_from_stdin(setgame: Any) -> None:
    lines = "1RSD 2RSD 1GSD 2GSD 3POS\n\n1RSD 2GTO 3POS 1RSO\n"
    code, out, _ = setgame("solve", "--json", "--variant", "ultra9", stdin=lines)
    assert code == 0
    answers = [json.loads(line) for line in out.splitlines()]
    assert [len(a["sets"]) for a in answers] == [1, 0]
    code, out, _ = setgame("solve", "--variant", "ultra9", stdin=lines)
    assert out.split("\n\n")[1].startswith("0 UltraSets among 4 cards")


def test_solve_variant_answers_each_line_before_the_input_ends() -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "setgame", "solve", "--json", "--variant", "ghostset"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as child:
        assert child.stdin is not None and child.stdout is not None
        try:
            child.stdin.write("1RSD 2RSD 3RSD 1GSD 2GSD 3GSD\n")
            child.stdin.flush()
            ready, _, _ = select.select([child.stdout], [], [], 30)
            assert ready, "no answer to the first line while the input stays open"
            assert len(json.loads(child.stdout.readline())["sets"]) == 1
            child.stdin.write("1RSD 2GTO\n")
            child.stdin.close()
            assert json.loads(child.stdout.readline())["sets"] == []
        finally:
            child.kill()


def test_solve_unknown_variant_quotes_it_and_lists_the_names(setgame: Any) -> None:
    for args in (("--variant", "hyperset"), ("--variant=hyperset",)):
        result = setgame("solve", *args, "1RSD")
        assert_usage_error(result, "'hyperset'", *VARIANTS)
    long = "x" * 5000
    assert_usage_error(setgame("solve", "--variant", long, "1RSD"), "'xxxx", "...")


def test_solve_card_of_another_deck_is_quoted(setgame: Any) -> None:
    assert_usage_error(setgame("solve", "--variant", "megaset", "1RSDS", "2GTO"), "'2GTO'")
    assert_usage_error(setgame("solve", "--variant", "ultraset", "1RSD", "4BCH"), "'4BCH'")
    assert_usage_error(setgame("solve", "--variant", "4set-junior", "1RTD"), "'1RTD'")
    assert_usage_error(setgame("solve", "--variant", "junior", "1RSD", "1RSD"), "'1RSD'")
    code, out, err = setgame("solve", "--json", "--variant", "megaset",
                             stdin="1RSDS 2RSDS 3RSDS\n1RSD\n")  # fmt: skip
    assert_usage_error((code, out, err), "line 2", "'1RSD'")
    assert json.loads(out)["sets"] == [["1RSDS", "2RSDS", "3RSDS"]]  # the good line came first


def test_solve_ghostset_refuses_more_than_30_cards(setgame: Any) -> None:
    names = table(STANDARD, 31, 1)
    assert_usage_error(setgame("solve", "--variant", "ghostset", *names), "31", "30")
    assert setgame("solve", "--json", "--variant", "ghostset", *names[:30])[0] == 0


def test_the_typer_app_solves_variants_the_same(setgame: Any) -> None:
    names = table(STANDARD, 12, 7)
    fast = setgame("solve", "--json", "--variant", "ultraset", *names)[1]
    result = CliRunner().invoke(app, ["solve", "--variant", "ultraset", "--json", *names])
    assert result.exit_code == 0 and result.output == fast
    bad = CliRunner().invoke(app, ["solve", "--variant", "nope", "1RSD"])
    assert bad.exit_code == 2 and "'nope'" in bad.output


def test_solve_help_names_every_variant_and_the_chain_rule(setgame: Any) -> None:
    code, out, _ = setgame("solve", "--help")
    assert code == 0
    text = " ".join(out.replace("│", " ").split())
    assert "--variant" in text
    assert "Chain and puzzle variants list every group of their kind" in text
    assert tuple(VARIANTS) == VARIANT_NAMES  # the help's list is the registry's


def test_plain_solve_imports_neither_typer_nor_the_variants() -> None:
    code = (
        "import sys\nfrom setgame.cli.main import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('typer', 'numpy', 'setgame.rules.variants') if m in sys.modules),"
        " file=sys.stderr)"
    )
    for args, loaded in (
        (["solve", "1RSD", "2RSD", "3RSD"], "[]"),
        (["solve", "--variant", "ultraset", "1RSD", "2RSD"], "['numpy', 'setgame.rules.variants']"),
    ):
        done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                              text=True, timeout=60)  # fmt: skip
        assert done.stderr.strip() == loaded


# --- simulate --variant ---------------------------------------------------------------


def test_simulate_variant_json_has_the_report_shape_and_the_name(setgame: Any) -> None:
    code, out, err = setgame("simulate", "--variant", "ultraset", "--games", "50", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert set(data) == {
        "variant", "games", "tables", "leftover", "sets_per_game", "games_per_second"
    }  # fmt: skip
    assert data["variant"] == "ultraset" and data["games"] == 50
    assert data["tables"]["12"]["no_set"] == 0  # any 10 cards hold an UltraSet
    left = sum(int(k) * n for k, n in data["leftover"].items()) / 50
    assert data["sets_per_game"] == pytest.approx((81 - left) / 4)  # four cards a claim


def test_simulate_variant_prints_the_variant_and_its_kind(setgame: Any) -> None:
    code, out, _ = setgame("simulate", "--variant", "ghostset", "--games", "20")
    assert code == 0
    assert "GhostSet: 20 games" in out and "no GhostSet" in out and "claims per game" in out


def test_simulate_variant_is_reproducible_from_the_seed(setgame: Any) -> None:
    def tables(seed: str) -> Any:
        args = ("simulate", "--variant", "set-chain", "--games", "30", "--seed", seed, "--json")
        return json.loads(setgame(*args)[1])["tables"]

    assert tables("3") == tables("3")
    assert tables("3") != tables("4")


def test_simulate_bad_variant_or_deck(setgame: Any) -> None:
    assert_usage_error(setgame("simulate", "--variant", "sett"), "'sett'", "classic")
    assert_usage_error(setgame("simulate", "--variant", "megaset", "--deck", "beginner"),
                       "'beginner'", "MegaSet")  # fmt: skip
    code, out, _ = setgame("simulate", "--variant", "ultra9", "--deck", "beginner", "--games",
                           "20", "--json")  # fmt: skip
    assert code == 0 and sum(json.loads(out)["leftover"].values()) == 20


# --- odds --variant -------------------------------------------------------------------


def odds_json(setgame: Any, *args: str) -> Any:
    code, out, err = setgame("odds", "--json", "--seed", "1", *args)
    assert (code, err) == (0, ""), err
    return json.loads(out)


def test_odds_ultraset_9_cards_about_5_as_published(setgame: Any) -> None:
    data = odds_json(setgame, "--variant", "ultraset", "--cards", "9", "--samples", "3000",
                     "--games", "20")  # fmt: skip
    assert data["mean"]["fraction"] == "378/79"  # 4.78: C(9, 4) x 63180 / C(81, 4)
    assert abs(data["mean"]["sampled"] - 5) < 0.5
    assert abs(data["mean"]["sampled"] - data["mean"]["exact"]) < 5 * data["mean"]["stderr"]
    [published] = data["published"]
    assert published["quoted"] == "about 5 UltraSets among 9 cards" and published["agrees"]
    assert data["none"]["fraction"] == "16848/222981055"  # 19,712,160 of C(81, 9)


def test_odds_ultraset_12_cards_about_19_and_any_10_hold_one(setgame: Any) -> None:
    data = odds_json(setgame, "--variant", "ultraset", "--samples", "2000", "--games", "30")
    assert data["cards"] == 12 and data["claim"] == 4 and data["deck_groups"] == 63180
    assert abs(data["mean"]["sampled"] - 19) < 1
    assert data["none"]["exact"] == 0 and data["none"]["sampled"] == 0
    assert [p["quoted"] for p in data["published"]] == [
        "about 19 UltraSets among 12 cards", "any 10 cards hold an UltraSet"
    ]  # fmt: skip
    assert all(p["agrees"] for p in data["published"])
    assert data["play"]["p"] == 0 and data["play"]["n"] >= 30


def test_odds_variant_text(setgame: Any) -> None:
    code, out, _ = setgame("odds", "--variant", "ultra9", "--samples", "500", "--games", "20")
    assert code == 0
    assert out.startswith("Ultra9: groups of 4 cards among 9 random cards\n")
    assert "exact: 4.78 (= 378/79)" in out
    assert "'about 5 UltraSets among 9 cards': it agrees with 4.78." in out


def test_odds_and_simulate_variant_speak_the_language_of_the_environment(
    setgame: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    code, out, _ = setgame("odds", "--variant", "ultra9", "--samples", "300", "--games", "5")
    assert code == 0
    assert out.startswith("Ultra9: группы из 4 карт среди 9 случайных карт\n")
    assert "среднее число групп, точно: 4,78 (= 378/79)" in out
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    code, out, _ = setgame("simulate", "--variant", "ultraset", "--games", "5")
    assert code == 0 and "ohne UltraSet" in out and "Gruppen pro Spiel" in out


def test_odds_ghostset_beyond_the_listing_limit(setgame: Any) -> None:
    data = odds_json(setgame, "--variant", "ghostset", "--cards", "40", "--samples", "300",
                     "--games", "5")  # fmt: skip
    assert abs(data["mean"]["sampled"] - data["mean"]["exact"]) < 5 * data["mean"]["stderr"]


def test_odds_every_variant_is_a_markdown_table(setgame: Any) -> None:
    code, out, _ = setgame("odds", "--every-variant", "--samples", "200", "--games", "5")
    assert code == 0
    rows = out.splitlines()
    assert len(rows) == 2 + len(VARIANTS)
    assert [row.split(" | ")[0].lstrip("| ") for row in rows[2:]] == [
        v.title for v in VARIANTS.values()
    ]


def test_odds_variant_bad_input(setgame: Any) -> None:
    assert_usage_error(setgame("odds", "--variant", "ultra10"), "'ultra10'", "ultra9")
    assert_usage_error(setgame("odds", "--variant", "junior", "--cards", "28"), "28", "27")
    assert_usage_error(setgame("odds", "--variant", "4set", "--cards", "256", "--samples",
                               "100000"), "100000")  # fmt: skip
    assert_usage_error(setgame("odds", "--every-variant", "--variant", "junior"), "--every-variant")


def test_every_variant_has_figures(setgame: Any) -> None:
    for name in VARIANTS:
        variant = find_variant(name)
        data = odds_json(setgame, "--variant", name, "--samples", "100", "--games", "3")
        if name != "classic":
            assert data["variant"] == name and data["cards"] == variant.table_size
