// The offline page: the service worker (sw.js) answers a page it cannot fetch with this one,
// from its cache, at the address the player asked for. Its words come in the player's language
// as on every page; which language is chosen here, in the page, because the worker's cached copy
// was made in whatever language the player had when it was cached: the address's ?lang, else the
// language of the last page shown (common.js keeps it), else the lang cookie, else the browser's.

import { LANGS, getPref, init } from "./common.js";

function playerLanguage() {
  const asked = new URL(location.href).searchParams.get("lang");
  const cookie = /(?:^|;\s*)lang=(\w+)/.exec(document.cookie)?.[1];
  const browser = (navigator.languages || []).map((tag) => tag.slice(0, 2).toLowerCase());
  for (const code of [asked, getPref("lang"), cookie, ...browser]) {
    if (LANGS.includes(code)) return code;
  }
  return "en";
}

document.documentElement.lang = playerLanguage();
await init();

// Back online: the page the player asked for (its address is this page's), as they asked.
const retry = () => location.reload();
document.querySelector("[data-offline-retry]").addEventListener("click", retry);
addEventListener("online", retry);

// The device may have stayed online while the server was out of reach (no `online` event
// then): ask the server every few seconds while the page is in view, and go back when it
// answers. /api/health is cheap (the server reuses its answer for a second).
const PROBE_MS = 4000;
async function probe() {
  if (document.visibilityState === "visible" && navigator.onLine !== false) {
    try {
      const answer = await fetch("/api/health", { cache: "no-store" });
      if (answer.status < 500) return retry();
    } catch {
      /* still out of reach */
    }
  }
  setTimeout(probe, PROBE_MS);
}
setTimeout(probe, PROBE_MS);
