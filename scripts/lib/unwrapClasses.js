/**
 * TypeScript's ES5 classes without their wrapping function:
 *
 *   var SlotLog = (function () { function SlotLog(a) {...} SlotLog.prototype.save = function () {...}; SlotLog.prototype.load = ...; return SlotLog; }());
 *   =>
 *   function SlotLog(a) {...} var prototype$; (prototype$ = SlotLog.prototype).save = function () {...}; prototype$.load = ...;
 *
 * Why: Espruino reads a function's text to define it and again to run it, so a class wrapped in an
 * immediately called function has all its methods read twice at every boot (the bundle's two big
 * classes, the slot log and the running pet, are half of it). Unwrapped, the constructor is a
 * function of the bundle's scope and the methods are assigned where the class stood, in the same
 * order, so nothing can see a difference: the wrapper declared nothing else.
 *
 * Runs on rollup's unminified chunk, before terser (which then hoists the constructor like any
 * function). Only the exact shape TypeScript writes for a class with no `extends` and nothing but
 * the constructor inside is unwrapped; every other statement is left as it is.
 */
import { parse } from "acorn";

/** The class var statements of `code` that can be unwrapped, as {start, end, replacement}. */
function unwrappable(code, statements) {
  const edits = [];
  for (const st of statements) {
    if (st.type !== "VariableDeclaration" || st.declarations.length !== 1) continue;
    const d = st.declarations[0];
    const name = d.id.name;
    const call = d.init;
    if (!call || call.type !== "CallExpression" || call.arguments.length !== 0) continue;
    const fn = call.callee;
    if (fn.type !== "FunctionExpression" || fn.params.length !== 0 || fn.id) continue;
    const body = fn.body.body;
    if (body.length < 2) continue;
    const first = body[0];
    const last = body[body.length - 1];
    if (first.type !== "FunctionDeclaration" || first.id.name !== name) continue;
    if (last.type !== "ReturnStatement" || !last.argument || last.argument.type !== "Identifier" || last.argument.name !== name) continue;
    const middle = body.slice(1, -1);
    const onlyMembers = middle.every(
      (s) =>
        s.type === "ExpressionStatement" &&
        s.expression.type === "AssignmentExpression" &&
        s.expression.left.type === "MemberExpression" &&
        rootName(s.expression.left) === name,
    );
    if (!onlyMembers) continue;
    edits.push({ start: st.start, end: st.end, replacement: code.slice(first.start, first.end) + sharedPrototype(code, name, middle) });
  }
  return edits;
}

/**
 * The member statements, where two or more assign to `Name.prototype.x`, with the prototype taken
 * once into PROTOTYPE and the rest assigned through it: `(PROTOTYPE = Name.prototype).a = ...;
 * PROTOTYPE.b = ...;`. At boot Espruino reads every character of the bundle at least once, and a
 * lookup of the class and of its `prototype` for each method costs more than one of a variable:
 * the firmware's sixty methods took 600 bytes and 0.6 M x86 instructions of its boot. The statements
 * came from one class's wrapper, in order, so PROTOTYPE is that class's prototype throughout them.
 */
function sharedPrototype(code, name, middle) {
  const onPrototype = (s) => {
    const target = s.expression.left.object;
    return target.type === "MemberExpression" && !target.computed && target.object.type === "Identifier" && target.object.name === name && target.property.name === "prototype";
  };
  const count = middle.filter(onPrototype).length;
  let out = "";
  let taken = false;
  let at = middle.length > 0 ? middle[0].start : 0;
  for (const s of middle) {
    out += code.slice(at, s.start);
    if (count >= 2 && onPrototype(s)) {
      const target = s.expression.left.object;
      out += (taken ? PROTOTYPE : "(" + PROTOTYPE + " = " + name + ".prototype)") + code.slice(target.end, s.end);
      taken = true;
    } else {
      out += code.slice(s.start, s.end);
    }
    at = s.end;
  }
  return (count >= 2 ? " var " + PROTOTYPE + ";" : "") + (middle.length > 0 ? " " : "") + out;
}

/** The variable the members of an unwrapped class are assigned through (terser shortens it). */
export const PROTOTYPE = "prototype$";

/** The identifier at the root of a member chain (`A` of `A.prototype.b`), or null. */
function rootName(node) {
  let n = node;
  while (n.type === "MemberExpression") n = n.object;
  return n.type === "Identifier" ? n.name : null;
}

/**
 * The chunk with its classes unwrapped. Looks at the top level and at the top of an outer
 * function expression that is called at once (rollup's iife), where the modules' code sits.
 * Returns {code, unwrapped: the class names}.
 */
export function unwrapClasses(code) {
  const ast = parse(code, { ecmaVersion: 5, sourceType: "script" });
  const lists = [ast.body];
  for (const st of ast.body) {
    let e = st.type === "ExpressionStatement" ? st.expression : null;
    if (e && e.type === "UnaryExpression") e = e.argument;
    if (e && e.type === "CallExpression" && e.callee.type === "FunctionExpression") lists.push(e.callee.body.body);
  }
  const edits = [];
  for (const list of lists) for (const e of unwrappable(code, list)) edits.push(e);
  edits.sort((a, b) => b.start - a.start);
  let out = code;
  for (const e of edits) out = out.slice(0, e.start) + e.replacement + out.slice(e.end);
  return { code: out, unwrapped: edits.map((e) => /function (\w+)/.exec(e.replacement)[1]).reverse() };
}

export function unwrapClassesPlugin() {
  return {
    name: "espruino-unwrap-classes",
    renderChunk(code) {
      return { code: unwrapClasses(code).code, map: null };
    },
  };
}
