// Why a claim was wrong, in the page language, for every kind of flaw a variant's
// wrong call carries (docs/variants.md): set {attribute, common, odd}, pairing
// {pairs, thirds, attributes}, count {attribute, counts}, link {used, needed}.
// The sentences are composed from the catalog's variant keys exactly as
// setgame.words.i18n.flaw_text composes them (docs/i18n.md, "Words of the variants"), so the
// browser, the terminal and the server say the same thing.

import { flawText as knownFlawText, fmt, t, tn } from "./common.js";

// The English names of the attributes and values by index (the keys' names): attribute 4
// is MegaSet's border, value 3 the fourth value of the 4Set decks.
const ATTRIBUTES = ["number", "color", "shading", "shape", "border"];
const VALUES = [
  ["one", "two", "three", "four"],
  ["red", "green", "purple", "blue"],
  ["solid", "striped", "open", "checkered"],
  ["diamond", "oval", "squiggle", "heart"],
  ["single", "double", "dotted"],
];

// Keys built from names, not written out: these keys belong to the words module
// (src/setgame/words/flaw_words.py), which puts them in the catalog.
const key = (...parts) => parts.join(".");
const attributeWord = (i) => t(key("attr", ATTRIBUTES[i] ?? i));

// A set flaw: the server's sentence for the standard deck's attributes (/api/words),
// else composed (MegaSet's border).
function setText(flaw) {
  const known = knownFlawText({ attribute: flaw.attribute, common: flaw.common, odd: flaw.odd });
  if (known !== [flaw.attribute, flaw.common, flaw.odd].join(":")) return known;
  const attr = ATTRIBUTES[flaw.attribute];
  return t(key("flaw", "set"), {
    common: t(key("flaw", "two", attr, VALUES[flaw.attribute]?.[flaw.common])),
    odd: t(key("flaw", "one", attr, VALUES[flaw.attribute]?.[flaw.odd])),
  });
}

// UltraSet: one split into two pairs whose completing cards differ (codes as they are).
function pairingText(flaw) {
  const [[a, b] = [], [c, d] = []] = flaw.pairs || [];
  const [x, y] = flaw.thirds || [];
  const attributes = (flaw.attributes || []).map(attributeWord).join(", ");
  return t(key("flaw", "pairing"), { a, b, c, d, x, y, attributes });
}

// GhostSet (three values) and 4Set (four): how many cards show each value.
function countText(flaw) {
  const counts = flaw.counts || [];
  const attr = ATTRIBUTES[flaw.attribute];
  const listed = counts
    .map((n, v) => {
      const base = key("flaw", "count", attr, VALUES[flaw.attribute]?.[v]);
      return n ? tn(key(base, "one"), key(base, "other"), n) : "";
    })
    .filter(Boolean);
  const rule = t(key("flaw", "count", counts.length === 4 ? "4set" : "ghostset"));
  return t(key("flaw", "count"), { counts: listed.join(", "), rule });
}

// A chain claim that does not use exactly the cards of the previous set it must.
function linkText(flaw) {
  const used = tn(key("flaw", "link", "cards", "one"), key("flaw", "link", "cards", "other"), flaw.used ?? 0);
  return t(key("flaw", "link"), { used, needed: fmt(flaw.needed ?? 1) });
}

const TEXTS = { set: setText, pairing: pairingText, count: countText, link: linkText };

// One flaw in words; an untyped object or a string is a set flaw as before (R04).
export function flawText(flaw) {
  if (typeof flaw !== "object" || flaw === null) return knownFlawText(flaw);
  const make = TEXTS[flaw.type || "set"];
  return make ? make(flaw) : knownFlawText(flaw);
}

// "Use exactly N card(s) of the previous set", for the chain variants.
export function linkRule(links) {
  return tn("room.previous.use.one", "room.previous.use.other", links);
}

// A variant's one-sentence description (the words module's `variant.<name>.about`).
export const variantAbout = (name) => t(key("variant", name.replaceAll("-", "_"), "about"));
