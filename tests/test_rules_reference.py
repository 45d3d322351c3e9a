"""The project's rules reference, docs/rules.md: its rule IDs each have a test, its settings are
the engine's, and the README points at it (issue 8 item 8)."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from setgame.rules import game
from setgame.rules.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "rules.md"
TESTS = ROOT / "tests"

#: A rule is defined by a bold ID at the start of a list item: "- **R08 Call and control.**".
RULE = re.compile(r"^- \*\*(R\d\d)\b", re.M)
#: A test names a rule by its ID: ``def test_r08_...`` (also async, also in classes).
NAMED = re.compile(r"^\s*(?:async\s+)?def\s+test_r(\d\d)_", re.M)


def _rule_ids() -> list[str]:
    return RULE.findall(REFERENCE.read_text(encoding="utf-8"))


def _tested_ids() -> set[str]:
    found: set[str] = set()
    for path in TESTS.rglob("*.py"):
        found |= {f"R{n}" for n in NAMED.findall(path.read_text(encoding="utf-8"))}
    return found


def _section(title: str) -> str:
    text = REFERENCE.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match is not None, f"docs/rules.md has no section {title!r}"
    return match.group(1)


def test_reference_numbers_its_rules_r01_to_r17_once_each_in_order() -> None:
    assert _rule_ids() == [f"R{n:02d}" for n in range(1, 18)]


def test_every_rule_id_of_the_reference_has_a_test_named_after_it() -> None:
    missing = [rule for rule in _rule_ids() if rule not in _tested_ids()]
    assert missing == [], f"rules with no test_rNN_... test: {missing}"


def test_the_coverage_check_sees_a_missing_rule(tmp_path: Path) -> None:
    """The pattern that finds rule tests does not match look-alikes, so a rule whose only
    'test' is a helper, a comment or a test of another number counts as untested."""
    source = (
        "def test_r08_wrong_call():\n    ...\n"
        "def helper_r09_take():\n    ...\n"
        "# def test_r10_in_a_comment\n"
        "async def test_r11_vote():\n    ...\n"
        "    def test_r12_in_a_class(self):\n        ...\n"
        "def test_r1_short():\n    ...\n"
    )
    assert {f"R{n}" for n in NAMED.findall(source)} == {"R08", "R11", "R12"}


def test_reference_documents_every_setting_and_value_of_the_engine() -> None:
    table = _section("Room settings")
    names = {f.name for f in fields(game.Settings)} | {"lockout_lift"}  # DECISIONS.md item 2
    values = {*game.MODES, *game.PENALTIES, *game.NO_SET_RULES, *game.ROUND_RULES}
    values |= {"set", "set_or_cards", "full", "beginner"}
    for word in sorted(names | values):
        assert f"`{word}`" in table, word
    for name in names:  # one row per setting
        assert re.search(rf"^\| `{name}` \|", table, re.M), name


def test_reference_names_the_rulebooks_by_code_and_language_only() -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    editions = _section("The rulebooks")
    for code, language in (("000", "Russian"), ("001", "Polish"), ("002", "Russian"),
                           ("003", "Italian"), ("004", "German")):  # fmt: skip
        assert re.search(rf"^\| `{code}` \| {language} \|", editions, re.M), code
    assert not re.search(r"\b(first|second)\s+(Russian\s+)?edition", text, re.I)


def test_reference_keeps_this_projects_own_rules_apart() -> None:
    own = _section("This project's own rules")
    for topic in ("Fair call", "All locked out, all lift", "away", "missed set",
                  "Departed players", "Solo scoring", "The match follows the players"):  # fmt: skip
        assert topic in own, topic
    # the fair-call cooldown with its exact numbers: pick_seconds doubled, at most 300 s
    assert "`pick_seconds × 2^(k-1)` seconds, at most 300 s" in own
    waits = ", ".join(str(min(300, 5 * 2**k)) for k in range(6))
    assert f"{waits}, then 300 s" in own


def test_reference_cooldown_matches_the_engine() -> None:
    penalties = pytest.importorskip("setgame.rules.penalties")  # the engine's fair-call rule
    own = _section("This project's own rules")
    cap = int(penalties.COOLDOWN_CAP)
    assert f"at most {cap} s" in own
    waits = [int(penalties.cooldown_seconds(5.0, k)) for k in range(1, 9)]
    assert ", ".join(map(str, dict.fromkeys(waits))) in own.replace("then ", "")


@pytest.mark.parametrize(
    ("rule", "codes"),
    [
        ("R10", ("`000` FAQ 2", "`002`", "`003`", "`set_or_cards`")),
        ("R14", ("`000`", "`002`", "if you want a longer game")),
        ("R15", ("among the last 12 cards", "`001`", "`004`")),
        ("R09", ("anywhere on the table", "`000` FAQ 1", "`001`", "`002`", "`004`")),
    ],
)
def test_reference_cites_the_rulebooks_for_the_rules_they_disagree_on(
    rule: str, codes: tuple[str, ...]
) -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    item = re.search(rf"^- \*\*{rule}\b.*?(?=^- \*\*R|^## )", text, re.M | re.S)
    assert item is not None, rule
    for code in codes:
        assert code in item.group(0), (rule, code)


def test_readme_links_the_reference_inside_the_repository() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/rules.md)" in readme
    assert "shared/RULES.md" not in readme and "RULES.md" not in readme


def test_reference_lists_the_variants_as_this_projects_own() -> None:
    variants = _section("Variants (this project's own)")
    assert "](variants.md)" in variants and (ROOT / "docs" / "variants.md").is_file()
    assert "None of these is in the rulebooks" in variants and "project's own" in variants
    for name, variant in VARIANTS.items():
        if name != "classic":  # one row each, by its setting value and its title
            assert re.search(rf"^\| `{re.escape(name)}` {re.escape(variant.title)} \|", variants,
                             re.M), name  # fmt: skip
    table = _section("Room settings")
    for name in ("variant", "table", "day"):  # the settings the engine gains (DECISIONS.md)
        assert re.search(rf"^\| `{name}` \|", table, re.M), name
