/**
 * Figures are written once (issue 21): the bench writes docs/figures.json and renders
 * docs/figures.md from it (scripts/bench/figuresPage.ts), and every other page points there. This
 * holds the page to its data (a hand edit of either shows as a difference), checks that the data is
 * a real interpreter run, and looks for the current headline figures anywhere else in the docs and
 * the README, where they would be copies that drift. Dated history (figures of earlier code, never
 * updated) lives in CHANGELOG.md, which is not searched.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { grouped, millions, renderFiguresPage, type FiguresFile } from "../scripts/bench/figuresPage";

const ROOT = join(__dirname, "..");
const DOCS = join(ROOT, "docs");
const file = JSON.parse(readFileSync(join(DOCS, "figures.json"), "utf8")) as FiguresFile;

type Op = { instructions?: number; instructionRatio?: number; safeInstructionRatio?: number };

describe("docs/figures.md", () => {
  it("is exactly what the bench renders from docs/figures.json", () => {
    expect(readFileSync(join(DOCS, "figures.md"), "utf8")).toBe(renderFiguresPage(file));
  });

  it("comes from a run with the interpreter and callgrind, without a machine's paths", () => {
    expect(file.firmware.skipped).toBeUndefined();
    expect(String(file.firmware.measuredOn)).toMatch(/^Espruino 2v\d+ for Linux, BOARD LINUX/);
    expect(file.firmware.interpreter).toBeUndefined();
    const ins = file.firmware.instructions as Record<string, unknown>;
    expect(ins.bootInstructions).toBeGreaterThan(1e6);
    expect(file.meta.commit).toMatch(/^[0-9a-f]{7,}/);
  });
});

describe("the README and the other docs", () => {
  /** The current headline figures, as a person copying them by hand would write them. */
  function headline(): string[] {
    const f = file.firmware as Record<string, unknown>;
    const ops = f.ops as Record<string, Op>;
    const ins = f.instructions as Record<string, number>;
    const out: string[] = [];
    for (const key of ["bundleBytes", "linuxBundleBytes", "linuxJsVarsAfterBoot", "esp32LikeJsVarsAfterBoot"]) {
      const n = f[key] as number;
      out.push(grouped(n), String(n));
    }
    for (const key of ["bootInstructions", "esp32LikeBootInstructions"]) out.push(millions(ins[key]!));
    for (const key of ["petSave", "petRestore", "petStatus", "petExportHex"]) {
      const op = ops[key]!;
      out.push(op.instructionRatio!.toFixed(2) + "x");
      if (op.safeInstructionRatio !== undefined) out.push(op.safeInstructionRatio.toFixed(2) + "x");
    }
    return out;
  }

  it("carry none of them: they point at docs/figures.md instead", () => {
    const pages = ["README.md", ...readdirSync(DOCS).filter((f) => f.endsWith(".md") && f !== "figures.md").map((f) => "docs/" + f)];
    const copies: string[] = [];
    const figures = headline();
    expect(figures.length).toBeGreaterThan(10);
    for (const page of pages) {
      const text = readFileSync(join(ROOT, page), "utf8");
      for (const figure of figures) {
        // A figure stands alone: not part of a longer number ("1 267" inside "11 267").
        const re = new RegExp("(^|[^0-9.])" + figure.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "[ \u202f\u00a0]") + "(?![0-9])");
        if (re.test(text)) copies.push(page + ": " + figure);
      }
    }
    expect(copies).toEqual([]);
  });

  it("hold no dated history: the rounds of earlier work are in CHANGELOG.md", () => {
    const pages = ["README.md", ...readdirSync(DOCS).filter((f) => f.endsWith(".md")).map((f) => "docs/" + f)];
    const dated = pages.filter((page) => /^#+ .*\(\d{4}-\d{2}-\d{2}/m.test(readFileSync(join(ROOT, page), "utf8")));
    expect(dated).toEqual([]);
    expect(readFileSync(join(ROOT, "CHANGELOG.md"), "utf8")).toMatch(/^#### Issue 8 \(2026-11-30 to 2026-12-01\)/m);
  });

  it("the check finds a copied figure", () => {
    const n = (file.firmware as Record<string, number>).bundleBytes!;
    const re = new RegExp("(^|[^0-9.])" + grouped(n).replace(/ /g, "[ \u202f\u00a0]") + "(?![0-9])");
    expect(re.test("the bundle is " + grouped(n) + " bytes")).toBe(true);
    expect(re.test("the bundle is 9" + grouped(n) + " bytes")).toBe(false);
  });
});
