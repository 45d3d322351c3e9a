// SVG cards drawn like the printed ones: 1-3 symbols, diamond/oval/squiggle,
// solid/striped/open, red/green/purple. Colors, stripes and checks come from CSS
// classes, so themes and the colorblind option restyle every card without redrawing.
// The variant decks (docs/variants.md) add MegaSet's fifth attribute, a border
// (fifth letter: S single, D double, T dotted), and 4Set's fourth values: number 4,
// color B blue, shading C checkered, shape H heart.

const NS = "http://www.w3.org/2000/svg";
export const COLORS = "RGPB";
const SHADINGS = { S: "solid", T: "striped", O: "open", C: "checkered" };
const PATTERNS = { T: "stripe", C: "check" };

// Each symbol stands upright in a 22 x 54 box centered on (0, 0).
const PATHS = {
  D: "M0,-26 L11,0 L0,26 L-11,0 Z",
  O: "M-11,-15 A11,11 0 0 1 11,-15 L11,15 A11,11 0 0 1 -11,15 Z",
  // Point-symmetric S: the left edge is the right edge turned half a circle.
  S:
    "M3,-26 C12,-27 13,-14 8,-6 C4,0 6,8 7,14 C8,22 2,27 -3,26 " +
    "C-12,27 -13,14 -8,6 C-4,0 -6,-8 -7,-14 C-8,-22 -2,-27 3,-26 Z",
  // A heart, its two round lobes on top and its point below (40 high: taller, it would
  // read as a shield).
  H:
    "M0,-12 C-2,-21 -11,-23 -11,-13 C-11,-3 -4,7 0,20 " +
    "C4,7 11,-3 11,-13 C11,-23 2,-21 0,-12 Z",
};

const STANDARD = /^[123][RGP][STO][DOS]$/;
const MEGASET = /^[123][RGP][STO][DOS][SDT]$/;
const FOURSET = /^[1-4][RGPB][STOC][DOSH]$/;

// A card code of any deck: R02's four letters, MegaSet's five, or 4Set's.
export function isCode(code) {
  return typeof code === "string" && (MEGASET.test(code) || FOURSET.test(code));
}

// The fill patterns every card references (stripes and checks per color), in one
// hidden <svg>.
export function ensureDefs(doc = document) {
  if (doc.getElementById("card-defs")) return;
  const svg = doc.createElementNS(NS, "svg");
  svg.id = "card-defs";
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("width", "0");
  svg.setAttribute("height", "0");
  svg.style.position = "absolute";
  const defs = doc.createElementNS(NS, "defs");
  for (const c of COLORS) defs.append(stripes(doc, c), checks(doc, c));
  svg.append(defs);
  doc.body.prepend(svg);
}

function pattern(doc, id, size) {
  const p = doc.createElementNS(NS, "pattern");
  p.id = id;
  p.setAttribute("patternUnits", "userSpaceOnUse");
  p.setAttribute("width", String(size[0]));
  p.setAttribute("height", String(size[1]));
  return p;
}

function rect(doc, cls, x, y, w, h) {
  const r = doc.createElementNS(NS, "rect");
  r.setAttribute("class", cls);
  for (const [k, v] of Object.entries({ x, y, width: w, height: h })) r.setAttribute(k, String(v));
  return r;
}

// Thin horizontal lines, as printed.
function stripes(doc, c) {
  const p = pattern(doc, `stripe-${c}`, [40, 4]);
  p.append(rect(doc, `stripe c${c}`, 0, 0, 40, 1.3));
  return p;
}

// A checkerboard of squares, so checkered never looks like striped: filled squares
// in both directions against stripes' unbroken lines.
function checks(doc, c) {
  const p = pattern(doc, `check-${c}`, [7, 7]);
  p.append(rect(doc, `stripe c${c}`, 0, 0, 3.5, 3.5), rect(doc, `stripe c${c}`, 3.5, 3.5, 3.5, 3.5));
  return p;
}

function symbol(shape, color, shading, x, scale) {
  const path = document.createElementNS(NS, "path");
  path.setAttribute("d", PATHS[shape]);
  path.setAttribute("transform", `translate(${x} 0)${scale === 1 ? "" : ` scale(${scale})`}`);
  path.setAttribute("class", `sym c${color} ${SHADINGS[shading]}`);
  if (PATTERNS[shading]) path.setAttribute("fill", `url(#${PATTERNS[shading]}-${color})`);
  return path;
}

// The border of a MegaSet card, in the ink color (not the card's color: the border is an
// attribute of its own): one line, two lines, or a line of dots.
function border(kind) {
  const g = document.createElementNS(NS, "g");
  g.setAttribute("class", `border b${kind}`);
  const line = (inset) => {
    const r = rect(document, "edge", -54 + inset, -33.8 + inset, 108 - 2 * inset, 67.6 - 2 * inset);
    r.setAttribute("rx", String(5 - inset / 2));
    return r;
  };
  g.append(line(0));
  if (kind === "D") g.append(line(3.4));
  return g;
}

// Where the symbols stand: up to three side by side as printed; four (4Set) a little
// smaller so they fit the same card and keep clear of the colorblind letter.
function layout(count) {
  if (count === 4) return { step: 22, scale: 0.8 };
  return { step: 28, scale: 1 };
}

// The SVG picture of a card; `code` in the deck's notation such as "2RTD", "2RTDS", "4BCH".
export function cardSVG(code) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "face");
  const bordered = typeof code === "string" && code.length === 5;
  // A bordered card is drawn a little further away, so the border has room round the
  // symbols; the same 100 : 64 shape as every card.
  svg.setAttribute("viewBox", bordered ? "-56 -35.84 112 71.68" : "-50 -32 100 64");
  if (!isCode(code)) return svg;
  const [n, color, shading, shape, edge] = code;
  if (edge) svg.append(border(edge));
  const count = Number(n);
  const { step, scale } = layout(count);
  const g = document.createElementNS(NS, "g");
  for (let i = 0; i < count; i++) {
    g.append(symbol(shape, color, shading, (i - (count - 1) / 2) * step, scale));
  }
  svg.append(g);
  const mark = document.createElementNS(NS, "text");
  mark.setAttribute("class", `cbmark c${color}`);
  // In the top-left corner, left of x = -39 where a three-symbol card's first symbol begins
  // (-38.8 for four), inside a border's lines.
  mark.setAttribute("x", bordered ? "-48" : "-49");
  mark.setAttribute("y", bordered ? "-22" : "-23");
  mark.dataset.color = color;
  svg.append(mark);
  return svg;
}

// The page language's colorblind letters for colors a caller does not name (common.js
// sets them once the catalog is loaded), so every table gets the fourth color's letter.
let knownLetters = {};
export function setMarkLetters(letters) {
  knownLetters = { ...letters };
}

// Fill the colorblind letter marks with the page language's letters.
export function labelMarks(root, letters = {}) {
  for (const el of root.querySelectorAll("text.cbmark")) {
    const c = el.dataset.color;
    el.textContent = letters[c] || knownLetters[c] || c;
  }
}
