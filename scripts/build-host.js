#!/usr/bin/env node
/**
 * `npm run prepare` (run by npm itself after `npm ci` / `npm install` in a checkout and before
 * `npm pack`): compiles the desktop tools to dist/host/ (scripts/lib/hostBuild.js), so a fresh clone
 * has a `pet-save` and an `npm start` that need no TypeScript at run time, and the package carries
 * them. Without esbuild (`npm ci --omit=dev` in a checkout) it says so and leaves the install alone.
 */
import { relative } from "node:path";
import { buildHost, HostBuildUnavailable, hostDir } from "./lib/hostBuild.js";
import { runCommand } from "./lib/command.js";

await runCommand({
  program: "build-host",
  usage: "usage: node scripts/build-host.js   (npm runs it as `prepare`)",
  about: `
Compiles pet-save and the desktop host of npm start to dist/host/ with esbuild. The launchers
recompile by themselves when a source changed, so this is only needed after an install.`,
  examples: ["node scripts/build-host.js"],
  exits: [
    [0, "compiled (or esbuild not installed: skipped, said on stderr)"],
    [1, "the compile failed"],
  ],
  failurePrefix: "compiling the desktop tools failed: ",
  async run() {
    try {
      const inputs = await buildHost();
      process.stdout.write("compiled the desktop tools into " + relative(process.cwd(), hostDir()) + "/ (" + inputs.length + " source files)\n");
    } catch (e) {
      if (!(e instanceof HostBuildUnavailable)) throw e;
      process.stderr.write("skipped compiling the desktop tools: esbuild (a dev dependency) is not installed\n");
    }
  },
});
