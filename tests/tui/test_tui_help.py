"""The ``?`` help (issue 21): the variant's rule, the keys, and the legend of the cards'
codes and glyphs, in the player's language; it closes with ``?`` or Escape and takes
no card while it is open."""

from __future__ import annotations

from typing import Any

import pytest
from textual.geometry import Region
from textual.widgets import Static

from setgame.rules.variants import VARIANTS, find_variant
from setgame.tui.app import SetApp
from setgame.tui.face import BORDER_MARKS, glyph_of
from setgame.tui.helpscreen import HelpScreen
from setgame.tui.widgets import KEYS
from setgame.words.flaw_words import about
from setgame.words.i18n import attribute_name, value_name
from tui.tuikit import FakeClock, make_app

#: The start of each kind's rule (GhostSet's is its only variant's description).
RULES = {
    "set": "A set: three cards on which each attribute",
    "ultraset": "An UltraSet: four cards that split into two pairs",
    "4set": "A 4Set: four cards on which each attribute",
}


def help_lines(app: SetApp) -> list[str]:
    """The help's text as drawn (all of it, scrolled or not)."""
    body = app.screen.query_one("#help-text", Static)
    return [strip.text.rstrip() for strip in body.render_lines(Region(0, 0, *body.outer_size))]


def help_text(app: SetApp) -> str:
    return " ".join(" ".join(help_lines(app)).split())


async def _open_help(app: SetApp, pilot: Any) -> None:
    await pilot.press("question_mark")
    await pilot.pause()
    assert isinstance(app.screen, HelpScreen)


@pytest.mark.parametrize(
    ("lang", "rule"),
    [
        ("en", "A set: three cards on which each attribute (number, color, shading, shape)"),
        ("ru", "Сет — три карты, у которых каждый признак"),
        ("pl", "SET to trzy karty, na których każda cecha"),
        ("it", "Un SET sono tre carte in cui ogni caratteristica"),
        ("de", "Ein SET sind drei Karten, bei denen jedes Merkmal (Anzahl, Farbe"),
    ],
)
async def test_the_help_says_the_rule_in_the_players_language(
    clock: FakeClock, lang: str, rule: str
) -> None:
    app = make_app(clock, "solo", deck="full", seed=3, lang=lang)
    async with app.run_test(size=(100, 32)) as pilot:
        assert "?" in str(app.status_bar.content)  # the key is named on screen
        await _open_help(app, pilot)
        text = help_text(app)
        assert about("classic", lang) in text and rule in text
        for attr in range(4):
            assert attribute_name(attr, lang) in text
            for value in range(3):
                assert value_name(attr, value, lang) in text


@pytest.mark.parametrize("name", sorted(VARIANTS))
async def test_every_variant_has_its_rule_and_its_legend(clock: FakeClock, name: str) -> None:
    """The description and (where it is not the rule) the rule of its kind; every letter
    of the deck's notation with its word; every glyph of its cards."""
    options = {"day": "2026-11-22"} if name == "puzzle" else {}
    app = make_app(clock, "practice", deck="full", seed=3, variant=name, **options)
    variant = find_variant(name)
    deck = variant.deck
    async with app.run_test(size=(100, 40)) as pilot:
        await _open_help(app, pilot)
        text = help_text(app)
        assert about(name, "en") in text
        kind = variant.kind.name
        if name == kind:  # its own description is the rule
            cards = {"ultraset": "four cards", "4set": "four cards", "ghostset": "six cards"}
            assert cards[kind] in text
        else:
            assert RULES[kind] in text
        assert not [rule for k, rule in RULES.items() if k != kind and rule in text]
        assert "A card's code: " in text
        codes = {deck.name_of(card) for card in deck.cards}
        for a, attribute in enumerate(deck.attributes):
            shown = {code[a] for code in codes}
            for letter in shown:
                word = value_name(a, attribute.letters.index(letter), "en", deck)
                assert f"{letter} {word}" in text, (letter, word)
        for code in codes:
            values = deck.values(deck.parse(code))
            assert glyph_of(values[3], values[2], deck) in text
        if deck.width == 5:
            assert all(mark in text for mark in BORDER_MARKS)


async def test_the_help_closes_and_takes_no_card(clock: FakeClock) -> None:
    app = make_app(clock, "solo", deck="full", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_help(app, pilot)
        await pilot.press(KEYS[0], KEYS[1])  # under the help: no card taken
        assert app.selected == []
        await pilot.press("question_mark")
        assert not isinstance(app.screen, HelpScreen)
        await _open_help(app, pilot)
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press(KEYS[0])
        assert len(app.selected) == 1


async def test_the_help_fits_80x24(clock: FakeClock) -> None:
    """In the smallest terminal the help (MegaSet's, the longest legend) is whole on screen,
    or scrolls to show the rest."""
    app = make_app(clock, "solo", deck="full", seed=3, variant="megaset", lang="ru")
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_help(app, pilot)
        box = app.screen.query_one("#help-box")
        assert app.screen.region.contains_region(box.region)
        lines = help_lines(app)
        assert max(len(line) for line in lines) <= box.content_region.width
        assert any("┆" in line for line in lines)
