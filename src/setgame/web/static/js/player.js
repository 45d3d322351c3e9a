// A player's profile (/player/<name>): the figures of GET /api/players/<name>, the ratings
// per family of variants, and the recent games with links to their replays.

import { init, t, el, fmt } from "./common.js";

// The families' names are the variants' own (not translated, like the variants' titles).
const FAMILIES = { set: "SET", ultraset: "UltraSet", ghostset: "GhostSet", "4set": "4Set", memory: "Memory" };

const $ = (selector) => document.querySelector(selector);
const ratingText = (r) => (r.provisional ? t("prof.rating.provisional", { rating: r.rating }) : String(r.rating));

function game(entry) {
  const when = new Date(entry.finished * 1000).toLocaleString(document.documentElement.lang);
  const parts = [t("prof.place", { place: entry.place, players: entry.players })];
  parts.push(t("prof.game.sets", { n: fmt(entry.sets) }));
  if (entry.rating !== null) parts.push(t("prof.game.rating", { rating: entry.rating }));
  return el(
    "li",
    { "data-profile-game": entry.game, "data-place": entry.place },
    el("a", { href: `/replay/${encodeURIComponent(entry.game)}`, text: when }),
    ` — ${parts.join(", ")}`,
  );
}

function show(profile) {
  $("[data-profile-name]").textContent = profile.name;
  $("[data-profile-rating]").textContent = String(profile.rating);
  $("[data-profile-provisional]").hidden = !profile.provisional;
  $("[data-profile-games]").textContent = fmt(profile.games);
  $("[data-profile-wins]").textContent = fmt(profile.wins);
  $("[data-profile-sets]").textContent = fmt(profile.sets);
  const families = Object.entries(profile.ratings);
  $("[data-profile-families]").replaceChildren(
    ...families.map(([family, r]) =>
      el("li", { "data-family": family, text: `${FAMILIES[family] ?? family}: ${ratingText(r)}` }),
    ),
  );
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
