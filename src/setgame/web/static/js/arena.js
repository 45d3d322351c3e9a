// One arena (/arena/<id>): its standings live over /ws/arena/<id> (docs/protocol.md,
// "Arenas"), the games in progress to watch, joining and pausing, and "your next game":
// when the server pairs this player (`paired`), the page follows into the room as a room
// link does, the seat's token kept where the room page looks for it; the room brings the
// player back here when the game is over (arenaback.js). At the end, the podium.

import { banText, el, fmt, getPref, init, N_, NAME_REFUSALS, setPref, t, tn } from "./common.js";
import { arenaSettings, arenaWhen, variantTitle } from "./arenawords.js";

const $ = (selector) => document.querySelector(selector);
const main = $("main");
const id = main.dataset.arenaId;

let arena = null; // the latest arena the server sent (settings, status, times)
let standings = [];
let games = [];
let me = null; // this page's player as the server knows them: {name, state, room, ...} (its standings row)
let socket = null;
let retry = 0;
let placesBefore = new Map(); // name -> points, to mark the rows that moved
// Paused with the button: during a game the server's row says "playing" either way.
let paused = false;

// --- who this browser is in this arena ---------------------------------------

const mineKey = `arena.${id}`;
function mine() {
  try {
    return JSON.parse(getPref(mineKey, "null"));
  } catch {
    return null;
  }
}
const keepMine = (value) => setPref(mineKey, JSON.stringify(value));

// --- drawing -----------------------------------------------------------------

// The flame of a streak, drawn (an emoji font is not everywhere), named for screen readers.
const SVG = "http://www.w3.org/2000/svg";
function flame(row) {
  if (!row.fire) return null;
  const label = t("arena.flame");
  const icon = document.createElementNS(SVG, "svg");
  icon.setAttribute("viewBox", "0 0 12 16");
  icon.setAttribute("class", "flame");
  icon.setAttribute("role", "img");
  icon.setAttribute("aria-label", label);
  icon.setAttribute("data-flame", "");
  const title = document.createElementNS(SVG, "title");
  title.textContent = label;
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", "M6 0C7 4 12 6 12 10.5A6 5.5 0 0 1 0 10.5C0 7.5 2 6 3 4c.5 2 1.5 3 2.5 3C6.5 5 6 2.5 6 0z");
  icon.append(title, path);
  return icon;
}

function nameCell(row) {
  const cell = el("td", { class: "name" });
  // In a rated arena everyone is signed in: each name leads to its profile.
  cell.append(arena?.rated ? el("a", { href: `/player/${encodeURIComponent(row.name)}`, text: row.name }) : row.name);
  cell.append(...[flame(row)].filter(Boolean));
  if (row.state === "paused") cell.append(el("span", { class: "badge-paused", text: t("arena.paused.badge") }));
  return cell;
}

function standingRow(row, index) {
  const place = row.place ?? index + 1;
  const moved = placesBefore.has(row.name) && placesBefore.get(row.name) !== row.points;
  return el(
    "tr",
    {
      "data-standing": row.name,
      "data-place": place,
      "data-points": row.points,
      "data-games": row.games,
      "data-streak": row.streak ?? 0,
      "data-fire": row.fire ? "true" : "false",
      class: [row.name === me?.name ? "you" : "", moved ? "moved" : ""].join(" ").trim() || null,
    },
    el("td", { text: fmt(place) }),
    nameCell(row),
    el("td", { text: fmt(row.points) }),
    el("td", { text: fmt(row.games) }),
    el("td", { text: row.rating === null || row.rating === undefined ? "—" : String(row.rating) }),
  );
}

function renderStandings() {
  $("[data-arena-standings] tbody").replaceChildren(...standings.map(standingRow));
  $("[data-arena-empty]").hidden = standings.length > 0;
  placesBefore = new Map(standings.map((row) => [row.name, row.points]));
  announce();
}

// --- the standings, said ----------------------------------------------------------
// The countdown and the table change all the time: neither is a live region (a screen
// reader would talk without end). A polite live region says what matters to this page
// (its player's place and points, and who leads) when that changed, at most once every
// SAY_EVERY_MS, and then only the latest: a busy arena sends standings several times a
// second. What the page shows first is not said (the table is there to read).
const SAY_EVERY_MS = 10_000;
let said = null; // the last summary said (or first seen)
let saidAt = -Infinity;
let sayLater = null;

function summary() {
  if (!standings.length || arena?.status === "finished") return ""; // the verdict says the end
  const placeOf = (row) => row.place ?? standings.indexOf(row) + 1;
  const points = (row) => tn("arena.points.one", "arena.points.other", row.points);
  const top = standings[0];
  const own = standings.find((row) => row.name === me?.name);
  if (own && placeOf(own) === 1) return t("arena.say.you_lead", { points: points(own) });
  const leader = t("arena.say.leader", { name: top.name, points: points(top) });
  if (!own) return leader;
  return [t("arena.say.you", { place: fmt(placeOf(own)), points: points(own) }), leader].join(" ");
}

function announce() {
  if (said === null) {
    said = summary();
    return;
  }
  if (sayLater !== null || summary() === said) return; // a word is due: it will be the latest
  sayLater = setTimeout(() => {
    sayLater = null;
    const text = summary();
    if (!text || text === said) return;
    said = text;
    saidAt = performance.now();
    $("[data-arena-announce]").textContent = text;
  }, Math.max(0, saidAt + SAY_EVERY_MS - performance.now()));
}

// A room of this arena, opened with the way back here (arenaback.js).
const roomUrl = (room) => `/room/${encodeURIComponent(room)}?arena=${encodeURIComponent(id)}`;

function gameItem(game) {
  const names = game.players.join(", ");
  const url = roomUrl(game.room);
  return el(
    "li",
    { "data-arena-game-room": game.room },
    el("span", { text: names }),
    el("a", { class: "button quiet", href: url, text: t("arena.watch") }),
  );
}

function renderGames() {
  $("[data-arena-games]").replaceChildren(...games.map(gameItem));
  $("[data-arena-nogames]").hidden = games.length > 0;
  $("[data-arena-games-box]").hidden = arena?.status === "finished";
}

function renderPodium() {
  const podium = arena?.podium || [];
  const box = $("[data-arena-podium]");
  box.hidden = arena?.status !== "finished" || podium.length === 0;
  box.querySelector("ol").replaceChildren(
    ...podium.slice(0, 3).map((row, i) =>
      el(
        "li",
        { "data-place": i + 1, "data-podium-name": row.name },
        el("span", { class: "place", text: fmt(i + 1) }),
        el("span", { class: "who", text: row.name }),
        el("span", { text: tn("arena.points.one", "arena.points.other", row.points) }),
      ),
    ),
  );
}

// "Your next game": what this player waits for, and which buttons make sense now.
function renderMe() {
  const status = arena?.status ?? "";
  main.dataset.arenaStatus = status;
  const state = me?.state ?? "";
  main.dataset.arenaMe = state;
  const joined = Boolean(state) && state !== "out";
  const over = status === "finished";
  const form = $("[data-arena-join-form]");
  const typing = form.contains(document.activeElement);
  form.hidden = joined || over;
  $("[data-arena-action=pause]").hidden = over || paused || !["waiting", "playing"].includes(state);
  $("[data-arena-action=resume]").hidden = over || !paused || !joined;
  // The form the keyboard was in went away: the focus goes to what comes next.
  if (typing && form.hidden) $("[data-arena-buttons] button:not([hidden])")?.focus();
  // The game in progress: its seat's token was kept when the pairing came.
  const go = $("[data-arena-game]");
  go.hidden = over || state !== "playing" || !me?.room;
  if (me?.room) go.href = roomUrl(me.room);
  $("[data-arena-next]").textContent = nextText(status);
  $("#arena-you").hidden = over; // at the end only the verdict stays, above the podium
}

function nextText(status) {
  if (status === "finished") {
    const row = standings.find((r) => r.name === me?.name);
    return row ? t("arena.over.you", { place: fmt(row.place ?? standings.indexOf(row) + 1) }) : t("arena.over");
  }
  if (!me?.state || me.state === "out") return "";
  if (me.state === "paused" || paused) return t("arena.next.paused");
  if (me.state === "playing") return t("arena.next.playing");
  if (status === "waiting") return t("arena.next.start");
  return t("arena.next.waiting");
}

function renderWhen() {
  if (!arena) return;
  $("[data-arena-when]").textContent = arenaWhen(arena);
}

function renderArena() {
  if (!arena) return;
  $("[data-arena-title]").textContent = t("arena.title", { variant: variantTitle(arena.variant) });
  document.title = [t("title.arena"), variantTitle(arena.variant)].join(" · ");
  $("[data-arena-settings]").textContent = arenaSettings(arena);
  renderWhen();
  renderPodium();
  renderMe();
}

function refused(message) {
  const box = $("[data-arena-error]");
  box.textContent = message || "";
  box.hidden = !message;
}

// --- the server's messages -------------------------------------------------------

// The seat's token goes where the room page looks for it (protocol.js), then the page
// follows the player into the room, with the way back to this arena.
function follow(room, token) {
  try {
    localStorage.setItem(`setgame.token.${room}`, token);
  } catch {
    /* storage off: the room greets a spectator, the link below still leads there */
  }
  location.assign(roomUrl(room));
}

// `welcome` carries the arena's summary, `standings` its times and rows (`arena` is then
// the id); both carry this browser's row as `you`.
function absorb(msg) {
  if (msg.arena && typeof msg.arena === "object") arena = { ...arena, ...msg.arena };
  for (const key of ["status", "starts_at", "ends_at", "players", "podium"]) {
    if (key in msg) arena = { ...arena, [key]: msg[key] };
  }
  if (Array.isArray(msg.standings)) {
    standings = msg.standings;
    games = gamesOf(standings);
  }
  if ("you" in msg) me = msg.you;
  syncPaused();
}

// The server's word on pausing, when its row can say it (not during a game).
function syncPaused() {
  if (me?.state === "paused" || me?.state === "waiting") paused = me.state === "paused";
}

// The games in progress, from the rows of those playing (a computer player has no row).
function gamesOf(rows) {
  const rooms = new Map();
  for (const row of rows) {
    if (row.state === "playing" && row.room) rooms.set(row.room, [...(rooms.get(row.room) || []), row.name]);
  }
  return [...rooms].map(([room, players]) => ({ room, players }));
}

// A guest's name goes in `hello`: joining under a new one says hello again with it.
let joinAfterHello = false;

const handlers = {
  welcome(msg) {
    absorb(msg);
    renderAll();
    if (joinAfterHello) send({ type: "join" });
    joinAfterHello = false;
  },
  standings(msg) {
    absorb(msg);
    renderAll();
  },
  entered(msg) {
    keepMine({ name: msg.name, token: msg.token });
    me = { ...me, name: msg.name };
  },
  queue(msg) {
    me = { ...me, state: msg.state, room: msg.room };
    syncPaused();
    renderMe();
  },
  paired(msg) {
    me = { ...me, state: "playing", room: msg.room };
    renderMe();
    follow(msg.room, msg.token);
  },
  error(msg) {
    const words = CODES[msg.code] ? t(CODES[msg.code], { name: mine()?.name ?? "" }) : banText(msg);
    refused(words || msg.message || msg.code);
    if (msg.request === "join") renderMe();
  },
  pong() {},
};

// Refusals worded here; the others quote the server's message (a name refused says why).
const CODES = {
  arena_over: N_("arena.err.over"),
  arena_closing: N_("arena.err.closing"),
  arena_full: N_("arena.err.full"),
  rated_arena: N_("arena.err.rated"),
  name_taken: N_("arena.err.name_taken"),
  joining_too_fast: N_("arena.err.join_fast"),
  ...NAME_REFUSALS,  // worded as the room page words them
};

function renderAll() {
  renderArena();
  renderStandings();
  renderGames();
}

function send(msg) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/arena/${encodeURIComponent(id)}`);
  socket = ws;
  ws.onopen = () => {
    retry = 0;
    const known = mine();
    send({ type: "hello", name: known?.name || null, token: known?.token || null });
    connStatus("open");
  };
  ws.onmessage = (e) => {
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch {
      return;
    }
    handlers[msg.type]?.(msg);
  };
  ws.onclose = (e) => {
    if (ws !== socket) return;
    if (joinAfterHello) return connect(); // closed by us to say hello under a new name
    if (e.code === 4004) {
      connStatus("gone");
      refused(t("arena.unknown"));
      return;
    }
    connStatus("reconnecting");
    setTimeout(connect, Math.min(5000, 250 * 2 ** retry++));
  };
}

const STATUSES = { reconnecting: "conn.reconnecting", gone: "conn.gone" };
function connStatus(s) {
  const conn = $("#arena-conn");
  conn.textContent = STATUSES[s] ? t(STATUSES[s]) : "";
  conn.className = `conn ${s}`;
}

// --- the player's buttons ----------------------------------------------------------

function bind() {
  const form = $("[data-arena-join-form]");
  const input = form.elements["player-name"];
  input.value = mine()?.name || getPref("name", "") || "";
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    setPref("name", name);
    refused("");
    const known = mine();
    if (known?.name === name || input.readOnly) {
      send({ type: "join" });
      return;
    }
    // A new name: say hello again with it (a new participant), then join.
    keepMine({ name });
    joinAfterHello = true;
    socket?.close(1000);
  });
  const toggle = (pause) => {
    paused = pause;
    send({ type: pause ? "pause" : "join" });
    renderMe();
    $(`[data-arena-action=${pause ? "resume" : "pause"}]`).focus(); // the button that took its place
  };
  $("[data-arena-action=pause]").addEventListener("click", () => toggle(true));
  $("[data-arena-action=resume]").addEventListener("click", () => toggle(false));
  const link = $(".share .link");
  link.value = `${location.origin}/arena/${id}`;
  $("[data-arena-copy]").addEventListener("click", () => {
    link.select();
    navigator.clipboard?.writeText(link.value).catch(() => {});
  });
}

// A signed-in player joins as their account: the name is theirs, not to be changed here.
async function fillAccountName() {
  try {
    const account = await (await fetch("/api/account")).json();
    if (!account.signed_in) return;
    const input = $("[data-arena-join-form]").elements["player-name"];
    input.value = account.name;
    input.readOnly = true;
  } catch {
    /* a guest's form */
  }
}

await init();
bind();
await fillAccountName();
connect();
setInterval(renderWhen, 1000);
