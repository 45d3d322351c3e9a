// Shared by every page: UI strings, the language selector, theme, colorblind
// option, sound, and the card names / flaw texts that the server provides.

import { setMarkLetters } from "./cards.js";

export const LANGS = ["en", "ru", "pl", "it", "de"];
export const LANG_NAMES = { en: "English", ru: "Русский", pl: "Polski", it: "Italiano", de: "Deutsch" };

let strings = {};
let words = { cards: {}, flaws: {}, attributes: [] };

export const lang = () => document.documentElement.lang || "en";

// The messages come from the server's gettext catalogs (/i18n/<lang>.json): each key
// has its text, or for a plural key the list of the language's gettext forms, and
// `plural` maps each Intl.PluralRules category to the index of its form.
let plural = { other: 0 };
let pluralRules = null;

const fill = (text, vars) =>
  text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));

// t("room.holds", {name: "Ann"}): the string in the page language, {name} filled in.
export function t(key, vars = {}) {
  const text = strings[key];
  return fill(typeof text === "string" ? text : key, vars);
}

// tn("res.sets.one", "res.sets.other", 5, {time}): the form for n, with {n} filled in as
// the language writes numbers. Extracted for the catalog as a plural message.
export function tn(one, other, n, vars = {}) {
  const forms = strings[one];
  let text = n === 1 ? one : other;
  if (Array.isArray(forms) && forms.length) {
    pluralRules ||= new Intl.PluralRules(lang());
    const index = plural[pluralRules.select(n)] ?? plural.other ?? 0;
    text = forms[Math.min(index, forms.length - 1)];
  }
  return fill(text, { n: fmt(n, 0), ...vars });
}

// An async handler that runs one call at a time: a call while one is on its way (a double
// click) is ignored, not sent twice.
export function oneAtATime(handler) {
  let busy = false;
  return async (...args) => {
    if (busy) return;
    busy = true;
    try {
      await handler(...args);
    } finally {
      busy = false;
    }
  };
}

// N_("err.room_full"): marks a key for the catalog where the code picks it at run time.
export const N_ = (key) => key;

// Keys the pages pick at run time, marked for the catalog.
export const PHASES = {
  lobby: N_("phase.lobby"),
  playing: N_("phase.playing"),
  round_over: N_("phase.round_over"),
  match_over: N_("phase.match_over"),
};
export const MODES = { multi: N_("mode.multi"), solo: N_("mode.solo"), practice: N_("mode.practice") };

// A number as the page language writes it, with `digits` decimals: fmt(5, 1) is "5,0" in Russian.
export function fmt(value, digits = 0) {
  return new Intl.NumberFormat(lang(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

// A time as minutes and seconds with tenths, in the page's digits (solo boards): 3:07.4.
export function minutes(seconds) {
  const tenths = Math.round(seconds * 10);
  const whole = Math.floor(tenths / 600);
  const rest = new Intl.NumberFormat(lang(), { minimumIntegerDigits: 2, minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return `${whole}:${rest.format((tenths - whole * 600) / 10)}`;
}

// A wall-clock moment (seconds since 1970, as the server sends them) as the page language
// writes a date and a time: a ban's end, a report's arrival.
export function dateTime(seconds) {
  return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(seconds * 1000));
}

// The refusals of a player's name (docs/protocol.md), worded alike on every page that sends
// one; `{name}` is the name refused.
export const NAME_REFUSALS = {
  bad_name: N_("err.bad_name"),
  name_claimed: N_("err.name_claimed"),
  bot_name: N_("err.bot_name"),
  name_invisible: N_("err.name_invisible"),
  name_mixed: N_("err.name_mixed"),
  name_marks: N_("err.name_marks"),
  name_word: N_("err.name_word"),
};

// Why a ban or a mute refuses this page (the server's `banned` and `muted` refusals carry
// their end and reason), or null for any other refusal.
export function banText(answer) {
  if (answer?.code !== "banned" && answer?.code !== "muted") return null;
  const key = answer.code === "banned" ? N_("mod.you.banned") : N_("mod.you.muted");
  return t(key, { until: dateTime(answer.until), reason: answer.reason ?? "" });
}

// A player's name as shown: the server names bots "Bot 2"; say that in the page language.
export function displayName(player) {
  const bot = /^Bot (\d{1,2})$/.exec(player?.name ?? "");
  return bot && player.bot ? t("bot.name", { n: fmt(Number(bot[1])) }) : (player?.name ?? "");
}

export const attributes = () => words.attributes;

const DECKS = { full: N_("deck.full"), beginner: N_("deck.beginner") };

// A deck setting in words: "full", "beginner", or one attribute value such as "color=R" (R16).
export function deckName(spec) {
  if (DECKS[spec]) return t(DECKS[spec]);
  const [name, letter] = String(spec).split("=");
  const attr = words.attributes.find((a) => a.name === name);
  const i = attr ? attr.letters.indexOf((letter || "").toUpperCase()) : -1;
  return i < 0 ? spec : t("deck.one", { attr: attr.label, value: attr.words[i] });
}

// A card's name in the page language: the server's words (/api/words) name every card of
// every deck (setgame.words.i18n.card_words); the page composes none.
export function cardLabel(code) {
  return words.cards[code] || code;
}

// A flaw arrives as "attr:common:odd" or as an object with those fields.
export function flawText(flaw) {
  const key = typeof flaw === "string" ? flaw : [flaw.attribute, flaw.common, flaw.odd].join(":");
  return words.flaws[key] || (typeof flaw === "object" && flaw.text) || key;
}

async function fetchJSON(url) {
  try {
    const res = await fetch(url);
    return res.ok ? await res.json() : null;
  } catch {
    return null;
  }
}

export function applyI18n(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    el.title = t(el.dataset.i18nTitle);
    el.setAttribute("aria-label", el.title);
  }
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
}

function pref(name, fallback) {
  try {
    return localStorage.getItem(`setgame.${name}`) ?? fallback;
  } catch {
    return fallback;
  }
}

export function setPref(name, value) {
  try {
    localStorage.setItem(`setgame.${name}`, value);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

export function getPref(name, fallback = null) {
  return pref(name, fallback);
}

function chooseLanguage(code) {
  document.cookie = `lang=${code}; path=/; max-age=31536000; samesite=lax`;
  setPref("lang", code);
  const url = new URL(location.href);
  url.searchParams.set("lang", code);
  location.assign(url.toString());
}

function systemDark() {
  return matchMedia("(prefers-color-scheme: dark)").matches;
}

const darkTheme = () => (pref("theme", "") || (systemDark() ? "dark" : "light")) === "dark";

// The page's background in each theme (app.css --bg; the manifest's colors, delivery.py).
const THEME_COLORS = { light: "#f4f1ea", dark: "#16171c" };

function applyLook() {
  const root = document.documentElement;
  const theme = pref("theme", "");
  if (theme) root.dataset.theme = theme;
  else delete root.dataset.theme;
  root.classList.toggle("cb", pref("colorblind", "0") === "1");
  // The browser's bar in the theme's color: each meta's own scheme, or the player's pick.
  for (const meta of document.querySelectorAll('meta[name="theme-color"]')) {
    const scheme = theme || (meta.media.includes("dark") ? "dark" : "light");
    meta.content = THEME_COLORS[scheme] || THEME_COLORS.light;
  }
  // The theme button is a toggle for the dark theme: pressed while the page is dark.
  document.querySelector("[data-control=theme]")?.setAttribute("aria-pressed", String(darkTheme()));
}

// A touch-only device (a phone, a tablet): no hover, a coarse pointer. Its texts say "tap",
// never a key (issue 21).
export const touchOnly = () => matchMedia("(hover: none) and (pointer: coarse)").matches;

// A short buzz on one's own wrong call, where the device can vibrate and the player has not
// turned it off (on by default: it is only felt by the one who erred).
export function buzz() {
  if (pref("vibrate", "1") !== "1") return;
  try {
    navigator.vibrate?.(120);
  } catch {
    /* refused (no user gesture yet, or a desktop): nothing to feel */
  }
}

// Tone for game moments; silent unless the player turned sound on.
let audio = null;
export function beep(kind) {
  if (pref("sound", "0") !== "1") return;
  const tones = { set: [660, 880], wrong: [220, 180], call: [520], deal: [400], end: [523, 659, 784] };
  try {
    audio ||= new AudioContext();
    let at = audio.currentTime;
    for (const hz of tones[kind] || [440]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.08, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + 0.15);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.16);
      at += 0.12;
    }
  } catch {
    /* no audio device: stay silent */
  }
}

function toggle(button, name, onText, apply, fallback = "0") {
  if (!button) return;
  const sync = () => {
    const on = pref(name, fallback) === "1";
    button.setAttribute("aria-pressed", String(on));
    button.classList.toggle("on", on);
    if (onText) button.title = t(onText);
  };
  button.addEventListener("click", () => {
    setPref(name, pref(name, fallback) === "1" ? "0" : "1");
    sync();
    apply?.();
  });
  sync();
}

function buildHeader() {
  const header = document.querySelector("header.top");
  if (!header) return;
  markCurrent(header);
  const select = header.querySelector("select[name=lang]");
  for (const code of LANGS) select.add(new Option(LANG_NAMES[code], code, false, code === lang()));
  select.addEventListener("change", () => chooseLanguage(select.value));
  header.querySelector("[data-control=theme]").addEventListener("click", () => {
    setPref("theme", darkTheme() ? "light" : "dark");
    applyLook();
  });
  matchMedia("(prefers-color-scheme: dark)").addEventListener?.("change", applyLook);
  toggle(header.querySelector("[data-control=colorblind]"), "colorblind", "ui.colorblind", applyLook);
  toggle(header.querySelector("[data-control=sound]"), "sound", "ui.sound");
  // Vibration only on a touch device that has it (a phone); the button stays hidden elsewhere.
  const vibrate = header.querySelector("[data-control=vibrate]");
  if (vibrate && "vibrate" in navigator && touchOnly()) {
    vibrate.hidden = false;
    toggle(vibrate, "vibrate", "ui.vibrate", null, "1");
  }
}

// The header's link to the page one is on (or to the list an arena's page belongs to) is
// marked for screen readers and drawn apart.
function markCurrent(header) {
  const here = location.pathname.replace(/\/+$/, "") || "/";
  for (const link of header.querySelectorAll("nav > a[href]")) {
    const to = link.getAttribute("href");
    if (here === to || here.startsWith(`${to}/`)) link.setAttribute("aria-current", "page");
  }
}

// On a phone the header's links scroll sideways (app.css): data-more says on which side more
// of them lies, which the CSS fades, so that a cut-off row reads as one that scrolls. The
// current page's link is scrolled into sight first. Run once the words are in place (their
// widths decide both), and again when a link's width changes (a font loading, a button shown).
function hintScroll(nav) {
  if (!nav) return;
  const update = () => {
    const left = nav.scrollLeft > 1;
    const right = nav.scrollLeft + nav.clientWidth < nav.scrollWidth - 1;
    const more = left && right ? "both" : left ? "left" : right ? "right" : "";
    if (more) nav.dataset.more = more;
    else delete nav.dataset.more;
  };
  const current = nav.querySelector("[aria-current=page]");
  if (current && nav.scrollWidth > nav.clientWidth) {
    nav.scrollLeft = current.offsetLeft - nav.offsetLeft - (nav.clientWidth - current.offsetWidth) / 2;
  }
  nav.addEventListener("scroll", update, { passive: true });
  const resized = new ResizeObserver(update);
  for (const box of [nav, ...nav.children]) resized.observe(box);
  update();
}

// Load the strings (and, with cards=true, the card words) and set up the header.
export async function init({ cards = false } = {}) {
  applyLook();
  const code = lang();
  const [ui, w] = await Promise.all([
    fetchJSON(`/i18n/${code}.json`),
    cards ? fetchJSON(`/api/words/${code}`) : null,
  ]);
  const catalog = ui || (await fetchJSON("/i18n/en.json")) || {};
  strings = catalog.messages || {};
  plural = catalog.plural || plural;
  if (w) words = { cards: w.cards || {}, flaws: w.flaws || {}, attributes: w.attributes || [] };
  setPref("lang", code);
  setMarkLetters({ R: t("cb.R"), G: t("cb.G"), P: t("cb.P"), B: t("cb.B") });
  buildHeader();
  applyI18n();
  hintScroll(document.querySelector("header.top nav"));
  registerWorker();
}

// The service worker (/sw.js, docs/web.md): the static files kept for the release, and the
// offline page when there is no network. Where there is none (an old browser, a private
// window, plain http to another machine), every page works as before.
function registerWorker() {
  navigator.serviceWorker?.register("/sw.js").catch(() => {});
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}
