/**
 * Functions the source marks as not called by a boot, made ready for the function form to keep
 * their text out of the boot (src/boards/rareFunctions.ts, ADR 0012, ADR 0013).
 *
 * A function whose body begins with the directive RARE_DIRECTIVE ("rarely called") or
 * LATER_DIRECTIVE ("not called at boot") is one that no boot restoring a save calls: a failure's
 * path, the opening of a new sector, a console command such as pet.rename(), a rule change. On
 * Espruino before 2v14 (the function form) such a function costs the boot its whole text, read to
 * define it; kept in the body file's comment instead, it costs the boot a fifth of that, and its
 * first call pays for reading it then.
 *
 * Espruino 2v06's eval runs in the global scope only, so the text the function form evaluates cannot
 * see the bundle's names. This pass writes into the directive the names of the enclosing scopes the
 * function reads (its free names), "$$L:a,b,c", and the function form hands them over as arguments
 * when it makes the function. That is only the same function when each of those names holds the
 * same value whenever the function can run: the pass refuses (throws) a name assigned more than once
 * (one declaration with a value, or one assignment after a bare `let`), a marked function nested in
 * another, one with a name of its own, and one that uses `arguments` or a name the hand-over itself
 * needs. A function that is the one value of an outer block's name gets that name too, "$$L:a,b=f",
 * and one marked as called often that is a property's value the property's name, "$$L:a,b.p": the
 * function form puts the function it makes there. One marked as called often may not read another
 * marked as called often of the outer block: it would be made holding that one's stand-in and call
 * through it every time; a rarely called one it may (the stand-in is then paid on that rare path
 * alone). Runs after terser (whose `directives: false` keeps the directives), outerBlock.js and
 * entryInBlock.js, on the final text.
 */
import { parse } from "acorn";
import { declaredIn } from "./outerBlock.js";

/** What the source writes first in a rarely called function's body. */
export const RARE_DIRECTIVE = "rarely called";
/**
 * The mark for a function that may run often, but never in a boot: the function form makes it at
 * its first call and keeps it, as it does a rarely called one. The words differ in effect only for
 * a property's value, which this one makes take over the property (RARE_PROPERTY).
 */
export const LATER_DIRECTIVE = "not called at boot";
/** What the directive becomes, followed by the function's free names, comma-separated. */
export const RARE_MARK = "$$L:";
/**
 * What follows the free names when the function is the one value of a name of the outer block
 * (`let X=function(){...}`): this and the name. The function form's stand-in then puts the function
 * it makes in that name, so that later calls go to it directly.
 */
export const RARE_BINDING = "=";
/**
 * What follows the free names instead when a function marked LATER_DIRECTIVE is the value of a
 * property (`{p:function}`, `o.p=function`): this and the property's name. The stand-in then puts
 * the function it makes in that property of the object it was called on, when it found itself there.
 */
export const RARE_PROPERTY = ".";

/** The names the outer block declares: its lets (outerBlock.js leaves nothing else at its top). */
function blockNames(block) {
  const out = new Set();
  for (const st of block.body) if (st.type === "VariableDeclaration") for (const d of st.declarations) out.add(d.id.name);
  return out;
}

const isFunction = (x) => x.type === "FunctionExpression" || x.type === "FunctionDeclaration";
const declaredCache = new WeakMap();

/** Calls `each(node, scopes, parent)` for every node under `root`; `scopes` is innermost last, each { node, names }. */
function walkScoped(root, scopes, each, parent = null) {
  if (!root || typeof root.type !== "string") return;
  // A function's own names (outerBlock.js declaredIn), and a catch's parameter, in the catch alone.
  const names = isFunction(root) ? declaredIn(root, declaredCache) : root.type === "CatchClause" && root.param ? new Set([root.param.name]) : null;
  const inner = names !== null ? scopes.concat([{ node: root, names }]) : scopes;
  each(root, inner, parent);
  for (const k of Object.keys(root)) {
    if (k === "property" && root.type === "MemberExpression" && !root.computed) continue;
    if (k === "key" && root.type === "Property" && !root.computed) continue;
    const v = root[k];
    if (Array.isArray(v)) for (const c of v) walkScoped(c, inner, each, root);
    else if (v && typeof v.type === "string") walkScoped(v, inner, each, root);
  }
}

/** The scope entry that `name` resolves to from `scopes` (innermost last), or null for a global. */
function resolve(scopes, name) {
  for (let i = scopes.length - 1; i >= 0; i--) if (scopes[i].names.has(name)) return scopes[i];
  return null;
}

/**
 * The marker's literal node when `fn` is marked, else null: the directive, which hoist.js may have
 * put behind the function's hoisted `var` (so no longer a directive to a parser, only a string).
 */
function rareDirective(fn) {
  for (const st of fn.body.body) {
    if (st.type === "VariableDeclaration" || st.type === "EmptyStatement") continue;
    const e = st.type === "ExpressionStatement" ? st.expression : null;
    return e !== null && e.type === "Literal" && (e.value === RARE_DIRECTIVE || e.value === LATER_DIRECTIVE) ? e : null;
  }
  return null;
}

/**
 * `code` (the bundle as one outer block, `{let ...}`) with every RARE_DIRECTIVE and LATER_DIRECTIVE
 * rewritten as RARE_MARK, the function's free names and what it may take over. Throws when a marked
 * function cannot be handed its names safely, or would hold the stand-in of one called often (above).
 */
export function markRareFunctions(code) {
  if (code.indexOf(RARE_DIRECTIVE) < 0 && code.indexOf(LATER_DIRECTIVE) < 0) return code;
  const ast = parse(code, { ecmaVersion: 2015, sourceType: "script" });
  const block = ast.body[0];
  if (!block || block.type !== "BlockStatement") throw new Error("marked functions: the bundle is not one outer block");
  const top = { node: block, names: blockNames(block) };
  // Every assignment, counted per declaring scope and name (a declaration with a value counts one).
  const assigned = new Map();
  const count = (scope, name) => {
    if (scope === null) return;
    const key = scope.names;
    if (!assigned.has(key)) assigned.set(key, new Map());
    const m = assigned.get(key);
    m.set(name, (m.get(name) || 0) + 1);
  };
  const marked = [];
  walkScoped(block, [top], (node, scopes, parent) => {
    if (node.type === "VariableDeclarator" && node.init) count(resolve(scopes, node.id.name), node.id.name);
    if (node.type === "AssignmentExpression" && node.left.type === "Identifier") count(resolve(scopes, node.left.name), node.left.name);
    if (node.type === "UpdateExpression" && node.argument.type === "Identifier") count(resolve(scopes, node.argument.name), node.argument.name);
    if (isFunction(node) && rareDirective(node) !== null) {
      const outer = scopes.slice(0, -1);
      // The outer block's name this function is the value of (let X=function, X=function), if any.
      const bound = parent && parent.type === "VariableDeclarator" && parent.init === node ? parent.id.name : parent && parent.type === "AssignmentExpression" && parent.right === node && parent.left.type === "Identifier" ? parent.left.name : null;
      // Else the property it is the value of ({p:function}, o.p=function), if any.
      const key = parent && parent.type === "Property" && parent.value === node && !parent.computed && parent.kind === "init" ? parent.key : parent && parent.type === "AssignmentExpression" && parent.right === node && parent.left.type === "MemberExpression" && !parent.left.computed ? parent.left.property : null;
      const property = key === null ? null : key.type === "Identifier" ? key.name : typeof key.value === "string" ? key.value : null;
      marked.push({ fn: node, outer, bound: bound !== null && resolve(outer, bound) === top ? bound : null, property });
    }
  });
  const edits = [];
  const done = [];
  for (const { fn, outer, bound, property } of marked) {
    const where = "marked function at character " + fn.start;
    if (fn.id) throw new Error(where + " has a name of its own, which its stand-in would not have");
    if (outer.some((s) => isFunction(s.node) && rareDirective(s.node) !== null)) throw new Error(where + " is inside another marked function");
    const free = new Map();
    walkScoped(fn, outer, (node, scopes, parent) => {
      if (node.type !== "Identifier") return;
      if (node.name === "arguments") throw new Error(where + " uses arguments");
      if (parent && parent.type === "FunctionExpression" && parent.id === node) return;
      const s = resolve(scopes, node.name);
      if (s !== null && outer.indexOf(s) >= 0) free.set(node.name, s);
    });
    for (const [name, scope] of free) {
      if (name.startsWith("$$L") || name === "eval") throw new Error(where + " reads " + name + ", a name its stand-in needs");
      const times = (assigned.get(scope.names) && assigned.get(scope.names).get(name)) || 0;
      if (times > 1) throw new Error(where + " reads " + name + ", which is assigned " + times + " times: the value handed over could be stale");
    }
    const literal = rareDirective(fn);
    // A function that is the one value of an outer block's name can take its stand-in's place there;
    // else one marked as called often (LATER_DIRECTIVE) that is the value of a property, in the
    // property of the object it is called on (its stand-in then has a name, 2 JsVars more on 2v06).
    const often = literal.value === LATER_DIRECTIVE;
    const replaces =
      bound !== null && (assigned.get(top.names)?.get(bound) || 0) === 1
        ? RARE_BINDING + bound
        : often && property !== null && /^[A-Za-z_$][\w$]*$/.test(property)
          ? RARE_PROPERTY + property
          : "";
    edits.push({ start: literal.start, end: literal.end, text: JSON.stringify(RARE_MARK + [...free.keys()].sort().join(",") + replaces) });
    done.push({ where, often, free, takes: replaces.startsWith(RARE_BINDING) ? bound : null });
  }
  // A function marked as called often that reads another one marked as called often of the outer
  // block would be made holding that one's stand-in, and call it through the maker every time (ADR
  // 0013). Reading a rarely called one is allowed: the maker is then paid on that rare path alone
  // (a failure's status, a clock given as a U64), a cache lookup, never a second evaluation.
  const takers = new Set(done.filter((d) => d.often).map((d) => d.takes).filter((n) => n !== null));
  for (const d of done) {
    if (!d.often) continue;
    for (const [name, scope] of d.free) {
      if (scope === top && takers.has(name)) throw new Error(d.where + " is marked as called often and reads " + name + ", a function marked as called often that it would call through its stand-in every time");
    }
  }
  edits.sort((a, b) => b.start - a.start);
  let out = code;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** As a rollup output plugin, after outerBlockPlugin. */
export function rareFunctionsPlugin() {
  return {
    name: "rare-functions",
    renderChunk(code) {
      return { code: markRareFunctions(code), map: null };
    },
  };
}
