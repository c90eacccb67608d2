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
 *   5  src/host/emulator         Espruino's APIs emulated, for the desktop and the page
 *   6  src/host/espruino, src/host/node, src/web     the hosts: the device, the desktop, the browser
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
 * build tooling (the firmware build, for the upload and the soak) as a function.
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
  { name: "src/host/espruino", prefixes: ["src/host/espruino/"], layer: 6 },
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

/** What a path expression evaluates to: a repository path (from the root), or a string. */
type Value = { path: string; open: boolean } | { text: string } | null;

/** Names that hold the repository's (the package's) root wherever they are not defined in the file. */
const ROOT_NAMES = new Set(["ROOT", "root", "REPO", "repoRoot"]);
/** Calls that answer the package's root. */
const ROOT_CALLS = new Set(["packageRoot"]);
/** Calls that pass a path through (a URL or a path of the same place). */
const PASS_THROUGH = new Set(["fileURLToPath", "pathToFileURL", "String", "normalize", "realpathSync"]);
/** Calls that take the module to load or run as their first argument. */
const LOADERS = new Set(["require", "tsImport", "import"]);

/**
 * The repository paths `text` (the file at repository path `file`) uses, each once, in the order
 * found: "src/storage/slotLog" (what a relative import names, without guessing the extension),
 * "scripts/lib" (a folder, from a path whose tail is computed).
 */
export function usedPaths(file: string, text: string): string[] {
  const kind = file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const dir = posix.dirname(file);
  const found: string[] = [];
  const add = (p: string | null): void => {
    if (p !== null && p !== "" && !p.startsWith("..") && found.indexOf(p) < 0) found.push(p);
  };

  // The constants of the file (const X = expression), for paths built from them.
  const consts = new Map<string, ts.Expression>();
  const visitConsts = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer !== undefined) {
      consts.set(n.name.text, n.initializer);
    }
    ts.forEachChild(n, visitConsts);
  };
  visitConsts(source);

  const fromFile = (rel: string): string => posix.normalize(posix.join(dir, rel));
  const calleeName = (e: ts.Expression): string | null =>
    ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) ? e.name.text : e.kind === ts.SyntaxKind.ImportKeyword ? "import" : null;

  function evaluate(e: ts.Expression, depth = 0): Value {
    if (depth > 8) return null;
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return { text: e.text };
    if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e)) return evaluate(e.expression, depth + 1);
    if (ts.isIdentifier(e)) {
      if (e.text === "__dirname") return { path: dir, open: false };
      if (e.text === "__filename") return { path: file, open: false };
      const init = consts.get(e.text);
      if (init !== undefined) return evaluate(init, depth + 1);
      return ROOT_NAMES.has(e.text) ? { path: "", open: false } : null;
    }
    if (ts.isMetaProperty(e)) return null;
    if (ts.isPropertyAccessExpression(e)) {
      if (e.name.text === "url" && ts.isMetaProperty(e.expression)) return { path: file, open: false };
      if (e.name.text === "href" || e.name.text === "pathname") return evaluate(e.expression, depth + 1);
      return null;
    }
    if (ts.isNewExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === "URL" && e.arguments !== undefined) {
      const [first, base] = e.arguments;
      if (first === undefined) return null;
      if (base === undefined) return evaluate(first, depth + 1);
      const b = evaluate(base, depth + 1);
      const f = evaluate(first, depth + 1);
      if (b === null || !("path" in b) || f === null || !("text" in f)) return null;
      return { path: posix.normalize(posix.join(posix.dirname(b.path), f.text)), open: false };
    }
    if (ts.isCallExpression(e)) {
      const name = calleeName(e.expression);
      if (name === null) return null;
      if (ROOT_CALLS.has(name)) return { path: "", open: false };
      if (PASS_THROUGH.has(name) && e.arguments.length >= 1) return evaluate(e.arguments[0] as ts.Expression, depth + 1);
      if (name === "dirname" && e.arguments.length === 1) {
        const v = evaluate(e.arguments[0] as ts.Expression, depth + 1);
        return v !== null && "path" in v ? { path: v.path === "" ? ".." : posix.dirname(v.path) === "." ? "" : posix.dirname(v.path), open: false } : null;
      }
      if ((name === "join" || name === "resolve") && e.arguments.length >= 1) {
        const head = evaluate(e.arguments[0] as ts.Expression, depth + 1);
        if (head === null || !("path" in head)) return null;
        let path = head.path;
        for (const a of e.arguments.slice(1)) {
          const v = evaluate(a, depth + 1);
          if (v === null || !("text" in v)) return { path, open: true };
          path = posix.normalize(posix.join(path, v.text));
        }
        return { path: path === "." ? "" : path, open: false };
      }
    }
    return null;
  }

  /** A module specifier or a path: relative ones from the file, bare ones (packages) not at all. */
  const addSpecifier = (v: Value): void => {
    if (v === null) return;
    if ("path" in v) return add(v.path);
    if (v.text.startsWith("./") || v.text.startsWith("../")) add(fromFile(v.text));
  };

  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier !== undefined && ts.isStringLiteral(n.moduleSpecifier)) {
      addSpecifier({ text: n.moduleSpecifier.text });
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
      addSpecifier({ text: n.argument.literal.text });
    } else if (ts.isCallExpression(n)) {
      const name = calleeName(n.expression);
      if (name !== null && LOADERS.has(name) && n.arguments.length >= 1) addSpecifier(evaluate(n.arguments[0] as ts.Expression));
      else {
        const v = evaluate(n);
        if (v !== null && "path" in v) add(v.path);
      }
    } else if (ts.isNewExpression(n)) {
      const v = evaluate(n);
      if (v !== null && "path" in v) add(v.path);
    } else if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && /^(src|firmware|scripts|bin|tools|test)\/[\w./-]+$/.test(n.text)) {
      // A repository path written as it is, as an entry point or a file to run: from the root.
      add(posix.normalize(n.text));
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

/**
 * Every break of the rule among `files` (repository path -> text), one line each:
 * "src/core/a.ts -> src/storage/slotLog (up)", "(sideways)", "(into test/)".
 */
export function layerBreaks(files: Record<string, string>): string[] {
  const breaks: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    const from = unitOf(path);
    if (from === null) continue;
    for (const target of usedPaths(path, text)) {
      const to = unitOf(target);
      if (to === null || to === from) continue;
      if (to.name === "test") breaks.push(path + " -> " + target + " (into test/)");
      else if (to.layer > from.layer) breaks.push(path + " -> " + target + " (up)");
      else if (to.layer === from.layer) breaks.push(path + " -> " + target + " (sideways)");
    }
  }
  return breaks;
}
