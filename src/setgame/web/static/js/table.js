// The table of face-up cards: 3 rows, one more column per three cards. Table
// order is column by column, so card i stands in row i % 3 of column i / 3.

import { cardSVG, ensureDefs, labelMarks } from "./cards.js";
import { cardLabel, el, t } from "./common.js";
import { keyFor } from "./keys.js";

export function colorLetters() {
  return { R: t("cb.R"), G: t("cb.G"), P: t("cb.P") };
}

// A card element. `attr` is "data-card" on a live table and something else
// elsewhere (replays), so that only live table cards carry data-card.
export function cardElement(code, index, { attr = "data-card", keys = true } = {}) {
  const node = el(
    keys ? "button" : "div",
    {
      class: "card",
      type: keys ? "button" : null,
      [attr]: code,
      "aria-label": cardLabel(code),
      role: keys ? null : "img",
      title: keys ? `${cardLabel(code)} (${keyFor(index)})` : cardLabel(code),
    },
    cardSVG(code),
  );
  if (keys) node.append(el("span", { class: "key", "aria-hidden": "true", text: keyFor(index) }));
  labelMarks(node, colorLetters());
  return node;
}

// After a layout change: the key labels of the cards already on the table.
export function relabelKeys(box) {
  [...box.children].forEach((card, i) => {
    const key = card.querySelector(".key");
    if (key) key.textContent = keyFor(i);
    if (card.dataset.card) card.title = `${cardLabel(card.dataset.card)} (${keyFor(i)})`;
  });
}

// Show `codes` in `box`, keeping the elements of cards that did not move so a
// replaced card changes in place and the others stay still.
export function renderTable(box, codes, opts = {}) {
  ensureDefs();
  const attr = opts.attr || "data-card";
  const cols = Math.max(1, Math.ceil(codes.length / 3));
  box.style.setProperty("--cols", cols);
  box.dataset.cards = String(codes.length);
  const old = [...box.children];
  codes.forEach((code, i) => {
    const have = old[i];
    if (have && have.getAttribute(attr) === code) return;
    const node = cardElement(code, i, opts);
    if (have) {
      node.classList.add("fresh");
      have.replaceWith(node);
    } else {
      box.append(node);
    }
  });
  for (const extra of old.slice(codes.length)) extra.remove();
}
