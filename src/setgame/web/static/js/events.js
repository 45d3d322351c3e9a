// Game events (see src/setgame/rules/game.py) in the page language, and what the
// room page does about them (banner, sound, flashing cards).

import { fmt, lang, t, tn } from "./common.js";
import { aloneOverText } from "./scores.js";
import { cardName } from "./table.js";

// A list of cards or names, as a field of a message (never a sentence of its own).
const list = (items) => (items || []).join(", ");
const labels = (codes) => list((codes || []).map(cardName));
const secs = (value) => t("unit.seconds", { n: fmt(value, 1) });
// A time as m:ss (h:mm:ss past an hour), as setgame.words.event_words.format_clock writes it.
function clock(seconds) {
  const whole = Math.max(0, Math.floor(seconds || 0));
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const two = (n) => String(n).padStart(2, "0");
  return h ? [h, two(m), two(s)].join(":") : [m, two(s)].join(":");
}
const setKind = (ctx) => (ctx.variant?.kind ?? "set") === "set";

// One function per event type, with the same catalog messages as the Python words package
// (setgame.words.event_words.event_lines, which the terminal shows): each returns the
// event's lines, each line one whole message with its fields filled in, never pieces
// joined (tests/test_event_words.py compares the two sides). c = {ev, who, mine, ctx}.

function joined({ ev, who }) {
  return [t("ev.joined", { name: ev.name || who })];
}

function left({ who }) {
  return [t("ev.left", { name: who })];
}

function call_cancelled({ who }) {
  return [t("ev.cancelled", { name: who })];
}

function round_started({ ev, ctx }) {
  return [t("ev.round", { n: ev.round, of: ev.rounds, name: ctx.nameOf(ev.dealer) })];
}

function called({ who }) {
  return [t("ev.called", { name: who })];
}

function more_cards_asked({ ev, ctx }) {
  if (!(ev.penalty > 0)) return [t("ev.more.none")];
  if (ctx.mode === "solo") return [t("ev.more.solo")];
  return [tn("ev.more.one", "ev.more.other", ev.penalty)];
}

function no_set_declared({ who }) {
  return [t("ev.declared", { name: who })];
}

// A good claim; in Shuffle the table was then dealt anew.
function set_taken({ ev, who, mine, ctx }) {
  const cards = labels(ev.cards);
  let line;
  if (setKind(ctx)) line = mine ? t("ev.set.you", { cards }) : t("ev.set", { name: who, cards });
  else line = mine ? t("ev.found.you", { cards }) : t("ev.found", { name: who, cards });
  return ev.reshuffled ? [line, t("ev.reshuffled")] : [line];
}

function card_turned({ ev, who }) {
  return [t("ev.turned", { name: who, card: cardName(ev.card) })];
}

// A wrong call: the server's verdict in the page language (setgame.words.event_words words it
// from the event's flaws, for every client alike: docs/protocol.md), then what it cost.
function wrong_call(c) {
  const { ev, who, mine, ctx } = c;
  if (ev.reason === "timeout") return [t("ev.late", { name: who }), ...costs(c)];
  const verdict = ev.verdict?.[lang()] ?? ev.verdict?.en;
  if (!ev.flaws?.length || !verdict) return [t("ev.wrong", { name: who }), ...costs(c)];
  const cards = labels(ev.cards);
  const line = mine ? t("ev.wrong.you", { cards, verdict }) : t("ev.wrong.verdict", { name: who, cards, verdict });
  const faceDown = ctx.variant?.flow === "memory" ? [t("ev.facedown")] : [];
  return [line, ...faceDown, ...costs(c)];
}

// What a wrong call cost, a line each: a point, time (a puzzle alone), a lockout, a wait
// (fair call, this project's own rule).
function costs({ ev, who, mine, ctx }) {
  const lines = [];
  if (ev.point_lost) lines.push(mine ? t("ev.pointlost.you") : t("ev.pointlost", { name: who }));
  else if (ev.penalty === "point" || ev.penalty === "both") lines.push(t("ev.nopoint"));
  if (ev.penalty_seconds > 0) lines.push(t("ev.penaltytime", { seconds: secs(ev.penalty_seconds) }));
  // Lockouts lift on a set only (002, 000's option) or also on added cards (003).
  const cardsToo = ctx.settings?.lockout_lift === "set_or_cards";
  if (ev.locked && mine) lines.push(cardsToo ? t("ev.locked.you.cards") : t("ev.locked.you"));
  else if (ev.locked) lines.push(cardsToo ? t("ev.locked.cards", { name: who }) : t("ev.locked", { name: who }));
  if (ev.cooldown > 0 && mine) lines.push(t("ev.cooldown.you", { seconds: secs(ev.cooldown) }));
  else if (ev.cooldown > 0) lines.push(t("ev.cooldown", { name: who, seconds: secs(ev.cooldown) }));
  return lines;
}

function lockouts_lifted() {
  return [t("ev.lifted")];
}

// Three more cards; after a "no set" vote with a group on the table, the one that was missed.
function cards_added({ ev, ctx }) {
  const added = tn("ev.added.one", "ev.added.other", (ev.table || []).length);
  if (!ev.missed?.length) return [added];
  const cards = labels(ev.missed);
  return [added, setKind(ctx) ? t("ev.missed", { cards }) : t("ev.missed.group", { cards })];
}

function round_over({ ev, ctx }) {
  const scores = Object.entries(ev.scores || {});
  if (!scores.length) return [t("ev.roundover", { n: ev.round })];
  return [t("ev.roundover.scores", { round: ev.round, scores: list(scores.map(([id, n]) => [ctx.nameOf(id), n].join(" "))) })];
}

// Ties share the win: the sentence is worded for as many winners as there are. A game alone:
// the points and the time, won or not, time penalties, and the daily puzzle's result.
function match_over({ ev, ctx }) {
  const solo = ev.solo;
  if (!solo && ctx.solitary) return [aloneOverText(ctx.result?.solo)]; // practice: nobody to beat
  if (!solo) {
    const winners = ev.winners || [];
    return [tn("ev.matchover.one", "ev.matchover.other", winners.length, { names: list(winners.map(ctx.nameOf)) })];
  }
  const time = clock(solo.seconds);
  const score = solo.score || 0;
  const lines = [tn("ev.solo.over.one", "ev.solo.over.other", score, { clock: time })];
  if (ctx.solitary) lines.unshift(aloneOverText(solo)); // alone: won or not, and the time
  const left = (solo.penalties || 0) - (solo.cancelled || 0);
  lines.push(solo.won ? t("ev.solo.won") : tn("ev.solo.lost.one", "ev.solo.lost.other", left));
  if (solo.penalty_seconds > 0) lines.push(t("ev.solo.penalties", { seconds: secs(solo.penalty_seconds) }));
  const day = ctx.settings?.day;
  if (day) lines.push(tn("ev.daily.one", "ev.daily.other", score, { day, clock: time }));
  return lines;
}

const LINES = {
  joined,
  left,
  call_cancelled,
  round_started,
  called,
  more_cards_asked,
  no_set_declared,
  set_taken,
  card_turned,
  wrong_call,
  lockouts_lifted,
  cards_added,
  round_over,
  match_over,
};

const KINDS = { called: "call", set_taken: "good", wrong_call: "bad", match_over: "good" };

// {text, kind} for one event: its lines, one under the other. ctx = {nameOf(id), you,
// variant, mode, settings} (the view's).
export function describe(ev, ctx) {
  const make = LINES[ev.type];
  if (!make) return { text: "" };
  const mine = ev.player != null && ev.player === ctx.you;
  const lines = make({ ev, who: ctx.nameOf(ev.player), mine, ctx });
  return { text: lines.join("\n"), kind: KINDS[ev.type] };
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
