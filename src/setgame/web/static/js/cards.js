// SVG cards drawn like the printed ones: 1-3 symbols, diamond/oval/squiggle,
// solid/striped/open, red/green/purple. Colors and stripes come from CSS classes,
// so themes and the colorblind option restyle every card without redrawing.

const NS = "http://www.w3.org/2000/svg";
export const COLORS = "RGP";
const SHADINGS = { S: "solid", T: "striped", O: "open" };

// Each symbol stands upright in a 22 x 54 box centered on (0, 0).
const PATHS = {
  D: "M0,-26 L11,0 L0,26 L-11,0 Z",
  O: "M-11,-15 A11,11 0 0 1 11,-15 L11,15 A11,11 0 0 1 -11,15 Z",
  // Point-symmetric S: the left edge is the right edge turned half a circle.
  S:
    "M3,-26 C12,-27 13,-14 8,-6 C4,0 6,8 7,14 C8,22 2,27 -3,26 " +
    "C-12,27 -13,14 -8,6 C-4,0 -6,-8 -7,-14 C-8,-22 -2,-27 3,-26 Z",
};

export function isCode(code) {
  return typeof code === "string" && /^[123][RGP][STO][DOS]$/.test(code);
}

// One hidden <svg> holds the stripe patterns that every card references.
export function ensureDefs(doc = document) {
  if (doc.getElementById("card-defs")) return;
  const svg = doc.createElementNS(NS, "svg");
  svg.id = "card-defs";
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("width", "0");
  svg.setAttribute("height", "0");
  svg.style.position = "absolute";
  const defs = doc.createElementNS(NS, "defs");
  for (const c of COLORS) {
    const p = doc.createElementNS(NS, "pattern");
    p.id = `stripe-${c}`;
    p.setAttribute("patternUnits", "userSpaceOnUse");
    p.setAttribute("width", "40");
    p.setAttribute("height", "4");
    const line = doc.createElementNS(NS, "rect");
    line.setAttribute("class", `stripe c${c}`);
    line.setAttribute("width", "40");
    line.setAttribute("height", "1.3");
    p.append(line);
    defs.append(p);
  }
  svg.append(defs);
  doc.body.prepend(svg);
}

function symbol(shape, color, shading, x) {
  const path = document.createElementNS(NS, "path");
  path.setAttribute("d", PATHS[shape]);
  path.setAttribute("transform", `translate(${x} 0)`);
  path.setAttribute("class", `sym c${color} ${SHADINGS[shading]}`);
  if (shading === "T") path.setAttribute("fill", `url(#stripe-${color})`);
  return path;
}

// The SVG picture of a card; `code` in R02 notation such as "2RTD".
export function cardSVG(code) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "-50 -32 100 64");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "face");
  if (!isCode(code)) return svg;
  const [n, color, shading, shape] = code;
  const count = Number(n);
  const g = document.createElementNS(NS, "g");
  for (let i = 0; i < count; i++) {
    g.append(symbol(shape, color, shading, (i - (count - 1) / 2) * 28));
  }
  svg.append(g);
  const mark = document.createElementNS(NS, "text");
  mark.setAttribute("class", `cbmark c${color}`);
  // In the top-left corner, left of x = -39 where a three-symbol card's first symbol begins.
  mark.setAttribute("x", "-49");
  mark.setAttribute("y", "-23");
  mark.dataset.color = color;
  svg.append(mark);
  return svg;
}

// Fill the colorblind letter marks with the page language's letters.
export function labelMarks(root, letters) {
  for (const el of root.querySelectorAll("text.cbmark")) {
    el.textContent = letters[el.dataset.color] || el.dataset.color;
  }
}
