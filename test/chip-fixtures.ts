/**
 * Helpers of the emulated-ESP32 tier (vitest.chip.config.ts): a chip started on a copy of the flash
 * the global set-up installed (test/chip-global-setup.ts), the product's commands run as a person
 * runs them, and one line of JavaScript evaluated on the chip's console with its answer read back
 * behind a tag (the console protocol's framing, src/boards/consoleProtocol.ts).
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { startChip, waitForPrompt, type Chip, type Kit } from "../src/host/node/emulatedChip/qemuChip";
import { openBoardConsole, type BoardConsole } from "../src/host/node/serial/boardConsole";

export const ROOT = join(__dirname, "..");

export function chipKit(): Kit {
  return inject("chipKit");
}

/** A fresh folder with a copy of the installed flash (Espruino and the pet uploaded) as `name`. */
export function installedImage(name = "flash.bin"): string {
  const dir = mkdtempSync(join(tmpdir(), "pet-chip-test-"));
  const image = join(dir, name);
  copyFileSync(inject("chipImage"), image);
  return image;
}

/** The chip on `image`, booted to Espruino's prompt. */
export async function bootChip(image: string, options: { port?: number } = {}): Promise<Chip> {
  const chip = await startChip(chipKit(), image, options);
  try {
    await waitForPrompt(chip);
  } catch (e) {
    await chip.stop();
    throw e;
  }
  return chip;
}

/**
 * Kills every QEMU running on `image`: the soak's cut script starts the chip again by itself, so the
 * test's Chip no longer knows the last one's process (a leftover would load the host for the next file).
 */
export function stopEveryChipOn(image: string): Promise<Run> {
  return runCommand("pkill", ["-KILL", "-f", "--", "file=" + image + ",if=mtd"]);
}

export interface Run {
  code: number;
  out: string;
  err: string;
}

/** An npm script or `node FILE` from the repository, as a person runs it; never rejects. */
export function runCommand(cmd: string, args: string[], env: Record<string, string> = {}, timeoutMs = 300_000): Promise<Run> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd: ROOT, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, ...env } }, (e, out, err) =>
      done({ code: e ? (typeof e.code === "number" ? e.code : -1) : 0, out: String(out), err: String(err) }),
    );
  });
}

/** `pet-save` (compiled, as bin/pet-save.js runs it). */
export function petSave(args: string[]): Promise<Run> {
  return runCommand(process.execPath, [join(ROOT, "bin", "pet-save.js"), ...args]);
}

/** The chip's console. */
export function chipConsole(chip: Chip): Promise<BoardConsole> {
  return openBoardConsole(chip.consoleUrl);
}

let tagCount = 0;

/** Evaluates one line of JavaScript on the chip and answers its value, as JSON parsed back. */
export async function evaluate<T = unknown>(con: BoardConsole, js: string, ms = 30_000): Promise<T> {
  const tag = "#chip-" + ++tagCount + " ";
  const text = await con.ask(
    "print(" + JSON.stringify(tag) + "+JSON.stringify(" + js + "))",
    (l) => {
      const at = l.indexOf(tag);
      // An echo of the line holds the tag inside quotes, followed by the quote and the +: never an answer.
      return at >= 0 && l.slice(at + tag.length, at + tag.length + 2) !== '"+' ? l.slice(at + tag.length) : null;
    },
    ms,
    js,
  );
  return (text === "undefined" ? undefined : JSON.parse(text)) as T;
}
