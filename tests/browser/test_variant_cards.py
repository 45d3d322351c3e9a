"""The cards of the variant decks (docs/variants.md): MegaSet's border (fifth letter S single,
D double, T dotted) and 4Set's fourth values (number 4, color B blue, shading C checkered,
shape H heart) are drawn for every card of both decks, each code its own picture, in light and
dark themes and in the colorblind palette, and each card has a name in every page language."""

from __future__ import annotations

from typing import Any

import pytest

from setgame.rules.decks import FOURSET, MEGASET
from setgame.words.i18n import LANGUAGES

pytestmark = pytest.mark.browser

MEGA = [MEGASET.name_of(c) for c in MEGASET.cards]
FOUR = [FOURSET.name_of(c) for c in FOURSET.cards]

DRAW = """async (codes) => {
  const { cardSVG, ensureDefs, labelMarks } = await import("/static/js/cards.js");
  const { cardLabel } = await import("/static/js/common.js");
  ensureDefs();
  const within = (r, b) =>
    r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom;
  const rect = (node) => node.getBoundingClientRect();
  const out = {};
  for (const code of codes) {
    const svg = cardSVG(code);
    svg.setAttribute("width", "200");
    document.body.append(svg);
    labelMarks(svg);
    const paths = [...svg.querySelectorAll("path.sym")];
    const box = svg.getBoundingClientRect();
    const inside = paths.every((p) => within(rect(p), box));
    const edges = [...svg.querySelectorAll(".border .edge")];
    // The border's lines stay clear of the symbols: every symbol inside the innermost line.
    const inner = edges.at(-1)?.getBoundingClientRect();
    const framed = !inner || paths.every((p) => within(rect(p), inner));
    const mark = svg.querySelector("text.cbmark");
    const m = mark.getBoundingClientRect();
    const clear = paths.every((p) => {
      const r = p.getBoundingClientRect();
      return m.right <= r.left || r.right <= m.left || m.bottom <= r.top || r.bottom <= m.top;
    });
    const first = getComputedStyle(paths[0]);
    out[code] = {
      html: svg.outerHTML,
      count: paths.length,
      shape: paths[0].getAttribute("d"),
      fill: paths[0].getAttribute("fill") || first.fill,
      stroke: first.stroke,
      edges: edges.length,
      dashed: edges.length ? getComputedStyle(edges[0]).strokeDasharray : null,
      edgeColor: edges.length ? getComputedStyle(edges[0]).stroke : null,
      mark: mark.textContent,
      inside, framed, clear,
      label: cardLabel(code),
    };
    svg.remove();
  }
  return out;
}"""


def open_page(page: Any, url: str) -> None:
    """Open ``url`` and wait until its words are loaded (common.js's init fetches them)."""
    page.goto(url)
    page.wait_for_load_state("networkidle")


def draw(page: Any, codes: list[str]) -> dict[str, dict[str, Any]]:
    cards: dict[str, dict[str, Any]] = page.evaluate(DRAW, codes)
    return cards


def test_every_megaset_card_is_drawn_with_its_border(live_server: str, new_page: Any) -> None:
    page = new_page()
    open_page(page, f"{live_server}/rules")
    cards = draw(page, MEGA)
    assert len(cards) == 243
    assert len({card["html"] for card in cards.values()}) == 243  # each code its own picture
    lines = {"S": 1, "D": 2, "T": 1}
    for code, card in cards.items():
        number, edge = code[0], code[4]
        assert card["count"] == int(number), code
        assert card["edges"] == lines[edge], code
        assert (card["dashed"] not in ("none", None)) == (edge == "T"), code  # dots: dotted only
        assert card["inside"] and card["framed"] and card["clear"], code
        assert card["edgeColor"] != card["stroke"], code  # the border is not the card's color
    # The four standard attributes are drawn as on a standard card.
    for code in ("2RTDS", "2RTDD", "2RTDT"):
        assert cards[code]["fill"] == "url(#stripe-R)"
    assert len({card["shape"] for card in cards.values()}) == 3


def test_every_4set_card_is_drawn_with_its_fourth_values(live_server: str, new_page: Any) -> None:
    page = new_page()
    open_page(page, f"{live_server}/rules")
    cards = draw(page, FOUR)
    assert len(cards) == 256
    assert len({card["html"] for card in cards.values()}) == 256
    shapes: dict[str, set[str]] = {}
    colors: dict[str, set[str]] = {}
    for code, card in cards.items():
        number, color, shading, shape = code
        assert card["count"] == int(number), code
        assert card["edges"] == 0, code
        assert card["inside"] and card["clear"], code  # four symbols fit, clear of the letter
        shapes.setdefault(shape, set()).add(card["shape"])
        colors.setdefault(color, set()).add(card["stroke"])
        fills = {"T": f"url(#stripe-{color})", "C": f"url(#check-{color})", "O": "none"}
        assert card["fill"] == fills.get(shading, card["stroke"]), code
    assert all(len(s) == 1 for s in shapes.values()) and len(set.union(*shapes.values())) == 4
    assert all(len(s) == 1 for s in colors.values()) and len(set.union(*colors.values())) == 4


CHECKS = """() => {
  const cells = (id) => [...document.getElementById(id).querySelectorAll("rect")]
    .map((r) => [r.getAttribute("width"), r.getAttribute("height")].join("x"));
  return { stripe: cells("stripe-B"), check: cells("check-B") };
}"""


def test_checkered_is_squares_and_striped_is_lines(live_server: str, new_page: Any) -> None:
    page = new_page()
    open_page(page, f"{live_server}/rules")
    draw(page, ["4BCH"])
    cells = page.evaluate(CHECKS)
    assert cells["stripe"] == ["40x1.3"]  # one thin line across the pattern
    assert cells["check"] == ["3.5x3.5", "3.5x3.5"]  # two squares: a checkerboard


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_blue_is_a_fourth_color_in_each_palette(
    live_server: str, new_page: Any, theme: str
) -> None:
    page = new_page(color_scheme=theme)
    page.add_init_script(f"localStorage.setItem('setgame.theme', '{theme}')")
    open_page(page, f"{live_server}/rules")
    codes = ["1RSD", "1GSD", "1PSD", "1BSD"]
    normal = {code: card["stroke"] for code, card in draw(page, codes).items()}
    page.evaluate("localStorage.setItem('setgame.colorblind', '1')")
    page.reload()
    page.wait_for_load_state("networkidle")
    cb = draw(page, codes)
    assert len(set(normal.values())) == 4, normal
    assert len({card["stroke"] for card in cb.values()}) == 4, cb
    assert cb["1BSD"]["stroke"] != normal["1BSD"]  # the colorblind palette has its own blue
    assert cb["1BSD"]["mark"] == "B"  # and its letter, like the other colors


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_variant_card_has_a_name_in_the_page_language(
    live_server: str, new_page: Any, lang: str
) -> None:
    page = new_page()
    open_page(page, f"{live_server}/rules?lang={lang}")
    for codes in (MEGA, FOUR):
        labels = {code: card["label"] for code, card in draw(page, codes).items()}
        assert len(set(labels.values())) == len(codes), lang  # no two cards share a name
        for code, label in labels.items():
            assert code not in label and "card." not in label and "{" not in label, (code, label)
    words = draw(page, ["2RTDD", "4BCH"])
    standard = page.evaluate("async () => (await import('/static/js/common.js')).cardLabel('2RTD')")
    assert words["2RTDD"]["label"].startswith(standard)  # the standard name, then the border


TABLE = """async (codes) => {
  const { renderTable } = await import("/static/js/table.js");
  const box = document.createElement("div");
  box.className = "table";
  document.querySelector("main").append(box);
  renderTable(box, codes);
  const page = document.documentElement.clientWidth;
  return [...box.children].map((card) => {
    const r = card.getBoundingClientRect();
    const syms = [...card.querySelectorAll("path.sym")].map((p) => p.getBoundingClientRect());
    return {
      code: card.dataset.card, label: card.getAttribute("aria-label"),
      fits: r.left >= 0 && r.right <= page && r.width > 40,
      inside: syms.every((s) =>
        s.left >= r.left && s.right <= r.right && s.top >= r.top && s.bottom <= r.bottom),
    };
  });
}"""


@pytest.mark.parametrize("width", [1100, 390])
def test_a_table_of_four_symbol_and_bordered_cards_fits(
    live_server: str, new_page: Any, width: int
) -> None:
    page = new_page(viewport={"width": width, "height": 900})
    open_page(page, f"{live_server}/rules")
    four = [c for c in FOUR if c[0] == "4"][:15]  # 4Set's table: 15 cards
    mega = [c for c in MEGA if c[0] == "3"][::5][:16]  # MegaSet's table: 16 cards
    for codes in (four, mega):
        cards = page.evaluate(TABLE, codes)
        assert [c["code"] for c in cards] == codes
        assert all(c["fits"] and c["inside"] and c["label"] for c in cards), cards
        shots = {page.locator(f'[data-card="{code}"]').first.screenshot() for code in codes[:4]}
        assert len(shots) == 4  # four different cards look different on screen
        page.evaluate("document.querySelector('main .table:last-child').remove()")
