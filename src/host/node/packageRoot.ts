/**
 * Where the package's own files are (package.json, boards/, and the files the desktop code loads by
 * path at run time: the uploader shim, the interpreter's C shim, board-check's floor), and its
 * version.
 *
 * The desktop code runs from three places at different depths: its sources in src/host/node (the
 * tests, through vitest), the compiled bundle in dist/host/ (`npm start` and `pet-save` in a
 * checkout) and the same bundle inside an installed package. So the root is not a fixed number of
 * folders up from here: it is the first folder, going up from this module, that holds the package's
 * package.json.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE_NAME = "espruino-pet";

let found: { root: string; version: string } | null = null;

function findRoot(): { root: string; version: string } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === PACKAGE_NAME) return { root: dir, version: String(pkg.version) };
    } catch {
      // no package.json here, or not JSON: keep going up
    }
    const up = dirname(dir);
    if (up === dir) throw new Error("cannot find the " + PACKAGE_NAME + " package around " + fileURLToPath(import.meta.url));
    dir = up;
  }
}

/** The package's root folder (where package.json, boards/ and scripts/ are). */
export function packageRoot(): string {
  if (found === null) found = findRoot();
  return found.root;
}

/** The package's version, from its package.json. */
export function packageVersion(): string {
  if (found === null) found = findRoot();
  return found.version;
}

/** A path as the commands' messages show it: from the package's root when it is inside it. */
export function shortPath(p: string): string {
  const r = relative(packageRoot(), p);
  return r.startsWith("..") ? p : r;
}
