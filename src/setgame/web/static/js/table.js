// The table of cards: 3 rows (4 for a 16-card MegaSet table), one more column per
// row count of cards. Table order is column by column, so card i stands in row
// i % rows of column i / rows. In Memory a card may lie face down (a null code).

import { cardSVG, ensureDefs, labelMarks } from "./cards.js";
import { cardLabel, el, t } from "./common.js";
import { keyFor } from "./keys.js";
import { deal, places, slide, take } from "./motion.js";

// MegaSet's 16 cards lie in 4 rows of 4; every other table in 3 rows.
const ROWS = { megaset: 4 };
export const rowsFor = (variant) => ROWS[variant?.name] || 3;

export function colorLetters() {
  return { R: t("cb.R"), G: t("cb.G"), P: t("cb.P") };
}

// A card's name in the page language (common.js names the cards of every deck).
export const cardName = (code) => (typeof code === "string" ? cardLabel(code) : t("card.down"));

// A card element. `attr` is "data-card" on a live table and something else
// elsewhere (replays), so that only live table cards carry data-card. A null code is
// a face-down card (Memory): no code attribute, `data-down`.
export function cardElement(code, index, { attr = "data-card", keys = true, rows = 3, key = null, pos = true } = {}) {
  const down = typeof code !== "string";
  const label = down ? t("card.down_at", { n: index + 1 }) : cardName(code);
  const shown = key ?? keyFor(index, rows);
  const node = el(
    keys ? "button" : "div",
    {
      class: down ? "card down" : "card",
      type: keys ? "button" : null,
      [attr]: down ? null : code,
      "data-down": down ? "" : null,
      "data-pos": keys && pos ? String(index) : null,
      "aria-label": label,
      role: keys ? null : "img",
      title: keys && shown ? `${label} (${shown})` : label,
    },
    down ? backSVG() : cardSVG(code),
  );
  if (keys) node.append(el("span", { class: "key", "aria-hidden": "true", text: shown }));
  labelMarks(node, colorLetters());
  return node;
}

// The back of a card: the game's name on a pattern (CSS), the same for every card and
// unlike any face (no symbol a card could show).
function backSVG() {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "-50 -32 100 64");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "face back");
  const plate = document.createElementNS(NS, "rect");
  plate.setAttribute("x", "-24");
  plate.setAttribute("y", "-11");
  plate.setAttribute("width", "48");
  plate.setAttribute("height", "22");
  plate.setAttribute("rx", "5");
  plate.setAttribute("class", "backplate");
  const name = document.createElementNS(NS, "text");
  name.setAttribute("y", "5.5");
  name.setAttribute("text-anchor", "middle");
  name.setAttribute("class", "backname");
  name.textContent = "SET";
  svg.append(plate, name);
  return svg;
}

// After a layout change: the key labels of the cards already on the table.
export function relabelKeys(box, rows = 3, keyOf = null) {
  [...box.children].forEach((card, i) => {
    const shown = keyOf ? keyOf(i) : keyFor(i, rows);
    const key = card.querySelector(".key");
    if (key) key.textContent = shown;
    const label = card.getAttribute("aria-label");
    if (card.dataset.pos !== undefined || card.dataset.card) card.title = shown ? `${label} (${shown})` : label;
  });
}

const sameCard = (node, code, attr) =>
  typeof code === "string" ? node.getAttribute(attr) === code : node.dataset.down !== undefined;

// Show `codes` in `box`, keeping the elements of cards that did not move so a
// replaced card changes in place and the others stay still. opts: attr, keys, rows
// (3 or 4), pos (false: no data-pos), keyOf(i) (a key label other than the table's,
// e.g. the previous set's), motion (true: cards are dealt, slide and are taken with
// motion.js's animations; the live tables, the puzzle's and a replay's).
export function renderTable(box, codes, opts = {}) {
  ensureDefs();
  const attr = opts.attr || "data-card";
  const rows = opts.rows || 3;
  const cols = Math.max(1, Math.ceil(codes.length / rows));
  const old = [...box.children];
  const same = old.length === codes.length && codes.every((code, i) => sameCard(old[i], code, attr));
  if (same && box.dataset.rows === String(rows)) return; // nothing changed: nothing moves
  const before = opts.motion ? places(box) : new Map();
  box.style.setProperty("--cols", cols);
  box.style.setProperty("--rows", rows);
  box.dataset.cards = String(codes.length);
  box.dataset.rows = String(rows);
  const kept = new Set();
  const dealt = [];
  codes.forEach((code, i) => {
    const have = old[i];
    if (have && sameCard(have, code, attr)) {
      kept.add(have);
      return;
    }
    const key = opts.keyOf ? opts.keyOf(i) : null;
    const node = cardElement(code, i, { ...opts, attr, rows, key });
    if (have) have.replaceWith(node);
    else box.append(node);
    dealt.push(node);
  });
  for (const extra of old.slice(codes.length)) extra.remove();
  if (opts.motion) animate(old, kept, dealt, before, attr);
}

// After a change: cards kept slide from where they were, a card that moved to another
// place slides from its old one, new cards are dealt, cards gone are taken.
function animate(old, kept, dealt, before, attr) {
  if (!before.size && !dealt.length) return;
  const gone = old.filter((node) => !kept.has(node));
  const goneByCode = new Map(gone.filter((node) => codeOf(node, attr)).map((node) => [codeOf(node, attr), node]));
  const moved = new Set();
  for (const node of kept) slide(node, before.get(node));
  let nth = 0;
  for (const node of dealt) {
    const was = goneByCode.get(codeOf(node, attr));
    if (was) {
      moved.add(was); // the same card in another place: it moves there
      slide(node, before.get(was));
    } else {
      deal(node, nth++);
    }
  }
  for (const node of gone) if (!moved.has(node)) take(node, before.get(node));
}

const codeOf = (node, attr) => node.getAttribute(attr) || null;
