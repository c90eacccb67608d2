/**
 * Offline for real, and installable: over http(s) the page names its web app manifest
 * (static/manifest.webmanifest, with its icon), so a browser can install it as an app, and registers
 * the service worker (static/sw.js, filled in by the build) that keeps the page's files, so a reload
 * with no network still opens the page. The manifest's link is added here rather than written in
 * the HTML because from disk (file://) a browser's fetch of it is refused and logged as an error.
 * Service workers exist only on https and localhost pages: from disk the files are on disk anyway,
 * and on a plain-http LAN address the browser offers none (the page says so in the Device tab's
 * words about secure pages, not here). `data-offline` on <body> says how it stands: "ready" once
 * the copy is kept.
 */
export function keepPageOffline(): void {
  const body = document.body;
  if (/^https?:$/.test(location.protocol)) {
    const link = document.createElement("link");
    link.rel = "manifest";
    link.href = "manifest.webmanifest";
    document.head.appendChild(link);
  }
  if (!/^https?:$/.test(location.protocol) || !("serviceWorker" in navigator)) {
    body.dataset.offline = "unavailable";
    return;
  }
  navigator.serviceWorker.register("sw.js").then(
    () => navigator.serviceWorker.ready.then(() => (body.dataset.offline = "ready")),
    (e: unknown) => (body.dataset.offline = "failed: " + (e instanceof Error ? e.message : String(e))),
  );
}
