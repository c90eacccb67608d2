/**
 * The bundle's outer scope as a block instead of a function:
 *
 *   !function(){var a,b;function f(x){...}...;start()}();
 *   =>
 *   {let $$E=...,$$M=Math,...;let a,b;let f=function(x){...};...;start()}
 *
 * Why: Espruino reads a function's text when it defines the function (to find its end) and again
 * every time it runs it. An immediately called function around the whole bundle therefore has the
 * whole bundle read twice at boot, once to define the wrapper and once to run it; a block is read
 * once, as it runs. Measured on the 2v29 Linux build: boot (definition and restore) 60 M -> 44 M
 * x86 instructions, nothing else slower (docs/speed.md). Espruino
 * scopes `let` to its block since 2v14 (the profiles require 2v26), so the bundle's names stay out
 * of the global scope as before; inside, the code is still ES5 (bundleCheck.js checks the ES5 form
 * that fromOuterBlock gives back).
 *
 * The hot globals: a global such as `Math` or `E` is found only after every name of the outer scope
 * (over a hundred) has been compared and missed, so the most used ones are the block's first names,
 * under names terser never gives (`$$` and a letter: terser's names are one or two characters in a
 * bundle this size), and every reference to them is renamed. `E` is taken as `typeof E` allows (a
 * host without it gets undefined, which the code's own guards expect).
 *
 * Only references that no enclosing scope declares are renamed (terser may call a local `E` where
 * the global is not used). Runs after terser and hoist.js, on the final text; anything but the
 * iife terser writes, a top-level statement it did not expect, or a name clash is an error, never
 * a silent change.
 */
import { parse } from "acorn";
import * as walk from "acorn-walk";

/** The globals taken into the block, most used first, and the names they get there. */
export const HOT_GLOBALS = [
  ["E", "$$E"],
  ["Uint8Array", "$$U"],
  ["Math", "$$M"],
  ["DataView", "$$D"],
  ["String", "$$S"],
];

const HEAD = "!function(){";
const TAIL = "}();";
/** The block's first statement, binding the hot globals (toOuterBlock writes it, fromOuterBlock expects it). */
const HOT_LETS = "let " + HOT_GLOBALS.map(([global, local]) => local + "=" + (global === "E" ? '"undefined"!=typeof E?E:void 0' : global)).join(",") + ";";

/** `text` from `start` to `end` (exclusive) with `edits` ([from, to, replacement], inside that range) applied. */
export function applyEdits(text, start, end, edits) {
  edits.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  let out = text.slice(start, end);
  for (const [from, to, replacement] of edits) out = out.slice(0, from - start) + replacement + out.slice(to - start);
  return out;
}

/** The names a function declares for its own scope: parameters, its vars and function declarations (not those of nested functions), and its own name when it is an expression. */
export function declaredIn(fnNode, cache) {
  let names = cache.get(fnNode);
  if (names) return names;
  names = new Set(fnNode.params.map((p) => p.name));
  if (fnNode.type === "FunctionExpression" && fnNode.id) names.add(fnNode.id.name);
  walk.recursive(fnNode.body, null, {
    Function(node) {
      if (node.type === "FunctionDeclaration") names.add(node.id.name); // declared here; its body is its own scope
    },
    VariableDeclarator(node, _st, c) {
      names.add(node.id.name);
      if (node.init) c(node.init);
    },
  });
  cache.set(fnNode, names);
  return names;
}

/** The references to the given global names that no enclosing scope declares (the globals themselves). */
function freeReferences(root, names) {
  const found = [];
  const cache = new WeakMap();
  walk.fullAncestor(root, (node, _state, ancestors) => {
    if (node.type !== "Identifier" || names.indexOf(node.name) < 0) return;
    const parent = ancestors[ancestors.length - 2];
    if (parent.type === "MemberExpression" && parent.property === node && !parent.computed) return;
    if (parent.type === "Property" && parent.key === node && !parent.computed) return;
    if ((parent.type === "VariableDeclarator" && parent.id === node) || (/Function/.test(parent.type) && parent.id === node)) return;
    if (/Function/.test(parent.type) && parent.params.indexOf(node) >= 0) return;
    if (parent.type === "CatchClause" && parent.param === node) return;
    for (let i = ancestors.length - 2; i >= 0; i--) {
      const a = ancestors[i];
      if (a.type === "CatchClause" && a.param && a.param.name === node.name) return;
      if ((a.type === "FunctionDeclaration" || a.type === "FunctionExpression") && declaredIn(a, cache).has(node.name)) return;
    }
    found.push(node);
  });
  return found;
}

/** Every name declared anywhere in the code (vars, functions, parameters, catch). */
function declaredNames(ast) {
  const names = new Set();
  walk.full(ast, (node) => {
    if (node.type === "VariableDeclarator") names.add(node.id.name);
    if (node.type === "FunctionDeclaration" || node.type === "FunctionExpression") {
      if (node.id) names.add(node.id.name);
      for (const p of node.params) names.add(p.name);
    }
    if (node.type === "CatchClause" && node.param) names.add(node.param.name);
  });
  return names;
}

/** terser's iife as the outer block. Code that is not one (a bundle with nothing to wrap) is returned as it is. */
export function toOuterBlock(code) {
  const text = code.replace(/\s+$/, "");
  if (!text.startsWith("!function(")) return code;
  if (!text.startsWith(HEAD)) throw new Error("outerBlock: the iife takes parameters");
  if (!text.endsWith(TAIL)) throw new Error("outerBlock: the bundle is not one !function(){...}(); as terser writes an iife");
  const ast = parse(text, { ecmaVersion: 5, sourceType: "script" });
  if (ast.body.length !== 1) throw new Error("outerBlock: the bundle has more than one top-level statement");
  const fn = ast.body[0].expression.argument.callee;
  const declared = declaredNames(ast);
  // The outer function's own names become the block's: one named like a hot global would shadow it.
  const outer = declaredIn(fn, new WeakMap());
  for (const [global, local] of HOT_GLOBALS) {
    if (outer.has(global)) throw new Error("outerBlock: the bundle's top scope declares " + global);
    if (declared.has(local)) throw new Error("outerBlock: the bundle already uses the name " + local);
  }
  // Renames, as [start, end, text], applied back to front.
  const edits = [];
  const renames = new Map(HOT_GLOBALS);
  for (const id of freeReferences(fn, HOT_GLOBALS.map((g) => g[0]))) edits.push([id.start, id.end, renames.get(id.name)]);
  for (const st of fn.body.body) {
    if (st.type === "VariableDeclaration") {
      edits.push([st.start, st.start + 3, "let"]); // "var"
    } else if (st.type === "FunctionDeclaration") {
      // function NAME(...){...}  =>  let NAME=function(...){...};
      edits.push([st.start, st.id.end, "let " + st.id.name + "=function"]);
      edits.push([st.end, st.end, ";"]);
    } else if (/Function/.test(st.type)) {
      throw new Error("outerBlock: unexpected " + st.type + " at the top of the bundle");
    }
  }
  return "{" + HOT_LETS + applyEdits(text, fn.body.start + 1, fn.body.end - 1, edits) + "}\n";
}

/**
 * The ES5 form of an outer block (the inverse of toOuterBlock), for the bundle checks: the block
 * back into an iife, its lets into vars and functions, the hot globals' names back. Code that is
 * not an outer block is returned as it is; a block this module cannot have written is an error.
 */
export function fromOuterBlock(code) {
  const text = code.replace(/\s+$/, "");
  if (!text.startsWith("{let ")) return code;
  const ast = parse(text, { ecmaVersion: 2015, sourceType: "script" });
  if (ast.body.length !== 1 || ast.body[0].type !== "BlockStatement") throw new Error("outerBlock: not one block");
  const block = ast.body[0];
  const first = block.body[0];
  if (!first || text.slice(first.start, first.end) !== HOT_LETS) throw new Error("outerBlock: the block does not start with the hot globals");
  const edits = [[first.start, first.end, ""]];
  for (const st of block.body.slice(1)) {
    if (st.type === "VariableDeclaration" && st.kind === "let") {
      const d = st.declarations;
      if (d.length === 1 && d[0].init && d[0].init.type === "FunctionExpression" && !d[0].init.id && text.charAt(st.end - 1) === ";") {
        // let NAME=function(...){...};  =>  function NAME(...){...}
        edits.push([st.start, d[0].init.start + "function".length, "function " + d[0].id.name]);
        edits.push([st.end - 1, st.end, ""]);
      } else {
        edits.push([st.start, st.start + 3, "var"]);
      }
    } else if (st.type === "VariableDeclaration" || st.type === "ClassDeclaration") {
      throw new Error("outerBlock: a " + (st.kind || st.type) + " at the top of the block");
    }
  }
  const locals = new Map(HOT_GLOBALS.map(([global, local]) => [local, global]));
  for (const st of block.body.slice(1)) {
    walk.full(st, (node) => {
      if (node.type === "Identifier" && locals.has(node.name)) edits.push([node.start, node.end, locals.get(node.name)]);
    });
  }
  return HEAD + applyEdits(text, block.start + 1, block.end - 1, edits) + TAIL + "\n";
}

export function outerBlockPlugin() {
  return {
    name: "espruino-outer-block",
    renderChunk(code) {
      return { code: toOuterBlock(code), map: null };
    },
  };
}
