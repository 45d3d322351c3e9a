// Keys by physical position (KeyboardEvent.code), so a card's key is the same key
// on every keyboard; only its label follows the player's layout. The layout is
// read from the browser where it can tell (navigator.keyboard.getLayoutMap) or
// chosen by the player (remembered as setgame.keys).

import { getPref, setPref } from "./common.js";

// One code per table position, laid out like the keyboard's own rows: the top row
// of cards is the digit row, the middle row Q-U, the bottom row A-K (H is the hint).
// The fourth row (Z-M, without N: no set) is a 16-card MegaSet table's fourth row, or
// in the chain variants the previous set shown under the table.
const CODE_ROWS = [
  ["Digit1", "Digit2", "Digit3", "Digit4", "Digit5", "Digit6", "Digit7"],
  ["KeyQ", "KeyW", "KeyE", "KeyR", "KeyT", "KeyY", "KeyU"],
  ["KeyA", "KeyS", "KeyD", "KeyF", "KeyG", "KeyJ", "KeyK"],
  ["KeyZ", "KeyX", "KeyC", "KeyV", "KeyB", "KeyM", "Comma"],
];
const LETTERS = [...CODE_ROWS[1], ...CODE_ROWS[2], "KeyN", "KeyH", ...CODE_ROWS[3]];

// What each letter key types, in the order of LETTERS (Q W E R T Y U, A S D F G J K, N H,
// Z X C V B M ,). The digit row is labelled with its digits on every layout, as its keycaps are.
const LAYOUTS = {
  qwerty: ["qwertyu", "asdfgjk", "nh", "zxcvbm,"],
  qwertz: ["qwertzu", "asdfgjk", "nh", "yxcvbm,"],
  azerty: ["azertyu", "qsdfgjk", "nh", "wxcvb,;"],
  dvorak: ["',.pyfg", "aoeuiht", "bd", ";qjkxmw"],
  colemak: ["qwfpgjl", "arstdne", "kh", "zxcvbm,"],
  jcuken: ["йцукенг", "фывапол", "тр", "ячсмиьб"],
};
export const LAYOUT_NAMES = {
  auto: "",
  qwerty: "QWERTY",
  qwertz: "QWERTZ",
  azerty: "AZERTY",
  dvorak: "Dvorak",
  colemak: "Colemak",
  jcuken: "ЙЦУКЕН",
};

let labels = {}; // code -> label shown

function labelsOf(name) {
  const chars = [...LAYOUTS[name].join("")];
  const map = Object.fromEntries(LETTERS.map((code, i) => [code, chars[i]]));
  CODE_ROWS[0].forEach((code, i) => (map[code] = String(i + 1)));
  return map;
}

// The browser's own layout map, when it offers one (Chromium on secure origins).
async function browserLabels() {
  try {
    const map = await navigator.keyboard?.getLayoutMap?.();
    if (!map || !map.size) return null;
    const found = labelsOf("qwerty");
    for (const code of LETTERS) {
      const key = map.get(code);
      if (key) found[code] = key.toLowerCase();
    }
    return found;
  } catch {
    return null;
  }
}

export const layoutChoice = () => {
  const name = getPref("keys", "auto");
  return name in LAYOUT_NAMES ? name : "auto";
};

// Load the labels of the chosen layout ("auto": the browser's, else QWERTY).
export async function loadLayout(name = layoutChoice()) {
  labels = (name === "auto" && (await browserLabels())) || labelsOf(name === "auto" ? "qwerty" : name);
}

export async function chooseLayout(name) {
  setPref("keys", name);
  await loadLayout(name);
}

// The key code of table position i on a table of `rows` rows (3, or 4 for MegaSet).
export const codeFor = (i, rows = 3) => CODE_ROWS[i % rows]?.[Math.floor(i / rows)] || "";

// The label of table position i, or of a key code such as "KeyN".
export const keyFor = (i, rows = 3) => labels[codeFor(i, rows)] || "";
export const labelOf = (code) => labels[code] || code.replace(/^(Key|Digit)/, "").toLowerCase();

// The key of the j-th card of the previous set (chain variants): the fourth key row.
export const previousKey = (j) => labels[CODE_ROWS[3][j]] || "";

// {row, col} of a key event in CODE_ROWS, or null: by its code, or, when a browser gives
// no code (some on-screen keyboards), by the character it typed under the shown labels.
function slotForEvent(e) {
  let code = e.code;
  if (!code && e.key) {
    const typed = e.key.toLowerCase();
    code = Object.keys(labels).find((c) => labels[c] === typed) || "";
  }
  for (let row = 0; row < CODE_ROWS.length; row++) {
    const col = CODE_ROWS[row].indexOf(code);
    if (col >= 0) return { row, col };
  }
  return null;
}

// The table position of a key event on a table of `rows` rows, or -1.
export function indexForEvent(e, rows = 3) {
  const slot = slotForEvent(e);
  return slot && slot.row < rows ? slot.col * rows + slot.row : -1;
}

// The previous-set card (chain variants, 3-row tables) a key event names, or -1.
export function previousForEvent(e) {
  const slot = slotForEvent(e);
  return slot && slot.row === 3 ? slot.col : -1;
}

// Whether the event is the key `code` ("Space", "KeyN", "KeyH"), by position first.
export function isKey(e, code) {
  if (e.code) return e.code === code;
  if (code === "Space") return e.key === " ";
  return (e.key || "").toLowerCase() === labelOf(code);
}
