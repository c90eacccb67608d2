/**
 * The entry's call written into the outer block:
 *
 *   {let ...;...;!function(t,e){var i;i=new V(t,e);...}({board},env)}
 *   =>
 *   {let $$E=...;let B,J,...,Q0,Q1,Q2;...;Q0={board},Q1=env;Q2=new V(Q0,Q1);...;Q0=Q1=void 0}
 *
 * Why: terser writes the firmware's entry (startPet, called once) into the bundle's last statement
 * as a function expression called at once. Espruino reads a function's text when it defines it and
 * again when it runs it, so the boot read the entry's text twice, and everything nested in it (the
 * button's set-up) once more. As statements of the block it is read once, as it runs; its names are
 * the block's, so the closures made in it hold one scope fewer. Measured on the emulated chip
 * (Espruino 2v06.63, the builds booted one after the other): the boot 0.07-0.09 M shorter and 7
 * JsVars fewer after boot (docs/speed.md).
 *
 * The entry's own names (its parameters and vars) are renamed to names no identifier of the bundle
 * has (Q0, Q1, ...), since the block already has names of its own that terser reused inside the
 * function. They are declared with the block's other names (2v14 and later scope them to the block,
 * and 2v06's function form reads them as the module's vars). The block's names live as long as the
 * pet, where the entry's scope went when no function made in it was kept: so the names that no such
 * function reads are set to undefined at the end (on 2v29 the board's object alone is 28 JsVars).
 * Left as it is: a bundle whose last statement is not such a call, or whose entry uses `this`,
 * `arguments` or a `return` of its own (the block has none of those).
 * Runs after outerBlock.js and before rareFunctions.js, on the final text.
 */
import { parse } from "acorn";
import * as walk from "acorn-walk";
import { applyEdits, declaredIn } from "./outerBlock.js";

const isFunction = (node) => /Function/.test(node.type);

/** Whether `node`, met under `ancestors`, belongs to `fn`'s own level (no function between them). */
function atLevelOf(fn, ancestors) {
  for (let i = ancestors.length - 2; i >= 0; i--) {
    if (ancestors[i] === fn) return true;
    if (isFunction(ancestors[i])) return false;
  }
  return false;
}

/** `code` (an outer block, `{let ...}`) with its last statement's entry call written into the block; other code as it is. */
export function entryInBlock(code) {
  const text = code.replace(/\s+$/, "");
  if (!text.startsWith("{let ")) return code;
  const ast = parse(text, { ecmaVersion: 2015, sourceType: "script" });
  const block = ast.body[0];
  const last = block.body[block.body.length - 1];
  if (!last || last.type !== "ExpressionStatement") return code;
  // terser may join the statements before the call to it with commas.
  const exprs = last.expression.type === "SequenceExpression" ? last.expression.expressions : [last.expression];
  const tail = exprs[exprs.length - 1];
  const call = tail.type === "UnaryExpression" && tail.operator === "!" ? tail.argument : tail;
  if (call.type !== "CallExpression" || call.callee.type !== "FunctionExpression" || call.callee.id) return code;
  const fn = call.callee;
  if (fn.params.length < call.arguments.length || call.arguments.some((a) => a.type === "SpreadElement")) return code;
  const cache = new WeakMap();
  const own = declaredIn(fn, cache);
  let refuse = false;
  walk.fullAncestor(fn.body, (node, _st, ancestors) => {
    if (!atLevelOf(fn, [fn, ...ancestors])) return;
    if (node.type === "ThisExpression" || node.type === "ReturnStatement" || (node.type === "Identifier" && node.name === "arguments")) refuse = true;
    if (node.type === "FunctionDeclaration") refuse = true; // hoisted within the function; not so in a block
    // A var inside a nested block or a loop's head would be scoped to it as a let: only the body's own statements are rewritten.
    if (node.type === "VariableDeclaration" && fn.body.body.indexOf(node) < 0) refuse = true;
    // One with a value would have to become an assignment: terser's hoist_vars leaves none.
    if (node.type === "VariableDeclaration" && node.declarations.some((d) => d.init !== null)) refuse = true;
  });
  if (refuse) return code;
  // Fresh names: none that any identifier of the bundle has.
  const used = new Set();
  walk.full(ast, (node) => {
    if (node.type === "Identifier") used.add(node.name);
  });
  const fresh = new Map();
  let n = 0;
  for (const name of own) {
    let candidate;
    do candidate = "Q" + n++;
    while (used.has(candidate));
    fresh.set(name, candidate);
  }
  // Edits inside the function's body, as [start, end, text]: every reference to its own names, and its vars as lets.
  const edits = [];
  // The names a function made in the entry reads: those live on, as they did in the entry's scope.
  const captured = new Set();
  walk.fullAncestor(fn.body, (node, _st, ancestors) => {
    const chain = [fn, ...ancestors];
    if (node.type === "VariableDeclaration" && fn.body.body.indexOf(node) >= 0) edits.push([node.start, node.end, ""]); // declared up front (below)
    if (node.type !== "Identifier" || !own.has(node.name)) return;
    const parent = chain[chain.length - 2];
    if (parent.type === "MemberExpression" && parent.property === node && !parent.computed) return;
    if (parent.type === "Property" && parent.key === node && !parent.computed) return;
    if (parent.type === "VariableDeclarator" && parent.id === node && fn.body.body.indexOf(chain[chain.length - 3]) >= 0) return; // its statement goes
    for (let i = chain.length - 2; i > 0; i--) {
      const a = chain[i];
      if (isFunction(a) && declaredIn(a, cache).has(node.name)) return; // a nested function's own
      if (a.type === "CatchClause" && a.param && a.param.name === node.name) return;
    }
    edits.push([node.start, node.end, fresh.get(node.name)]);
    if (chain.slice(2, -1).some(isFunction)) captured.add(node.name);
  });
  const body = applyEdits(text, fn.body.start + 1, fn.body.end - 1, edits);
  // The arguments, evaluated first as before, into the parameters' names; a parameter without one
  // stays undefined, as it did.
  const args = [];
  fn.params.forEach((p, i) => {
    const a = call.arguments[i];
    if (a) args.push(fresh.get(p.name) + "=" + (a.type === "SequenceExpression" ? "(" + text.slice(a.start, a.end) + ")" : text.slice(a.start, a.end)));
  });
  // Every name declared with the block's own names, before its first call (bundleCheck.js refuses a
  // declaration after it, as terser's hoisting leaves it): at the end of the names terser hoisted into
  // one bare `let`, so that names looked up more often keep their place in the scope (2v06 searches a
  // scope name by name, in order); else in a statement of their own after the hot globals'.
  const hoisted = block.body[1];
  const bare = hoisted !== undefined && hoisted.type === "VariableDeclaration" && hoisted.declarations.every((d) => d.init === null);
  const declareAt = bare ? hoisted.end - (text.charAt(hoisted.end - 1) === ";" ? 1 : 0) : block.body[0].end;
  const names = [...fresh.values()].join(",");
  // The others let go at the end, as the entry's scope was when no function kept it: the block's
  // names live as long as the pet, and the board's object alone is 28 JsVars on 2v29.
  const loose = [...own].filter((name) => !captured.has(name)).map((name) => fresh.get(name));
  const released = loose.length > 0 ? ";" + loose.join("=") + "=void 0" : "";
  const before = exprs.length > 1 ? text.slice(last.start, tail.start).replace(/,\s*$/, "") + ";" : "";
  return (
    text.slice(0, declareAt) +
    (bare ? "," + names : "let " + names + ";") +
    text.slice(declareAt, last.start) +
    before +
    (args.length > 0 ? args.join(",") + ";" : "") +
    body +
    released +
    text.slice(last.end) +
    "\n"
  );
}

export function entryInBlockPlugin() {
  return {
    name: "espruino-entry-in-block",
    renderChunk(code) {
      return { code: entryInBlock(code), map: null };
    },
  };
}
