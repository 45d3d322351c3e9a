"""The SVG cards (R01): every card drawn with its number, shape, shading and color, and
the colorblind option keeps them apart without relying on hue alone."""

from __future__ import annotations

from typing import Any

import pytest

from setgame import CARDS, card_name

pytestmark = pytest.mark.browser

DRAW_ALL = """async (codes) => {
  const { cardSVG, ensureDefs, labelMarks } = await import("/static/js/cards.js");
  ensureDefs();
  const box = document.createElement("div");
  document.body.append(box);
  const out = {};
  for (const code of codes) {
    const svg = cardSVG(code);
    box.append(svg);
    labelMarks(box, { R: "R", G: "G", P: "P" });
    const paths = [...svg.querySelectorAll("path.sym")];
    const first = getComputedStyle(paths[0]);
    out[code] = {
      count: paths.length,
      shapes: [...new Set(paths.map((p) => p.getAttribute("d")))],
      fill: paths[0].getAttribute("fill") || first.fill,
      stroke: first.stroke,
      mark: svg.querySelector("text.cbmark").textContent,
      markShown: getComputedStyle(svg.querySelector("text.cbmark")).display !== "none",
    };
  }
  box.remove();
  return out;
}"""


def draw_all(page: Any) -> dict[str, dict[str, Any]]:
    codes = [card_name(c) for c in CARDS]
    cards: dict[str, dict[str, Any]] = page.evaluate(DRAW_ALL, codes)
    return cards


def test_r01_every_card_is_drawn_with_its_four_attributes(live_server: str, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{live_server}/rules")
    cards = draw_all(page)
    assert len(cards) == 81
    by_shape: dict[str, set[str]] = {}
    by_color: dict[str, set[str]] = {}
    for code, card in cards.items():
        number, color, shading, shape = code
        assert card["count"] == int(number), code
        assert len(card["shapes"]) == 1, code
        by_shape.setdefault(shape, set()).update(card["shapes"])
        by_color.setdefault(color, set()).add(card["stroke"])
        if shading == "T":
            assert card["fill"] == f"url(#stripe-{color})", code
        elif shading == "O":
            assert card["fill"] == "none", code
        else:
            assert card["fill"] == card["stroke"], code  # solid: filled with its color
        assert not card["markShown"], code  # letters only in colorblind mode
    assert all(len(paths) == 1 for paths in by_shape.values())
    assert len({next(iter(p)) for p in by_shape.values()}) == 3  # three different outlines
    assert all(len(strokes) == 1 for strokes in by_color.values())
    assert len({next(iter(s)) for s in by_color.values()}) == 3  # three different colors


def test_colorblind_cards_carry_color_letters(live_server: str, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{live_server}/rules")
    normal = draw_all(page)
    page.evaluate("localStorage.setItem('setgame.colorblind', '1')")
    page.reload()
    cards = draw_all(page)
    assert all(card["markShown"] for card in cards.values())
    assert {code: card["mark"] for code, card in cards.items()} == {c: c[1] for c in cards}
    colors = {card["stroke"] for card in cards.values()}
    assert len(colors) == 3
    assert colors != {card["stroke"] for card in normal.values()}  # a palette of its own


CLEAR_OF_SYMBOLS = """async (codes) => {
  const { cardSVG, ensureDefs, labelMarks } = await import("/static/js/cards.js");
  document.documentElement.classList.add("cb");
  ensureDefs();
  const touching = [];
  for (const code of codes) {
    const svg = cardSVG(code);
    svg.setAttribute("width", "200");
    document.body.append(svg);
    labelMarks(svg, { R: "К", G: "З", P: "Ф" });  // the widest letters of the five languages
    const mark = svg.querySelector("text.cbmark").getBoundingClientRect();
    for (const path of svg.querySelectorAll("path.sym")) {
      const sym = path.getBoundingClientRect();
      const apart = mark.right <= sym.left || sym.right <= mark.left
        || mark.bottom <= sym.top || sym.bottom <= mark.top;
      if (!apart) touching.push(code);
    }
    svg.remove();
  }
  return touching;
}"""


def test_colorblind_letter_stays_clear_of_the_symbols(live_server: str, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{live_server}/rules")
    codes = [card_name(c) for c in CARDS if card_name(c).startswith("3")]
    assert page.evaluate(CLEAR_OF_SYMBOLS, codes) == []
