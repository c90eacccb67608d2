/**
 * The desktop tools as plain JavaScript, so that they start at once and need no TypeScript compiler
 * at run time: `pet-save` (src/host/node/cli.ts), the desktop host of `npm start`
 * (src/host/node/sim/desktop.ts), the upload of `npm run upload` (src/host/node/upload/upload.ts),
 * `npm run soak` (src/host/node/soak/soakMain.ts) and `npm run board-check`
 * (src/host/node/boardCheck/boardCheck.ts) are each bundled by esbuild into one ES module in
 * dist/host/.
 *
 * Who builds them:
 * - `npm ci` / `npm install` in a checkout and `npm pack` run the `prepare` script
 *   (scripts/build-host.js), so a fresh clone has them and the package carries them;
 * - in a checkout, the launchers (bin/pet-save.js and the npm scripts' entries in scripts/) before
 *   they import a bundle:
 *   dist/host/inputs.json lists every file the bundles were built from with the SHA-256 of its
 *   content, and when one differs (an edit, a `git pull`) they are rebuilt first (esbuild takes
 *   about a tenth of a second; the comparison a few milliseconds). An installed package has no
 *   sources, so there is nothing to compare and its bundles run as shipped.
 *
 * What is bundled: our own TypeScript, nothing of scripts/ (which sits above src/). What stays an
 * import: Node's modules and packages from node_modules. The one file the tools load by path at run
 * time are src/host/node/upload/uploaderShim.cjs, preloaded into the espruino tool's own process,
 * src/host/node/interpreter/espruinoShim.c, compiled for the Linux interpreter's, and
 * src/host/node/boardCheck/floor.js, typed at a board's console.
 * Outputs are written to a temporary name and renamed, inputs.json last, so a launcher never runs
 * half a file, and two launchers rebuilding at once both end with whole files.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The bundles: output name (dist/host/<name>.js) -> entry module. */
export const HOST_ENTRIES = {
  "pet-save": "src/host/node/cli.ts",
  desktop: "src/host/node/sim/desktop.ts",
  upload: "src/host/node/upload/upload.ts",
  soak: "src/host/node/soak/soakMain.ts",
  "board-check": "src/host/node/boardCheck/boardCheck.ts",
};

/** Bumped when the bundles change shape without any input changing. */
const FORMAT = "host-build-1";
/** This file is an input too: its options shape the output. */
const SELF = "scripts/lib/hostBuild.js";

export function hostDir(root = ROOT) {
  return join(root, "dist", "host");
}

/** dist/host/<name>.js */
export function hostBundle(name, root = ROOT) {
  return join(hostDir(root), name + ".js");
}

/** True in a checkout (the sources are there to compare against), false in an installed package. */
export function hasSources(root = ROOT) {
  return existsSync(join(root, HOST_ENTRIES["pet-save"]));
}

function sha256(file) {
  try {
    return createHash("sha256").update(readFileSync(file)).digest("hex");
  } catch {
    return "(missing)";
  }
}

/** Whether dist/host holds bundles built from exactly the sources there are now. */
export function hostBuildFresh(root = ROOT) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(hostDir(root), "inputs.json"), "utf8"));
  } catch {
    return false;
  }
  if (!manifest || manifest.format !== FORMAT || typeof manifest.inputs !== "object") return false;
  for (const name of Object.keys(HOST_ENTRIES)) if (!existsSync(hostBundle(name, root))) return false;
  for (const [file, hash] of Object.entries(manifest.inputs)) if (sha256(join(root, file)) !== hash) return false;
  return true;
}

/** Thrown when the bundles must be built and esbuild (a dev dependency) is not installed. */
export class HostBuildUnavailable extends Error {}

function writeAtomically(file, text) {
  const tmp = file + "." + process.pid + "." + Math.random().toString(36).slice(2) + ".tmp";
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Bundles every entry into dist/host/ with esbuild; returns the repository paths of the inputs. */
export async function buildHost(root = ROOT) {
  let esbuild;
  try {
    esbuild = await import("esbuild");
  } catch {
    throw new HostBuildUnavailable(
      "the desktop tools are not compiled (dist/host/) and esbuild, which compiles them, is not installed: run `npm ci` (with the dev dependencies) in " + root,
    );
  }
  const entryPoints = {};
  for (const [name, entry] of Object.entries(HOST_ENTRIES)) entryPoints[name] = join(root, entry);
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints,
    outdir: hostDir(root),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    metafile: true,
    write: false,
    legalComments: "none",
    logLevel: "silent",
  });
  mkdirSync(hostDir(root), { recursive: true });
  for (const out of result.outputFiles) {
    writeAtomically(out.path, "// Built by scripts/lib/hostBuild.js from " + relative(root, entryFor(root, out.path)) + "; do not edit.\n" + out.text);
  }
  const inputs = {};
  for (const file of [...Object.keys(result.metafile.inputs), SELF].sort()) {
    const rel = relative(root, resolve(root, file)).split(sep).join("/");
    inputs[rel] = sha256(join(root, rel));
  }
  writeAtomically(join(hostDir(root), "inputs.json"), JSON.stringify({ format: FORMAT, esbuild: esbuild.version, inputs }, null, 1) + "\n");
  return Object.keys(inputs);
}

function entryFor(root, outPath) {
  const name = outPath.slice(hostDir(root).length + 1).replace(/\.js$/, "");
  return join(root, HOST_ENTRIES[name] || name);
}

/**
 * The path of bundle `name`, rebuilt first when this is a checkout and a source changed. Throws
 * HostBuildUnavailable when it must be built and cannot be.
 */
export async function freshHostBundle(name, root = ROOT) {
  if (hasSources(root) && !hostBuildFresh(root)) await buildHost(root);
  const file = hostBundle(name, root);
  if (!existsSync(file)) throw new HostBuildUnavailable("missing " + file + ": the package was packed without its compiled tools");
  return file;
}
