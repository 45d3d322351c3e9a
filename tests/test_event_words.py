"""One catalog of words: the game's sentences are composed once, in Python, and every client
shows them (the terminal directly, the browser from the event's ``verdict``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from setgame.rules.actions import Join, Start, Turn
from setgame.rules.game import Game, Settings
from setgame.rules.variants import find_variant
from setgame.words.catalog import LANGUAGES
from setgame.words.event_words import annotate, event_message, verdict_text
from setgame.words.i18n import explain_text

ROOT = Path(__file__).resolve().parents[1]
ULTRA = {
    "type": "wrong_call",
    "player": "b",
    "cards": ["1RSD", "1RSO", "1RSS", "2GTD"],
    "reason": "not_a_set",
    "flaws": [
        {
            "type": "pairing",
            "pairs": [["1RSD", "1RSO"], ["1RSS", "2GTD"]],
            "thirds": ["1RSS", "3POO"],
            "attributes": [0, 1, 2, 3],
        }
    ],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_wrong_call_carries_its_verdict_in_every_language(lang: str) -> None:
    ultraset = find_variant("ultraset")
    [event] = annotate([dict(ULTRA)], ultraset)
    assert set(event["verdict"]) == set(LANGUAGES)
    wanted = explain_text(ULTRA["flaws"], lang, kind="ultraset", deck=ultraset.deck)
    assert event["verdict"][lang] == wanted == verdict_text(ULTRA, ultraset, lang)
    # the terminal says the same verdict
    view = {"you": "a", "variant": {"name": "ultraset"}, "players": [{"id": "b", "name": "Bo"}]}
    assert wanted in (event_message(event, view, lang) or "")


def test_only_a_worded_wrong_call_is_annotated() -> None:
    classic = find_variant("classic")
    late = {"type": "wrong_call", "player": "b", "cards": None, "reason": "timeout", "flaws": []}
    taken = {"type": "set_taken", "player": "b", "cards": ["1RSD", "2RSD", "3RSD"]}
    assert annotate([dict(late), dict(taken)], classic) == [late, taken]


def test_a_memory_miss_is_worded_by_the_engines_variant() -> None:
    game = Game(Settings(variant="memory", mode="solo"), 7)
    events = []
    for action in [Join(at=0, player="p1", name="Mo"), Start(at=1, player="p1")] + [
        Turn(at=2 + i, player="p1", position=i) for i in range(3)
    ]:
        events = annotate(game.apply(action), game.variant)
    [miss] = [e for e in events if e["type"] == "wrong_call"]  # seed 7: the three miss
    assert miss["verdict"]["en"].startswith("Not a set: ")
    assert miss["verdict"]["ru"].startswith("Это не сет: ")


def test_the_browser_composes_no_flaw_sentence() -> None:
    """The flaw and verdict keys are worded in Python only: no JS module builds them."""
    js = "\n".join(p.read_text() for p in (ROOT / "src/setgame/web/static/js").glob("*.js"))
    for composed in (
        '"flaw"',
        "flaw.set",
        "flaw.pairing",
        "flaw.count",
        "verdict.no",
        "ATTRIBUTES",
    ):
        assert composed not in js, composed
    assert "ev.verdict" in js
