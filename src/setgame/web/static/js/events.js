// Game events (see src/setgame/rules/game.py) in the page language, and what the
// room page does about them (banner, sound, flashing cards).

import { fmt, lang, t, tn } from "./common.js";
import { cardName } from "./table.js";

const labels = (codes) => (codes || []).map(cardName).join(", ");

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// A wrong call: the server's verdict in the page language (setgame.words.event_words words it from
// the event's flaws, for every client alike: docs/protocol.md), then what it cost.
function wrongText(ev, who) {
  const costs = [];
  if (ev.point_lost) costs.push(t("ev.pointlost"));
  // A point penalty with no set won yet: say why nothing was lost.
  else if (ev.penalty === "point" || ev.penalty === "both") costs.push(t("ev.nopoint"));
  // A puzzle alone: a wrong pick costs time instead of a point.
  if (ev.penalty_seconds) costs.push(t("ev.penaltytime", { seconds: t("unit.seconds", { n: fmt(ev.penalty_seconds) }) }));
  if (ev.locked) costs.push(t("ev.lockedout"));
  // Fair call (this project's own rule): the caller waits before calling again.
  if (ev.cooldown > 0) costs.push(t("ev.cooldown", { seconds: t("unit.seconds", { n: fmt(ev.cooldown, 1) }) }));
  const cost = capital(costs.join(", ") || t("ev.nopenalty"));
  // Messages are looked up outside template literals, where the catalog's extractor sees them.
  if (ev.reason === "timeout") return [t("ev.late", { name: who }), ". ", cost, "."].join("");
  const verdict = ev.verdict?.[lang()] ?? ev.verdict?.en;
  if (verdict) return [who, ": ", verdict, " ", cost, "."].join("");
  return [t("ev.wrong", { name: who }), ". ", cost, "."].join("");
}

// Three more cards; after a "no set" vote with a set on the table, the set that was missed.
function addedText(ev) {
  const added = tn("ev.added.one", "ev.added.other", (ev.table || []).length);
  if (!ev.missed?.length) return added;
  const missed = t("ev.missed", { cards: labels(ev.missed) });
  return `${added}. ${missed}`;
}

// A good claim; in Shuffle the table was then dealt anew.
function takenText(ev, who) {
  const taken = [t("ev.set", { name: who }), labels(ev.cards)].join(": ");
  return ev.reshuffled ? [taken, t("ev.reshuffled")].join(". ") : taken;
}

const TEXTS = {
  joined: (ev, who) => ({ text: t("ev.joined", { name: ev.name || who }) }),
  left: (ev, who) => ({ text: t("ev.left", { name: who }) }),
  call_cancelled: (ev, who) => ({ text: t("ev.cancelled", { name: who }) }),
  round_started: (ev, who, ctx) => ({
    text: t("ev.round", { n: ev.round, of: ev.rounds, name: ctx.nameOf(ev.dealer) }),
  }),
  called: (ev, who) => ({ text: t("ev.called", { name: who }), kind: "call" }),
  more_cards_asked: (ev) => ({ text: tn("ev.more.one", "ev.more.other", ev.penalty ?? 0) }),
  no_set_declared: (ev, who) => ({ text: t("ev.declared", { name: who }) }),
  set_taken: (ev, who) => ({ text: takenText(ev, who), kind: "good" }),
  card_turned: (ev, who) => ({ text: t("ev.turned", { name: who, card: cardName(ev.card) }) }),
  wrong_call: (ev, who) => ({ text: wrongText(ev, who), kind: "bad" }),
  lockouts_lifted: () => ({ text: t("ev.lifted") }),
  cards_added: (ev) => ({ text: addedText(ev) }),
  round_over: (ev) => ({ text: t("ev.roundover", { n: ev.round }) }),
  // Ties share the win: the sentence is worded for as many winners as there are.
  match_over: (ev, who, ctx) => ({
    text: tn("ev.matchover.one", "ev.matchover.other", (ev.winners || []).length, {
      names: (ev.winners || []).map(ctx.nameOf).join(", "),
    }),
    kind: "good",
  }),
};

// {text, kind} for one event; ctx = {nameOf(id), you, variant (the view's)}.
export function describe(ev, ctx) {
  const who = ctx.nameOf(ev.player);
  const make = TEXTS[ev.type];
  return make ? make(ev, who, ctx) : { text: "" };
}

// What the room shows besides the log line: {banner, sound, wrong: [codes]}.
export function effects(ev, you) {
  switch (ev.type) {
    case "set_taken":
      return { banner: true, sound: "set" };
    case "wrong_call":
      return { banner: true, sound: "wrong", wrong: ev.cards || [] };
    case "cards_added":
      return { banner: true, sound: "deal" };
    case "called":
      return { sound: ev.player === you ? null : "call" };
    case "round_over":
    case "match_over":
      return { banner: true, sound: "end" };
    default:
      return {};
  }
}
