/**
 * In-process firmware build: src/host/espruino/main.ts -> one ES5 file Espruino runs at top level.
 *
 * rollup 4 + @rollup/plugin-typescript (tsconfig.firmware.json: target ES5, lib ES5; the plugin
 * emits, without checking) + terser (ecma 5, hoist_funs/hoist_vars, because Espruino does not hoist declarations) +
 * hoist.js, which finishes the job terser leaves undone (every var first in its function). The type
 * check runs while terser works in a worker (typeCheck.js, terserWorker.js); a type error fails the
 * build. The board
 * profile (a JSON file, env BOARD, default boards/esp32.json) is read as every command reads one
 * (src/host/node/profileFile.js), checked with checkBoardProfile and given to the code as the
 * default export of "virtual:board-profile".
 *
 * Used by scripts/build.js (`npm run build`), scripts/upload.js, the desktop simulator and the tests.
 *
 * Works from any current directory: every path is taken from the repository root (ROOT, found from
 * this file's own URL), including a relative path a caller passes (option or env BOARD) -- the same
 * directory `npm run` uses, so `BOARD=boards/linux.json npm run build` means what it says anywhere.
 */
import { writeFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { buildCacheDir, buildCacheEnabled, buildKey, cachedBuild } from "./buildCache.js";
import { BoardProfileError, chosenProfileFile, DEFAULT_PROFILE, loadProfileFile, readProfileFile } from "../../src/host/node/profileFile.js";

// rollup, TypeScript, terser and tsx take most of a second to load: they are imported only when a
// build really runs (a cache miss), so that `npm start`, `npm run upload` and the tests start at once
// when the bundle is cached (buildCache.js).
async function loadTsImport() {
  return (await import("tsx/esm/api")).tsImport;
}

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const DEFAULT_BOARD = resolve(ROOT, DEFAULT_PROFILE);
export const DEFAULT_ENTRY = join(ROOT, "src", "host", "espruino", "main.ts");
export const DEFAULT_OUT = join(ROOT, "dist", "firmware.js");

/** `p` as an absolute path, a relative one taken from the repository root (not process.cwd()). */
function fromRoot(p) {
  return resolve(ROOT, p);
}

/**
 * Size budget of the minified bundle (bytes), checked by test/bundle-firmware-espruino-safe.test.ts.
 * The first full firmware build was 28.5 KB; 40 KiB leaves ~40% headroom. What it protects: upload
 * time over 115200 baud serial, and a sudden jump (a Node-only dependency or a table pulled in by
 * mistake) being noticed. See docs/firmware.md, "Size budget".
 */
export const BUNDLE_BUDGET_BYTES = 40960;

const VIRTUAL_ID = "virtual:board-profile";
const RESOLVED_VIRTUAL_ID = "\0" + VIRTUAL_ID;
/**
 * The profile keys the firmware reads (firmware/board.ts, PetBoard), the only ones the bundle
 * carries: every other key (the board's name, its host, its Storage area, notes) serves the build,
 * the flash script or the reader of the file, and on the device would only hold RAM (an object in
 * the bundle is built at boot and kept). test/bundle-firmware-espruino-safe checks this list against
 * PetBoard.
 */
export const DEVICE_PROFILE_KEYS = ["petRegion", "petLayout", "storageSizes", "button", "led", "display", "defaultPetName", "defaultPetNameBytes"];

let profileModulePromise = null;
/** src/boards/boardProfile.ts (checkBoardProfile, expectedStorageSizes), loaded through tsx once per process. */
function loadProfileModule() {
  if (!profileModulePromise) {
    profileModulePromise = loadTsImport().then((tsImport) => tsImport(join(ROOT, "src", "boards", "boardProfile.ts"), import.meta.url));
  }
  return profileModulePromise;
}

/** checkBoardProfile from src/boards/boardProfile.ts. */
async function loadChecker() {
  return (await loadProfileModule()).checkBoardProfile;
}

let layoutPromise = null;
/** layoutForRegion from src/storage/regionLayout.ts, loaded through tsx once per process. */
async function loadLayoutForRegion() {
  if (!layoutPromise) {
    layoutPromise = loadTsImport()
      .then((tsImport) => tsImport(join(ROOT, "src", "storage", "regionLayout.ts"), import.meta.url))
      .then((m) => m.layoutForRegion);
  }
  return layoutPromise;
}

/**
 * The slot log's layout for the profile's petRegion (one log sector per flash page, as
 * firmware/store.ts opens it), which the bundle carries as the profile's `petLayout` so that the
 * device does not derive it at every boot. Derived by layoutForRegion, as the tests derive theirs.
 */
export async function deviceLayout(profile) {
  const layoutForRegion = await loadLayoutForRegion();
  const result = layoutForRegion(profile.petRegion);
  if (result.status !== "ok") throw new BoardProfileError("petRegion", [result.message]);
  return result.layout;
}

/**
 * The profile's defaultPetName as the UTF-8 bytes the firmware stores, which the bundle carries as
 * `defaultPetNameBytes` in place of the text: encoding it with the Core's coder at every boot cost
 * the device 1 M instructions (a loop step per character). The profile checker has made sure it is
 * a valid name; a profile without one gets nothing, and the firmware falls back to its own.
 */
export function deviceName(profile) {
  if (typeof profile.defaultPetName !== "string") return {};
  return { defaultPetNameBytes: Array.from(new TextEncoder().encode(profile.defaultPetName)) };
}

/**
 * For a profile that runs on Espruino, the Storage sizes (process.env.STORAGE) the board may report,
 * which the bundle carries as `storageSizes`: their presence is what makes the firmware check the
 * region against the board at boot (src/boards/regionFit.ts). The sizes are the profile's own rule,
 * expectedStorageSizes in src/boards/boardProfile.ts, which the upload and board-check judge the board
 * by too. The simulators' profiles (host "desktop") get nothing: their region is a store of their own.
 */
export async function deviceStorageCheck(profile) {
  if (profile.host === "desktop") return {};
  return { storageSizes: (await loadProfileModule()).expectedStorageSizes(profile) };
}

/** The board file the environment asks for: env BOARD (a path, relative to the repository root) or boards/esp32.json (profileFile.js's rule). */
export function boardFromEnv(env = process.env) {
  return chosenProfileFile(undefined, env, ROOT);
}

/**
 * Reads and checks a board profile file. Throws BoardProfileError (src/host/node/profileFile.js,
 * with every problem) when the file is not JSON or the profile is unusable.
 */
export async function loadBoardProfile(file) {
  return loadProfileFile(file, ROOT, await loadChecker()).profile;
}

function boardProfilePlugin(profile) {
  const embedded = {};
  for (const key of Object.keys(profile)) {
    if (DEVICE_PROFILE_KEYS.indexOf(key) >= 0) embedded[key] = profile[key];
  }
  return {
    name: "board-profile",
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_VIRTUAL_ID : null;
    },
    load(id) {
      return id === RESOLVED_VIRTUAL_ID ? "export default " + JSON.stringify(embedded) + ";\n" : null;
    },
  };
}

function rollupInput(typescript, ts, entry, tsconfig, profile, warnings) {
  return {
    input: entry,
    plugins: [
      boardProfilePlugin(profile),
      typescript({
        typescript: ts,
        tsconfig,
        // The plugin only compiles files under its filter root, which defaults to process.cwd(): from
        // any other directory it would skip our sources and rollup could not resolve their imports.
        filterRoot: ROOT,
        outputToFilesystem: false,
        // The plugin emits; the type check (typeCheck.js, the same program and options) runs while
        // terser minifies and stops the build on a type error. noCheck leaves the plugin's program
        // the parse and the emit, which the check does not change (isolatedModules: every file's
        // JavaScript is its own; test/bundle-emit-without-check-is-the-checked-emit.test.ts).
        noEmitOnError: false,
        compilerOptions: { noCheck: true },
      }),
    ],
    onwarn(warning) {
      // TypeScript helpers test `this` at module level; rollup rewrites it to undefined, which is fine.
      if (warning.code === "THIS_IS_UNDEFINED") return;
      warnings.push(warning.message);
    },
  };
}

/**
 * terser as a rollup output plugin, minifying in the build's worker (terserWorker.js) so that the
 * type check can run meanwhile; `sent` is called once the code is on its way.
 *
 * Two runs. The first, without hoisting, writes the bundle's constants (the save layout's offsets,
 * the rule tables' sizes, the statuses) into the code that uses them: with `var`s hoisted to the
 * top, terser can no longer tell that a constant is set before any function reads it, and leaves it a
 * name of the bundle's outer scope. There every use is a search of that scope's list of names (78 of
 * them before the functions), which every call of a function of the bundle pays as well. It mangles
 * local names, so that it inlines only a literal no longer than the short name it replaces (with the
 * long names, 4294967296 went into 32 places). The second run is the one that shapes the bundle, with
 * TERSER_OPTIONS. On the emulated ESP32, against one run: CHANGELOG, "Speed rounds".
 */
function terserPlugin(minifier, options, sent) {
  return {
    name: "terser",
    async renderChunk(code) {
      // The first run keeps the source's annotations (/*@__NOINLINE__*/) for the second, which inlines.
      const first = { ...options, compress: { ...options.compress, hoist_vars: false, hoist_funs: false }, mangle: true, sourceMap: false, format: { ...options.format, preserve_annotations: true } };
      // The worker runs one minify at a time: the second starts when the first has answered.
      const minifying = minifier.minify(code, first).then((c) => minifier.minify(c, { ...options, sourceMap: false }));
      sent();
      return (await minifying) || code;
    },
  };
}

/**
 * terser settings for Espruino: ES5 only, declarations hoisted to the top of every scope, and the
 * names of properties that end in "_" shortened. Espruino executes from source, so every character
 * on a path is read each time the path runs (about 300 x86 instructions a character on the Linux
 * build, docs/speed.md).
 *
 * Names ending in "_" are names the build shortens: terser renames every property whose name ends
 * in "_" to one or two characters (scripts/lib/build.js, TERSER_OPTIONS), because the interpreter
 * reads every character of a name each time a path uses it. The "_" does not mean private: other
 * files of the bundle use such members (petConsole.ts and app.ts call RunningPet's). It means the
 * name never leaves the bundle: nothing outside it (the `pet` console object, pet.status(), a board
 * profile, the flash) holds or reads a name that ends in "_".
 *
 * The files of the bundle that use such names say so at their top, in these words (RunningPet,
 * SlotLog, the store, the console object, the app).
 */
/**
 * Property names used only inside the bundle (the save policy's counters,
 * the slot log's layout, results and counters, the World's clock and stamps), shortened like the
 * "_" names. (terser never shortens the names of DOM properties, such as slot, reason or loaded, so
 * those stay long, everywhere alike.) None of them is read
 * or written by anything outside the bundle: not the console object, not pet.status()'s JSON (built
 * as text), not the env's capabilities or the Espruino APIs the bundle calls, and the layout the
 * build embeds is a literal inside the bundle, shortened with it. test/bundle-firmware-espruino-safe
 * checks that none of these names is left in the bundle.
 */
export const BUNDLE_ONLY_PROPERTIES = [
  "dirty", "lastSaveAt", "lastAttemptFailed", "lastAttemptAt",
  "sectorSize", "sectorCount", "slotsPerSector", "marksOffset", "marksSize", "slotsOffset", "headerMagic", "headerAddresses", "payloadLength",
  "flashStatus", "accepted", "erasedCount", "partial", "absenceMs", "validityChecks", "sectorErases", "verifyFailures", "opens",
  "sector", "seq", "erased", "payload",
  // The default pet's name as bytes, which the build embeds (deviceName) and only the firmware reads.
  "defaultPetNameBytes",
  // The Storage sizes the region check knows (deviceStorageCheck) and the env's reading of the board's.
  "storageSizes", "storageSize",
  // The World's clock and stamps: pet.status() names its fields elapsedMs, activitySinceMs and
  // expressionSinceMs, so these never leave the bundle (activity, expression, name and updateCount do).
  "elapsed", "activitySince", "expressionSince",
];

export const TERSER_OPTIONS = {
  ecma: 5,
  // directives: false keeps the "rarely called" and "not called at boot" directives for rareFunctions.js (terser would drop them).
  compress: { hoist_funs: true, hoist_vars: true, passes: 2, directives: false },
  mangle: { properties: { regex: new RegExp("_$|^(?:" + BUNDLE_ONLY_PROPERTIES.join("|") + ")$") } },
  format: { ascii_only: true, comments: false },
};

/**
 * What the build knows that the code would otherwise ask at run time, as names terser replaces with
 * constants (global_defs) before it drops the code they make unreachable. Declared, and asked with
 * typeof, only where they are used; undeclared everywhere else (Node, the unminified bundle), where
 * those places ask the real question instead.
 *
 *   ESPRUINO_BUILD      true: crc32 and the byte helpers take Espruino's built-ins without asking
 *                       whether they exist, and their plain-loop fallbacks drop out (src/core/bytes.ts)
 *   BOARD_HAS_DISPLAY   whether the profile has a display: without one, no panel driver, no drawing
 *                       and no I2C set-up in the bundle (firmware/display.ts, src/host/espruino/env.ts)
 *   BOARD_HAS_BUTTON, BOARD_HAS_LED   the same for the button and the LED (firmware/buttonAndLed.ts)
 *   BOARD_CHECKS_REGION whether the boot checks the region against the board (a profile that runs on
 *                       Espruino, which the build gives `storageSizes`): the device skips asking, and
 *                       a simulator's bundle carries neither the check nor the reading of
 *                       process.env (firmware/runningPet.ts, src/host/espruino/env.ts)
 *   ESPRUINO_WORD_VIEWS the same test: the codec's u32 fields through Uint32Array views at any byte
 *                       offset, which Espruino allows and Node and browsers refuse (src/save/codec.ts)
 *   ESPRUINO_FIRMWARE   the same test again: joinBytes takes E.toUint8Array, which the desktop's
 *                       emulator lacks, without asking (src/core/bytes.ts)
 *   BOARD_REGION_ADDRESS, BOARD_REGION_SIZE, BOARD_PAGE_SIZE, BOARD_STORAGE_SIZES   the numbers
 *                       that check compares with (0 and [] where there are none): constants in its body
 * @param {{display?: unknown, button?: unknown, led?: unknown, host?: string, storageSizes?: number[]}} profile
 *   the profile as the bundle embeds it (with `storageSizes` from deviceStorageCheck)
 */
export function buildDefines(profile) {
  return {
    ESPRUINO_BUILD: true,
    BOARD_HAS_DISPLAY: profile.display !== undefined,
    BOARD_HAS_BUTTON: profile.button !== undefined,
    BOARD_HAS_LED: profile.led !== undefined,
    BOARD_CHECKS_REGION: profile.host !== "desktop",
    ESPRUINO_WORD_VIEWS: profile.host !== "desktop",
    ESPRUINO_FIRMWARE: profile.host !== "desktop",
    BOARD_REGION_ADDRESS: profile.petRegion.address,
    BOARD_REGION_SIZE: profile.petRegion.size,
    BOARD_PAGE_SIZE: profile.petRegion.pageSize,
    BOARD_STORAGE_SIZES: profile.storageSizes || [],
  };
}

/** TERSER_OPTIONS with the board's defines (buildDefines), and `overrides` over them. */
export function terserOptions(profile, overrides = {}) {
  return { ...TERSER_OPTIONS, compress: { ...TERSER_OPTIONS.compress, global_defs: { ...buildDefines(profile), ...overrides } } };
}

/**
 * Builds the firmware bundle.
 * @param {object} [options]
 * @param {string} [options.board] path of the board profile JSON (default: env BOARD or boards/esp32.json)
 * @param {string|null} [options.outFile] where to write the bundle (default dist/firmware.js; null: do not write)
 * @param {string} [options.entry] entry module (default src/host/espruino/main.ts)
 * @param {boolean} [options.cache] false: build even when an identical build is cached (buildCache.js)
 * @param {() => void} [options.onBuild] called when a build really starts (not on a cache hit), e.g. to say so
 * @param {Record<string, unknown>} [options.defines] build defines over the profile's (buildDefines): the
 *   bench's build without the region check sets BOARD_CHECKS_REGION false and nothing else
 * @returns {Promise<{code: string, bytes: number, unminified: string, profile: object, board: string, outFile: string|null, warnings: string[], cached: boolean}>}
 */
export async function buildFirmware(options = {}) {
  const board = chosenProfileFile(options.board, process.env, ROOT);
  const outFile = options.outFile === null ? null : fromRoot(options.outFile || DEFAULT_OUT);
  const entry = fromRoot(options.entry || DEFAULT_ENTRY);
  const file = readProfileFile(board, ROOT);
  const useCache = options.cache !== false && buildCacheEnabled();
  const cacheDir = buildCacheDir(ROOT);
  const build = async () => {
    if (options.onBuild) options.onBuild();
    // The type check does not depend on the profile: it is shared by every build of these sources
    // (typeCheck.js, sharedCheck), keyed like a bundle but without the profile.
    const checkKey = useCache ? { dir: cacheDir, key: buildKey(ROOT, { entry, boardText: "", options: { typeCheck: true } }) } : null;
    return buildUncached(entry, await loadBoardProfile(board), checkKey, options.defines || {});
  };
  // A hit was built from this very profile text by this very checker (both are hashed), so the
  // profile passed the check then and would pass it now.
  const { value, cached } = useCache
    ? await cachedBuild(cacheDir, buildKey(ROOT, options.defines ? { entry, boardText: file.text, options: { defines: options.defines } } : { entry, boardText: file.text }), build)
    : { value: await build(), cached: false };
  const { code, unminified, warnings } = value;
  if (outFile) {
    mkdirSync(dirname(outFile), { recursive: true });
    writeFileSync(outFile, code);
  }
  return {
    code,
    bytes: Buffer.byteLength(code, "utf8"),
    unminified,
    profile: file.json,
    board,
    outFile,
    warnings: warnings.slice(),
    cached,
  };
}

/**
 * rollup, TypeScript's emit and terser over `entry` for a checked `profile`, and the type check,
 * shared through the build cache when `shared` ({dir, key}) is given: `{code, unminified, warnings}`.
 *
 * The order is the one that is quickest on two cores: terser's worker starts first (it loads while
 * this thread loads TypeScript); the plugin emits the bundle's files and rollup puts them together; the
 * minified output is asked for, and while terser works on it in its worker this thread runs the
 * type check. A type error fails the build all the same, before anything is returned or cached.
 */
async function buildUncached(entry, profile, shared, defines) {
  const warnings = [];
  // tsconfig.firmware.json lists src/host/espruino/main.ts as the program's root; another entry (a bench
  // probe) gets a throw-away config that extends it with that root instead.
  let tsconfig = join(ROOT, "tsconfig.firmware.json");
  let tempDir = null;
  if (entry !== DEFAULT_ENTRY) {
    tempDir = mkdtempSync(join(tmpdir(), "pet-build-"));
    tsconfig = join(tempDir, "tsconfig.json");
    writeFileSync(tsconfig, JSON.stringify({ extends: join(ROOT, "tsconfig.firmware.json"), files: [entry] }));
  }
  const { startMinifier } = await import("./terserWorker.js");
  const minifier = startMinifier();
  let bundle = null;
  try {
    const [{ rollup }, { default: ts }, { default: typescript }, { sharedCheck, typeCheck, TypeCheckError }, { espruinoHoistPlugin }, { outerBlockPlugin }, { unwrapClassesPlugin }, { rareFunctionsPlugin }, { entryInBlockPlugin }] = await Promise.all([
      import("rollup"),
      import("typescript"),
      import("@rollup/plugin-typescript"),
      import("./typeCheck.js"),
      import("./hoist.js"),
      import("./outerBlock.js"),
      import("./unwrapClasses.js"),
      import("./rareFunctions.js"),
      import("./entryInBlock.js"),
    ]);
    const embedded = Object.assign({}, profile, { petLayout: await deviceLayout(profile) }, deviceName(profile), await deviceStorageCheck(profile));
    bundle = await rollup(rollupInput(typescript, ts, entry, tsconfig, embedded, warnings));
    const output = { format: "iife", strict: false, indent: false };
    const unminified = (await bundle.generate(output)).output[0].code;
    let minifying = () => undefined;
    const sent = new Promise((resolve) => (minifying = resolve));
    const plugins = [unwrapClassesPlugin(), terserPlugin(minifier, terserOptions(embedded, defines), minifying), espruinoHoistPlugin(), outerBlockPlugin(), entryInBlockPlugin(), rareFunctionsPlugin()];
    const minified = bundle.generate({ ...output, plugins });
    // Once terser has the code (or the generation failed before it), check the types meanwhile.
    await Promise.race([sent, minified.catch(() => undefined)]);
    const run = () => typeCheck(ts, tsconfig, ROOT);
    const check = shared === null ? run() : await sharedCheck(shared.dir, shared.key, run);
    if (check.errors.length > 0) throw new TypeCheckError(check.errors);
    warnings.push(...check.warnings);
    const code = (await minified).output[0].code;
    return { code, unminified, warnings };
  } finally {
    minifier.stop();
    if (bundle) await bundle.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }
}

/** Path relative to the repository root, for messages. */
export function shortPath(p) {
  const r = relative(ROOT, p);
  return r.startsWith("..") ? p : r;
}
