// The arena list (/arena): the arenas running and coming (GET /api/arenas, refreshed every
// few seconds), each with its variant, time left or start, and players, then the last ones
// finished; and the form with which a signed-in player creates a private arena
// (POST /api/arenas), whose link is offered to share.

import { el, init, N_, t, tn } from "./common.js";
import { variantAbout } from "./flaws.js";
import { arenaWhen, arenaSettings, variantTitle } from "./arenawords.js";
import { findVariant, VARIANTS } from "./variants.js";

const $ = (selector) => document.querySelector(selector);
const form = $("[data-arena-form]");

// When a new arena starts: at once, or after a few minutes (the server's starts_in_seconds).
const STARTS = [0, 60, 300, 900, 1800, 3600];

function startOptions() {
  const select = form.elements.starts_in;
  for (const seconds of STARTS) {
    const text = seconds
      ? tn("arena.create.in.one", "arena.create.in.other", seconds / 60)
      : t("arena.create.now");
    select.add(new Option(text, String(seconds)));
  }
  select.value = "300"; // five minutes to share the link
}

// A cap on each game's minutes (none by default).
const GAME_MINUTES = [0, 3, 5, 10];

function gameOptions() {
  const select = form.elements.game_minutes;
  for (const minutes of GAME_MINUTES) {
    const text = minutes ? tn("arena.minutes.one", "arena.minutes.other", minutes) : t("arena.create.game.none");
    select.add(new Option(text, String(minutes)));
  }
}

function syncForm() {
  const chosen = findVariant(form.elements.variant.value);
  $("#arena-variant-desc").textContent = variantAbout(chosen.name);
  form.elements.deck.closest("label").hidden = Boolean(chosen.deck);
}

function arenaItem(arena) {
  const url = arena.url || `/arena/${encodeURIComponent(arena.id)}`;
  const players = arena.players ?? 0;
  return el(
    "li",
    { "data-arena": arena.id, "data-status": arena.status },
    el("a", { href: url, class: "title", text: variantTitle(arena.variant) }),
    el("span", { class: "when", text: arenaWhen(arena) }),
    el("span", { class: "who", text: tn("arena.players.one", "arena.players.other", players) }),
    el("span", { class: "how", text: arenaSettings(arena) }),
  );
}

async function refresh() {
  try {
    const res = await fetch("/api/arenas");
    const body = res.ok ? await res.json() : {};
    const arenas = body.arenas || [];
    const finished = body.finished || [];
    $("[data-arena-list]").replaceChildren(...arenas.map(arenaItem));
    $("[data-arena-none]").hidden = arenas.length > 0;
    $("[data-arena-finished]").replaceChildren(...finished.map(arenaItem));
    $("[data-arena-finished-box]").hidden = finished.length === 0;
  } catch {
    /* the list comes back on the next refresh */
  }
}

function settings() {
  const f = form.elements;
  const chosen = findVariant(f.variant.value);
  return {
    variant: chosen.name,
    deck: chosen.deck ? "full" : f.deck.value,
    minutes: Number(f.minutes.value),
    room_size: Number(f.room_size.value),
    game_minutes: Number(f.game_minutes.value) || null,
    starts_in_seconds: Number(f.starts_in.value),
    rated: f.rated.checked,
    private: true, // public arenas are the host's schedule
  };
}

// Refusals worded here; the others (bad settings) quote the server's message.
const CODES = {
  not_signed_in: N_("arena.create.signin"),
  too_many_arenas: N_("arena.err.too_many"),
  rate_limited: N_("arena.err.too_fast"),
  server_full: N_("arena.err.server_full"),
};

// One arena per press: the button waits while the server makes it (a double click made two),
// and a second longer after it answers, since a fast server answers before a double click's
// second press lands.
const SETTLE_MS = 1500;

async function create(e) {
  e.preventDefault();
  const button = $("[data-arena-create]");
  if (button.disabled) return;
  button.disabled = true;
  const error = $("[data-arena-error]");
  error.textContent = "";
  let made = false;
  try {
    const res = await fetch("/api/arenas", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(settings()),
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      const why = CODES[data.code] ? t(CODES[data.code]) : data.message || `HTTP ${res.status}`;
      error.textContent = [t("arena.create.failed"), why].join(": ");
      return;
    }
    const url = data.url || `/arena/${encodeURIComponent(data.id)}`;
    // A private arena is listed nowhere: its link is the way in, to copy before opening it.
    const share = $("[data-arena-share]");
    share.querySelector(".link").value = new URL(url, location.origin).toString();
    share.querySelector("[data-arena-open]").href = url;
    share.hidden = false;
    share.querySelector(".link").select();
    made = true;
  } catch (err) {
    error.textContent = [t("arena.create.failed"), err.message].join(": ");
  } finally {
    if (made) setTimeout(() => (button.disabled = false), SETTLE_MS);
    else button.disabled = false;
  }
}

// Creating an arena needs an account: a guest sees the way to sign in instead of the form.
async function signedIn() {
  try {
    return Boolean((await (await fetch("/api/account")).json()).signed_in);
  } catch {
    return true; // unknown: the form, and the server says why if it refuses
  }
}

await init();
for (const v of VARIANTS) form.elements.variant.add(new Option(v.title, v.name));
startOptions();
gameOptions();
if (!(await signedIn())) {
  form.hidden = true;
  $("[data-arena-signin]").hidden = false;
}
syncForm();
form.addEventListener("input", syncForm);
form.addEventListener("submit", create);
$("[data-arena-copy]").addEventListener("click", () => {
  const link = $("[data-arena-share] .link");
  link.select();
  navigator.clipboard?.writeText(link.value).catch(() => {});
});
refresh();
setInterval(refresh, 5000);
