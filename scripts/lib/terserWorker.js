/**
 * terser in a worker thread, so that the firmware's type check (typeCheck.js) runs in the build's
 * own thread meanwhile. The same `minify`, called with the same code and options as in the
 * build's thread, gives the same bytes; only where it runs changes. One worker serves one build
 * (the firmware's two runs of minify, build.js terserPlugin) and is started at the beginning of the
 * build, so loading terser overlaps loading TypeScript.
 *
 * The worker half is at the bottom: it answers { id, code } or { id, error } for each { id, code, options }.
 */
import { isMainThread, parentPort, Worker } from "node:worker_threads";

/** A started worker: `minify(code, options)` resolves with terser's code; `stop()` ends the worker. */
export function startMinifier() {
  const worker = new Worker(new URL(import.meta.url));
  const pending = new Map();
  let next = 0;
  let failure = null;
  const failAll = (e) => {
    failure = e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on("message", (m) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error !== undefined) p.reject(new Error("terser: " + m.error));
    else p.resolve(m.code);
  });
  worker.on("error", failAll);
  worker.on("exit", (code) => failAll(new Error("the minifier stopped (exit " + code + ")")));
  return {
    minify(code, options) {
      if (failure) return Promise.reject(failure);
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, code, options });
      });
    },
    stop() {
      void worker.terminate();
    },
  };
}

if (!isMainThread && parentPort) {
  const { minify } = await import("terser");
  parentPort.on("message", async ({ id, code, options }) => {
    try {
      const result = await minify(code, options);
      parentPort.postMessage({ id, code: result.code });
    } catch (e) {
      parentPort.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
    }
  });
}
