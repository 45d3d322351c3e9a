// The daily puzzle page (/puzzle, /puzzle?date=YYYY-MM-DD): the day's 12 cards hold
// exactly 6 sets; find them all against the clock. It plays the day as a solo room
// (variant "puzzle", docs/variants.md) through the normal protocol: the server checks
// every pick, keeps the found sets and the time, and adds 10 seconds for a wrong pick.

import { beep, buzz, el, flawText, fmt, getPref, init, lang, N_, t, tn } from "./common.js";
import { Connection } from "./protocol.js";
import { chooseLayout, indexForEvent, LAYOUT_NAMES, layoutChoice, loadLayout } from "./keys.js";
import { cardElement, relabelKeys, renderTable } from "./table.js";
import { fitTable } from "./fit.js";
import { deal } from "./motion.js";

const $ = (sel) => document.querySelector(sel);

const today = document.body.dataset.today;
const day = document.body.dataset.day || today;
const roomKey = `setgame.puzzle.${day}`; // the room of this day's puzzle, to resume it

let conn = null;
let state = null;
let you = null;
let selected = [];
let picking = false;
let clockBase = null; // [game seconds, performance.now()] of the last state
let bannerUntil = 0;

const ERRORS = {
  already_found: N_("puzzle.err.already_found"),
  not_on_table: N_("err.not_on_table"),
  stale_version: N_("err.stale_version"),
  rate_limited: N_("err.rate_limited"),
  not_playing: N_("err.not_playing"),
};
// Closes after which the page stops (protocol.js FINAL), as the room page words them.
const FINAL_WORDS = {
  bad_origin: N_("conn.bad_origin"),
  refused: N_("conn.refused"),
  elsewhere: N_("puzzle.elsewhere"),
};

// --- the day ------------------------------------------------------------------

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseDay(text) {
  const m = DAY.exec(text || "");
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text ? date : null;
}

const shiftDay = (date, days) => new Date(date.getTime() + days * 86400000).toISOString().slice(0, 10);

// Why this day cannot be played (a message), or "" when it can.
function refusal() {
  if (!parseDay(day)) return t("puzzle.err.bad_date", { date: day });
  if (day > today) return t("puzzle.err.future", { date: longDate(day) });
  return "";
}

function longDate(text) {
  const date = parseDay(text);
  if (!date) return text;
  return new Intl.DateTimeFormat(lang(), { dateStyle: "long", timeZone: "UTC" }).format(date);
}

function showDays() {
  const date = parseDay(day) || parseDay(today);
  const link = (node, target) => {
    node.hidden = !target || target > today;
    node.href = `/puzzle?date=${target}`;
  };
  link($("#prev-day"), shiftDay(date, -1));
  link($("#next-day"), shiftDay(date, 1));
  $("#today-link").hidden = day === today;
  const input = $("#pick-day input[name=date]");
  input.max = today;
  input.value = parseDay(day) && day <= today ? day : today;
  const when = $("#puzzle-date");
  when.textContent = longDate(day);
  if (parseDay(day)) when.dateTime = day;
}

function fail(text) {
  $("#puzzle-error").textContent = text;
  $("#puzzle-play").hidden = true;
  document.querySelector("main").dataset.phase = "refused";
}

// --- the room -------------------------------------------------------------------

function storedRoom() {
  try {
    return localStorage.getItem(roomKey);
  } catch {
    return null;
  }
}

function storeRoom(id) {
  try {
    if (id) localStorage.setItem(roomKey, id);
    else localStorage.removeItem(roomKey);
    forgetOldDays();
  } catch {
    /* storage disabled: a reload starts the day again */
  }
}

// The rooms of the last KEEP_DAYS days played are kept (and their seat tokens); older ones
// go, so that a daily player's storage does not grow for ever.
const KEEP_DAYS = 60;
function forgetOldDays() {
  const prefix = "setgame.puzzle.";
  const isDay = (k) => k.startsWith(prefix) && DAY.test(k.slice(prefix.length));
  const keys = Object.keys(localStorage).filter(isDay);
  keys.sort().reverse();
  for (const key of keys.slice(KEEP_DAYS)) {
    localStorage.removeItem(`setgame.token.${localStorage.getItem(key)}`);
    localStorage.removeItem(key);
  }
}

async function createRoom() {
  let reply;
  try {
    reply = await fetch("/api/rooms", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ mode: "solo", variant: "puzzle", day, public: false }),
    });
  } catch {
    fail(t("conn.gone"));
    return null;
  }
  const body = await reply.json().catch(() => ({}));
  if (reply.status === 201 && body.id) return body.id;
  // The server refuses a future day (it knows today better than this page may).
  if (body.code === "future_date" || (body.code === "bad_setting" && day >= today)) {
    fail(t("puzzle.err.future", { date: longDate(day) }));
  } else {
    fail(body.message || t("conn.gone"));
  }
  return null;
}

function connect(id) {
  conn?.close();
  conn = new Connection(id, handlers);
  conn.connect();
}

async function newRoom() {
  storeRoom(null);
  const id = await createRoom();
  if (!id) return;
  storeRoom(id);
  connect(id);
}

// A name for the seat: the one the player gave in rooms, else "You" in the page language.
const seatName = () => (getPref("name", "") || t("puzzle.you")).slice(0, 24);

// --- rendering ------------------------------------------------------------------

const me = () => state?.players?.find((p) => p.id === you) || null;
const playing = () => state?.phase === "playing";
const over = () => state?.phase === "match_over" || state?.phase === "round_over";
const penalty = () => me()?.penalty_seconds ?? 0;
const wrongPicks = () => me()?.wrong ?? Math.round(penalty() / 10);

function formatTime(seconds) {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// Seconds so far: the game clock (running between updates while playing) plus penalties;
// once over, the server's result.
function seconds(now = performance.now()) {
  const solo = state?.result?.solo;
  if (over() && typeof solo?.seconds === "number") return solo.seconds;
  if (!clockBase) return penalty();
  const running = playing() ? (now - clockBase[1]) / 1000 : 0;
  return clockBase[0] + running + penalty();
}

function setBanner(text, kind = "", ms = 0) {
  const banner = $("#banner");
  bannerUntil = ms ? performance.now() + ms : 0;
  banner.textContent = text;
  banner.className = `banner ${kind}`;
}

function renderCards() {
  const box = $("#table");
  const codes = state?.table || [];
  renderTable(box, codes, { motion: true });
  selected = selected.filter((c) => codes.includes(c));
  const found = new Set((state?.found || []).flat());
  for (const card of box.children) {
    const code = card.dataset.card;
    card.classList.toggle("selected", selected.includes(code));
    card.classList.toggle("in-found", found.has(code));
    card.setAttribute("aria-pressed", String(selected.includes(code)));
  }
}

// A found set's cards: drawn and named, but not live table cards (no data-card, no key).
const FOUND_CARD = { attr: "data-code", keys: false };

function renderFound() {
  const found = state?.found || [];
  const total = state?.groups ?? 6;
  const line = $("#puzzle-found");
  line.dataset.found = String(found.length);
  line.dataset.total = String(total);
  line.textContent = t("puzzle.count", { found: fmt(found.length), total: fmt(total) });
  const list = $("#found");
  const had = list.dataset.drawn === undefined ? found.length : list.children.length;
  list.dataset.drawn = String(found.length);
  list.replaceChildren(
    ...found.map((codes, i) =>
      el(
        "li",
        { "aria-label": t("puzzle.set_n", { n: fmt(i + 1) }) },
        el("div", { class: "table mini" }, ...codes.map((code, j) => cardElement(code, j, FOUND_CARD))),
      ),
    ),
  );
  // A set just found joins the list with the motion of a deal (none on a reload).
  [...list.children].slice(had).forEach((li) => li.querySelectorAll(".card").forEach((card, j) => deal(card, j)));
}

function renderPenalty() {
  const wrong = wrongPicks();
  const line = $("#puzzle-wrong");
  line.dataset.wrong = String(wrong);
  line.textContent = wrong ? tn("puzzle.wrong.one", "puzzle.wrong.other", wrong) : "";
  const cost = $("#puzzle-penalty");
  cost.dataset.penalty = String(penalty());
  cost.textContent = penalty() ? t("puzzle.plus", { seconds: t("unit.seconds", { n: fmt(penalty()) }) }) : "";
}

// The result to paste into a chat: the day, the time, the wrong picks; never a card.
function shareText() {
  const found = (state?.found || []).length || (state?.groups ?? 6);
  const wrong = wrongPicks();
  const lines = [
    t("puzzle.share.title", { date: day }),
    t("puzzle.share.time", { time: formatTime(seconds()) }),
    wrong
      ? tn("puzzle.share.wrong.one", "puzzle.share.wrong.other", wrong, { seconds: fmt(penalty()) })
      : t("puzzle.share.clean"),
    "🟩".repeat(found) + "🟥".repeat(Math.min(wrong, 30)),
    `${location.origin}/puzzle?date=${day}`,
  ];
  return lines.join("\n");
}

function renderDone() {
  const box = $("#puzzle-done");
  box.hidden = !over();
  if (!over()) return;
  const time = formatTime(seconds());
  const wrong = wrongPicks();
  $("#puzzle-result").textContent = wrong
    ? tn("puzzle.result.wrong.one", "puzzle.result.wrong.other", wrong, { time })
    : t("puzzle.result.clean", { time });
  $("#share").value = shareText();
}

function render() {
  if (!state) return;
  const main = document.querySelector("main");
  main.dataset.phase = state.phase;
  main.dataset.version = String(state.version);
  $("#puzzle-play").hidden = false;
  clockBase = typeof state.clock === "number" ? [state.clock, performance.now()] : null;
  renderCards();
  renderFound();
  renderPenalty();
  renderDone();
  tick();
}

function tick() {
  if (!state) return;
  const now = performance.now();
  const clock = $("#puzzle-clock");
  const shown = seconds(now);
  clock.textContent = formatTime(shown);
  clock.dataset.seconds = String(Math.floor(shown));
  if (bannerUntil && now > bannerUntil) setBanner(idleText());
  else if (!bannerUntil) setBanner(idleText());
}

function idleText() {
  if (over()) return t("puzzle.solved");
  if (playing()) return tn("puzzle.find.one", "puzzle.find.other", state.groups ?? 6);
  return t("puzzle.starting");
}

// --- play -----------------------------------------------------------------------

function choose(code) {
  if (!playing() || !you || picking) return;
  selected = selected.includes(code) ? selected.filter((c) => c !== code) : [...selected, code];
  renderCards();
  if (selected.length === 3) picking = conn.send("pick", { cards: selected.slice() });
}

function onKey(e) {
  if (e.target.closest?.("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
  const i = indexForEvent(e);
  const code = state?.table?.[i];
  if (i >= 0 && code) {
    e.preventDefault();
    choose(code);
  }
}

function onEvents(events) {
  for (const ev of events || []) {
    if (ev.type === "set_taken") {
      setBanner(t("puzzle.good"), "good", 2500);
      beep("set");
    } else if (ev.type === "wrong_call") {
      const why = (ev.flaws || []).map(flawText).join("; ");
      // The event says what the pick cost (the engine's PUZZLE_PENALTY_SECONDS).
      const added = ev.penalty_seconds ?? 0;
      const cost = added ? t("puzzle.plus", { seconds: t("unit.seconds", { n: fmt(added) }) }) : "";
      setBanner([t("puzzle.notaset"), why, cost].filter(Boolean).join(" · "), "bad", 4000);
      flash(ev.cards || []);
      beep("wrong");
      buzz();
    } else if (ev.type === "match_over") {
      beep("end");
    }
  }
}

function flash(codes) {
  for (const card of $("#table").children) {
    if (!codes.includes(card.dataset.card)) continue;
    card.classList.add("wrong");
    setTimeout(() => card.classList.remove("wrong"), 1500);
  }
}

function adopt(next) {
  const before = state;
  state = next;
  if ("you" in state) you = state.you ?? you;
  if (picking && before?.version !== state.version) {
    selected = [];
    picking = false;
  }
}

const handlers = {
  welcome(msg) {
    you = msg.you ?? null;
    adopt(msg.state);
    if (!you) {
      // A room this browser holds no seat in: a fresh lobby takes one, else a new room.
      if (msg.state.phase === "lobby") conn.send("join", { name: seatName() });
      else newRoom();
      return;
    }
    if (msg.state.phase === "lobby") conn.send("start");
    render();
  },
  joined(msg) {
    you = msg.player;
    conn.send("start");
  },
  update(msg) {
    adopt(msg.state);
    render();
    onEvents(msg.events);
  },
  error(msg) {
    if (msg.request === "pick") {
      picking = false;
      selected = [];
    }
    setBanner(ERRORS[msg.code] ? t(ERRORS[msg.code]) : msg.message, "error", 3000);
    if (state) render();
  },
  status(s) {
    if (s === "gone") newRoom(); // the stored room is no more: start the day afresh
    else if (FINAL_WORDS[s]) fail(t(FINAL_WORDS[s])); // reconnecting cannot help: say why
  },
};

function bind() {
  $("#table").addEventListener("click", (e) => {
    const card = e.target.closest("[data-card]");
    if (card) choose(card.dataset.card);
  });
  document.addEventListener("keydown", onKey);
  $("[data-action=copy-result]").addEventListener("click", async () => {
    $("#share").select();
    try {
      await navigator.clipboard.writeText($("#share").value);
      $("#copied").textContent = t("puzzle.copied");
    } catch {
      $("#copied").textContent = t("puzzle.copy_by_hand");
    }
  });
  const select = $("select[name=keys]");
  for (const [name, label] of Object.entries(LAYOUT_NAMES)) {
    select.add(new Option(label || t("keys.auto"), name, false, name === layoutChoice()));
  }
  select.addEventListener("change", async () => {
    await chooseLayout(select.value);
    relabelKeys($("#table"));
  });
  setInterval(tick, 250);
}

await init({ cards: true });
await loadLayout();
showDays();
fitTable($("#table"));
const why = refusal();
if (why) {
  fail(why);
} else {
  bind();
  const stored = storedRoom();
  if (stored) connect(stored);
  else await newRoom();
}
