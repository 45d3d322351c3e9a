// The leaderboard (/leaderboard): GET /api/leaderboard?board=<family>, one family at a time,
// each name linking to its profile.

import { init, t, el } from "./common.js";

// The families' names are the variants' own (not translated, like the variants' titles).
const FAMILIES = { set: "SET", ultraset: "UltraSet", ghostset: "GhostSet", "4set": "4Set", memory: "Memory" };

const $ = (selector) => document.querySelector(selector);

async function show(board) {
  const rows = await fetch(`/api/leaderboard?board=${encodeURIComponent(board)}`)
    .then((r) => (r.ok ? r.json() : []))
    .catch(() => []);
  const item = (row) => {
    const figures = t("board.row", { rating: row.rating, games: row.games });
    return el(
      "li",
      { "data-board-player": row.name, "data-rating": row.rating },
      el("a", { href: `/player/${encodeURIComponent(row.name)}`, text: row.name }),
      ` — ${figures}`,
    );
  };
  $("[data-board-list]").replaceChildren(...rows.map(item));
  $("[data-board-empty]").hidden = rows.length > 0;
}

await init();
const select = $("[data-board-select]");
for (const [family, title] of Object.entries(FAMILIES)) select.add(new Option(title, family));
const asked = new URLSearchParams(location.search).get("board");
if (asked in FAMILIES) select.value = asked;
select.addEventListener("change", () => show(select.value));
await show(select.value);
