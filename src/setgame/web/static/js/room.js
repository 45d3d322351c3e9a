// The room page: joins, shows the table and the players, and turns clicks and
// keys into protocol actions. The server decides everything; this page only
// shows the state it receives and asks.

import { banText, beep, buzz, deckName, displayName, fmt, getPref, init, MODES, N_, NAME_REFUSALS, PHASES, setPref, t, tn, touchOnly } from "./common.js";
import { Connection } from "./protocol.js";
import { describe, effects } from "./events.js";
import {
  chooseLayout,
  indexForEvent,
  isKey,
  LAYOUT_NAMES,
  labelOf,
  layoutChoice,
  loadLayout,
  previousForEvent,
  previousKey,
} from "./keys.js";
import { relabelKeys, renderTable, rowsFor } from "./table.js";
import { isChain, isMemory, isPuzzle, miniTable, renderFound, renderPrevious, variantOf, withMiss } from "./variantview.js";
import { renderResults, renderScores } from "./scores.js";
import { EventLog } from "./history.js";
import { Chat } from "./chat.js";
import { fitTable } from "./fit.js";

const $ = (sel) => document.querySelector(sel);
const act = (name) => document.querySelector(`[data-action=${name}]`);

const room = document.body.dataset.room;
let state = null;
let you = null;
let selected = [];
let picking = false;
let calling = false; // a call is on its way: clicks meanwhile already select
let hintCards = [];
let deadlineAt = null;
let clockBase = null;
let bannerUntil = 0;
let conn = null;
let sentName = ""; // the name last asked to join under: a refusal quotes it
let joining = false; // a join is on its way: a second click (a double click) sends nothing
const history = new EventLog(room);
let ratings = null; // the finished game's rating changes, once the server recorded it
let moderator = false; // the signed-in account may delete chat lines
let cooldownAt = null; // when this player may call again (fair call), on performance.now()
let pendingTurns = []; // Memory: positions clicked while the call is on its way
let sentTurns = []; // Memory: positions asked to turn, not yet shown turned
let lastSet = null; // {player, cards} of the last set_taken this page saw, drawn small
let miss = null; // Memory: {positions, cards} of a miss, shown a moment before they turn back

// Keys the page picks at run time, marked for the catalog.
const PENALTIES = {
  point: N_("penalty.point"),
  lockout: N_("penalty.lockout"),
  both: N_("penalty.both"),
  none: N_("penalty.none"),
};
const ERRORS = {
  board_held: N_("err.board_held"),
  not_holder: N_("err.not_holder"),
  locked_out: N_("err.locked_out"),
  not_on_table: N_("err.not_on_table"),
  not_playing: N_("err.not_playing"),
  already_declared: N_("err.already_declared"),
  deck_empty: N_("err.deck_empty"),
  table_full: N_("err.table_full"),
  auto_deal: N_("err.auto_deal"),
  ...NAME_REFUSALS,
  name_taken: N_("err.name_taken"),
  rated_room: N_("err.rated_room"),
  room_full: N_("err.room_full"),
  bad_phase: N_("err.bad_phase"),
  expired: N_("err.expired"),
  rate_limited: N_("err.rate_limited"),
  stale_version: N_("err.stale_version"),
  no_set_on_table: N_("err.no_set_on_table"),
  no_hints: N_("err.no_hints"),
  not_seated: N_("err.not_seated"),
  room_closed: N_("err.room_closed"),
  no_call: N_("err.no_call"),
  already_seated: N_("err.already_seated"),
  already_found: N_("err.already_found"),
  face_down: N_("err.face_down"),
  face_up: N_("err.face_up"),
  bad_position: N_("err.bad_position"),
  already_turned: N_("err.already_turned"),
  bad_pick: N_("err.bad_pick"),
};
// The connection's state as the status line says it (protocol.js: FINAL and a retry).
const STATUSES = {
  reconnecting: N_("conn.reconnecting"),
  storage: N_("conn.storage"),
  gone: N_("conn.gone"),
  bad_origin: N_("conn.bad_origin"),
  refused: N_("conn.refused"),
  elsewhere: N_("conn.elsewhere"),
};
const FINAL_STATUSES = new Set(["gone", "bad_origin", "refused", "elsewhere"]);
// How far the share link reaches (the server's guess, see app.share_origin).
const REACHES = { local: N_("room.reach.local"), lan: N_("room.reach.lan") };

const me = () => state?.players?.find((p) => p.id === you) || null;
const nameOf = (id) => {
  const player = state?.players?.find((p) => p.id === id);
  return player ? displayName(player) : (id ?? "");
};
// Lockouts lift on a set only (002, 000's option) or also on added cards (003).
const liftsOnCards = () => state?.settings?.lockout_lift === "set_or_cards";
const playing = () => state?.phase === "playing";
const solo = () => state && state.mode !== "multi";

// The variant as the view describes it (its `variant`), see variantview.js.
const variant = () => variantOf(state);
const claimSize = () => variant().claim || 3;
const memory = () => isMemory(state);
const chained = () => isChain(state);
const puzzle = () => isPuzzle(state);
const rows = () => rowsFor(variant());
const previous = () => state?.previous || [];
const pickable = () => [...(state?.table || []).filter(Boolean), ...previous()];

// The banner keeps its height whatever it says (the table under it must not move):
// a text too long for two lines gets a smaller font, then is cut; the log has it whole.
function setBanner(text, kind = "", ms = 0) {
  const banner = $("#banner");
  bannerUntil = ms ? performance.now() + ms : 0;
  if (banner.textContent === text && banner.dataset.kind === kind) return;
  banner.textContent = text;
  banner.title = text;
  banner.dataset.kind = kind;
  banner.className = `banner ${kind}`;
  if (banner.scrollHeight > banner.clientHeight + 1) banner.classList.add("long");
}

function log(text, kind = "") {
  if (!text) return;
  const list = $("#log");
  list.prepend(Object.assign(document.createElement("li"), { textContent: text, className: kind }));
  while (list.children.length > 30) list.lastChild.remove();
}

const context = () => ({
  nameOf,
  you,
  variant: state?.variant,
  mode: state?.mode,
  settings: state?.settings,
  solitary: solo(),
  result: state?.result,
});

// The "What happened" list after a reload: the events this tab saw, kept in sessionStorage.
function restoreLog() {
  $("#log").replaceChildren();
  for (const ev of history.events()) {
    if (ev.type === "set_taken") lastSet = { player: ev.player, cards: ev.cards };
    const text = describe(ev, context());
    log(text.text, text.kind);
  }
}

// --- rendering --------------------------------------------------------------

function renderCards() {
  const table = $("#table");
  renderTable(table, withMiss(state?.table, miss), { rows: rows(), motion: true });
  const live = pickable();
  selected = selected.filter((c) => live.includes(c));
  hintCards = hintCards.filter((c) => live.includes(c));
  renderPrevious($("#previous"), state);
  for (const card of [...table.children, ...$("#previous .table").children]) {
    const code = card.dataset.card;
    if (!code) continue;
    card.classList.toggle("selected", selected.includes(code));
    card.classList.toggle("hinted", hintCards.includes(code));
    card.classList.toggle("turned", memory() && !miss?.cards.includes(code));
    card.setAttribute("aria-pressed", String(selected.includes(code)));
  }
  table.classList.toggle("held", Boolean(state?.holder));
  renderFound($("#found"), state);
  renderLastSet();
}

// The last set found, small beside the table: whose and which cards (any group size).
function renderLastSet() {
  const box = $("#last-set");
  box.hidden = !lastSet?.cards?.length;
  if (box.hidden) return;
  const by = lastSet.player === you ? t("room.lastset.you") : t("room.lastset.by", { name: nameOf(lastSet.player) });
  box.querySelector("[data-last-set-by]").textContent = by;
  box.dataset.by = nameOf(lastSet.player);
  const drawn = lastSet.cards.join(" ");
  if (box.dataset.drawn === drawn) return;
  box.dataset.drawn = drawn;
  box.querySelector(".mini")?.remove();
  box.append(miniTable(lastSet.cards));
}

// After the match: who "Play again" takes along (the seats not left, as rooms.new_game).
function renderAgain() {
  const line = $("#again-who");
  const here = (state?.players || []).filter((p) => p.present !== false).map(displayName);
  line.hidden = state?.phase !== "match_over" || state.mode !== "multi" || !here.length;
  line.textContent = line.hidden ? "" : t("room.againwho", { names: here.join(", ") });
  act("again").title = line.textContent;
}


function show(name, visible, disabled = false) {
  const b = act(name);
  b.hidden = !visible;
  b.disabled = disabled;
}

function renderActions() {
  const seated = Boolean(you && me());
  const mine = me();
  const phase = state?.phase;
  const multi = state?.mode === "multi";
  const canCall = playing() && !state.holder && !mine?.locked;
  show("start", seated && (phase === "lobby" || phase === "round_over"));
  show("call-set", seated && multi && playing(), !canCall);
  // R11: 21 cards hold a set (Classic); other variants' limits are the server's to say.
  const full = variant().name === "classic" && (state.table || []).length >= 21;
  const noMore = !state.deck || full;
  // Puzzle and Memory deal by themselves (no declarations: auto_deal).
  const deals = !puzzle() && !memory();
  show("no-set", seated && playing() && deals, Boolean(state.holder || mine?.declared || mine?.locked || noMore));
  show("hint", seated && state.mode === "practice" && playing() && !memory());
  show("again", seated && phase === "match_over");
  show("leave", seated && phase !== "match_over");
  $("#noset-label").textContent = multi ? t("room.noset") : t("room.more");
  $("#join").hidden = seated;
  if (seated) joining = false;
  renderElsewhere();
}

// After a 4009 (the seat went to another tab) only "Play here" is offered: the other
// buttons would send nothing on a closed socket.
function renderElsewhere() {
  const away = $("#conn").dataset.conn === "elsewhere";
  if (away) {
    for (const b of document.querySelectorAll(".actions button")) b.hidden = true;
    $("#join").hidden = true;
  }
  act("play-here").hidden = !away;
}

function renderStatus() {
  const s = state;
  $("#phase").textContent = t(PHASES[s.phase] ?? "phase.undefined");
  const dealer = s.dealer ? [" · ", t("room.dealer", { name: nameOf(s.dealer) })].join("") : "";
  const round = t("room.round", { n: s.round, of: s.rounds });
  $("#round").textContent = s.rounds > 1 && s.round ? ["· ", round, dealer].join("") : "";
  const rules = [t(MODES[s.mode] ?? "mode.multi")];
  // A puzzle alone costs time, not points (shown on the clock).
  const timed = puzzle() && s.mode === "solo";
  if (s.mode !== "practice" && !timed && PENALTIES[s.settings?.penalty]) rules.push(t(PENALTIES[s.settings.penalty]));
  if (s.mode === "multi" && ["lockout", "both"].includes(s.settings?.penalty)) {
    rules.push(liftsOnCards() ? t("lockout_lift.set_or_cards") : t("lockout_lift.set"));
  }
  if (variant().name !== "classic") rules.push(variant().title);
  if (s.settings?.table) rules.push(tn("room.tablesize.one", "room.tablesize.other", s.settings.table));
  if (s.settings?.deck && s.settings.deck !== "full") rules.push(deckName(s.settings.deck));
  $("#settings").textContent = rules.join(" · ");
  $("#settings").title = $("#settings").textContent;
  renderRated(s);
  renderWatchers();
  const deck = $("#deck");
  deck.dataset.deck = String(s.deck ?? 0);
  deck.textContent = String(s.deck ?? 0);
  deadlineAt = s.holder ? performance.now() + secondsLeft(s) * 1000 : null;
  clockBase = typeof s.clock === "number" ? [s.clock, performance.now()] : null;
  const cooling = (s.players || []).find((p) => p.id === you)?.cooldown_in; // fair call
  cooldownAt = typeof cooling === "number" && cooling > 0 ? performance.now() + cooling * 1000 : null;
  const votes = (s.players || []).filter((p) => p.declared).map(displayName);
  $("#votes").textContent = votes.length ? t("room.votes", { names: votes.join(", ") }) : "";
}

// Whether the game as seated now is rated (the server says: `rated` in the state), shown
// from the lobby on, so that nobody learns it after playing; the link explains the rules.
function renderRated(s) {
  const line = $("#rated");
  line.hidden = s.mode !== "multi";
  line.dataset.rated = String(Boolean(s.rated));
  const link = line.querySelector("a");
  link.textContent = s.rated ? t("room.rated") : t("room.unrated");
  link.title = s.rated ? t("room.rated.why") : t("room.unrated.why");
}

// How many watch without a seat, in the status line (its title holds the whole line).
function renderWatchers() {
  const watching = state?.watchers || 0;
  $("#watchers").textContent = watching ? ["·", t("room.watchers", { n: fmt(watching) })].join(" ") : "";
  $(".roombar .status").title = $(".roombar .status").textContent.trim();
}

// The view gives the seconds left as `deadline_in`; without it, a fresh call
// leaves the whole pick window.
function secondsLeft(s) {
  if (typeof s.deadline_in === "number") return s.deadline_in;
  return s.settings?.pick_seconds ?? 5;
}

function render() {
  if (!state) return;
  const main = document.querySelector("main");
  main.dataset.phase = state.phase;
  main.dataset.holder = state.holder ? nameOf(state.holder) : "";
  main.dataset.version = String(state.version);
  main.dataset.variant = variant().name;
  main.dataset.mode = state.mode;
  // A game of one has nobody to share the room with nor to talk to.
  $(".share").hidden = solo();
  $("#chat").hidden = solo();
  renderCards();
  renderStatus();
  renderScores($("#scores"), state, you);
  renderActions();
  renderResults($("#results"), $("#standings"), state, ratings?.game === state.game ? ratings : null);
  if (state.phase === "match_over" && main.dataset.shownEnd !== state.game) {
    main.dataset.shownEnd = state.game; // once per game: the final results come into view
    $("#results").scrollIntoView({ block: "nearest" });
  }
  renderAgain();
  chat?.refresh(); // a players-only chat opens once this page has a seat
  tick();
}

// Countdown of the pick window and the solo clock, between server updates.
function tick() {
  if (!state) return;
  const now = performance.now();
  if (state.holder && deadlineAt !== null) {
    const left = t("unit.seconds", { n: fmt(Math.max(0, (deadlineAt - now) / 1000), 1) });
    const who = state.holder === you ? t("room.youhold") : t("room.holds", { name: nameOf(state.holder) });
    setBanner(`${who} ${left}`, state.holder === you ? "mine" : "held");
  } else if (bannerUntil && now > bannerUntil) {
    setBanner("");
  } else if (!bannerUntil && !state.holder) {
    setBanner(idleText());
  }
  if (clockBase) {
    const running = playing() ? (now - clockBase[1]) / 1000 : 0;
    const clock = [t("room.time"), formatTime(clockBase[0] + running)];
    // Puzzle solo: wrong picks cost time, shown beside the clock.
    const penalty = me()?.penalty_seconds;
    if (penalty) clock.push(t("room.penaltytime", { seconds: fmt(penalty) }));
    $("#clock").textContent = clock.join(" ");
  }
}

// Others (a bot too) said there is no set and this player, who may vote, has not: the
// banner asks them to agree, naming the key (as their layout labels it) or the button.
function agreeText() {
  const mine = me();
  if (!mine || mine.declared || mine.locked || state.holder || solo()) return "";
  const votes = state.players.filter((p) => p.declared && p.id !== you).map(displayName);
  if (!votes.length) return "";
  const names = votes.join(", ");
  if (touchOnly()) return t("room.agreetouch", { names });
  return t("room.agree", { names, key: labelOf("KeyN").toUpperCase() });
}

function idleText() {
  if (!state) return "";
  if (state.phase === "lobby") return you ? t("room.waitstart") : t("room.watching");
  if (state.phase === "round_over") return t("room.roundover");
  if (state.phase === "match_over") return t("room.matchover");
  if (me()?.locked) return liftsOnCards() ? t("room.locked_or_cards") : t("room.locked");
  const agree = agreeText();
  if (agree) return agree;
  const n = claimSize();
  if (memory()) return solo() ? tn("room.turnsolo.one", "room.turnsolo.other", n) : tn("room.turn.one", "room.turn.other", n);
  if (solo()) return n !== 3 ? tn("room.findnsolo.one", "room.findnsolo.other", n) : t("room.findsolo");
  // On a touch screen the hint names no key (issue 21).
  if (touchOnly()) return n !== 3 ? tn("room.findntouch.one", "room.findntouch.other", n) : t("room.findtouch");
  return n !== 3 ? tn("room.findn.one", "room.findn.other", n) : t("room.find");
}

function formatTime(seconds) {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// A refused action in the page language; codes the page does not know keep the server's text.
function errorText(msg) {
  if (msg.code === "cooling_down") {
    const left = cooldownAt === null ? 0 : (cooldownAt - performance.now()) / 1000;
    if (left <= 0) return t("err.cooling_down");
    return t("err.cooling_down_in", { seconds: t("unit.seconds", { n: fmt(left, 1) }) });
  }
  if (msg.code === "locked_out" && liftsOnCards()) return t("err.locked_out_or_cards");
  return ERRORS[msg.code] ? t(ERRORS[msg.code], { name: sentName }) : msg.message;
}

// --- actions ----------------------------------------------------------------

// Send an action; while the socket is down, say so instead of losing it silently.
function ask(type, fields = {}) {
  const sent = conn.send(type, fields);
  if (!sent) setBanner(t("conn.reconnecting"), "error", 2000);
  return sent;
}

function call() {
  if (!playing() || state.holder || solo() || calling || me()?.locked) return;
  calling = ask("call");
  beep("call");
}

const mayPick = () => solo() || state.holder === you;

function sendPick() {
  if (picking || selected.length !== claimSize() || !mayPick() || memory()) return;
  picking = ask("pick", { cards: selected.slice() });
}

// Memory: turn up the face-down card at `at` (in multi after calling SET: the call
// covers the turning). Clicks while the call is on its way wait in pendingTurns.
function turn(at) {
  if (!state || !playing() || !you || typeof state.table?.[at] === "string") return;
  if (!mayPick()) {
    if (state.holder) return;
    call();
    if (!calling) return;
  }
  if (!pendingTurns.includes(at) && !sentTurns.includes(at)) pendingTurns.push(at);
  sendTurns();
}

function sendTurns() {
  if (!memory() || !mayPick()) return;
  const room = claimSize() - (state.turned || []).length - sentTurns.length;
  for (const at of pendingTurns.splice(0, Math.max(0, room))) {
    if (typeof state.table?.[at] === "string" || !ask("turn", { position: at })) continue;
    sentTurns.push(at);
  }
  pendingTurns = [];
}

// A click on a card: a call when nobody holds the board, then a selection.
function choose(code) {
  if (!state || !playing() || !you || memory()) return;
  if (!mayPick()) {
    if (state.holder) return;
    call();
    if (!calling) return;
  }
  selected = selected.includes(code) ? selected.filter((c) => c !== code) : [...selected, code];
  renderCards();
  sendPick();
}

// Keys by physical position (e.code), so that Q selects the same card under any layout.
function onKey(e) {
  if (e.target.closest?.("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
  if (isKey(e, "Space")) {
    e.preventDefault();
    call();
  } else if (isKey(e, "KeyN")) {
    if (!act("no-set").hidden && !act("no-set").disabled) ask("no_set");
  } else if (isKey(e, "KeyH")) {
    if (!act("hint").hidden) ask("hint");
  } else {
    keyCard(e);
  }
}

// A card's key: its table position (Memory: turn it up), or a card of the previous set.
function keyCard(e) {
  const i = indexForEvent(e, rows());
  if (i >= 0 && i < (state?.table || []).length) {
    if (memory()) turn(i);
    else if (state.table[i]) choose(state.table[i]);
    return;
  }
  const j = chained() && rows() === 3 ? previousForEvent(e) : -1;
  if (j >= 0 && previous()[j]) choose(previous()[j]);
}

// The key labels on the buttons and cards, in the chosen (or the browser's) layout.
function showKeys() {
  for (const kbd of document.querySelectorAll("kbd[data-key]:not([data-key=Space])")) {
    kbd.textContent = labelOf(kbd.dataset.key).toUpperCase();
  }
  relabelKeys($("#table"), rows());
  relabelKeys($("#previous .table"), 1, previousKey);
}

function bindLayouts() {
  const select = $("select[name=keys]");
  for (const [name, label] of Object.entries(LAYOUT_NAMES)) {
    select.add(new Option(label || t("keys.auto"), name, false, name === layoutChoice()));
  }
  select.addEventListener("change", async () => {
    await chooseLayout(select.value);
    showKeys();
  });
}

function bind() {
  $("#table").addEventListener("click", (e) => {
    const card = e.target.closest("[data-pos]");
    if (!card) return;
    if (memory()) turn(Number(card.dataset.pos));
    else if (card.dataset.card) choose(card.dataset.card);
  });
  $("#previous").addEventListener("click", (e) => {
    const card = e.target.closest("[data-card]");
    if (card) choose(card.dataset.card);
  });
  document.addEventListener("keydown", onKey);
  $("#join").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("input[name=player-name]").value.trim();
    if (!name || joining) return;
    setPref("name", name);
    sentName = name;
    joining = ask("join", { name });
  });
  act("start").addEventListener("click", () => ask("start"));
  act("call-set").addEventListener("click", call);
  act("no-set").addEventListener("click", () => ask("no_set"));
  act("hint").addEventListener("click", () => ask("hint"));
  act("again").addEventListener("click", () => ask("again"));
  act("play-here").addEventListener("click", () => conn.resume());
  act("leave").addEventListener("click", () => {
    ask("leave");
    // The seat token stays: joining this match again takes the same seat back, with its
    // points and any lockout or wait (R10, R14); the server greets it as a spectator meanwhile.
    you = null;
    render();
  });
  act("copy").addEventListener("click", () => {
    const link = $(".share .link");
    link.select();
    navigator.clipboard?.writeText(link.value).catch(() => {});
  });
  const origin = document.body.dataset.shareOrigin || location.origin;
  $(".share .link").value = `${origin}/room/${room}`;
  const reach = REACHES[document.body.dataset.reach];
  if (reach) {
    $("#lan-note").textContent = t(reach);
    $("#lan-note").hidden = false;
  }
  bindLayouts();
  $("input[name=player-name]").value = getPref("name", "") || "";
  setInterval(tick, 100);
}

// A signed-in player sits as their account (the server seats them so whatever name is
// sent): the name is theirs, filled in and not to be changed here.
async function fillAccountName() {
  try {
    const me = await (await fetch("/api/account")).json();
    if (!me.signed_in) return;
    moderator = me.moderator === true; // a delete button on each chat line
    const input = $("input[name=player-name]");
    input.value = me.name;
    input.readOnly = true;
    $("#join").dataset.account = me.name;
    $("#join-as").textContent = t("room.as_account");
    $("#join-as").hidden = false;
  } catch {
    /* a guest's form, as before */
  }
}

// --- messages from the server ----------------------------------------------

function adopt(next) {
  const before = state;
  state = next;
  if ("you" in state) you = state.you ?? null; // the server says whose view this is
  if (state.mode === "multi") {
    if (state.holder === you) {
      calling = false;
    } else if (state.holder || !calling || !playing()) {
      selected = [];
      calling = false;
      picking = false;
      pendingTurns = [];
    }
  } else if (picking && before?.version !== state.version) {
    selected = [];
    picking = false;
  }
  if (before?.table?.join() !== state.table?.join()) hintCards = [];
  if (before?.game !== state.game) lastSet = null; // "again": a new game, nothing found yet
  if (before?.version !== state.version) sentTurns = [];
}

function onEvents(events) {
  history.add(events || [], state?.version);
  for (const ev of events || []) {
    const text = describe(ev, context());
    log(text.text, text.kind);
    const fx = effects(ev, you);
    if (fx.banner) setBanner(text.text, text.kind, 4000);
    if (fx.sound) beep(fx.sound);
    if (fx.wrong) showMiss(ev);
    if (fx.wrong && ev.player === you) buzz();
    if (ev.type === "set_taken") {
      lastSet = { player: ev.player, cards: ev.cards };
      renderLastSet();
    }
    if (fx.wrong) flashWrong(fx.wrong);
  }
}

// Memory: the cards of a miss stay face up a moment (where they lay) before they turn back.
const MISS_MS = 1500;
function showMiss(ev) {
  if (!memory() || !ev.positions?.length || !ev.cards?.length) return;
  const shown = { positions: ev.positions, cards: ev.cards };
  miss = shown;
  renderCards();
  setTimeout(() => {
    if (miss !== shown) return;
    miss = null;
    renderCards();
  }, MISS_MS);
}

function flashWrong(codes) {
  for (const card of [...$("#table").children, ...$("#previous .table").children]) {
    if (codes.includes(card.dataset.card)) {
      card.classList.add("wrong");
      setTimeout(() => card.classList.remove("wrong"), 1500);
    }
  }
}

let chat = null;

const handlers = {
  chat(msg) {
    chat?.lines(msg.messages);
  },
  chat_deleted(msg) {
    chat?.remove(msg.game, msg.seq);
  },
  welcome(msg) {
    const main = document.querySelector("main");
    main.dataset.welcomes = String(Number(main.dataset.welcomes || 0) + 1);
    you = msg.you ?? null;
    joining = false; // a join lost with the last socket may be asked again
    adopt(msg.state);
    if (history.resume(msg.state)) restoreLog();
    if (msg.missed) onEvents(msg.missed);
    history.seen(msg.version);
    render();
  },
  joined(msg) {
    you = msg.player;
    render();
  },
  update(msg) {
    adopt(msg.state);
    history.seen(msg.version);
    render();
    onEvents(msg.events);
    sendPick();
    sendTurns();
  },
  presence(msg) {
    const player = state?.players?.find((p) => p.id === msg.player);
    if (!player) return;
    player.connected = msg.connected;
    renderScores($("#scores"), state, you);
  },
  hint(msg) {
    hintCards = msg.cards || [];
    renderCards();
  },
  error(msg) {
    if (msg.request === "chat") return chat?.refused(msg);
    const banned = banText(msg); // a ban says why and until when: long on the banner, kept in the log
    if (banned) {
      setBanner(banned, "error", 15000);
      log(banned, "error");
      return render();
    }
    if (msg.request === "join") joining = false;
    if (msg.request === "call") {
      calling = false;
      selected = [];
    }
    if (msg.request === "pick") {
      picking = false;
      if (solo()) selected = [];
    }
    if (msg.request === "turn") sentTurns = [];
    setBanner(errorText(msg), "error", 3000);
    render();
  },
  ratings(msg) {
    ratings = msg;
    render();
  },
  watchers(msg) {
    if (!state) return;
    state.watchers = msg.count;
    renderWatchers();
  },
  status(s) {
    $("#conn").textContent = STATUSES[s] ? t(STATUSES[s]) : "";
    $("#conn").className = `conn ${s}`;
    $("#conn").dataset.conn = s;
    if (FINAL_STATUSES.has(s) && s !== "gone") setBanner(t(STATUSES[s]), "error", 3_600_000); // the end: said where one looks
    if (s === "open" && $("#banner").textContent === t(STATUSES.elsewhere)) setBanner("");
    if (state) renderActions();
    else renderElsewhere();
    if (s === "elsewhere") act("play-here").focus();
  },
};

await init({ cards: true });
await loadLayout();
showKeys();
fitTable($("#table"), { under: [$("#previous"), $(".actions")], stacked: [$(".deckline"), $("#scores")] });
bind();
await fillAccountName();
conn = new Connection(room, handlers);
chat = new Chat($("#chat"), room, { send: (text) => conn.send("chat", { text }), you: () => you, moderator });
conn.resumeFrom(history.version());
conn.connect();
