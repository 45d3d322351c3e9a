// What a variant adds to a table, drawn from a view (the room page and the replay page):
// the previous set of the chain variants, the groups found in Puzzle, and in Memory the
// cards of a miss, face up a moment where they lay. The view describes its variant
// (`variant`: name, title, claim, links, flow), so no registry is needed here.

import { el, fmt, t, tn } from "./common.js";
import { linkRule } from "./flaws.js";
import { previousKey } from "./keys.js";
import { renderTable } from "./table.js";

const CLASSIC = { name: "classic", title: "Classic", claim: 3, links: 0, flow: "normal" };

// The view's variant; a view without one is Classic.
export const variantOf = (state) => state?.variant || CLASSIC;
export const isChain = (state) => (variantOf(state).links || 0) > 0;
export const isPuzzle = (state) => variantOf(state).flow === "puzzle";
export const isMemory = (state) => variantOf(state).flow === "memory";

// The table's codes as shown: a Memory miss ({positions, cards}) face up where it lay.
export function withMiss(table, miss) {
  const codes = [...(table || [])];
  if (miss) miss.positions.forEach((at, i) => at < codes.length && (codes[at] = miss.cards[i]));
  return codes;
}

// Chain variants: the previous set in `box` (a section with a .table, and on the live page
// a .rule), apart from the table. Live, its cards are picked like the table's (data-card,
// data-previous, the fourth key row's keys) and the box keeps its place from the deal on;
// in a replay they are drawn (data-code) only when there is a previous set.
export function renderPrevious(box, state, live = true) {
  box.hidden = live ? !isChain(state) : !state?.previous?.length;
  if (box.hidden) return;
  const codes = state.previous || [];
  const opts = { rows: 1, motion: true, ...(live ? { keyOf: previousKey, pos: false } : { attr: "data-code", keys: false }) };
  renderTable(box.querySelector(".table"), codes, opts);
  if (!live) return;
  for (const card of box.querySelectorAll("[data-card]")) card.dataset.previous = "";
  const links = variantOf(state).links;
  const line = box.querySelector(".rule");
  line.textContent = codes.length ? linkRule(links) : tn("room.previous.first.one", "room.previous.first.other", links);
  line.title = line.textContent; // cut after two lines on a narrow screen
}

// Puzzle: "Found k of n" and the groups found on this table, small, in `box` (a section
// with a .count and an ol). Hidden for the other variants.
export function renderFound(box, state) {
  box.hidden = !isPuzzle(state);
  if (box.hidden) return;
  const found = state.found || [];
  box.querySelector(".count").textContent = t("room.found", { k: fmt(found.length), n: fmt(state.groups ?? 0) });
  const list = box.querySelector("ol");
  const drawn = found.map((group) => group.join(" ")).join(",");
  if (list.dataset.drawn === drawn) return; // drawn already: the found groups do not flicker
  list.dataset.drawn = drawn;
  list.replaceChildren(...found.map((group) => el("li", {}, miniTable(group))));
}

// Cards drawn small (found groups, a replay's events): data-code, no keys.
export function miniTable(codes) {
  const cards = el("div", { class: "table mini" });
  renderTable(cards, codes, { attr: "data-code", keys: false });
  return cards;
}
