/**
 * Static checks on the firmware bundle for what Espruino cannot run (docs/firmware.md, "Bundle
 * checks"; why the interpreter needs them: docs/speed.md):
 *
 * - the file must parse as ECMAScript 5 (acorn, ecmaVersion 5);
 * - no TypeScript down-level helpers (__extends, __spreadArray, ...): they rely on hoisting or on
 *   built-in prototypes Espruino lacks;
 * - no lookups on built-in prototypes (Array.prototype.slice is undefined there);
 * - no globals or static members Espruino lacks (Map, Set, Symbol, Math.imul, Number.isInteger, ...);
 * - no labelled statements;
 * - no comma expression as a computed member without parentheses (`a[x = 1, x]`): Espruino's parser
 *   reads one assignment expression between the brackets and fails on the comma;
 * - no name used before its declaration in the same function scope, and no declaration after the
 *   first call in that scope (Espruino defines a function or var only when execution reaches it);
 * - require() only with a literal name of a module built into Espruino's ESP32 build.
 *
 * The firmware bundle's outer scope is a block of `let`s (outerBlock.js: a block is read once at
 * boot, an iife twice): the checks run on its ES5 form (fromOuterBlock), and the block must be
 * exactly what toOuterBlock makes of that form, so nothing else of ES2015 can hide in it.
 *
 * Every check returns findings instead of throwing, so a test can feed a bad snippet and see it
 * flagged.
 */
import { parse } from "acorn";
import * as walk from "acorn-walk";
import { fromOuterBlock, toOuterBlock } from "./outerBlock.js";

export const FORBIDDEN_HELPERS = [
  "__spreadArray",
  "__extends",
  "__spread",
  "__spreadArrays",
  "__read",
  "__values",
  "__generator",
  "__awaiter",
  "__rest",
  "__makeTemplateObject",
  "__classPrivateFieldGet",
  "__classPrivateFieldSet",
];

/** Globals whose `.prototype.x` is missing or unreliable on Espruino (upstream issue #159). */
export const BUILTIN_CONSTRUCTORS = [
  "Array",
  "String",
  "Function",
  "Object",
  "Number",
  "Boolean",
  "Date",
  "RegExp",
  "Error",
  "ArrayBuffer",
  "DataView",
  "Uint8Array",
  "Int8Array",
  "Uint16Array",
  "Int16Array",
  "Uint32Array",
  "Int32Array",
  "Float32Array",
  "Float64Array",
  "Uint8ClampedArray",
  "Promise",
];

export const FORBIDDEN_GLOBALS = [
  "Map",
  "Set",
  "WeakMap",
  "WeakSet",
  "Symbol",
  "BigInt",
  "Proxy",
  "Reflect",
  "RangeError",
];

/** object name -> members Espruino lacks or gets wrong. */
export const FORBIDDEN_MEMBERS = {
  Math: ["pow", "imul", "clz32", "trunc", "log2"],
  Number: ["MAX_SAFE_INTEGER", "MIN_SAFE_INTEGER", "EPSILON", "isInteger", "isSafeInteger"],
  Uint8Array: ["from", "of"],
  ArrayBuffer: ["isView"],
  Object: ["freeze", "seal", "isFrozen", "isSealed"],
};

/** Modules built into Espruino's ESP32 build that the firmware may require. */
export const ALLOWED_MODULES = ["Flash", "Storage", "ESP32", "Wifi"];

function finding(kind, node, message) {
  return { kind, pos: node.start, message };
}

function propertyName(member) {
  if (!member.computed && member.property.type === "Identifier") return member.property.name;
  if (member.computed && member.property.type === "Literal" && typeof member.property.value === "string") {
    return member.property.value;
  }
  return null;
}

/** Parses as ES5; returns the AST or a finding of kind "parse". */
export function parseEs5(code) {
  try {
    return { ast: parse(code, { ecmaVersion: 5, sourceType: "script", locations: false }), error: null };
  } catch (e) {
    return { ast: null, error: { kind: "parse", pos: e.pos ?? 0, message: "not ES5: " + e.message } };
  }
}

/**
 * Is `node` (an Identifier met while walking with ancestors) in a position where it names a variable
 * being read, called or assigned, rather than a property key or a declaration?
 */
function isReference(node, parent) {
  if (!parent) return true;
  switch (parent.type) {
    case "MemberExpression":
      return parent.object === node || parent.computed;
    case "Property":
      return parent.value === node; // key is a name, value is a reference
    case "FunctionDeclaration":
    case "FunctionExpression":
      return false; // function name or parameter
    case "VariableDeclarator":
      return parent.init === node;
    case "CatchClause":
      return false;
    case "LabeledStatement":
    case "BreakStatement":
    case "ContinueStatement":
      return false;
    default:
      return true;
  }
}

/** True when the last non-blank character before `pos` is "(" (acorn does not keep parentheses). */
function afterParen(code, pos) {
  let i = pos - 1;
  while (i >= 0 && /\s/.test(code.charAt(i))) i--;
  return code.charAt(i) === "(";
}

/** Forbidden helpers, globals, members, prototype lookups, labels and require() names. */
export function checkApiUse(ast, code = null) {
  const found = [];
  walk.fullAncestor(ast, (node, _state, ancestors) => {
    const parent = ancestors[ancestors.length - 2];
    if (node.type === "Identifier") {
      if (FORBIDDEN_HELPERS.indexOf(node.name) >= 0) {
        found.push(finding("helper", node, "TypeScript helper " + node.name + " (needs hoisting/prototypes Espruino lacks)"));
      } else if (FORBIDDEN_GLOBALS.indexOf(node.name) >= 0 && isReference(node, parent)) {
        found.push(finding("global", node, node.name + " does not exist on Espruino"));
      }
    } else if (node.type === "MemberExpression") {
      const name = propertyName(node);
      const obj = node.object;
      if (obj.type === "Identifier" && name !== null) {
        const banned = FORBIDDEN_MEMBERS[obj.name];
        if (banned && banned.indexOf(name) >= 0) {
          found.push(finding("member", node, obj.name + "." + name + " is missing or inexact on Espruino"));
        }
        if (name === "prototype" && BUILTIN_CONSTRUCTORS.indexOf(obj.name) >= 0) {
          const outer = parent && parent.type === "MemberExpression" && parent.object === node ? parent : null;
          const member = outer ? propertyName(outer) : null;
          found.push(
            finding(
              "prototype",
              node,
              obj.name + ".prototype" + (member ? "." + member : "") + " lookup (built-in prototypes are incomplete on Espruino; use [].slice or \"\".charAt)",
            ),
          );
        }
      }
      if (node.computed && node.property.type === "SequenceExpression" && code !== null && !afterParen(code, node.property.start)) {
        found.push(finding("sequence-index", node.property, "comma expression between [ ] without parentheses (Espruino fails: Got ',' expected ']')"));
      }
    } else if (node.type === "LabeledStatement") {
      found.push(finding("label", node, "labelled statement " + node.label.name + ": (Espruino has no labelled break/continue)"));
    } else if (node.type === "CallExpression" && node.callee.type === "Identifier" && node.callee.name === "require") {
      const arg = node.arguments[0];
      if (node.arguments.length !== 1 || !arg || arg.type !== "Literal" || typeof arg.value !== "string") {
        found.push(finding("require", node, "require() needs one literal module name"));
      } else if (ALLOWED_MODULES.indexOf(arg.value) < 0) {
        found.push(finding("require", node, "require(\"" + arg.value + "\"): not a module built into Espruino for ESP32 (allowed: " + ALLOWED_MODULES.join(", ") + ")"));
      }
    }
  });
  return found;
}

/** Names a function scope declares: its own var and function declarations (not nested functions'). */
function collectScope(body, params) {
  const declarations = []; // { name, pos, node }
  const references = []; // { name, pos, node }  evaluated directly in this scope
  const calls = []; // { pos, node }            evaluated directly in this scope
  const nested = []; // function nodes to check as scopes of their own
  const shadowStack = []; // catch parameters in force

  function isShadowed(name) {
    return shadowStack.indexOf(name) >= 0;
  }
  const visitors = {
    FunctionDeclaration(node) {
      declarations.push({ name: node.id.name, pos: node.start, node });
      nested.push(node);
    },
    FunctionExpression(node) {
      nested.push(node);
    },
    VariableDeclarator(node, st, c) {
      if (node.init) c(node.init, st, "Expression");
      declarations.push({ name: node.id.name, pos: node.id.start, node });
    },
    CatchClause(node, st, c) {
      shadowStack.push(node.param.name);
      c(node.body, st, "Statement");
      shadowStack.pop();
    },
    Identifier(node) {
      if (!isShadowed(node.name)) references.push({ name: node.name, pos: node.start, node });
    },
    // Assignment targets (x = 1, x++ is an Identifier already): writing a name before its var runs.
    VariablePattern(node) {
      if (!isShadowed(node.name)) references.push({ name: node.name, pos: node.start, node });
    },
    MemberExpression(node, st, c) {
      c(node.object, st, "Expression");
      if (node.computed) c(node.property, st, "Expression");
    },
    ObjectExpression(node, st, c) {
      for (const prop of node.properties) c(prop.value, st, "Expression");
    },
    CallExpression(node, st, c) {
      calls.push({ pos: node.start, node });
      c(node.callee, st, "Expression");
      for (const a of node.arguments) c(a, st, "Expression");
    },
    NewExpression(node, st, c) {
      calls.push({ pos: node.start, node });
      c(node.callee, st, "Expression");
      for (const a of node.arguments) c(a, st, "Expression");
    },
    LabeledStatement(node, st, c) {
      c(node.body, st, "Statement");
    },
    BreakStatement() {},
    ContinueStatement() {},
  };
  for (const statement of body) walk.recursive(statement, null, visitors);
  return { declarations, references, calls, nested, params };
}

/**
 * Use before declaration, per function scope (and the program): a name declared in a scope must not
 * be read before its declaration, and no declaration may come after the first call made directly in
 * that scope (the call could reach code that needs the later name). terser's hoist_funs/hoist_vars
 * output satisfies both; TypeScript's raw ES5 output usually does not.
 */
export function checkDeclarationOrder(ast) {
  const found = [];
  const queue = [{ body: ast.body, params: [], label: "top level" }];
  while (queue.length > 0) {
    const scope = queue.shift();
    const s = collectScope(scope.body, scope.params);
    const firstDecl = {};
    for (const d of s.declarations) {
      if (!(d.name in firstDecl) || d.pos < firstDecl[d.name]) firstDecl[d.name] = d.pos;
    }
    for (const r of s.references) {
      if (r.name in firstDecl && s.params.indexOf(r.name) < 0 && r.pos < firstDecl[r.name]) {
        found.push(finding("order", r.node, r.name + " used before its declaration (" + scope.label + ")"));
      }
    }
    const firstCall = s.calls.reduce((m, c) => Math.min(m, c.pos), Infinity);
    for (const d of s.declarations) {
      if (d.pos > firstCall) {
        found.push(finding("order", d.node, "declaration of " + d.name + " after a call in the same scope (" + scope.label + ")"));
      }
    }
    for (const fn of s.nested) {
      queue.push({
        body: fn.body.body,
        params: fn.params.map((p) => p.name),
        label: "function " + (fn.id ? fn.id.name : "at " + fn.start),
      });
    }
  }
  return found;
}

/**
 * All checks on one bundle. `order: false` skips the declaration-order check (for unminified
 * TypeScript output, which terser has not hoisted yet).
 */
export function checkBundle(code, options = {}) {
  if (code.startsWith("{let ")) {
    let es5;
    let same = false;
    try {
      es5 = fromOuterBlock(code);
      same = toOuterBlock(es5) === code;
    } catch (e) {
      return [{ kind: "parse", pos: 0, message: "not an outer block of the build's making: " + e.message }];
    }
    if (!same) return [{ kind: "parse", pos: 0, message: "the outer block holds more than the build's lets and functions" }];
    // Positions in the findings are then in the ES5 form.
    code = es5;
  }
  const parsed = parseEs5(code);
  if (!parsed.ast) return [parsed.error];
  const found = checkApiUse(parsed.ast, code);
  if (options.order !== false) for (const f of checkDeclarationOrder(parsed.ast)) found.push(f);
  return found.sort((a, b) => a.pos - b.pos);
}

/** One line per finding with a little context from the code. */
export function formatFindings(code, findings) {
  return findings
    .map((f) => f.kind + " at " + f.pos + ": " + f.message + "  …" + code.slice(Math.max(0, f.pos - 20), f.pos + 40).replace(/\n/g, " ") + "…")
    .join("\n");
}
