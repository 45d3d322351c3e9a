// A player's profile (/player/<name>): the figures of GET /api/players/<name>, the ratings
// per family of variants, and the recent games with links to their replays.

import { init, t, tn, N_, el, fmt, minutes as clock } from "./common.js";
import { variantTitle } from "./arenawords.js";

// The families' names are the variants' own (not translated, like the variants' titles).
const FAMILIES = { set: "SET", ultraset: "UltraSet", ghostset: "GhostSet", "4set": "4Set", memory: "Memory" };

const $ = (selector) => document.querySelector(selector);
const ratingText = (r) => (r.provisional ? t("prof.rating.provisional", { rating: r.rating }) : String(r.rating));

// Why a game moved nobody's rating, or not this player's (GET /api/players: "unrated";
// docs/rules.md, "Ratings").
const UNRATED = {
  room: N_("prof.unrated.room"),
  players: N_("prof.unrated.players"),
  guest: N_("prof.unrated.guest"),
  short: N_("prof.unrated.short"),
  early: N_("prof.unrated.early"),
  pair: N_("prof.unrated.pair"),
  address: N_("prof.unrated.address"),
  bot_daily: N_("prof.unrated.bot_daily"),
  bot_reach: N_("prof.unrated.bot_reach"),
};

function game(entry) {
  const when = new Date(entry.finished * 1000).toLocaleString(document.documentElement.lang);
  const parts = [t("prof.place", { place: entry.place, players: entry.players })];
  parts.push(t("prof.game.sets", { n: fmt(entry.sets) }));
  if (entry.rating !== null) parts.push(t("prof.game.rating", { rating: entry.rating }));
  const why = UNRATED[entry.unrated];
  if (why) parts.push(t(why));
  return el(
    "li",
    { "data-profile-game": entry.game, "data-place": entry.place, "data-unrated": entry.unrated ?? "" },
    el("a", { href: `/replay/${encodeURIComponent(entry.game)}`, text: when }),
    ` — ${parts.join(", ")}`,
  );
}

const SVG = "http://www.w3.org/2000/svg";
const svg = (tag, attrs) => {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
};

// The rating after each rated game of a family, as a line (oldest on the left).
function plot(family, points) {
  const [w, h, pad] = [320, 120, 6];
  const ratings = points.map((p) => p[1]);
  const low = Math.min(...ratings);
  const high = Math.max(...ratings);
  const x = (i) => pad + (points.length > 1 ? (i * (w - 2 * pad)) / (points.length - 1) : (w - 2 * pad) / 2);
  const y = (r) => h - pad - (high > low ? ((r - low) * (h - 2 * pad)) / (high - low) : (h - 2 * pad) / 2);
  const label = tn("prof.plot.one", "prof.plot.other", points.length, { family: FAMILIES[family] ?? family, low, high });
  const box = { viewBox: `0 0 ${w} ${h}`, width: w, height: h, style: "max-width: 100%; height: auto" };
  const chart = svg("svg", { ...box, role: "img", "aria-label": label, class: "plot" });
  // The lowest and highest ratings as guide lines, then the line and a dot per game.
  for (const r of high > low ? [low, high] : [low]) {
    chart.append(svg("line", { x1: pad, x2: w - pad, y1: y(r), y2: y(r), class: "guide" }));
  }
  chart.append(
    svg("polyline", {
      points: points.map((p, i) => `${x(i).toFixed(1)},${y(p[1]).toFixed(1)}`).join(" "),
      fill: "none",
      stroke: "currentColor",
      "stroke-width": 2,
    }),
    ...points.map((p, i) => svg("circle", { cx: x(i).toFixed(1), cy: y(p[1]).toFixed(1), r: 3, class: "dot" })),
  );
  return el("figure", { "data-profile-plot": family }, chart, el("figcaption", { text: label }));
}

// The arenas played and the best placements (GET /api/players/<name>'s "arenas"), each
// linking to its arena's results page.
function arenas(figures) {
  const played = figures?.played ?? 0;
  const line = $("[data-profile-arenas-played]");
  line.textContent = tn("prof.arenas.played.one", "prof.arenas.played.other", played);
  line.dataset.profileArenasPlayed = String(played);
  $("[data-profile-arenas]").replaceChildren(
    ...(figures?.best || []).map((best) => {
      const place = t("prof.place", { place: best.place, players: best.players });
      const points = tn("arena.points.one", "arena.points.other", best.points);
      const games = tn("arena.games.one", "arena.games.other", best.games);
      const link = el("a", { href: `/arena/${encodeURIComponent(best.arena)}`, text: variantTitle(best.variant) });
      const attrs = { "data-profile-arena": best.arena, "data-place": best.place };
      return el("li", attrs, link, " — ", [place, points, games].join(", "));
    }),
  );
}

function show(profile) {
  $("[data-profile-name]").textContent = profile.name;
  $("[data-profile-rating]").textContent = String(profile.rating);
  $("[data-profile-provisional]").hidden = !profile.provisional;
  // Until when it stays provisional, and where the rules say which games count (a short
  // game, or one against a computer player far from one's level, moves nothing)
  const why = $("[data-profile-provisional-why]");
  const n = profile.provisional_games;
  why.querySelector("a").textContent = tn("prof.provisional.why.one", "prof.provisional.why.other", n);
  why.hidden = !profile.provisional;
  $("[data-profile-games]").textContent = fmt(profile.games);
  $("[data-profile-wins]").textContent = fmt(profile.wins);
  $("[data-profile-sets]").textContent = fmt(profile.sets);
  $("[data-profile-wrong]").textContent = fmt(profile.wrong ?? 0);
  for (const dd of document.querySelectorAll("[data-profile-best]")) {
    const best = profile.solo?.[dd.dataset.profileBest];
    dd.textContent = best ? clock(best.seconds) : "—";
  }
  const pace = profile.seconds_per_set;
  $("[data-profile-pace]").textContent = typeof pace === "number" ? fmt(pace, 1) : "—";
  $("[data-profile-streak]").textContent = fmt(profile.daily_streak ?? 0);
  const families = Object.entries(profile.ratings);
  $("[data-profile-families]").replaceChildren(
    ...families.map(([family, r]) =>
      el("li", { "data-family": family, text: `${FAMILIES[family] ?? family}: ${ratingText(r)}` }),
    ),
  );
  $("[data-profile-plots]").replaceChildren(
    ...Object.entries(profile.history || {}).map(([family, points]) => plot(family, points)),
  );
  // No rated game yet: no heading over an empty list (the rating line says "provisional").
  $("[data-profile-families-title]").hidden = families.length === 0;
  arenas(profile.arenas);
  $("[data-profile-none]").hidden = profile.recent.length > 0;
  $("[data-profile-recent]").replaceChildren(...profile.recent.map(game));
  $("[data-profile]").hidden = false;
}

await init();
const name = $("main").dataset.playerName;
const response = await fetch(`/api/players/${encodeURIComponent(name)}`);
if (response.ok) {
  show(await response.json());
} else {
  const unknown = $("[data-profile-unknown]");
  unknown.textContent = t("prof.unknown", { name });
  unknown.hidden = false;
}
