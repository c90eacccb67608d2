#!/usr/bin/env node
/**
 * `npm run prepare` (run by npm itself after `npm ci` / `npm install` in a checkout and before
 * `npm pack`): compiles the desktop tools to dist/host/ (scripts/lib/hostBuild.js), so a fresh clone
 * has a `pet-save` and an `npm start` that need no TypeScript at run time, and the package carries
 * them. Without esbuild (`npm ci --omit=dev` in a checkout) it says so and leaves the install alone.
 */
import { relative } from "node:path";
import { buildHost, HostBuildUnavailable, hostDir } from "./lib/hostBuild.js";
import { versionLine, wantsHelp, wantsVersion } from "./lib/processEdges.js";

const args = process.argv.slice(2);
if (wantsVersion(args)) {
  process.stdout.write(versionLine("build-host") + "\n");
  process.exit(0);
}
if (wantsHelp(args)) {
  process.stdout.write(
    "usage: node scripts/build-host.js   (npm runs it as `prepare`)\n\n" +
      "Compiles pet-save and the desktop host of npm start to dist/host/ with esbuild. The launchers\n" +
      "recompile by themselves when a source changed, so this is only needed after an install.\n\n" +
      "exit status: 0 compiled (or esbuild not installed: skipped, said on stderr), 1 the compile failed\n",
  );
  process.exit(0);
}
try {
  const inputs = await buildHost();
  process.stdout.write("compiled the desktop tools into " + relative(process.cwd(), hostDir()) + "/ (" + inputs.length + " source files)\n");
} catch (e) {
  if (e instanceof HostBuildUnavailable) {
    process.stderr.write("skipped compiling the desktop tools: esbuild (a dev dependency) is not installed\n");
    process.exit(0);
  }
  process.stderr.write("compiling the desktop tools failed: " + (e instanceof Error ? e.message : String(e)) + "\n");
  process.exit(1);
}
