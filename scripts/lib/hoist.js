/**
 * Moves every `var` to the top of its function, as one `var a,b,c;` before any other statement.
 *
 * Why: Espruino does not hoist. A var exists only once execution reaches its `var` statement, so
 * code that reads or assigns the name earlier (or a closure called earlier) gets a ReferenceError or
 * silently creates a global. terser's hoist_vars does not guarantee the order: it skips functions
 * with a single var statement, joins assignments back into declarations after calls
 * (`var a = f(), b = {}`), and its function inlining leaves `return ...; var n, r` behind. This pass
 * runs after terser and makes the order true by construction:
 *
 *   function f(x) { if (x) return g(); var t = h(x); for (var i = 0; ...) ... }
 *   =>
 *   function f(x) { var t,i; if (x) return g(); t = h(x); for (i = 0; ...) ... }
 *
 * Semantics are unchanged for a standards-conforming engine (this is exactly what hoisting means).
 * Function declarations are left where terser's hoist_funs put them (first in their scope).
 */
import { parse } from "acorn";
import * as walk from "acorn-walk";

/** Returns `code` with all var declarations hoisted; `code` must be ES5. */
export function hoistVars(code) {
  const ast = parse(code, { ecmaVersion: 5, sourceType: "script" });
  const edits = []; // { start, end, text }
  const scopes = [{ node: ast, body: ast.body, insertAt: 0, params: [] }];

  function functionScope(fn) {
    scopes.push({ node: fn, body: fn.body.body, insertAt: fn.body.start + 1, params: fn.params.map((p) => p.name) });
  }
  for (let s = 0; s < scopes.length; s++) {
    const scope = scopes[s];
    const names = [];
    const functionNames = [];
    const visitors = {
      FunctionDeclaration(node) {
        functionNames.push(node.id.name);
        functionScope(node);
      },
      FunctionExpression(node) {
        functionScope(node);
      },
      VariableDeclaration(node, st, c) {
        for (const d of node.declarations) {
          names.push(d.id.name);
          if (d.init) c(d.init, st, "Expression");
        }
      },
      ForStatement(node, st, c) {
        if (node.init) c(node.init, st, node.init.type === "VariableDeclaration" ? undefined : "Expression");
        if (node.test) c(node.test, st, "Expression");
        if (node.update) c(node.update, st, "Expression");
        c(node.body, st, "Statement");
      },
      ForInStatement(node, st, c) {
        if (node.left.type === "VariableDeclaration") {
          names.push(node.left.declarations[0].id.name);
        } else c(node.left, st, "Expression");
        c(node.right, st, "Expression");
        c(node.body, st, "Statement");
      },
    };
    for (const statement of scope.body) walk.recursive(statement, null, visitors);
    if (names.length === 0) continue;

    // Rewrite each var statement (in this scope only) into plain assignments with small deletions
    // (the `var` keyword, declarators without a value) so that edits inside nested functions, which
    // sit in the initialisers, never overlap these.
    const rewrite = {
      VariableDeclaration(node, _st, _c, parentKind) {
        const ds = node.declarations;
        if (parentKind === "for-in") {
          edits.push({ start: node.start, end: ds[0].start, text: "" });
          return;
        }
        if (ds.every((d) => !d.init)) {
          edits.push({ start: node.start, end: node.end, text: parentKind === "for-init" ? "" : ";" });
          return;
        }
        edits.push({ start: node.start, end: ds[0].start, text: "" });
        let lastKept = -1;
        for (let i = 0; i < ds.length; i++) if (ds[i].init) lastKept = i;
        for (let i = 0; i < lastKept; i++) {
          if (!ds[i].init) edits.push({ start: ds[i].start, end: ds[i + 1].start, text: "" });
        }
        // trailing declarators without a value: cut from the end of the last kept one (drops the commas)
        if (lastKept < ds.length - 1) edits.push({ start: ds[lastKept].end, end: ds[ds.length - 1].end, text: "" });
      },
    };
    const rewriteVisitors = {
      FunctionDeclaration() {},
      FunctionExpression() {},
      VariableDeclaration(node) {
        rewrite.VariableDeclaration(node, null, null, "statement");
      },
      ForStatement(node, st, c) {
        if (node.init) {
          if (node.init.type === "VariableDeclaration") rewrite.VariableDeclaration(node.init, null, null, "for-init");
          else c(node.init, st, "Expression");
        }
        if (node.test) c(node.test, st, "Expression");
        if (node.update) c(node.update, st, "Expression");
        c(node.body, st, "Statement");
      },
      ForInStatement(node, st, c) {
        if (node.left.type === "VariableDeclaration") rewrite.VariableDeclaration(node.left, null, null, "for-in");
        else c(node.left, st, "Expression");
        c(node.right, st, "Expression");
        c(node.body, st, "Statement");
      },
    };
    for (const statement of scope.body) walk.recursive(statement, null, rewriteVisitors);

    const hoisted = [];
    for (const n of names) {
      if (hoisted.indexOf(n) < 0 && scope.params.indexOf(n) < 0 && functionNames.indexOf(n) < 0) hoisted.push(n);
    }
    if (hoisted.length > 0) edits.push({ start: scope.insertAt, end: scope.insertAt, text: "var " + hoisted.join(",") + ";" });
  }
  // Apply from the end so earlier offsets stay valid; an insertion and a rewrite never share a start
  // (insertions sit right after a function's "{", rewrites start at "var").
  edits.sort((a, b) => b.start - a.start || b.end - a.end);
  let out = code;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/**
 * Puts parentheses around a comma expression used as a computed member (`a[x = 1, x]` becomes
 * `a[(x = 1, x)]`). terser writes that form when it inlines a function with parameters into an
 * index, and Espruino's parser reads only one assignment expression between the brackets: it stops
 * with "Got ',' expected ']'" (measured on 2v29). Parenthesised, the same expression parses.
 */
export function parenthesizeIndexSequences(code) {
  const ast = parse(code, { ecmaVersion: 5, sourceType: "script" });
  const inserts = [];
  walk.simple(ast, {
    MemberExpression(node) {
      if (node.computed && node.property.type === "SequenceExpression" && !/\(\s*$/.test(code.slice(node.object.end, node.property.start))) {
        inserts.push({ at: node.property.start, text: "(" }, { at: node.property.end, text: ")" });
      }
    },
  });
  // From the end, so earlier offsets stay valid; at one offset a ")" closes before a "(" opens.
  inserts.sort((a, b) => b.at - a.at || (a.text === "(" ? -1 : 1));
  let out = code;
  for (const i of inserts) out = out.slice(0, i.at) + i.text + out.slice(i.at);
  return out;
}

/** rollup output plugin: runs hoistVars, then parenthesizeIndexSequences, on the chunk (put it after terser). */
export function espruinoHoistPlugin() {
  return {
    name: "espruino-hoist-vars",
    renderChunk(code) {
      return { code: parenthesizeIndexSequences(hoistVars(code)), map: null };
    },
  };
}
