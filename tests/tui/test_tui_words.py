"""What the terminal says, in the players' languages: no turns, the lockout words of
DECISIONS, the fair-call wait with its seconds, the missed set, bots' names."""

from __future__ import annotations

import pytest

from setgame.tui.strings import error_message, event_message, player_name, tr
from tui.tuikit import FakeClock, make_app

VIEW = {
    "you": "a",
    "mode": "multi",
    "players": [
        {"id": "a", "name": "Ann", "cooldown_in": 4.25},
        {"id": "bot1", "name": "Bot 1"},
    ],
}


@pytest.mark.parametrize(
    ("lang", "seconds"), [("en", "4.2 s"), ("ru", "4,2 с"), ("pl", "4,2 s"), ("de", "4,2 s")]
)
def test_a_refused_call_during_the_cooldown_says_the_seconds_left(lang: str, seconds: str) -> None:
    text = error_message("cooling_down", "'Ann' may call again in 4.2 s", lang, VIEW)
    assert seconds in text
    waiting = {**VIEW, "players": [{"id": "a", "name": "Ann", "cooldown_in": None}]}
    assert seconds not in error_message("cooling_down", "x", lang, waiting)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "There was a set on the table: 1RSD 2GTO 3POS"),
        ("ru", "На столе был сет: 1RSD 2GTO 3POS"),
        ("it", "Sul tavolo c'era un SET: 1RSD 2GTO 3POS"),
    ],
)
def test_cards_dealt_after_a_no_set_vote_name_the_missed_set(lang: str, words: str) -> None:
    event = {"type": "cards_added", "why": "vote", "missed": ["1RSD", "2GTO", "3POS"]}
    assert words in (event_message(event, VIEW, lang) or "")
    assert "1RSD" not in (event_message({**event, "missed": None}, VIEW, lang) or "")


@pytest.mark.parametrize(
    ("lang", "word"), [("ru", "заблокирован"), ("pl", "blokad"), ("de", "gesperrt")]
)
def test_lockout_words_follow_decisions_and_the_room_rule(lang: str, word: str) -> None:
    mine = error_message("locked_out", "x", lang, VIEW).lower()
    assert word in mine and "пропуск" not in mine and "pauz" not in mine
    cards = {**VIEW, "settings": {"lockout_lift": "set_or_cards"}}
    assert error_message("locked_out", "x", lang, cards) != error_message(
        "locked_out", "x", lang, VIEW
    )


@pytest.mark.parametrize("lang", ["en", "ru", "pl", "it", "de"])
def test_no_turns_anywhere(lang: str) -> None:
    line = tr("You hold the board: pick three cards within {seconds}", lang, seconds="5 s")
    for turn in ("your turn", "ваш ход", "twój ruch", "tocca a te", "du bist dran"):
        assert turn not in line.lower()


def test_bots_are_named_in_the_players_language() -> None:
    assert player_name({"id": "bot1", "name": "Bot 1"}, "a", "ru") == "Бот 1"
    assert player_name({"id": "x", "name": "Bot 1"}, "a", "ru") == "Bot 1"  # a person so named


def test_polish_genitive_is_seta() -> None:
    said = [tr(m, "pl") for m in ("no set?", "No set", "err.already_declared")]
    assert all("SETa" in text for text in said) and not any("setu" in t.lower() for t in said)


async def test_ctrl_c_says_how_to_leave_in_the_players_language(clock: FakeClock) -> None:
    app = make_app(clock, "solo", deck="full", seed=1, lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        said = [(n.title, n.message) for n in app._notifications]
        assert said == [("Хотите выйти?", "Чтобы выйти из игры, нажмите q.")]
        assert app.is_running  # Ctrl+C does not quit (Textual): q does, after asking


def test_a_wrong_call_says_when_its_caller_may_call_again() -> None:
    event = {"type": "wrong_call", "player": "bot1", "reason": "timeout", "cooldown": 10}
    assert event_message(event, VIEW, "de") == (
        "Bot 1 hat nicht rechtzeitig gewählt.\nBot 1 kann in 10,0 s wieder rufen."
    )  # what follows from the wrong call on a line of its own (issue 13, 7)
    mine = {**event, "player": "a"}
    assert (event_message(mine, VIEW, "ru") or "").endswith("через 10,0 с.")
    assert "10" not in (event_message({**event, "cooldown": 0}, VIEW, "en") or "")


def test_a_seat_that_left_is_not_said_to_lose_its_connection() -> None:
    """The server reports the connection of a seat that has just left; that is no drop."""
    drop = {"type": "presence", "player": "bot1", "connected": False}
    assert event_message(drop, VIEW, "en") == "Bot 1 lost the connection"
    departed = {**VIEW, "players": [VIEW["players"][0], {"id": "bot1", "present": False}]}
    assert event_message(drop, departed, "en") is None
    dropped = {**VIEW, "players": [VIEW["players"][0]]}  # left without points (DECISIONS 6)
    assert event_message(drop, dropped, "en") is None
