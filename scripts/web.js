#!/usr/bin/env node
/**
 * `npm run web`: builds the companion page and serves it on localhost until Ctrl-C.
 *
 *   npm run web -- [--port N]     (default 8080; 0 picks any free port)
 *
 * Web Serial (the Device tab) needs a secure context; http://localhost counts as one.
 */
import { buildWeb } from "./lib/buildWeb.js";
import { serveStatic } from "./lib/staticServer.js";
import { CommandFailure, runCommand, UsageError } from "./lib/command.js";

await runCommand({
  program: "npm run web",
  usage: "usage: npm run web -- [--port N]",
  about: `
Builds the companion page (the simulator, the Device tab that puts the pet on an ESP32 over Web
Serial, backups) and serves it on localhost until Ctrl-C; it prints the address to open. Web Serial
needs a secure context, which http://localhost is. docs/web.md says more.`,
  options: [{ name: "port", value: "N", help: "the port to serve on (default 8080; 0 picks a free one)" }],
  examples: ["npm run web", "npm run web -- --port 0"],
  exits: [
    [0, "stopped with Ctrl-C (or SIGTERM)"],
    [1, "the page could not be built, or the port is taken"],
  ],
  async run(values) {
    const port = values.port === undefined ? 8080 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--port takes a port number 0..65535, got " + values.port);
    const built = await buildWeb();
    const server = await serveStatic(built.outDir, { port, host: "localhost" }).catch((e) => {
      throw new CommandFailure("cannot serve on port " + port + ": " + (e instanceof Error ? e.message : String(e)) + " (try --port 0)");
    });
    process.stdout.write("espruino-pet page: " + server.url + "  (Ctrl-C to stop)\n");
    process.on("SIGINT", () => server.close().then(() => process.exit(0)));
    process.on("SIGTERM", () => server.close().then(() => process.exit(0)));
  },
});
