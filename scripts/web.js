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
import { guardOutput, versionLine, wantsVersion } from "./lib/processEdges.js";

const PROGRAM = "npm run web";
const HELP = `usage: npm run web -- [--port N]

Builds the companion page (the simulator, the Device tab that puts the pet on an ESP32 over Web
Serial, backups) and serves it on localhost until Ctrl-C; it prints the address to open. Web Serial
needs a secure context, which http://localhost is. docs/web.md says more.

options:
  --port N     the port to serve on (default 8080; 0 picks a free one)
  --version    print the version
  -h, --help   this help

examples:
  npm run web
  npm run web -- --port 0

exit status:
  0  stopped with Ctrl-C (or SIGTERM)
  1  the page could not be built, or the port is taken
  2  bad usage
`;

guardOutput(PROGRAM);
if (wantsVersion(process.argv.slice(2))) {
  process.stdout.write(versionLine(PROGRAM) + "\n");
  process.exit(0);
}
let port = 8080;
try {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { port: { type: "string" }, help: { type: "boolean", short: "h" }, version: { type: "boolean" } }, strict: true });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
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
