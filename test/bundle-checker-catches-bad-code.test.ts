/**
 * Each bundle check must be able to fail: small snippets with one thing Espruino cannot run, each
 * expected to be flagged with the right kind, plus clean snippets that must pass.
 */
import { describe, expect, it } from "vitest";
import { checkBundle, type Finding } from "../scripts/lib/bundleCheck.js";

function kinds(code: string): Finding["kind"][] {
  return checkBundle(code).map((f) => f.kind);
}

describe("bundle checker flags what Espruino cannot run", () => {
  it.each([
    ["ES2015 syntax (let)", "let a = 1;", "parse"],
    ["arrow function", "var f = () => 1;", "parse"],
    ["exponent operator", "var x = 2 ** 8;", "parse"],
    ["__spreadArray helper", "var __spreadArray = function (a, b) { return a; }; __spreadArray([], [1]);", "helper"],
    ["__extends helper", "var __extends = function (d, b) {}; function B() {} __extends(B, Object);", "helper"],
    ["__generator helper", "var g = __generator;", "helper"],
    ["__awaiter helper", "__awaiter(this, void 0, void 0, function () {});", "helper"],
    ["__values helper", "var it = __values([1]);", "helper"],
    ["__read helper", "var r = __read([1], 1);", "helper"],
    ["Array.prototype.slice", "var s = Array.prototype.slice.call([1, 2], 1);", "prototype"],
    ["String.prototype lookup", "var c = String.prototype.charAt;", "prototype"],
    ["Function.prototype.call", "Function.prototype.call.call(f, null);", "prototype"],
    ["Object.prototype.hasOwnProperty", "Object.prototype.hasOwnProperty.call(o, 'k');", "prototype"],
    ["computed prototype lookup", "var s = Array['prototype'].slice;", "prototype"],
    ["Map", "var m = new Map();", "global"],
    ["Set", "var s = new Set([1]);", "global"],
    ["WeakMap", "var w = new WeakMap();", "global"],
    ["Symbol", "var it = o[Symbol.iterator];", "global"],
    ["BigInt", "var b = BigInt(1);", "global"],
    ["Proxy", "var p = new Proxy({}, {});", "global"],
    ["Reflect", "Reflect.ownKeys({});", "global"],
    ["RangeError", "throw new RangeError('x');", "global"],
    ["Math.pow", "var p = Math.pow(2, 32);", "member"],
    ["Math.imul", "var p = Math.imul(3, 5);", "member"],
    ["Math.clz32", "var p = Math.clz32(1);", "member"],
    ["Math.trunc", "var p = Math.trunc(1.5);", "member"],
    ["Math.log2", "var p = Math.log2(8);", "member"],
    ["Number.MAX_SAFE_INTEGER", "var m = Number.MAX_SAFE_INTEGER;", "member"],
    ["Number.EPSILON", "var m = Number.EPSILON;", "member"],
    ["Number.isInteger", "var m = Number.isInteger(1);", "member"],
    ["Uint8Array.from", "var a = Uint8Array.from([1]);", "member"],
    ["Uint8Array.of", "var a = Uint8Array.of(1);", "member"],
    ["ArrayBuffer.isView", "var v = ArrayBuffer.isView(x);", "member"],
    ["Object.freeze", "var o = Object.freeze({});", "member"],
    ["Object.seal", "var o = Object.seal({});", "member"],
    ["labelled loop", "outer: for (;;) { break outer; }", "label"],
    ["require of a module Espruino does not have", "var fs = require('fs');", "require"],
    ["require of a computed name", "var m = require(name);", "require"],
    ["comma expression as an index", "var a = [5, 6], y, g; g = a[y = 1, y];", "sequence-index"],
    ["call before a function declaration", "(function () { go(); function go() {} })();", "order"],
    ["var read before its declaration", "(function () { var a = b + 1; var b = 2; })();", "order"],
    ["assignment before its var", "x = 1; var x;", "order"],
    ["closure called before a later declaration", "(function () { var g = function () { return h(); }; g(); function h() {} })();", "order"],
    ["declaration inside a branch after a call", "(function () { f(); if (c) { var late = 1; } function f() {} })();", "order"],
  ])("%s", (_label, code, kind) => {
    expect(kinds(code)).toContain(kind);
  });
});

describe("bundle checker leaves Espruino-safe code alone", () => {
  it.each([
    ["hoisted functions and vars", "(function () { function a() { return b(); } function b() { return 1; } var x; x = a(); })();"],
    ["[].slice and \"\".charAt", "var s, c; s = [].slice.call([1, 2], 1); c = ''.charAt.call('ab', 1);"],
    ["names used as property keys", "var o = { Map: 1, pow: 2 }; o.Set = o.Map; o.prototype = 1;"],
    ["own constructor prototypes", "function Pet() {} Pet.prototype.name = function () { return 'p'; };"],
    ["allowed modules", "var f, s; f = require('Flash'); s = require('Storage');"],
    ["Math members Espruino has", "var a = Math.floor(Math.random() * Math.abs(-2));"],
    ["parenthesised comma expression as an index", "var a = [5, 6], y, g; g = a[(y = 1, y)];"],
    ["catch parameter shadowing", "(function () { function f() {} var e; try { f(); } catch (e) { e = 1; } })();"],
  ])("%s", (_label, code) => {
    expect(checkBundle(code)).toEqual([]);
  });
});
