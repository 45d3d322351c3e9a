// The leaderboard (/leaderboard): GET /api/leaderboard?board=<board>, one board at a time (a
// family of variants by rating, or the solo and daily-puzzle boards by time),
// each name linking to its profile.

import { init, t, tn, el, minutes, N_ } from "./common.js";

// The families' names are the variants' own (not translated, like the variants' titles).
const FAMILIES = { set: "SET", ultraset: "UltraSet", ghostset: "GhostSet", "4set": "4Set", memory: "Memory" };

// The boards of times (GET /api/leaderboard answers {name, seconds, games} for them).
const TIMES = { "solo-full": N_("board.solo.full"), "solo-beginner": N_("board.solo.beginner"), daily: N_("board.daily") };
const EMPTY = { time: N_("board.empty.time"), rating: N_("board.empty") };
const INTRO = { time: N_("board.intro.time"), rating: N_("board.intro"), daily: N_("board.intro.daily") };

// Seconds under which a daily time is not ranked (the server's players.HUMAN_FLOOR).
const HUMAN_FLOOR = 10;

const $ = (selector) => document.querySelector(selector);

async function show(board) {
  const rows = await fetch(`/api/leaderboard?board=${encodeURIComponent(board)}`)
    .then((r) => (r.ok ? r.json() : []))
    .catch(() => []);
  const timed = board in TIMES;
  const item = (row) => {
    const figures = timed
      ? tn("board.row.time.one", "board.row.time.other", row.games, { time: minutes(row.seconds) })
      : tn("board.row.one", "board.row.other", row.games, { rating: row.rating });
    const data = timed ? { "data-seconds": row.seconds } : { "data-rating": row.rating };
    return el(
      "li",
      { "data-board-player": row.name, ...data },
      el("a", { href: `/player/${encodeURIComponent(row.name)}`, text: row.name }),
      ` — ${figures}`,
    );
  };
  $("[data-board-list]").replaceChildren(...rows.map(item));
  $("[data-board-empty]").hidden = rows.length > 0;
  $("[data-board-empty]").textContent = t(timed ? EMPTY.time : EMPTY.rating);
  // The daily board says how it times and what it does with times no person reaches.
  const intro = board === "daily" ? INTRO.daily : timed ? INTRO.time : INTRO.rating;
  $("[data-board-intro]").textContent = t(intro, { floor: HUMAN_FLOOR });
  $("[data-board-intro]").dataset.boardIntro = board === "daily" ? "daily" : "";
}

await init();
const select = $("[data-board-select]");
for (const [family, title] of Object.entries(FAMILIES)) select.add(new Option(title, family));
for (const [board, key] of Object.entries(TIMES)) select.add(new Option(t(key), board));
const asked = new URLSearchParams(location.search).get("board");
if (asked in FAMILIES || asked in TIMES) select.value = asked;
select.addEventListener("change", () => show(select.value));
await show(select.value);
