// The replay page: steps through a finished game one accepted action at a
// time, showing the table and scores after it and the events it caused.
// Cards here carry data-code, not data-card: only live tables use data-card.

import { el, init, t } from "./common.js";
import { describe } from "./events.js";
import { renderTable } from "./table.js";

const $ = (sel) => document.querySelector(sel);
let steps = [];
let at = 0;
let timer = null;

function nameOf(id, state) {
  return state?.players?.find((p) => p.id === id)?.name ?? id ?? "";
}

// One event in words, with the cards it names drawn small beside it.
function eventItem(ev, ctx) {
  const item = el("li", { text: describe(ev, ctx).text || ev.type });
  if (ev.type === "set_taken" || ev.type === "wrong_call") {
    const cards = el("div", { class: "table mini" });
    renderTable(cards, ev.cards || [], { attr: "data-code", keys: false });
    item.append(cards);
  }
  return item;
}

function show(i) {
  at = Math.max(0, Math.min(steps.length - 1, i));
  const step = steps[at];
  if (!step) return;
  const state = step.state || {};
  renderTable($("#rtable"), state.table || [], { attr: "data-code", keys: false });
  $("#rdeck").textContent = [t("room.deck"), state.deck ?? 0].join(": ");
  $("#rscores").replaceChildren(
    ...(state.players || []).map((p) =>
      el(
        "li",
        { "data-name": p.name, class: state.holder === p.id ? "holding" : "" },
        el("span", { class: "name", text: p.name }),
        el("b", { class: "score", text: String(p.score) }),
      ),
    ),
  );
  const ctx = { nameOf: (id) => nameOf(id, state), you: null };
  $("#revents").replaceChildren(...(step.events || []).map((ev) => eventItem(ev, ctx)));
  $("#scrub").value = String(at);
  $("#stepno").textContent = `${at + 1} / ${steps.length}`;
}

function play() {
  if (timer) {
    clearInterval(timer);
    timer = null;
    return;
  }
  timer = setInterval(() => {
    if (at >= steps.length - 1) play();
    else show(at + 1);
  }, 900);
}

const MOVES = {
  first: () => show(0),
  prev: () => show(at - 1),
  next: () => show(at + 1),
  last: () => show(steps.length - 1),
  play,
};

function bind() {
  for (const b of document.querySelectorAll("[data-step]")) {
    b.addEventListener("click", () => MOVES[b.dataset.step]());
  }
  $("#scrub").addEventListener("input", (e) => show(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") show(at + 1);
    if (e.key === "ArrowLeft") show(at - 1);
  });
}

await init({ cards: true });
bind();
const game = document.body.dataset.game;
try {
  const res = await fetch(`/api/games/${encodeURIComponent(game)}/replay`);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const data = await res.json();
  steps = data.events || [];
  $("#scrub").max = String(Math.max(0, steps.length - 1));
  show(0);
} catch (err) {
  $("#rerror").textContent = [t("replay.failed"), err.message].join(": ");
}
