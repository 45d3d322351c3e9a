// Why a claim was wrong, in the page language, for every kind of flaw a variant's
// wrong call carries (docs/variants.md, "Explanations of a wrong pick"):
// set {attribute, common, odd}, pairing {pairs, thirds, attributes},
// count {attribute, counts}, link {used, needed}. Attributes and values are indices
// into the deck's attributes (0 number, 1 color, 2 shading, 3 shape, 4 border).

import { attributes, flawText as setFlawText, fmt, t, tn } from "./common.js";
import { attributeWord, valueWord } from "./table.js";

// Value letters of the 3-valued decks (the 4Set decks add a fourth: 4 B C H).
const LETTERS = ["1234", "RGPB", "STOC", "DOSH", "SDT"];

const valueAt = (attr, value) => {
  const standard = attributes()[attr]?.words?.[value];
  return standard || valueWord(attr, LETTERS[attr]?.[value] ?? String(value));
};

// A set flaw: the server's sentence for the standard attributes ("two are red, one is
// green"), a plainer one for MegaSet's border.
function setText(flaw) {
  const key = [flaw.attribute, flaw.common, flaw.odd].join(":");
  const known = setFlawText({ attribute: flaw.attribute, common: flaw.common, odd: flaw.odd });
  if (known !== key) return known;
  return t("flaw.set", {
    attribute: attributeWord(flaw.attribute),
    common: valueAt(flaw.attribute, flaw.common),
    odd: valueAt(flaw.attribute, flaw.odd),
  });
}

const list = (items) => items.filter(Boolean).join(", ");

// UltraSet: one split into two pairs whose completing cards differ.
function pairingText(flaw) {
  const [[a, b] = [], [c, d] = []] = flaw.pairs || [];
  const [x, y] = flaw.thirds || [];
  return t("flaw.pairing", {
    a, b, c, d, x, y,
    attributes: list((flaw.attributes || []).map(attributeWord)),
  });
}

// GhostSet (three values) and 4Set (four): how many cards show each value.
function countText(flaw) {
  const counts = flaw.counts || [];
  const shown = list(counts.map((n, v) => (n ? `${valueAt(flaw.attribute, v)} ×${fmt(n)}` : "")));
  const vars = { attribute: attributeWord(flaw.attribute), counts: shown };
  return counts.length === 4 ? t("flaw.count.fourset", vars) : t("flaw.count.ghostset", vars);
}

// A chain claim that does not use exactly the cards of the previous set it must.
function linkText(flaw) {
  const used = tn("flaw.link.used.one", "flaw.link.used.other", flaw.used ?? 0);
  return [used, tn("flaw.link.needed.one", "flaw.link.needed.other", flaw.needed ?? 1)].join(", ");
}

const TEXTS = { set: setText, pairing: pairingText, count: countText, link: linkText };

// One flaw in words; an untyped object or a string is a set flaw as before (R04).
export function flawText(flaw) {
  if (typeof flaw !== "object" || flaw === null) return setFlawText(flaw);
  const make = TEXTS[flaw.type || "set"];
  return make ? make(flaw) : setFlawText(flaw);
}

// "Use exactly N card(s) of the previous set", for the chain variants.
export function linkRule(links) {
  return tn("room.previous.use.one", "room.previous.use.other", links);
}
