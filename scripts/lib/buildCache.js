/**
 * The firmware build's cache: a bundle is rebuilt only when something it is built from changed.
 *
 * The key is a SHA-256 of the content of every input, not of dates or paths: the sources the
 * bundle and its type check read (src/, firmware/, and the folder of another entry such as a
 * bench probe), the board profile's text, the build's own scripts, the TypeScript configurations
 * and package-lock.json (which pins rollup, TypeScript and terser). The whole of src/ is hashed
 * rather than the modules the last build happened to read: a type-only file changes no byte of
 * the bundle but may make the type check fail, and a cached bundle must never hide a type error
 * the build would report. The price is a rebuild after an edit the bundle does not read (the web
 * page's code, say), about three seconds.
 *
 * Entries are JSON files named by the key in node_modules/.cache/espruino-pet/firmware (gone with
 * a fresh `npm ci`), or in env PET_BUILD_CACHE_DIR. They are written to a temporary name and
 * renamed, so two builds racing for the same key (test files starting together) both end with a
 * whole entry, and a reader never sees half of one. A bad or unreadable entry is a miss. While a
 * build runs, a lock file beside its entry makes other processes that want the same bundle (test
 * files starting together, a second `npm start`) wait for it rather than build it again; a lock whose
 * process is gone is taken over. PET_BUILD_CACHE=0 turns the cache off.
 */
import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

/** Bumped when the entry's shape or the build's output changes without any hashed file changing. */
const CACHE_FORMAT = "firmware-cache-1";

/** The build's own files and configuration, relative to the repository root. */
const BUILD_FILES = [
  "scripts/lib/build.js",
  "scripts/lib/buildCache.js",
  "scripts/lib/hoist.js",
  "scripts/lib/outerBlock.js",
  "scripts/lib/entryInBlock.js",
  "scripts/lib/rareFunctions.js",
  "scripts/lib/unwrapClasses.js",
  "scripts/lib/tsConfig.js",
  "scripts/lib/typeCheck.js",
  "scripts/lib/terserWorker.js",
  "tsconfig.json",
  "tsconfig.firmware.json",
  "package-lock.json",
];

/** The folders whose every file is an input of every build. */
const SOURCE_DIRS = ["src", "firmware"];

/** Where entries live. */
export function buildCacheDir(root, env = process.env) {
  return env.PET_BUILD_CACHE_DIR || join(root, "node_modules", ".cache", "espruino-pet", "firmware");
}

/** False when env PET_BUILD_CACHE is "0" (or "false", "off"). */
export function buildCacheEnabled(env = process.env) {
  const v = (env.PET_BUILD_CACHE || "").toLowerCase();
  return v !== "0" && v !== "false" && v !== "off";
}

/** Every file under `dir`, sorted, as absolute paths (a missing folder has none). */
function filesUnder(dir) {
  let names;
  try {
    names = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out = [];
  for (const d of names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = join(dir, d.name);
    if (d.isDirectory()) out.push(...filesUnder(p));
    else if (d.isFile()) out.push(p);
  }
  return out;
}

/**
 * The key of one build: `entry` (absolute), `boardText` (the profile file's content) and `options`
 * (anything else that changes the output), hashed with every input file under `root`.
 */
export function buildKey(root, { entry, boardText, options }) {
  const hash = createHash("sha256");
  const add = (label, data) => {
    hash.update(label + "\0" + data.length + "\0");
    hash.update(data);
  };
  add("format", CACHE_FORMAT);
  add("entry", relative(root, entry).split(sep).join("/"));
  add("board", boardText);
  add("options", JSON.stringify(options || {}));
  const files = new Set(BUILD_FILES.map((f) => join(root, f)));
  for (const dir of SOURCE_DIRS) for (const f of filesUnder(join(root, dir))) files.add(f);
  // An entry outside src/ (a bench probe, a test fixture) brings the folder it sits in.
  for (const f of filesUnder(dirname(entry))) files.add(f);
  for (const f of [...files].sort()) {
    let content;
    try {
      content = readFileSync(f);
    } catch {
      content = Buffer.from("(missing)");
    }
    add("file " + relative(root, f).split(sep).join("/"), content);
  }
  return hash.digest("hex");
}

/** The entry stored under `key`, or null (none, unreadable, or not one of ours). */
export function readCached(dir, key) {
  try {
    const entry = JSON.parse(readFileSync(join(dir, key + ".json"), "utf8"));
    if (entry && entry.format === CACHE_FORMAT && typeof entry.code === "string" && typeof entry.unminified === "string") return entry;
  } catch {
    // a miss
  }
  return null;
}

/** Stores `value` under `key`; a failure (read-only disk, full disk) only costs the next build. */
export function writeCached(dir, key, value) {
  const tmp = join(dir, "." + key + "." + process.pid + "." + Math.random().toString(36).slice(2) + ".tmp");
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, JSON.stringify({ format: CACHE_FORMAT, ...value }));
    renameSync(tmp, join(dir, key + ".json"));
  } catch {
    rmSync(tmp, { force: true });
  }
}

/** Whether the process `pid` (a lock's owner) is still running. */
export function ownerAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/**
 * Work that processes wanting the same result do once: `done()` answers the result when it is there
 * already (else null); otherwise this process takes the lock file `lock` and answers `work()`, or,
 * while a live process holds the lock, waits for `done()` to answer. A lock whose owner died is
 * taken over. After `waitMs`, or where no lock can be made at all (a read-only disk), it does the
 * work itself: a lock is a saving, never a reason to fail. `work()` stores what `done()` reads.
 */
export async function onceAcrossProcesses(lock, done, work, waitMs) {
  const end = Date.now() + waitMs;
  for (;;) {
    const ready = done();
    if (ready !== null) return ready;
    try {
      mkdirSync(dirname(lock), { recursive: true });
      const fd = openSync(lock, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (e) {
      if (e.code !== "EEXIST") return work();
    }
    let owner = NaN;
    try {
      owner = Number(readFileSync(lock, "utf8"));
    } catch {
      continue; // gone meanwhile: look again
    }
    // A work that failed stores nothing, so after its owner lets go this process tries (and fails) itself.
    if (owner > 0 && !ownerAlive(owner)) rmSync(lock, { force: true });
    else if (Date.now() > end) return work();
    else await new Promise((r) => setTimeout(r, 100));
  }
  try {
    // Look again now that the lock is ours: its last holder may have stored the result and let go
    // between the look above and the lock (CI once built the same bundle twice so).
    const ready = done();
    return ready !== null ? ready : await work();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * The entry for `key`, built by `build()` (which answers the value to store) unless another process
 * is building it already, in which case this one waits for that entry (onceAcrossProcesses).
 */
export function cachedBuild(dir, key, build, waitMs = 180000) {
  return onceAcrossProcesses(
    join(dir, key + ".lock"),
    () => {
      const hit = readCached(dir, key);
      return hit === null ? null : { value: hit, cached: true };
    },
    async () => {
      const value = await build();
      writeCached(dir, key, value);
      return { value, cached: false };
    },
    waitMs,
  );
}
