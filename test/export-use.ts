/**
 * Which exports of the product no product file uses: the checker behind
 * test/exports-used-by-product.test.ts, which runs it over the tree and over made-up files.
 *
 * An export is there for another file to use. One that only the tests import (or nothing at all)
 * is dead code that still has to be read, kept in step and, on the device, carried: it goes, or the
 * product uses it. A few are meant for the tests (the original of a fast form, which a test holds
 * the fast form equal to, docs/architecture.md); those are listed in the test with the reason.
 *
 * Read from the text alone (TypeScript's parser, no type checker), over the same files as the layer
 * rule (test/layer-rule.ts): every .ts, .js, .cjs and .mjs file under src/, firmware/, scripts/,
 * bin/ and tools/. An export counts as used when another product file
 *   - imports it by name (`import { a }`, `import type { A }`, a default import, `import("./x").A`
 *     in a type, `const { a } = await import("./x")`, `require("./x").a`), or through a namespace
 *     import whose members it names (`ns.a`); a namespace it hands on whole uses every export;
 *   - re-exports it (`export { a } from`, `export * from`): then it counts as used when the
 *     re-export is;
 *   - loads its file by a path built at run time (an entry point for esbuild, tsImport, spawn):
 *     what such a loader reads is not known from the text, so every export of that file counts.
 * A declaration file (.d.ts) exports nothing of its own: it types a .js beside it, whose exports count.
 */
import ts from "typescript";
import { posix } from "node:path";
import { loadedPaths, usedPaths } from "./layer-rule";

/** An export of a product file: "src/core/u64.ts: u64Add". */
export type ExportName = string;

interface FileFacts {
  /** Names this file exports from its own declarations. */
  own: Set<string>;
  /** Re-exports: exported name -> [target file, name there]. */
  forwards: Map<string, [string, string]>;
  /** `export * from`: the target files. */
  stars: string[];
  /** What this file uses of others: [target file, name] or [target file, "*"] for every export. */
  uses: [string, string][];
  /** Names the file itself refers to somewhere besides where it declares or exports them. */
  refers: Set<string>;
}

const EXTENSIONS = ["", ".ts", ".js", ".cjs", ".mjs", "/index.ts", "/index.js"];

/** The product file a specifier or a run-time path names, or null (a package, a folder, a file that is not product code). */
function resolveFile(files: Record<string, string>, from: string, spec: string, relative: boolean): string | null {
  const base = relative ? posix.normalize(posix.join(posix.dirname(from), spec)) : spec;
  const stem = base.replace(/\.(js|ts)$/, "");
  for (const ext of EXTENSIONS) {
    for (const candidate of [base + ext, stem + ext]) if (candidate in files && !candidate.endsWith(".d.ts")) return candidate;
  }
  return null;
}

/** Whether `id` is the name a declaration or an export specifier gives, rather than a use of one. */
function isDeclarationName(id: ts.Identifier): boolean {
  const p = id.parent;
  if (ts.isExportSpecifier(p) || ts.isImportSpecifier(p) || ts.isImportClause(p) || ts.isNamespaceImport(p)) return true;
  if (ts.isPropertyAccessExpression(p) && p.name === id) return true;
  if (ts.isPropertyAssignment(p) && p.name === id) return true;
  return (
    (ts.isFunctionDeclaration(p) || ts.isClassDeclaration(p) || ts.isInterfaceDeclaration(p) || ts.isTypeAliasDeclaration(p) || ts.isEnumDeclaration(p) || ts.isVariableDeclaration(p) || ts.isModuleDeclaration(p)) &&
    p.name === id
  );
}

function isExported(n: ts.Node): boolean {
  return ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function isDefault(n: ts.Node): boolean {
  return ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
}

/** The names bound by a destructuring pattern's top level (`{ a, b: c }` -> a, b), or null when it is not an object pattern. */
function patternNames(name: ts.BindingName): string[] | null {
  if (!ts.isObjectBindingPattern(name)) return null;
  const out: string[] = [];
  for (const el of name.elements) {
    const key = el.propertyName ?? el.name;
    if (ts.isIdentifier(key) || ts.isStringLiteral(key)) out.push(key.text);
    else return null;
  }
  return out;
}

/** The names read from a module value: what its parent does with `node` (a destructuring, a member), or null (all of them). */
function namesTakenFrom(node: ts.Expression): string[] | null {
  let at: ts.Node = node;
  while (ts.isAwaitExpression(at.parent) || ts.isParenthesizedExpression(at.parent)) at = at.parent;
  const p = at.parent;
  if (ts.isVariableDeclaration(p) && p.initializer === at) return patternNames(p.name);
  if (ts.isPropertyAccessExpression(p) && p.expression === at) return [p.name.text];
  return null;
}

function facts(files: Record<string, string>, path: string): FileFacts {
  const text = files[path] as string;
  const kind = path.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const f: FileFacts = { own: new Set(), forwards: new Map(), stars: [], uses: [], refers: new Set() };
  const declarationFile = path.endsWith(".d.ts");
  const resolve = (spec: string): string | null => (spec.startsWith("./") || spec.startsWith("../") ? resolveFile(files, path, spec, true) : null);
  /** Namespace imports: local name -> target file. */
  const namespaces = new Map<string, string>();
  const staticSpecifiers = new Set<string>();

  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n) && !isDeclarationName(n)) f.refers.add(n.text);
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const target = resolve(n.moduleSpecifier.text);
      staticSpecifiers.add(n.moduleSpecifier.text);
      const clause = n.importClause;
      if (target !== null && clause !== undefined) {
        if (clause.name !== undefined) f.uses.push([target, "default"]);
        const b = clause.namedBindings;
        if (b !== undefined && ts.isNamedImports(b)) for (const el of b.elements) f.uses.push([target, (el.propertyName ?? el.name).text]);
        if (b !== undefined && ts.isNamespaceImport(b)) namespaces.set(b.name.text, target);
      }
    } else if (ts.isExportDeclaration(n)) {
      const spec = n.moduleSpecifier !== undefined && ts.isStringLiteral(n.moduleSpecifier) ? n.moduleSpecifier.text : null;
      if (spec !== null) staticSpecifiers.add(spec);
      const target = spec === null ? null : resolve(spec);
      if (n.exportClause === undefined) {
        if (target !== null) f.stars.push(target);
      } else if (ts.isNamedExports(n.exportClause)) {
        for (const el of n.exportClause.elements) {
          const local = (el.propertyName ?? el.name).text;
          if (spec === null) f.own.add(el.name.text);
          else if (target !== null) f.forwards.set(el.name.text, [target, local]);
        }
      } else if (target !== null) {
        // export * as ns from: the whole module under one name.
        f.forwards.set(n.exportClause.name.text, [target, "*"]);
      }
    } else if (ts.isExportAssignment(n) && !declarationFile) {
      f.own.add("default");
    } else if (isExported(n) && !declarationFile) {
      if (isDefault(n)) f.own.add("default");
      else if (ts.isVariableStatement(n)) {
        for (const d of n.declarationList.declarations) if (ts.isIdentifier(d.name)) f.own.add(d.name.text);
      } else if (
        (ts.isFunctionDeclaration(n) || ts.isClassDeclaration(n) || ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n) || ts.isEnumDeclaration(n) || ts.isModuleDeclaration(n)) &&
        n.name !== undefined &&
        (ts.isIdentifier(n.name) || ts.isStringLiteral(n.name))
      ) {
        f.own.add(n.name.text);
      }
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
      const target = resolve(n.argument.literal.text);
      staticSpecifiers.add(n.argument.literal.text);
      if (target !== null) {
        const q = n.qualifier;
        const first = q === undefined ? null : ts.isIdentifier(q) ? q.text : (() => {
          let e: ts.EntityName = q;
          while (ts.isQualifiedName(e)) e = e.left;
          return e.text;
        })();
        f.uses.push([target, first ?? "*"]);
      }
    } else if (ts.isCallExpression(n) && n.arguments.length >= 1 && ts.isStringLiteral(n.arguments[0] as ts.Expression)) {
      const isImport = n.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(n.expression) && n.expression.text === "require";
      if (isImport || isRequire) {
        const spec = (n.arguments[0] as ts.StringLiteral).text;
        staticSpecifiers.add(spec);
        const target = resolve(spec);
        if (target !== null) for (const name of namesTakenFrom(n) ?? ["*"]) f.uses.push([target, name]);
      }
    } else if (ts.isIdentifier(n) && namespaces.has(n.text) && !ts.isNamespaceImport(n.parent)) {
      const target = namespaces.get(n.text) as string;
      const p = n.parent;
      if ((ts.isPropertyAccessExpression(p) && p.expression === n) || (ts.isQualifiedName(p) && p.left === n)) {
        f.uses.push([target, ts.isPropertyAccessExpression(p) ? p.name.text : (p as ts.QualifiedName).right.text]);
      } else {
        f.uses.push([target, "*"]);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(source);

  // Files reached by a path built at run time: every export counts; a folder loaded by a computed
  // name (a path whose tail is computed) reaches every file in it. A folder only read (hashed, say)
  // uses no export.
  const loaded = new Set(loadedPaths(path, text));
  for (const p of usedPaths(path, text)) {
    if (loaded.has(p)) for (const other of Object.keys(files)) if (other.startsWith(p + "/") && other !== path && !other.endsWith(".d.ts")) f.uses.push([other, "*"]);
    const target = resolveFile(files, path, p, false);
    if (target === null || target === path) continue;
    const named = [...staticSpecifiers].some((s) => (s.startsWith(".") ? resolve(s) === target : false));
    if (!named) f.uses.push([target, "*"]);
  }
  return f;
}

/** What export-use finds: exports no file uses ("path: name") and files no file uses, each sorted. */
export interface ExportUse {
  unusedExports: ExportName[];
  unusedFiles: string[];
}

/**
 * The exports of `files` (repository path -> text) that no file of them uses, and the files that no
 * other file uses at all, `entries` (the files run from outside: package.json's scripts and bin)
 * aside. Its own file counts for an export: one that the file itself uses is live code, exported
 * so that a test can name it (a constant a test pins, a type in an exported function's signature).
 * A declaration file (.d.ts) is never unused: the compiler reads it.
 */
export function exportUse(files: Record<string, string>, entries: string[] = []): ExportUse {
  const all = new Map<string, FileFacts>();
  for (const path of Object.keys(files)) all.set(path, facts(files, path));

  const used = new Set<string>();
  const reached = new Set<string>(entries);
  const seen = new Set<string>();
  /** Marks `name` of `file` used, following re-exports; "*" marks every export. */
  const mark = (file: string, name: string): void => {
    const key = file + ": " + name;
    if (seen.has(key)) return;
    seen.add(key);
    const f = all.get(file);
    if (f === undefined) return;
    reached.add(file);
    if (name === "*") {
      for (const own of f.own) used.add(file + ": " + own);
      for (const fwd of f.forwards.keys()) mark(file, fwd);
      for (const star of f.stars) mark(star, "*");
      return;
    }
    if (f.own.has(name)) used.add(key);
    const fwd = f.forwards.get(name);
    if (fwd !== undefined) {
      used.add(key);
      mark(fwd[0], fwd[1]);
    }
    for (const star of f.stars) mark(star, name);
  };
  for (const [path, f] of all) for (const [target, name] of f.uses) if (target !== path) mark(target, name);

  const unusedExports: ExportName[] = [];
  for (const [path, f] of all) {
    for (const name of f.own) if (!used.has(path + ": " + name) && !f.refers.has(name)) unusedExports.push(path + ": " + name);
    for (const name of f.forwards.keys()) if (!used.has(path + ": " + name)) unusedExports.push(path + ": " + name);
  }
  const unusedFiles = Object.keys(files).filter((p) => !reached.has(p) && !p.endsWith(".d.ts"));
  return { unusedExports: unusedExports.sort(), unusedFiles: unusedFiles.sort() };
}
