// What the arena pages say about an arena (list and arena page alike): its variant's
// title, when it starts or ends, and its settings in words.

import { deckName, fmt, N_, t, tn } from "./common.js";
import { findVariant } from "./variants.js";

// Variant titles are proper names (the same in every language); an unknown name as it is.
export const variantTitle = (name) => (findVariant(name).name === name ? findVariant(name).title : String(name ?? ""));

// Seconds as h:mm:ss or m:ss, in the page language's digits.
export function clockText(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const two = (n) => fmt(n, 0).padStart(2, fmt(0, 0));
  const [h, m, rest] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  return h ? `${fmt(h)}:${two(m)}:${two(rest)}` : `${fmt(m)}:${two(rest)}`;
}

// Seconds from now until a moment the server gave (seconds since 1970).
export const secondsUntil = (at) => (typeof at === "number" ? at - Date.now() / 1000 : 0);

// "Starts in 4:32", "12:05 left", "Finished".
export function arenaWhen(arena) {
  if (arena.status === "finished") return t("arena.finished");
  if (arena.status === "waiting") return t("arena.starts.in", { time: clockText(secondsUntil(arena.starts_at)) });
  return t("arena.left", { time: clockText(secondsUntil(arena.ends_at)) });
}

const RATED = { yes: N_("arena.rated"), no: N_("arena.unrated") };

// "Full deck · 3 players a game · 30 minutes · Rated".
export function arenaSettings(arena) {
  const parts = [];
  if (arena.deck && !findVariant(arena.variant).deck) parts.push(deckName(arena.deck));
  if (arena.room_size) parts.push(tn("arena.size.one", "arena.size.other", arena.room_size));
  if (arena.minutes) parts.push(tn("arena.minutes.one", "arena.minutes.other", arena.minutes));
  if (arena.game_minutes) parts.push(tn("arena.cap.one", "arena.cap.other", arena.game_minutes));
  parts.push(t(arena.rated ? RATED.yes : RATED.no));
  if (arena.private) parts.push(t("arena.private"));
  return parts.join(" · ");
}
