// The home page: one tap to play (against the computer, solo, a room for friends, the
// daily puzzle), the create-game form behind "More options" (every room setting of
// docs/protocol.md), and the public rooms to join or watch with how many people are online.

import { attributes, el, init, MODES, PHASES, t, tn } from "./common.js";
import { variantAbout } from "./flaws.js";
import { findVariant, VARIANTS } from "./variants.js";

const form = document.querySelector("#create");

const PRESETS = {
  multi: { mode: "multi", bots: 0 },
  bots: { mode: "multi", bots: 2, public: false },
  solo: { mode: "solo", bots: 0, public: false },
  practice: { mode: "practice", bots: 0, deck: "beginner", public: false },
};

function applyPreset(name) {
  for (const [key, value] of Object.entries(PRESETS[name])) {
    const input = form.elements[key];
    if (input.type === "checkbox") input.checked = value;
    else input.value = String(value);
  }
  syncForm();
  form.querySelector("[data-action=create]").focus();
}

// Settings that make no sense for a mode are hidden: one player has no
// opponents to vote with, call, or be locked out against.
function syncForm() {
  const multi = form.elements.mode.value === "multi";
  // Practice has no penalty at all (a wrong pick costs nothing there).
  form.elements.penalty.closest("label").hidden = form.elements.mode.value === "practice";
  for (const name of ["no_set", "pick_seconds", "rounds", "bots", "bot_level", "chat", "rated"]) {
    form.elements[name].closest("label").hidden = !multi;
  }
  form.elements.bot_level.closest("label").hidden = !multi || form.elements.bots.value === "0";
  const lockout = ["lockout", "both"].includes(form.elements.penalty.value);
  form.elements.lockout_lift.closest("label").hidden = !multi || !lockout;
  form.elements.level_out.value = form.elements.bot_level.value;
  syncVariant(multi);
}

// The variant's description, its table sizes (Junior: 12 or 9), and the settings it
// leaves no choice in: its own deck (Junior, MegaSet, 4Set...), and "no set" in the
// variants that deal by themselves (Puzzle, Memory).
function syncVariant(multi) {
  const f = form.elements;
  const chosen = findVariant(f.variant.value);
  document.querySelector("#variant-desc").textContent = variantAbout(chosen.name);
  const sizes = chosen.sizes || [];
  const keep = f.table.value;
  f.table.replaceChildren(...sizes.map((n) => new Option(tn("set.table.cards.one", "set.table.cards.other", n), String(n))));
  if (sizes.map(String).includes(keep)) f.table.value = keep;
  f.table.closest("label").hidden = sizes.length < 2;
  f.deck.closest("label").hidden = Boolean(chosen.deck);
  f.no_set.closest("label").hidden = !multi || Boolean(chosen.auto);
}

function addVariants() {
  const select = form.elements.variant;
  for (const v of VARIANTS) select.add(new Option(v.title, v.name));
}

function settings() {
  const f = form.elements;
  const body = {
    mode: f.mode.value,
    penalty: f.mode.value === "practice" ? "none" : f.penalty.value,
    deck: f.deck.value,
    public: f.public.checked,
  };
  const chosen = findVariant(f.variant.value);
  // Classic is the default: a form left at it sends what it always sent.
  if (chosen.name !== "classic") body.variant = chosen.name;
  if (chosen.deck) body.deck = "full";
  const table = Number(f.table.value);
  if (chosen.sizes && table && table !== chosen.sizes[0]) body.table = table;
  if (body.mode === "multi") {
    Object.assign(body, {
      no_set: chosen.auto ? "auto" : f.no_set.value,
      pick_seconds: Number(f.pick_seconds.value),
      rounds: f.rounds.value,
      bots: Number(f.bots.value),
      bot_level: Number(f.bot_level.value),
    });
    if (f.chat.value !== "all") body.chat = f.chat.value; // the default sends nothing
    // Absent: rated when everyone at the table is signed in (the server decides).
    if (f.rated.value !== "auto") body.rated = f.rated.value === "yes";
    // Sent only when it is not the default, the lockout of 002 and 000's option.
    if (["lockout", "both"].includes(body.penalty) && f.lockout_lift.value !== "set") {
      body.lockout_lift = f.lockout_lift.value;
    }
  }
  return body;
}

// One tap to play: the room is created with the usual settings and opened at once.
const QUICK = {
  bots: { mode: "multi", bots: 2, public: false },
  solo: { mode: "solo", public: false },
  friends: { mode: "multi", public: false },
};

async function create(e) {
  e.preventDefault();
  await ready; // the form's lists are filled and its settings in step
  await createRoom(settings(), document.querySelector("#create-error"));
}

// One room per tap: a double tap, or a second tap while the first room is being made, would
// make a second room, which counts against the address's cap. Free again after a refusal.
let creating = false;
// Back from the room to this page as the browser kept it: its buttons play again.
addEventListener("pageshow", (e) => {
  if (e.persisted) creating = false;
});

async function createRoom(body, error) {
  if (creating) return;
  creating = true;
  error.textContent = "";
  try {
    const res = await fetch("/api/rooms", {
      method: "POST",
      headers: { "content-type": "application/json", "x-setgame-seats": seatTokens().join(" ") },
      body: JSON.stringify(body),
    });
    const data = await res.json().catch(() => ({}));
    if (data.code === "too_many_rooms") {
      tooMany(error, data.rooms || [], data.others || 0);
    } else if (!res.ok) {
      refused(error, data.message || `HTTP ${res.status}`, []);
    } else {
      location.assign(data.url);
      return; // still "creating" until the room's page replaces this one
    }
  } catch (err) {
    refused(error, t("err.network", { why: err.message }), []);
  }
  creating = false;
}

// The seat tokens this browser keeps (protocol.js, one per room): over the address's room
// cap the server names only the rooms they (or the signed-in account) hold.
function seatTokens() {
  const tokens = [];
  try {
    for (let i = 0; i < localStorage.length && tokens.length < 64; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith("setgame.token.")) tokens.push(localStorage.getItem(key));
    }
  } catch {
    /* storage refused (private mode): no room is named, the count still is */
  }
  return tokens.filter(Boolean);
}

// Over the address's cap: links to the player's own rooms that count (play in one, or leave
// it), and how many others behind the same address count (never which: they are not theirs).
function tooMany(error, rooms, others) {
  const why = rooms.length ? t("home.too_many") : t("home.too_many_theirs");
  refused(error, why, rooms);
  if (rooms.length && others) error.append(el("p", { text: tn("home.others.one", "home.others.other", others) }));
}

// Why a room was not created; with links to the rooms given (play in one of them, or leave it).
function refused(error, why, rooms) {
  const links = (rooms || []).map((room) => el("li", {}, el("a", { href: room.url }, t("home.your_room", { id: room.id }))));
  error.replaceChildren([t("home.failed"), why].join(": "), ...(links.length ? [el("ul", { class: "room-links" }, ...links)] : []));
}

// A listed room's mode, with its variant unless Classic.
function modeText(room) {
  const mode = t(MODES[room.mode] ?? "mode.multi");
  const name = room.settings?.variant;
  const title = VARIANTS.find((v) => v.name === name)?.title ?? name;
  const parts = name && name !== "classic" ? [mode, title] : [mode];
  if (room.rated) parts.push(t("home.rated")); // so that a guest knows before opening it
  return parts.join(" · ");
}

function roomRow(room) {
  const url = room.url || `/room/${room.id}`;
  const open = room.phase === "lobby" || room.phase === undefined;
  return el(
    "tr",
    {},
    el("td", { text: modeText(room) }),
    el("td", { text: (room.players || []).join(", ") || "—" }),
    el("td", { text: t(PHASES[room.phase] ?? "phase.undefined") }),
    el(
      "td",
      { class: "go" },
      open ? el("a", { href: url, class: "button", "data-join": room.id, text: t("home.join") }) : null,
      el("a", { href: url, class: "button quiet", "data-watch": room.id, text: t("home.watch") }),
    ),
  );
}

async function refresh() {
  try {
    const res = await fetch("/api/rooms");
    const rooms = res.ok ? await res.json() : [];
    document.querySelector("#rooms tbody").replaceChildren(...rooms.map(roomRow));
    document.querySelector("#no-rooms").hidden = rooms.length > 0;
    document.querySelector("#rooms").hidden = rooms.length === 0;
    const count = await (await fetch("/api/online")).json();
    const online = document.querySelector("#online");
    online.textContent = tn("home.online.one", "home.online.other", count.online);
    online.dataset.online = String(count.online);
    online.hidden = false;
  } catch {
    /* the list comes back on the next refresh */
  }
}

// The single-attribute decks of R16 ("color=R": the 27 red cards), named in the page language.
function addDecks() {
  const select = form.elements.deck;
  for (const attr of attributes()) {
    const group = el("optgroup", { label: attr.label });
    attr.letters.forEach((letter, i) => {
      const text = t("deck.one", { attr: attr.label, value: attr.words[i] });
      group.append(new Option(text, `${attr.name}=${letter}`));
    });
    select.append(group);
  }
}

// The play buttons and the settings form (behind a <details>, which opens without script)
// count from the first paint: on a slow phone a tap or a submit waits for the page's words
// and lists (so any refusal is in the page language) instead of being lost, or the form
// being sent as a plain page load.
const ready = init({ cards: true }).then(() => {
  addDecks();
  addVariants();
  syncForm();
});
for (const b of document.querySelectorAll("button[data-play]")) {
  b.addEventListener("click", async () => {
    await ready;
    createRoom(QUICK[b.dataset.play], document.querySelector("#play-error"));
  });
}
form.addEventListener("submit", create);
await ready;
for (const b of document.querySelectorAll("[data-preset]")) {
  b.addEventListener("click", () => applyPreset(b.dataset.preset));
}
form.addEventListener("input", syncForm);
refresh();
setInterval(refresh, 5000);
