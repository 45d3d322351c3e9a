"""One catalog of words: the game's sentences are composed once, in Python, and every client
shows them (the terminal directly, the browser from the event's ``verdict``)."""

from __future__ import annotations

import re
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


# --- one message per line, the same messages in the terminal and in the browser -----------

EVENTS_JS = ROOT / "src/setgame/web/static/js/events.js"
PLAYERS = [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bo"}]
VIEWS = [
    {"you": "a", "mode": "multi", "players": PLAYERS},
    {"you": "a", "mode": "multi", "players": PLAYERS, "settings": {"lockout_lift": "set_or_cards"}},
    {"you": "a", "mode": "solo", "players": PLAYERS, "settings": {"day": "2026-11-25"}},
    {"you": "a", "mode": "multi", "players": PLAYERS, "variant": {"name": "ultraset"}},
    {"you": "a", "mode": "solo", "players": PLAYERS, "variant": {"name": "memory"}},
]
CARDS = ["1RSD", "2RSD", "3RSD"]
#: Words of a field, not of a line: a duration, a player's name ("You" in the terminal).
FIELD_WORDS = {"unit.seconds", "You", "bot.name"}
FLAW = [{"type": "set", "attribute": 1, "common": 0, "odd": 1}]
SOLO = {"seconds": 75.0, "score": 4, "penalties": 2, "cancelled": 1}
#: Events that take every branch of ``event_lines``, for the viewer "a" and for "b".
SAMPLES = [
    {"type": "joined", "name": "Bo"},
    {"type": "left"},
    {"type": "call_cancelled"},
    {"type": "round_started", "round": 1, "rounds": 2, "dealer": "a"},
    {"type": "called"},
    {"type": "more_cards_asked", "penalty": 0},
    {"type": "more_cards_asked", "penalty": 2},
    {"type": "no_set_declared"},
    {"type": "set_taken", "cards": CARDS},
    {"type": "set_taken", "cards": CARDS, "reshuffled": True},
    {"type": "card_turned", "card": "1RSD"},
    {"type": "wrong_call", "reason": "timeout", "point_lost": True, "cooldown": 4.5},
    {"type": "wrong_call", "reason": "not_a_set", "cards": CARDS, "flaws": []},
    {"type": "wrong_call", "cards": CARDS, "flaws": FLAW, "penalty": "point", "locked": True},
    {"type": "wrong_call", "cards": CARDS, "flaws": FLAW, "point_lost": True, "cooldown": 3},
    {"type": "wrong_call", "cards": CARDS, "flaws": FLAW, "penalty_seconds": 10},
    {"type": "lockouts_lifted"},
    {"type": "cards_added", "why": "vote", "table": CARDS * 5},
    {"type": "cards_added", "why": "vote", "table": CARDS * 5, "missed": CARDS},
    {"type": "round_over", "round": 1, "scores": {}},
    {"type": "round_over", "round": 1, "scores": {"a": 3, "b": 2}},
    {"type": "match_over", "winners": ["a", "b"]},
    {"type": "match_over", "solo": {**SOLO, "won": True, "penalty_seconds": 20}},
    {"type": "match_over", "solo": {**SOLO, "won": False}},
]


def _python_messages(monkeypatch: pytest.MonkeyPatch) -> dict[str, set[str]]:
    """The catalog messages ``event_lines`` uses for each event type, over every branch;
    and that each line it gives is one whole message, filled in (no pieces joined)."""
    from setgame.words import event_words

    used: dict[str, set[str]] = {}
    said: list[str] = []

    def tr(message: str, lang: str = "en", /, **fields: object) -> str:
        said.append(text := real_tr(message, lang, **fields))
        if message not in FIELD_WORDS:
            kind_used.add(message)
        return text

    def ngettext(lang: str, one: str, other: str, n: float, **fields: object) -> str:
        said.append(text := real_ngettext(lang, one, other, n, **fields))
        kind_used.update((one, other))
        return text

    real_tr, real_ngettext = event_words.tr, event_words.ngettext
    monkeypatch.setattr(event_words, "tr", tr)
    monkeypatch.setattr(event_words, "ngettext", ngettext)
    for sample in SAMPLES:
        kind_used = used.setdefault(sample["type"], set())
        for view in VIEWS:
            for player in ("a", "b"):
                said.clear()
                lines = event_words.event_lines({**sample, "player": player}, view, "ru")
                assert lines and all(line in said for line in lines), (sample, lines, said)
    return used


def _js_messages() -> dict[str, set[str]]:
    """The catalog messages each event type's function in events.js uses (with the helper
    functions it calls)."""
    source = EVENTS_JS.read_text()
    bodies = dict(re.findall(r"\nfunction (\w+)\([^)]*\) \{\n(.*?)\n\}\n", source, re.S))
    table = re.search(r"const LINES = \{(.*?)\};", source, re.S)
    assert table and bodies
    kinds = re.findall(r"(\w+),", table.group(1))

    def messages(name: str) -> set[str]:
        body = bodies[name]
        found = set(re.findall(r'\bt\("([\w.]+)"', body))
        found |= {m for pair in re.findall(r'\btn\("([\w.]+)", "([\w.]+)"', body) for m in pair}
        for helper in set(re.findall(r"\b(\w+)\(", body)) & set(bodies) - {name}:
            found |= messages(helper)
        return found - FIELD_WORDS

    return {kind: messages(kind) for kind in kinds}


def test_each_event_type_uses_the_same_messages_in_python_and_in_the_browser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One catalog of words: the terminal (``event_lines``) and the web client
    (``events.js``) word each event type with the same whole messages."""
    python, js = _python_messages(monkeypatch), _js_messages()
    assert set(python) == set(js)
    for kind, messages in python.items():
        assert messages == js[kind], kind


def test_events_js_joins_no_translated_pieces() -> None:
    """events.js fills whole messages and puts lines under each other; it joins only lists
    (cards, names, scores) and a clock's digits, and builds no string by hand."""
    source = EVENTS_JS.read_text()
    assert "`" not in source and not re.search(r'["\)] \+ |\+ ["t]', source)
    joins = sorted(re.findall(r"\.join\(([^)]*)\)", source))
    assert joins == sorted(['", "', '":"', '":"', '" "', '"\\n"']), joins
    assert "capital" not in source
