// The scoreboard (data-player / data-score hooks) and the results table.

import { displayName, el, fmt, minutes, t, tn } from "./common.js";

function badges(p, state, you) {
  const marks = [];
  if (p.id === you) marks.push(["you", t("score.you")]);
  if (p.bot) marks.push(["bot", [t("score.bot"), p.bot].join(" ")]);
  // Who is signed in (their name is theirs) and who is a guest, once anyone at the table is
  // signed in: before that every seat is a guest's and saying so would only be noise.
  if (p.kind === "player") marks.push(["member", t("score.member")]);
  else if (p.kind === "guest" && (state.players || []).some((q) => q.kind === "player")) {
    marks.push(["guest", t("score.guest")]);
  }
  if (state.holder === p.id) marks.push(["holder", t("score.holds")]);
  if (p.locked) marks.push(["locked", t("score.locked")]);
  if (p.declared) marks.push(["declared", t("score.declared")]);
  if (state.dealer === p.id && state.rounds > 1) marks.push(["dealer", t("score.dealer")]);
  if (p.present === false || p.connected === false) marks.push(["away", t("score.away")]);
  return marks.map(([cls, text]) => el("span", { class: `badge ${cls}`, text }));
}

export function renderScores(list, state, you) {
  const match = state.rounds > 1;
  list.replaceChildren(
    ...(state.players || []).map((p) =>
      el(
        "li",
        {
          "data-player": p.name,
          "data-score": String(p.score),
          "data-total": String(p.total ?? p.score),
          class: [state.holder === p.id && "holding", p.id === you && "me"].filter(Boolean).join(" "),
        },
        el("span", { class: "name", text: displayName(p), title: displayName(p) }),
        el("b", { class: "score", text: String(p.score) }),
        match ? el("small", { class: "total", text: `Σ ${p.total ?? p.score}` }) : null,
        el("span", { class: "badges" }, ...badges(p, state, you)),
      ),
    ),
  );
}

// The end of a game of one (solo, practice, the puzzle): won or not, and the time; no
// "Winner: NAME" with nobody else at the table.
export function aloneOverText(solo) {
  if (!solo) return t("room.matchover");
  const won = solo.won !== false;
  if (solo.seconds == null) return won ? t("ev.over.won") : t("ev.over.done");
  const time = minutes(solo.seconds);
  return won ? t("ev.over.won.time", { time }) : t("ev.over.done.time", { time });
}

// A player's rating change at the end ("1012 (+12)"), or why the game left it.
function ratingText(change) {
  if (change.after == null) return t("res.rating.unrated");
  const delta = change.after - (change.before ?? change.after);
  const signed = delta > 0 ? `+${fmt(delta)}` : delta < 0 ? `−${fmt(-delta)}` : "±0";
  return t("res.rating", { rating: String(change.after), change: signed }); // as the profile writes it
}

// Standings after a round or the match, with the winners, each signed-in player's rating
// change (`ratings`, once the server recorded the game) and solo figures.
export function renderResults(box, list, state, ratings = null) {
  const over = state.phase === "round_over" || state.phase === "match_over";
  box.hidden = !over;
  if (!over) return;
  const result = state.result || {};
  const winners = result.winners || [];
  const alone = state.mode !== "multi"; // solo, practice: the figures, not a ranking of one
  const rows = alone ? [] : [...(state.players || [])].sort((a, b) => b.total - a.total);
  const changes = new Map((ratings?.changes || []).map((c) => [c.player, c]));
  list.replaceChildren(
    ...rows.map((p) =>
      el(
        "li",
        { class: winners.includes(p.id) ? "winner" : "" },
        el("span", { class: "name", text: displayName(p) }),
        el("b", { text: ` ${p.total}` }),
        winners.includes(p.id) ? el("span", { class: "badge winner", text: t("res.winner") }) : null,
        changes.has(p.id) ? el("small", { class: "rating-change", "data-rating": p.name, text: ratingText(changes.get(p.id)) }) : null,
      ),
    ),
  );
  const link = box.querySelector("#replay-link");
  link.hidden = state.phase !== "match_over" || !state.game;
  if (state.game) link.href = `/replay/${encodeURIComponent(state.game)}`;
  const solo = result.solo;
  if (solo) {
    const parts = [
      tn("res.sets.one", "res.sets.other", solo.sets ?? 0),
      tn("res.penalties.one", "res.penalties.other", solo.penalties ?? 0),
    ];
    if (solo.seconds != null) parts.push(t("unit.seconds", { n: fmt(solo.seconds, 1) }));
    // Puzzle: wrong picks cost time instead of points (already in the seconds above).
    if (solo.penalty_seconds) parts.push(t("res.penaltytime", { seconds: fmt(solo.penalty_seconds) }));
    list.append(
      el("li", { class: "solo verdict", "data-solo-verdict": solo.won ? "won" : "lost", text: aloneOverText(solo) }),
      el("li", { class: "solo", text: parts.join(", ") }),
      el("li", { class: "solo", text: solo.won ? t("res.won") : t("res.lost") }),
    );
  }
  const final = state.phase === "match_over";
  box.querySelector("h2").textContent = final ? t("res.final") : t("res.round", { n: state.round });
}
