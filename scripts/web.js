#!/usr/bin/env node
/**
 * `npm run web`: builds the companion page and serves it on localhost until Ctrl-C.
 *
 *   npm run web -- [--port N]     (default 8080; 0 picks any free port)
 *
 * Web Serial (the Device tab) needs a secure context; http://localhost counts as one.
 */
import { parseArgs } from "node:util";
import { buildWeb } from "./lib/buildWeb.js";
import { serveStatic } from "./lib/staticServer.js";

let port = 8080;
try {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { port: { type: "string" } }, strict: true });
  if (values.port !== undefined) port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error("--port takes a port number 0..65535, got " + values.port);
} catch (e) {
  process.stderr.write((e instanceof Error ? e.message : String(e)) + "\nusage: npm run web -- [--port N]\n");
  process.exit(2);
}
let built;
try {
  built = await buildWeb();
} catch (e) {
  process.stderr.write((e instanceof Error ? e.message : String(e)) + "\n");
  process.exit(1);
}
const server = await serveStatic(built.outDir, { port, host: "localhost" }).catch((e) => {
  process.stderr.write("cannot serve on port " + port + ": " + (e instanceof Error ? e.message : String(e)) + " (try --port 0)\n");
  process.exit(1);
});
process.stdout.write("espruino-pet page: " + server.url + "  (Ctrl-C to stop)\n");
process.on("SIGINT", () => server.close().then(() => process.exit(0)));
process.on("SIGTERM", () => server.close().then(() => process.exit(0)));
