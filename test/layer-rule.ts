/**
 * The layer rule of the repository and the checker that finds every break of it
 * (test/layers-import-direction.test.ts runs it on the whole tree and on made-up files).
 *
 * Every product file (src/, firmware/, scripts/, bin/, tools/) belongs to one unit; the units stand
 * in layers, lowest first:
 *
 *   0  src/core                  the pet: u64, the world, names, the rules
 *   1  src/save                  save format v1
 *   2  src/storage               the flash shapes, the slot log, the simulator, the power-cut harness
 *   3  src/platform, src/boards  the Espruino APIs the firmware uses; board profiles and the fit rule
 *   4  firmware, src/inspect     the device app; what a payload or a region image holds, for people
 *   5  src/host/emulator, src/host/espruino   Espruino's APIs emulated, for the desktop and the page;
 *                               the device host, whose bundle the page and the desktop run in them
 *   6  src/host/node, src/web    the hosts: the desktop, the browser
 *   7  scripts + bin, tools      entry points and build tooling; standalone tools
 *   8  test
 *
 * A file may use its own unit and any unit of a lower layer, nothing else: no unit above its own
 * (up), no other unit of its own layer (sideways: one host reaching into another, firmware into
 * src/inspect), and no product file anything in test/. "Use" is any way one file gets at another:
 * a static, type-only or dynamic import, an export from, a require(), and a path built at run time
 * that lands in the repository (new URL("../x", import.meta.url), join(ROOT, "scripts", "lib", x),
 * join(packageRoot(), ...), a repository path written as a string such as an esbuild entry point,
 * whatever is then imported, spawned or read). A path whose tail is computed counts as the folder its
 * literal part names. So src/ uses nothing of scripts/: an entry point hands src/ what it needs of the
 * build tooling (the firmware build, for the upload and the soak) as a function. A module the build
 * makes up (`virtual:firmware`, the firmware bundle the page carries) is a use of the files it is
 * built from (VIRTUAL_MODULES).
 *
 * What the checker cannot follow is not let through: a module loaded by a name it cannot compute,
 * a path from the root whose computed tail stops above a unit, an unknown `virtual:` module. Each
 * is a break ("unresolved") unless the test lists it with the reason it reaches no product code it
 * should not.
 */
import ts from "typescript";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";

/** The units, each with its layer; a unit may span several folders. */
export const UNITS: { name: string; prefixes: string[]; layer: number }[] = [
  { name: "src/core", prefixes: ["src/core/"], layer: 0 },
  { name: "src/save", prefixes: ["src/save/"], layer: 1 },
  { name: "src/storage", prefixes: ["src/storage/"], layer: 2 },
  { name: "src/platform", prefixes: ["src/platform/"], layer: 3 },
  { name: "src/boards", prefixes: ["src/boards/"], layer: 3 },
  { name: "firmware", prefixes: ["firmware/"], layer: 4 },
  { name: "src/inspect", prefixes: ["src/inspect/"], layer: 4 },
  { name: "src/host/emulator", prefixes: ["src/host/emulator/"], layer: 5 },
  { name: "src/host/espruino", prefixes: ["src/host/espruino/"], layer: 5 },
  { name: "src/host/node", prefixes: ["src/host/node/"], layer: 6 },
  { name: "src/web", prefixes: ["src/web/"], layer: 6 },
  { name: "scripts", prefixes: ["scripts/", "bin/"], layer: 7 },
  { name: "tools", prefixes: ["tools/"], layer: 7 },
  { name: "test", prefixes: ["test/"], layer: 8 },
];

/** The folders whose files are product code, read by the checker. */
export const PRODUCT_DIRS = ["src", "firmware", "scripts", "bin", "tools"];
/** The files the checker reads. */
export const SOURCE_FILE = /\.(ts|js|cjs|mjs)$/;

/** Every product file under `root` (the repository): repository path -> text. */
export function productFiles(root: string): Record<string, string> {
  const into: Record<string, string> = {};
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(join(root, dir));
    } catch {
      return;
    }
    for (const name of names) {
      const path = dir + "/" + name;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (SOURCE_FILE.test(name)) into[path] = readFileSync(join(root, path), "utf8");
    }
  };
  for (const dir of PRODUCT_DIRS) walk(dir);
  return into;
}

function unitOf(path: string): (typeof UNITS)[number] | null {
  const p = path.endsWith("/") ? path : path + "/";
  for (const u of UNITS) for (const prefix of u.prefixes) if (p.startsWith(prefix)) return u;
  return null;
}

/**
 * What an expression evaluates to, as far as the checker can tell: a repository path (from the
 * root; `open` when its tail is computed, so that only the folder it names is known), a string, a
 * place outside the repository (a package, a file a package resolves to), or null (unknown).
 */
type Value = { path: string; open: boolean } | { text: string; open: boolean } | { outside: true } | null;

/** Names that hold the repository's (the package's) root wherever they are not defined in the file. */
const ROOT_NAMES = new Set(["ROOT", "root", "REPO", "repoRoot"]);
/** Calls that answer the package's root (process.cwd(): npm runs every script from the package's root). */
const ROOT_CALLS = new Set(["packageRoot", "process.cwd"]);
/** Calls that pass a path through (a URL or a path of the same place). */
const PASS_THROUGH = new Set(["fileURLToPath", "pathToFileURL", "String", "normalize", "realpathSync"]);
/** Calls that take the module to load or run as their first argument. */
const LOADERS = new Set(["require", "tsImport", "import", "require.resolve"]);

/**
 * The modules the build makes up (`virtual:` specifiers), each with the product files whose code it
 * carries: the firmware bundle the page embeds is built from the device host's entry point
 * (scripts/lib/build.js DEFAULT_ENTRY), the simulator's Worker from its own script, and the board
 * profile the firmware carries from boards/*.json, which is no unit. A `virtual:` module not listed
 * here is a break (unresolved): nobody could say what it brings in.
 */
export const VIRTUAL_MODULES: Record<string, string[]> = {
  "virtual:firmware": ["src/host/espruino/main.ts"],
  "virtual:sim-worker": ["src/web/sim/worker/simWorker.ts"],
  "virtual:board-profile": [],
};

/**
 * What a product file uses: a repository path (`loaded` when it names a module the file imports or
 * loads, rather than a path it reads, spawns or hands on), or an expression that builds one the
 * checker cannot follow.
 */
export type Use = { path: string; loaded: boolean } | { unresolved: string };

/**
 * Every use `text` (the file at repository path `file`) makes of a repository path, each once, in
 * the order found: "src/storage/slotLog" (what a relative import names, without guessing the
 * extension), "scripts/lib" (a folder, from a path whose tail is computed). And, as `unresolved`
 * with its source text, every expression that could reach product code but that the checker cannot
 * follow: a module loaded by a name it cannot compute, a path built from the root whose computed
 * tail stops above a unit (`join(ROOT, "src", name)`: which unit?), an unknown `virtual:` module.
 */
export function usesOf(file: string, text: string): Use[] {
  const key = file + "\n" + text;
  let uses = usesSeen.get(key);
  if (uses === undefined) usesSeen.set(key, (uses = findUses(file, text)));
  return uses;
}

/** usesOf's answers so far: the tree test, its stale-list check and test/export-use.ts read every file once. */
const usesSeen = new Map<string, Use[]>();

function findUses(file: string, text: string): Use[] {
  const kind = file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const dir = posix.dirname(file);
  const found: Use[] = [];
  const seen = new Set<string>();
  /** True while a module specifier (an import, a loader's argument) is being read. */
  let loading = false;
  const add = (p: string | null): void => {
    if (p === null || p === "" || p.startsWith("..")) return;
    if (seen.has(p)) {
      if (loading) for (const u of found) if ("path" in u && u.path === p) u.loaded = true;
      return;
    }
    seen.add(p);
    found.push({ path: p, loaded: loading });
  };
  const unresolved = (n: ts.Node): void => {
    const what = n.getText(source);
    if (seen.has("?" + what)) return;
    seen.add("?" + what);
    found.push({ unresolved: what });
  };

  // The constants of the file (const X = expression), for paths built from them; a name declared
  // in several scopes is taken from the innermost one around the use.
  const consts = new Map<string, ts.VariableDeclaration[]>();
  const visitConsts = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer !== undefined) {
      const list = consts.get(n.name.text) ?? [];
      list.push(n);
      consts.set(n.name.text, list);
    }
    ts.forEachChild(n, visitConsts);
  };
  visitConsts(source);
  const scopeOf = (n: ts.Node): ts.Node => {
    let at: ts.Node = n.parent;
    while (!ts.isSourceFile(at) && !ts.isBlock(at) && !ts.isFunctionLike(at) && !ts.isForStatement(at) && !ts.isForOfStatement(at) && !ts.isForInStatement(at)) at = at.parent;
    return at;
  };
  const constFor = (id: ts.Identifier): ts.Expression | undefined => {
    let best: ts.VariableDeclaration | undefined;
    let bestDepth = -1;
    for (const d of consts.get(id.text) ?? []) {
      const scope = scopeOf(d);
      let depth = 0;
      let at: ts.Node | undefined = id;
      while (at !== undefined && at !== scope) at = at.parent;
      if (at === undefined) continue;
      for (let up: ts.Node | undefined = scope; up !== undefined; up = up.parent) depth++;
      if (depth > bestDepth) {
        best = d;
        bestDepth = depth;
      }
    }
    return best?.initializer;
  };

  const fromFile = (rel: string): string => posix.normalize(posix.join(dir, rel));
  const calleeName = (e: ts.Expression): string | null => {
    if (ts.isIdentifier(e)) return e.text;
    if (e.kind === ts.SyntaxKind.ImportKeyword) return "import";
    if (ts.isPropertyAccessExpression(e)) {
      const head = ts.isIdentifier(e.expression) ? e.expression.text : null;
      if ((head === "require" && e.name.text === "resolve") || (head === "process" && e.name.text === "cwd")) return head + "." + e.name.text;
      return e.name.text;
    }
    return null;
  };
  const rootPath = (p: string): string => {
    const n = posix.normalize(p).replace(/^\/+/, "");
    return n === "." ? "" : n.replace(/\/$/, "");
  };

  /** `a + b` for the values of two parts of a string (a template or a sum). */
  function concat(a: Value, b: Value): Value {
    if (a === null) return null;
    if ("outside" in a) return a;
    if ("path" in a) {
      if (a.open || b === null || !("text" in b)) return { path: a.path, open: true };
      return { path: rootPath(a.path + b.text), open: b.open };
    }
    if (b === null) return { text: a.text, open: true };
    if ("outside" in b || "path" in b) return null;
    return { text: a.text + b.text, open: a.open || b.open };
  }

  function evaluate(e: ts.Expression, depth = 0): Value {
    if (depth > 8) return null;
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return { text: e.text, open: false };
    if (ts.isTemplateExpression(e)) {
      let v: Value = { text: e.head.text, open: false };
      for (const span of e.templateSpans) v = concat(concat(v, evaluate(span.expression, depth + 1)), { text: span.literal.text, open: false });
      return v;
    }
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) return concat(evaluate(e.left, depth + 1), evaluate(e.right, depth + 1));
    if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e)) return evaluate(e.expression, depth + 1);
    if (ts.isIdentifier(e)) {
      if (e.text === "__dirname") return { path: dir, open: false };
      if (e.text === "__filename") return { path: file, open: false };
      const init = constFor(e);
      if (init !== undefined) return evaluate(init, depth + 1);
      return ROOT_NAMES.has(e.text) ? { path: "", open: false } : null;
    }
    if (ts.isMetaProperty(e)) return null;
    if (ts.isPropertyAccessExpression(e)) {
      if (ts.isMetaProperty(e.expression)) {
        if (e.name.text === "url" || e.name.text === "filename") return { path: file, open: false };
        if (e.name.text === "dirname") return { path: dir, open: false };
        return null;
      }
      if (e.name.text === "href" || e.name.text === "pathname") return evaluate(e.expression, depth + 1);
      return member(e.expression, e.name.text, depth);
    }
    if (ts.isElementAccessExpression(e) && ts.isStringLiteral(e.argumentExpression)) return member(e.expression, e.argumentExpression.text, depth);
    if (ts.isNewExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === "URL" && e.arguments !== undefined) {
      const [first, base] = e.arguments;
      if (first === undefined) return null;
      if (base === undefined) return evaluate(first, depth + 1);
      const b = evaluate(base, depth + 1);
      const f = evaluate(first, depth + 1);
      if (b === null || !("path" in b) || f === null || !("text" in f)) return b !== null && "outside" in b ? b : null;
      const joined = posix.normalize(posix.join(posix.dirname(b.path), f.text));
      return { path: f.open ? posix.dirname(joined) : joined, open: f.open };
    }
    if (ts.isCallExpression(e)) {
      const name = calleeName(e.expression);
      if (name === null) return null;
      const first = e.arguments[0] as ts.Expression | undefined;
      if (ROOT_CALLS.has(name)) return { path: "", open: false };
      if (name === "require.resolve" && first !== undefined) {
        const v = evaluate(first, depth + 1);
        if (v !== null && "text" in v && !v.open && !v.text.startsWith(".")) return { outside: true };
        return v !== null && "text" in v ? { path: fromFile(v.text), open: v.open } : v;
      }
      if (PASS_THROUGH.has(name) && first !== undefined) return evaluate(first, depth + 1);
      if (name === "dirname" && e.arguments.length === 1 && first !== undefined) {
        const v = evaluate(first, depth + 1);
        if (v !== null && "outside" in v) return v;
        return v !== null && "path" in v ? { path: v.path === "" ? ".." : posix.dirname(v.path) === "." ? "" : posix.dirname(v.path), open: false } : null;
      }
      if ((name === "join" || name === "resolve") && first !== undefined) {
        const head = evaluate(first, depth + 1);
        if (head === null || "text" in head) return null;
        if ("outside" in head) return head;
        let path = head.path;
        if (head.open) return head;
        for (const a of e.arguments.slice(1)) {
          const v = evaluate(a, depth + 1);
          if (v === null || !("text" in v)) return { path, open: true };
          if (v.open) return { path: rootPath(posix.join(path, posix.dirname(v.text + "x"))), open: true };
          path = posix.normalize(posix.join(path, v.text));
        }
        return { path: path === "." ? "" : path, open: false };
      }
    }
    return null;
  }

  /** A property of a constant object literal of the file (`ENTRIES["pet-save"]`). */
  function member(object: ts.Expression, key: string, depth: number): Value {
    const init = ts.isIdentifier(object) ? constFor(object) : undefined;
    if (init === undefined || !ts.isObjectLiteralExpression(init)) return null;
    for (const p of init.properties) {
      if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === key) return evaluate(p.initializer, depth + 1);
    }
    return null;
  }

  /** A path the file builds: an open one that stops above a unit cannot be told apart. */
  const addPath = (v: { path: string; open: boolean }, n: ts.Node): void => {
    if (v.path.startsWith("..")) return;
    if (v.open && unitOf(v.path) === null && isAboveUnits(v.path)) return unresolved(n);
    add(v.path);
  };

  /** A module specifier or a path: relative ones from the file, bare ones (packages) not at all. */
  const addSpecifier = (v: Value, n: ts.Node): void => {
    if (v === null) return unresolved(n);
    if ("outside" in v) return;
    if ("path" in v) return addPath(v, n);
    if (v.text.startsWith("virtual:")) {
      const carried = VIRTUAL_MODULES[v.text];
      if (carried === undefined || v.open) return unresolved(n);
      for (const p of carried) add(p);
      return;
    }
    if (v.text.startsWith("./") || v.text.startsWith("../")) {
      const p = fromFile(v.text);
      return addPath({ path: v.open ? posix.dirname(p + "x") : p, open: v.open }, n);
    }
    if (v.open) return unresolved(n);
  };

  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier !== undefined && ts.isStringLiteral(n.moduleSpecifier)) {
      loading = true;
      addSpecifier({ text: n.moduleSpecifier.text, open: false }, n.moduleSpecifier);
      loading = false;
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
      loading = true;
      addSpecifier({ text: n.argument.literal.text, open: false }, n.argument);
      loading = false;
    } else if (ts.isModuleDeclaration(n) && ts.isStringLiteral(n.name)) {
      // `declare module "virtual:x"`: the declaration of a made-up module, not a use of it.
      if (n.body !== undefined) ts.forEachChild(n.body, visit);
      return;
    } else if (ts.isCallExpression(n)) {
      const name = calleeName(n.expression);
      if (name !== null && LOADERS.has(name) && n.arguments.length >= 1) {
        const arg = n.arguments[0] as ts.Expression;
        loading = true;
        addSpecifier(evaluate(arg), arg);
        loading = false;
        n.arguments.slice(1).forEach((a) => visit(a));
        return;
      }
      const v = evaluate(n);
      if (v !== null && "path" in v) addPath(v, n);
      if (v !== null && !("text" in v)) return;
    } else if (ts.isNewExpression(n)) {
      const v = evaluate(n);
      if (v !== null && "path" in v) {
        addPath(v, n);
        return;
      }
    } else if ((ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken && !isPlus(n.parent)) || ts.isTemplateExpression(n)) {
      // A sum is judged whole, once, at its top (its parts are not paths of their own).
      const v = evaluate(n);
      if (v !== null && "path" in v) {
        addPath(v, n);
        return;
      }
    } else if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && /^(src|firmware|scripts|bin|tools|test)\/[\w./-]+$/.test(n.text)) {
      // A repository path written as it is, as an entry point or a file to run: from the root.
      add(posix.normalize(n.text));
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

/** True for `a + b` (in parentheses or not). */
function isPlus(n: ts.Node): boolean {
  while (ts.isParenthesizedExpression(n)) n = n.parent;
  return ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken;
}

/** True when `path` (a folder) lies above a unit: the root, "src", "src/host". */
function isAboveUnits(path: string): boolean {
  if (path === "") return true;
  return UNITS.some((u) => u.prefixes.some((prefix) => prefix.startsWith(path + "/")));
}

/**
 * The repository paths `text` (the file at repository path `file`) uses, each once, in the order
 * found (usesOf without the expressions it cannot follow).
 */
export function usedPaths(file: string, text: string): string[] {
  return usesOf(file, text).flatMap((u) => ("path" in u ? [u.path] : []));
}

/** The repository paths `text` imports or loads as modules (usesOf's `loaded` ones). */
export function loadedPaths(file: string, text: string): string[] {
  return usesOf(file, text).flatMap((u) => ("path" in u && u.loaded ? [u.path] : []));
}

/**
 * Every break of the rule among `files` (repository path -> text), one line each:
 * "src/core/a.ts -> src/storage/slotLog (up)", "(sideways)", "(into test/)", and
 * "scripts/x.js -> [name] (unresolved)" for an expression the checker cannot follow, unless
 * `allowed` lists it ("scripts/x.js: import(name)") with the reason it reaches no product code.
 */
export function layerBreaks(files: Record<string, string>, allowed: Record<string, string> = {}): string[] {
  const breaks: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    const from = unitOf(path);
    if (from === null) continue;
    for (const use of usesOf(path, text)) {
      if ("unresolved" in use) {
        if (!(path + ": " + use.unresolved in allowed)) breaks.push(path + " -> [" + use.unresolved + "] (unresolved)");
        continue;
      }
      const target = use.path;
      const to = unitOf(target);
      if (to === null || to === from) continue;
      if (to.name === "test") breaks.push(path + " -> " + target + " (into test/)");
      else if (to.layer > from.layer) breaks.push(path + " -> " + target + " (up)");
      else if (to.layer === from.layer) breaks.push(path + " -> " + target + " (sideways)");
    }
  }
  return breaks;
}

/** The unresolved uses `files` make, as "path: expression" (to keep a list of allowed ones from going stale). */
export function unresolvedUses(files: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [path, text] of Object.entries(files)) for (const use of usesOf(path, text)) if ("unresolved" in use) out.push(path + ": " + use.unresolved);
  return out;
}

/**
 * Which other units each unit uses, as the checker reads the tree (test/ aside): unit name -> the
 * names of the units its files use, sorted. Units that use none are left out.
 */
export function unitUses(files: Record<string, string>): Record<string, string[]> {
  const uses: Record<string, Set<string>> = {};
  for (const [path, text] of Object.entries(files)) {
    const from = unitOf(path);
    if (from === null) continue;
    for (const use of usesOf(path, text)) {
      if (!("path" in use)) continue;
      const to = unitOf(use.path);
      if (to === null || to === from || to.name === "test") continue;
      (uses[from.name] ??= new Set()).add(to.name);
    }
  }
  const out: Record<string, string[]> = {};
  for (const name of Object.keys(uses).sort()) out[name] = [...(uses[name] as Set<string>)].sort();
  return out;
}
