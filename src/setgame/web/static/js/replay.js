// The replay page: steps through a finished game one accepted action at a
// time, showing the table and scores after it and the events it caused.
// Cards here carry data-code, not data-card: only live tables use data-card.

import { chatItem } from "./chat.js";
import { el, init, t } from "./common.js";
import { describe } from "./events.js";
import { renderTable, rowsFor } from "./table.js";
import { fitTable } from "./fit.js";
import { miniTable, renderFound, renderPrevious } from "./variantview.js";

const $ = (sel) => document.querySelector(sel);
let steps = [];
let chatLines = []; // the game's chat, shown up to the step's time
let at = 0;
let timer = null;
let startAt = 0;

function nameOf(id, state) {
  return state?.players?.find((p) => p.id === id)?.name ?? id ?? "";
}

// One event in words, with the cards it names drawn small beside it.
function eventItem(ev, ctx) {
  const item = el("li", { text: describe(ev, ctx).text || ev.type });
  if (ev.type === "set_taken" || ev.type === "wrong_call") {
    item.append(miniTable(ev.cards || []));
  } else if (ev.type === "card_turned" && ev.card) {
    item.append(miniTable([ev.card])); // Memory: the card turned up
  }
  return item;
}

function show(i) {
  at = Math.max(0, Math.min(steps.length - 1, i));
  const step = steps[at];
  if (!step) return;
  const state = step.state || {};
  const opts = { attr: "data-code", keys: false };
  renderTable($("#rtable"), state.table || [], { ...opts, rows: rowsFor(state.variant), motion: true });
  renderPrevious($("#rprevious"), state, false); // chain variants, apart from the table
  renderFound($("#rfound"), state); // Puzzle
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
  const ctx = { nameOf: (id) => nameOf(id, state), you: null, variant: state.variant, mode: state.mode, settings: state.settings };
  $("#revents").replaceChildren(...(step.events || []).map((ev) => eventItem(ev, ctx)));
  const said = chatLines.filter((line) => at === steps.length - 1 || line.at <= (step.at ?? 0));
  $("#rchat").replaceChildren(...said.map((line) => chatItem(line)));
  $("#scrub").value = String(at);
  $("#stepno").textContent = `${at + 1} / ${steps.length}`;
  $("#rtime").textContent = formatTime((step.at ?? startAt) - startAt);
}

function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The steps to show: the seats taken before the deal show no table, so they join the
// deal's step (its events list them) instead of opening the replay on an empty table.
function playable(all) {
  const first = all.findIndex((step) => (step.state?.table || []).length > 0);
  if (first <= 0) return all;
  const before = all.slice(0, first).flatMap((step) => step.events || []);
  const deal = { ...all[first], events: [...before, ...(all[first].events || [])] };
  return [deal, ...all.slice(first + 1)];
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
  const keys = {
    ArrowRight: () => show(at + 1),
    ArrowLeft: () => show(at - 1),
    Home: () => show(0),
    End: () => show(steps.length - 1),
  };
  document.addEventListener("keydown", (e) => {
    if (!keys[e.key] || e.target.closest?.("select, input")) return; // the slider has its own keys
    e.preventDefault(); // Home/End would also scroll the page or move the slider twice
    keys[e.key]();
  });
}

await init({ cards: true });
bind();
fitTable($("#rtable"), { under: [$("#rdeck")], stacked: [$("#rscores")] });
const game = document.body.dataset.game;
try {
  const res = await fetch(`/api/games/${encodeURIComponent(game)}/replay`);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const data = await res.json();
  steps = playable(data.events || []);
  chatLines = data.chat || [];
  startAt = steps[0]?.at ?? 0;
  $("#scrub").max = String(Math.max(0, steps.length - 1));
  show(0);
} catch (err) {
  $("#rerror").textContent = [t("replay.failed"), err.message].join(": ");
}
