/*
 * The companion page's service worker: it keeps a copy of the page's own files so that a reload with
 * no network still opens the page (the simulator, the backups and the file check need nothing else).
 * The build (scripts/lib/buildWeb.js) fills in the list of files and a version made from their bytes.
 *
 * Network first: while the server answers, the page is always the one it serves now (a rebuilt page
 * shows at once) and the copy is refreshed; when it does not (offline, server stopped), the copy
 * answers. Only the page's own files are kept; any other request is left to the browser.
 * Registered only over http(s) (src/web/offline.ts): from disk (file://) there are no service
 * workers, and none are needed there.
 */
const VERSION = "__PAGE_VERSION__";
const FILES = "__PAGE_FILES__";
const PREFIX = "espruino-pet-page-";
const CACHE = PREFIX + VERSION;
const KEPT = new Set(FILES.map((f) => new URL(f, self.registration.scope).href));

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  url.search = "";
  url.hash = "";
  if (request.method !== "GET" || !KEPT.has(url.href)) return;
  event.respondWith(
    fetch(request).then(
      (response) => {
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(url.href, copy)));
        }
        return response;
      },
      () => caches.match(url.href, { cacheName: CACHE }).then((kept) => kept || Response.error()),
    ),
  );
});
