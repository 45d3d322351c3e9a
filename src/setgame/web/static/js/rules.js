// The rules page: the fragment is served in the page language; this module
// only sets up the header (language, theme) and draws the example cards that
// the fragment marks: data-example="<code> ..." on the classic rules, and
// data-cards (with data-previous for a chain) on each variant's examples, whose
// cards may be of any deck (MegaSet's five letters, 4Set's fourth values).

import { init } from "./common.js";
import { renderTable } from "./table.js";

await init({ cards: true });

const codesOf = (text) => (text || "").split(/\s+/).filter(Boolean);

function drawExample(box, codes) {
  box.classList.add("table", "example");
  renderTable(box, codes, { attr: "data-code", keys: false });
}

for (const box of document.querySelectorAll("[data-example]")) {
  drawExample(box, codesOf(box.dataset.example));
}

// A variant's example: its cards drawn above the sentence (a chain's previous set
// first, marked apart), so the words and the drawing say the same thing.
for (const para of document.querySelectorAll(".variant-example[data-cards]")) {
  const drawn = document.createElement("div");
  drawn.className = "variant-drawing";
  drawn.setAttribute("aria-hidden", "true"); // the sentence names the cards already
  for (const [codes, part] of [[codesOf(para.dataset.previous), "previous"], [codesOf(para.dataset.cards), "claim"]]) {
    if (!codes.length) continue;
    const box = document.createElement("div");
    box.dataset.part = part;
    drawExample(box, codes);
    drawn.append(box);
  }
  para.before(drawn);
}
