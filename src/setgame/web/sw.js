// The service worker (served as /sw.js, so that its scope is every page; no build step, no
// import: it runs as a classic script or a module alike). What it keeps: the static files, the
// offline page and each language's messages of one release, in a cache named by the release.
// What it never keeps: pages, API answers, websockets (it does not even see those), room state,
// anything about a player. docs/web.md tells the rest.

// Filled in by the server (setgame.server.delivery): the release's name, a hash of the files,
// and the addresses of the files it caches.
const RELEASE = { version: "", files: [] };
const PREFIX = "setgame-static-";
const CACHE = PREFIX + RELEASE.version;
const CACHED = new Set(RELEASE.files);
const OFFLINE = "/offline";

// The pages (window clients) known to be of this release: only they get the cached files
// straight away; another page (an older or newer release's, or one this worker has not seen
// arrive) gets them from the network, checked, so that a page never runs another release's
// scripts. Bounded: the oldest ids are forgotten first.
const current = new Set();
function remember(id) {
  if (!id) return;
  current.add(id);
  if (current.size > 200) current.delete(current.values().next().value);
}

self.addEventListener("install", (event) => {
  // `reload`: past the browser's HTTP cache, which may still hold an older release's files.
  const requests = RELEASE.files.map((url) => new Request(url, { cache: "reload" }));
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(requests))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  // A new release replaces the old one's cache at once.
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(event));
  } else if (CACHED.has(url.pathname) && !url.search) {
    event.respondWith(cachedFile(event));
  }
  // Anything else (API answers, room state, the words of cards) goes to the network as if
  // there were no worker.
});

// A page: always from the network, never kept. When there is no network, the offline page.
async function navigate(event) {
  try {
    const response = await fetch(event.request);
    if (response.headers.get("x-setgame-release") === RELEASE.version) {
      remember(event.resultingClientId);
    } else if (response.headers.has("x-setgame-release")) {
      self.registration.update().catch(() => {}); // a new release: fetch its worker
    }
    return response;
  } catch (error) {
    const offline = await caches.match(OFFLINE, { cacheName: CACHE });
    if (!offline) throw error;
    remember(event.resultingClientId);
    return offline;
  }
}

// A static file: from the cache for a page of this release; otherwise from the network,
// revalidated (`no-cache`: a 304 when unchanged), and from the cache when there is none.
async function cachedFile(event) {
  const cache = await caches.open(CACHE);
  if (current.has(event.clientId)) {
    const hit = await cache.match(event.request);
    if (hit) return hit;
  }
  try {
    return await fetch(event.request, { cache: "no-cache" });
  } catch (error) {
    const hit = await cache.match(event.request);
    if (!hit) throw error;
    return hit;
  }
}
