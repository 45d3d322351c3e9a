"""Lookalike names (this project's own rule, ``setgame.server.names``)."""

from __future__ import annotations

import pytest

from setgame.server.names import NameRefused, bot_like, check_name, name_key


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ann", "ANN"),  # case
        ("Ann", "Аnn"),  # Cyrillic А
        ("Olga", "0lga"),  # digit zero
        ("Olga", "Οlga"),  # Greek Omicron
        ("Bill", "B1ll"),  # one
        ("Bill", "BIll"),  # capital i
        ("Kim", "Kіm"),  # Cyrillic і
        ("Mia", "rnia"),  # r n drawn as m
        ("Zoe", "Zoë"),  # an accent
        ("Zoe", "Z o e"),  # spaces
        ("Zoe", "Zo\u200be"),  # an invisible space
        ("Zoe", "Ｚｏｅ"),  # full width (NFKC)
        ("Sam", "$am"),
        ("Paul", "Раul"),  # Cyrillic Р
    ],
)
def test_lookalike_names_have_one_key(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize(
    ("a", "b"), [("Ann", "Anna"), ("Маша", "Миша"), ("Bob", "Rob"), ("Li", "Lu"), ("Eve", "Ava")]
)
def test_different_names_stay_apart(a: str, b: str) -> None:
    assert name_key(a) != name_key(b)


@pytest.mark.parametrize("name", ["Bot", "bot", "Bot 1", "B0T 12", "Вот", "Бот 3", "bot_7", "Bots"])
def test_names_like_a_computer_players_are_bot_like(name: str) -> None:
    assert bot_like(name)


@pytest.mark.parametrize("name", ["Bob", "Botticelli", "Abbot", "Robot Wars", "Boris", "Tob"])
def test_other_names_are_not(name: str) -> None:
    assert not bot_like(name)


@pytest.mark.parametrize("bad", ["", "   ", "x" * 25, "a\nb", "...", 5, None])
def test_bad_names_are_refused_quoting_them(bad: object) -> None:
    with pytest.raises(NameRefused) as refused:
        check_name(bad)
    assert refused.value.code == "bad_name" and repr(bad) in str(refused.value)
