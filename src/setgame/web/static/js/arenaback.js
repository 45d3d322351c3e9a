// A room opened from an arena (/room/<id>?arena=<arena id>, as the arena page follows a
// pairing): no "Play again" (the arena pairs anew), and once the game is over the way back
// to the arena, taken by itself after a few seconds unless the player stays to look.
// The room page itself knows nothing of arenas: this module watches its main[data-phase].

import { el, t, tn } from "./common.js";

const arena = new URLSearchParams(location.search).get("arena");
// Seconds before going back by itself: long enough to read the results.
const BACK_SECONDS = 6;

function backBar(url) {
  const count = el("span", { "data-arena-countdown": "" });
  const stay = el("button", { type: "button", "data-arena-stay": "", text: t("arena.back.stay") });
  const bar = el(
    "p",
    { class: "arena-back", "data-arena-back": "", hidden: true, "aria-live": "polite" },
    el("a", { class: "button primary", href: url, text: t("arena.back") }),
    count,
    stay,
  );
  return { bar, count, stay };
}

function watch(main, url) {
  const { bar, count, stay } = backBar(url);
  (document.querySelector("#results") || main).before(bar);
  let timer = null;
  const stop = () => {
    clearInterval(timer);
    timer = null;
    count.textContent = "";
    stay.hidden = true;
  };
  stay.addEventListener("click", stop);
  const over = () => {
    if (main.dataset.phase !== "match_over" || !bar.hidden) return;
    bar.hidden = false;
    let left = BACK_SECONDS;
    const show = () => (count.textContent = tn("arena.back.in.one", "arena.back.in.other", left));
    show();
    timer = setInterval(() => {
      left -= 1;
      if (left <= 0) {
        stop();
        location.assign(url);
      } else show();
    }, 1000);
  };
  new MutationObserver(over).observe(main, { attributes: true, attributeFilter: ["data-phase"] });
  over();
}

if (arena && /^[\w-]{1,64}$/.test(arena)) {
  document.body.dataset.arena = arena;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/css/arena.css" }));
  const main = document.querySelector("main");
  // The room page loads its strings first (common.js's init); wait for them to show ours.
  const start = () => watch(main, `/arena/${encodeURIComponent(arena)}`);
  if (main.dataset.phase) start();
  else new MutationObserver((_, seen) => main.dataset.phase && (seen.disconnect(), start())).observe(main, { attributes: true });
}
