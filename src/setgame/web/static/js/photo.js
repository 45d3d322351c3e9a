// The photo page (/photo, issue 24): a photo of a real table goes to the server
// (POST /api/photo, the image's bytes as the body), which answers the cards it found (code,
// corners in the photo's pixels, confidence) and the sets among them. The page draws each
// card's outline over the photo (an SVG in the photo's own pixels, scaled with it), lists the
// sets and highlights them one by one, lets a card read wrongly be corrected (its four
// values), asks the server's judge for the sets again (POST /api/photo/sets), and turns the
// cards into a practice room ("Play this table": POST /api/rooms with `start`). The photo
// stays in this page: only the cards ever reach a room.

import { attributes, cardLabel, el, fmt, init, N_, t, tn, touchOnly } from "./common.js";
import { cardSVG, ensureDefs, labelMarks } from "./cards.js";
import { cardElement, colorLetters } from "./table.js";

const $ = (sel) => document.querySelector(sel);
const SVG = "http://www.w3.org/2000/svg";
const MAX_BYTES = 15 * 1024 * 1024; // the server's photo_bytes: said before uploading
const BIG_BYTES = 8 * 1024 * 1024; // a photo heavier than this is made lighter before sending
const SEND_SIDE = 4000; // ...at most this many pixels on its long side (the reader needs fewer)
const MAX_START = 21; // the cards a practice table may start with (R11)
const UNSURE = 0.6; // below this confidence a card is marked "check this card"

const ERRORS = {
  rate_limited: N_("photo.err.rate_limited"),
  busy: N_("photo.err.busy"),
  too_big: N_("photo.err.too_big"),
  too_many_pixels: N_("photo.err.too_many_pixels"),
  too_slow: N_("photo.err.too_slow"),
  too_large: N_("photo.err.too_big"),
  not_an_image: N_("photo.err.not_an_image"),
  unsupported: N_("photo.err.unsupported"),
  truncated: N_("photo.err.truncated"),
  empty: N_("photo.err.empty"),
  no_photo: N_("photo.err.empty"),
};

// What the page holds: the cards (each {code, corners or null for a card added by hand,
// confidence}), the sets as lists of codes, the set shown, the card being corrected.
let cards = [];
let sets = [];
let current = 0;
let editing = null; // index into cards, or cards.length for a new card
let photoURL = null;
let asked = 0; // the photos chosen so far: an answer to an earlier one is dropped
let started = null; // the page's words and card pictures loading (main)

// --- reading a photo ---------------------------------------------------------------

function setState(name) {
  document.querySelector("main").dataset.state = name;
}

function say(text) {
  $("#photo-status").textContent = text;
}

function fail(text) {
  $("#photo-error").textContent = text;
  say("");
}

async function readPhoto(chosen) {
  if (!chosen) return;
  await started; // a photo chosen while the page still loads its words waits for them
  fail("");
  $("#photo-play-error").textContent = "";
  const file = await lighter(chosen);
  if (file.size > MAX_BYTES) {
    setState("error");
    fail(t("photo.err.too_big"));
    return;
  }
  document.querySelector("main").dataset.sent = String(file.size); // bytes sent (a test hook)
  const mine = ++asked;
  $("#photo-result").hidden = true; // the last photo's outlines are not this one's
  setState("reading");
  say(t("photo.reading"));
  showPhoto(file);
  let reply;
  let data = {};
  try {
    reply = await fetch("/api/photo", {
      method: "POST",
      headers: { "content-type": file.type || "application/octet-stream" },
      body: file,
    });
    data = await reply.json().catch(() => ({}));
  } catch (err) {
    if (mine !== asked) return;
    setState("error");
    fail(t("photo.err.network", { why: err.message }));
    return;
  }
  if (mine !== asked) return; // another photo was chosen meanwhile
  if (!reply.ok) {
    setState("error");
    $("#photo-result").hidden = true;
    fail(refusal(reply, data));
    return;
  }
  cards = (data.cards || []).map((c) => ({ code: c.code, corners: c.corners, confidence: c.confidence ?? 1 }));
  sets = data.sets || [];
  current = 0;
  say("");
  setState("read");
  $("#photo-result").hidden = false;
  await imageReady();
  render();
  // On a phone (above all one held sideways) the reading starts below the fold: bring it up.
  const result = $("#photo-result");
  if (result.getBoundingClientRect().top > innerHeight / 2) result.scrollIntoView({ block: "start" });
}

// A heavy photo (a phone of 50 or 108 megapixels, up to 30 MB) redrawn as a JPEG of at most
// SEND_SIDE pixels a side, turned as it is shown: quicker to send on a phone's network, and
// under the server's 15 MB. Photos of usual weight are sent as they are; one the browser
// cannot decode is sent as it is too, for the server to say what is wrong with it.
async function lighter(file) {
  if (file.size <= BIG_BYTES) return file;
  let bitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return file;
  }
  const scale = Math.min(1, SEND_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.92));
  return blob || file;
}

// Why the server refused the photo, in the page language (the server's own message for
// what is wrong with the file itself: it quotes what it found).
function refusal(reply, data) {
  const key = ERRORS[data.code];
  if (key) return t(key);
  return t("photo.err.unreadable", { why: data.message || `HTTP ${reply.status}` });
}

function showPhoto(file) {
  if (photoURL) URL.revokeObjectURL(photoURL);
  photoURL = URL.createObjectURL(file); // in this page only: never stored, never sent again
  const img = $("#photo-img");
  img.src = photoURL;
}

function imageReady() {
  const img = $("#photo-img");
  if (img.complete && img.naturalWidth) return Promise.resolve();
  return new Promise((resolve) => {
    img.addEventListener("load", resolve, { once: true });
    img.addEventListener("error", resolve, { once: true });
  });
}

// --- drawing ---------------------------------------------------------------------------

function render() {
  renderSummary();
  renderMarks();
  renderSets();
  renderCards();
  renderPlay();
}

function renderSummary() {
  const found = tn("photo.found.one", "photo.found.other", cards.length);
  const among = sets.length ? tn("photo.sets.one", "photo.sets.other", sets.length) : t("photo.sets.none");
  const summary = $("#photo-summary");
  summary.replaceChildren(el("span", { text: found }), " ", el("span", { text: among }));
  summary.dataset.cards = String(cards.length);
  summary.dataset.sets = String(sets.length);
}

const inSet = () => new Set(sets[current] || []);

// The outlines over the photo, in its own pixels: the SVG's viewBox is the photo's size as
// the browser shows it, so the outlines scale with the photo on every screen.
function renderMarks() {
  const img = $("#photo-img");
  const svg = $("#photo-marks");
  const w = img.naturalWidth || 1;
  const h = img.naturalHeight || 1;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const lit = inSet();
  const size = Math.max(w, h) / 45; // the code's letters: readable at any photo size
  const marks = [];
  cards.forEach((card, i) => {
    if (!card.corners) return;
    const g = document.createElementNS(SVG, "g");
    g.setAttribute("class", markClass(card, lit));
    g.dataset.photoMark = String(i);
    g.dataset.code = card.code;
    const shape = document.createElementNS(SVG, "polygon");
    shape.setAttribute("points", card.corners.map(([x, y]) => `${x},${y}`).join(" "));
    const [cx, cy] = centre(card.corners);
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("x", String(cx));
    label.setAttribute("y", String(cy));
    label.setAttribute("font-size", String(size));
    label.setAttribute("text-anchor", "middle");
    label.setAttribute("dominant-baseline", "central");
    label.textContent = card.code;
    g.append(shape, label);
    g.addEventListener("click", () => openFix(i));
    marks.push(g);
  });
  svg.replaceChildren(...marks);
}

function markClass(card, lit) {
  const parts = ["mark"];
  if (lit.has(card.code)) parts.push("lit");
  else if (sets.length) parts.push("dim");
  if (card.confidence < UNSURE) parts.push("unsure");
  return parts.join(" ");
}

function centre(corners) {
  const n = corners.length;
  return [corners.reduce((s, p) => s + p[0], 0) / n, corners.reduce((s, p) => s + p[1], 0) / n];
}

// A small picture of a card, not a live table card (data-code, never data-card).
const miniCard = (code, i) => cardElement(code, i, { attr: "data-code", keys: false });

function renderSets() {
  const none = sets.length === 0;
  $("#photo-no-set").hidden = !none;
  $("#photo-set-nav").hidden = sets.length < 2;
  current = Math.min(current, Math.max(0, sets.length - 1));
  const which = $("#photo-set-which");
  which.textContent = none ? "" : t("photo.set_which", { which: fmt(current + 1), all: fmt(sets.length) });
  $("#photo-sets").replaceChildren(
    ...sets.map((codes, k) => {
      const names = codes.map(cardLabel).join(", ");
      const button = el(
        "button",
        {
          type: "button",
          class: k === current ? "photo-set current" : "photo-set",
          "data-set": String(k),
          "aria-pressed": String(k === current),
          "aria-label": t("photo.set_named", { which: fmt(k + 1), cards: names }),
          onclick: () => showSet(k),
        },
        el("div", { class: "table mini" }, ...codes.map(miniCard)),
      );
      return el("li", { "data-set-cards": codes.join(" ") }, button);
    }),
  );
}

function showSet(k) {
  if (!sets.length) return;
  current = (k + sets.length) % sets.length;
  renderMarks();
  renderSets();
  renderCards();
}

function renderCards() {
  const lit = inSet();
  $("#photo-cards").replaceChildren(
    ...cards.map((card, i) => {
      const unsure = card.confidence < UNSURE;
      const name = cardLabel(card.code);
      const button = el(
        "button",
        {
          type: "button",
          class: "photo-card",
          "data-photo-card": String(i),
          "data-code": card.code,
          "data-lit": lit.has(card.code) ? "" : null,
          "data-unsure": unsure ? "" : null,
          "aria-describedby": "photo-fix-hint", // its name is what it shows; this says what a tap does
          onclick: () => openFix(i),
        },
        picture(card.code),
        el(
          "span",
          { class: "photo-card-text" },
          el("span", { class: "photo-card-name", text: name }),
          unsure ? el("span", { class: "photo-unsure", text: t("photo.unsure") }) : null,
        ),
      );
      return el("li", {}, button);
    }),
  );
}

function picture(code) {
  const box = el("span", { class: "card photo-face", "aria-hidden": "true" }, cardSVG(code));
  labelMarks(box, colorLetters());
  return box;
}

function renderPlay() {
  const button = document.querySelector("[data-action=play-table]");
  const note = $("#photo-play-note");
  const n = cards.length;
  button.disabled = n === 0 || n > MAX_START;
  if (n > MAX_START) note.textContent = tn("photo.play_too_many.one", "photo.play_too_many.other", n, { most: fmt(MAX_START) });
  else note.textContent = t("photo.play_note");
}

// --- correcting a card -------------------------------------------------------------------

const codeOf = (values) => values.join("");

function openFix(i) {
  editing = i;
  const code = i < cards.length ? cards[i].code : firstMissing();
  const fields = $("#photo-fix-fields");
  fields.replaceChildren(
    ...attributes().map((attr, a) =>
      el(
        "label",
        {},
        el("span", { text: attr.label }),
        el(
          "select",
          { name: attr.name, "data-fix-attr": attr.name, onchange: preview },
          ...attr.letters.map((letter, v) => {
            const option = new Option(attr.words[v], letter, false, code[a] === letter);
            return option;
          }),
        ),
      ),
    ),
  );
  $("#photo-fix-title").textContent = i < cards.length ? t("photo.fix") : t("photo.add");
  document.querySelector("[data-action=fix-remove]").hidden = i >= cards.length;
  $("#photo-fix-error").textContent = "";
  preview();
  $("#photo-fix").showModal();
  fields.querySelector("select")?.focus();
}

function chosen() {
  return codeOf([...$("#photo-fix-fields").querySelectorAll("select")].map((s) => s.value));
}

function preview() {
  const code = chosen();
  $("#photo-fix-preview").replaceChildren(picture(code), el("span", { text: cardLabel(code) }));
}

// A card to start an added one from: the first of the deck not on the table.
function firstMissing() {
  const taken = new Set(cards.map((c) => c.code));
  for (const n of "123") for (const c of "RGP") for (const s of "STO") for (const h of "DOS") {
    if (!taken.has(n + c + s + h)) return n + c + s + h;
  }
  return "1RSD";
}

async function saveFix(event) {
  const action = event.submitter?.value;
  if (action !== "save") return; // cancel: the dialog closes as it is
  event.preventDefault();
  const code = chosen();
  const twice = cards.findIndex((c, j) => c.code === code && j !== editing);
  if (twice >= 0) {
    $("#photo-fix-error").textContent = t("photo.err.twice", { card: cardLabel(code) });
    return;
  }
  if (editing < cards.length) cards[editing] = { ...cards[editing], code, confidence: 1 };
  else cards.push({ code, corners: null, confidence: 1 });
  $("#photo-fix").close();
  await judge();
}

async function removeCard() {
  if (editing === null || editing >= cards.length) return;
  cards.splice(editing, 1);
  $("#photo-fix").close();
  await judge();
}

// The sets of the corrected table, from the server's judge (the game's own rules).
async function judge() {
  const shown = sets[current]?.join(" ");
  try {
    const reply = await fetch("/api/photo/sets", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cards: cards.map((c) => c.code) }),
    });
    const data = await reply.json().catch(() => ({}));
    if (!reply.ok) {
      fail(refusal(reply, data));
      return;
    }
    sets = data.sets || [];
    const again = sets.findIndex((s) => s.join(" ") === shown);
    current = again >= 0 ? again : 0;
    fail("");
  } catch (err) {
    fail(t("photo.err.network", { why: err.message }));
    return;
  }
  render();
}

// --- playing the table -----------------------------------------------------------------

// One room per tap: a double tap would make a second practice room, which counts against the
// address's cap. Free again after a refusal, or when the browser brings this page back.
let playing = false;
addEventListener("pageshow", (e) => {
  if (e.persisted) playing = false;
});

async function playTable() {
  if (playing) return;
  playing = true;
  const error = $("#photo-play-error");
  error.textContent = "";
  const body = { mode: "practice", start: cards.map((c) => c.code), public: false };
  try {
    const reply = await fetch("/api/rooms", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const data = await reply.json().catch(() => ({}));
    if (!reply.ok) {
      error.textContent = t("photo.err.play", { why: data.message || `HTTP ${reply.status}` });
    } else {
      location.assign(data.url);
      return; // still playing until the room's page replaces this one
    }
  } catch (err) {
    error.textContent = t("photo.err.play", { why: err.message });
  }
  playing = false;
}

// --- the page ----------------------------------------------------------------------------

function keys(event) {
  if (document.querySelector("main").dataset.state !== "read" || $("#photo-fix").open) return;
  if (event.target.closest("input, select, textarea")) return;
  if (event.key === "ArrowRight") showSet(current + 1);
  else if (event.key === "ArrowLeft") showSet(current - 1);
}

async function main() {
  // The inputs listen before the words have loaded: a photo chosen at once is not lost.
  for (const input of document.querySelectorAll("input[type=file]")) {
    input.addEventListener("change", () => {
      readPhoto(input.files?.[0]);
      input.value = ""; // the same photo again is a new reading
    });
  }
  started = init({ cards: true });
  await started;
  ensureDefs();
  $("#photo-img").alt = t("photo.img");
  // On a phone the camera opens at once; a desktop (or a phone's gallery) chooses a file.
  $("#photo-camera").hidden = !touchOnly();
  document.querySelector("[data-action=prev-set]").addEventListener("click", () => showSet(current - 1));
  document.querySelector("[data-action=next-set]").addEventListener("click", () => showSet(current + 1));
  document.querySelector("[data-action=add-card]").addEventListener("click", () => openFix(cards.length));
  document.querySelector("[data-action=fix-remove]").addEventListener("click", removeCard);
  document.querySelector("[data-action=play-table]").addEventListener("click", playTable);
  $("#photo-fix-form").addEventListener("submit", saveFix);
  document.addEventListener("keydown", keys);
  window.addEventListener("resize", () => cards.length && renderMarks());
}

main();
