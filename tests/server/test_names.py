"""Lookalike names (this project's own rule, ``setgame.server.names``)."""

from __future__ import annotations

from pathlib import Path

import disarm
import pytest

from setgame.server.accounts import Accounts, seat_name
from setgame.server.names import KEY_SCHEMA, NameRefused, bot_like, check_name, name_key
from setgame.server.storage import Storage


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


@pytest.mark.parametrize("bad", ["", "   ", "x" * 25, "...", 5, None, "\ufdfa" * 8])
def test_bad_names_are_refused_quoting_them(bad: object) -> None:
    with pytest.raises(NameRefused) as refused:
        check_name(bad)
    assert refused.value.code == "bad_name" and repr(bad) in str(refused.value)


# Visual lookalikes of claimed names, as issue 20 found them (invisible Hangul fillers,
# Armenian, small capitals, Cherokee, Lisu, Latin letters like ɑ ɡ ɩ) and their kin: each
# must get the claimed name's key or be refused outright.
CLAIMED = ("anna", "Olga", "KATE", "Greg", "Ivan", "Bob", "Helen", "Maria")
LOOKALIKES = [
    # invisible characters: Hangul fillers, zero-width, tags, bidi, variation selectors...
    "\u3164anna", "an\u115fna", "anna\u1160", "an\uffa0na", "ann\u200ba", "a\u200cnna",
    "an\u200dna", "anna\u2060", "\ufeffanna", "an\u00adna", "anna\U000e0041",
    "anna\U000e007f", "\u202eanna", "an\u2066na", "anna\ufe0f", "an\u034fna",
    "anna\u180e", "an\u2800na", "anna\u3000x", "an\u2028na", "anna\u061c",
    # Armenian letters for Latin ones, alone and mixed
    "\u0585lga", "Olg\u0561", "\u0570elen", "Gre\u0581", "\u0555lga",
    # small capitals
    "\u1d00\u0274\u0274\u1d00", "\u1d0b\u1d00\u1d1b\u1d07", "\u0299\u1d0f\u0299",
    "\u029c\u1d07\u029f\u1d07\u0274", "\u0262\u0280\u1d07\u0262",
    "\u1d0d\u1d00\u0280\u026a\u1d00", "Ann\u1d00",
    # Cherokee
    "\u13e6\u13aa\u13a2\u13ac", "\u13f4\u13be\u13f4", "\u13c0\u13a1\u13ac\u13c0",
    "\u13bbelen", "\u13aanna", "K\u13aaTE", "\uab7anna",
    # Lisu
    "\ua4ee\ua4e0\ua4e0\ua4ee", "\ua4d7\ua4ee\ua4d4\ua4f0", "\ua4d0\ua4f3\ua4d0",
    "\ua4d6\ua4e3\ua4f0\ua4d6", "\ua4eenna", "\ua4f2van",
    # Latin letters that pass for others
    "\u0251nn\u0251", "\u0261reg", "\u0269van", "\u0131van", "Ol\u0261a", "M\u0251ria",
    "Iv\u0251n", "\ua7b5ob",
    # Cyrillic and Greek, fullwidth, mathematical and circled letters, digits
    "\u0410nna", "\u0430\u043f\u043f\u0430", "\u039flga", "\u041e\u04cf\u0261\u0430",
    "\uff4b\uff41\uff54\uff45", "\U0001d41a\U0001d427\U0001d427\U0001d41a",
    "\u24d0\u24dd\u24dd\u24d0", "0lga", "B0b", "1van", "He1en", "Gr\u0113g",
]


def _claimed_by(name: str) -> str | None:
    key = name_key(name)
    return next((c for c in CLAIMED if name_key(c) == key), None)


@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_lookalike_of_a_claimed_name_has_its_key_or_is_refused(name: str) -> None:
    try:
        check_name(name)
    except NameRefused as refused:
        assert refused.code.startswith(("name_", "bad_name")) and repr(name) in str(refused)
        return
    assert _claimed_by(name) is not None, (name, name_key(name))


async def test_no_lookalike_can_sit_under_or_claim_a_claimed_name(tmp_path: Path) -> None:
    """Through the accounts themselves: every lookalike is refused to a guest and to a
    claim, each time with an error that quotes it."""
    store = Storage(str(tmp_path / "names.db"))
    await store.open()
    try:
        accounts = Accounts(store)
        for name in CLAIMED:
            await accounts.claim(name, "correct horse")
        for name in LOOKALIKES:
            with pytest.raises(NameRefused) as sitting:
                await seat_name(accounts, name, None)
            with pytest.raises(NameRefused) as claiming:
                await accounts.claim(name, "correct horse")
            for refused in (sitting.value, claiming.value):
                assert refused.code in (
                    "name_claimed", "name_taken", "name_invisible", "name_mixed", "bad_name"
                ) and repr(name) in str(refused), (name, refused)
    finally:
        await store.close()


@pytest.mark.parametrize(
    "name",
    ["Anna_1990", "Łukasz", "Jörg Müller", "Саша-99", "Ёжик", "Gianluca.it", "Zoë", "Nguyễn",
     "Αλέξης", "Kasia 🌸", "Anna ❤️", "D'Artagnan", "Jean-Luc", "山田太郎", "やまだタロウ"],
)
def test_names_real_players_write_pass(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(
    ("name", "code", "quoted"),
    [
        ("Anna\u3164", "name_invisible", "U+3164"),
        ("a\nb", "name_invisible", "U+000A"),
        ("Ann\u200b", "name_invisible", "U+200B"),
        ("\u0410nna", "name_mixed", "Cyrillic and Latin"),
        ("Zo" + "e" + "\u0301" * 4, "name_marks", "not 3"),
        ("Bob\u0308\u0301\u0300\u0302", "name_marks", "not 4"),
    ],
)
def test_a_refused_name_is_told_why_quoting_it(name: str, code: str, quoted: str) -> None:
    with pytest.raises(NameRefused) as refused:
        check_name(name)
    assert refused.value.code == code
    assert quoted in str(refused.value) and repr(name) in str(refused.value)


def test_the_stored_keys_were_made_with_this_disarm_key_schema() -> None:
    """A disarm release with another key schema would change the keys stored in
    ``accounts.key``: it needs a migration that recomputes them (as 0011 did) first."""
    assert disarm.KEY_SCHEMA_VERSION == KEY_SCHEMA
