// Service worker: keeps the page shell (HTML, styles, modules, icons) so the page opens without a
// connection. Shell files are fetched fresh when the server answers and taken from the cache when it does
// not; API calls are never cached or answered here (the page says when the server cannot be reached).
const CACHE = "sprawlscan-shell-v2";
// Every file the page loads (tests/test_page.py checks that each static file is listed); each game's own
// page files (under /static/games/, as /api/v1/meta names them) are kept as they are fetched, below.
const SHELL = [
  "/",
  "/static/app.css",
  "/static/app.js",
  "/static/api.js",
  "/static/breakdown.js",
  "/static/camera.js",
  "/static/choices.js",
  "/static/city.js",
  "/static/dom.js",
  "/static/doubt.js",
  "/static/editor.js",
  "/static/grid.js",
  "/static/overlay.js",
  "/static/paint.js",
  "/static/reset.js",
  "/static/scan.js",
  "/static/state.js",
  "/static/storage.js",
  "/static/tally.js",
  "/static/upload.js",
  "/static/wording.js",
  "/static/notice.js",
  "/static/games.js",
  "/static/gamepage.js",
  "/static/deck.js",
  "/static/manifest.webmanifest",
  "/static/icon.svg",
  "/static/icon-192.png",
];
const NETWORK_WAIT_MS = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function isShell(url) {
  return url.origin === self.location.origin && (url.pathname === "/" || url.pathname.startsWith("/static/"));
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await Promise.race([
      fetch(request),
      new Promise((_, reject) => setTimeout(() => reject(new Error("slow network")), NETWORK_WAIT_MS)),
    ]);
    if (response.ok) cache.put(request, response.clone());
    return response;
  } catch (err) {
    const cached = await cache.match(request, { ignoreSearch: true });
    if (cached) return cached;
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || !isShell(url)) return; // API calls and uploads go straight out
  event.respondWith(networkFirst(event.request));
});
