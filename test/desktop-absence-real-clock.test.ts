/**
 * On the desktop Date.now() is the host's real clock, so the absence rule sees real time: a pet saved
 * an hour ago comes back an hour older, and one saved a month ago comes back seven days older (the
 * codec's clamp), never a month.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createWorld } from "../src/core/world";
import { nameFromString } from "../src/core/name";
import { saveWorld } from "../src/save/codec";
import { buildDesktopBundle, startDesktop } from "./desktop-process";
import { mustSave, newRegion, tempDir, writeImage } from "./region-tools-fixtures";

const HOUR = 3600 * 1000;
const WEEK = 7 * 24 * HOUR;
let dir = "";
let bundle = "";

beforeAll(async () => {
  dir = tempDir("pet-absence-");
  bundle = await buildDesktopBundle(join(dir, "firmware.js"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An image whose only save is "Mochi" with a 10 s world clock, saved `agoMs` before now. */
function imageSavedAgo(name: string, agoMs: number): string {
  const world = createWorld(nameFromString("Mochi") as Uint8Array)!;
  world.elapsed = { hi: 0, lo: 10000 };
  world.updateCount = { hi: 0, lo: 10 };
  const payload = saveWorld(world, Date.now() - agoMs).bytes!;
  const { sim, log } = newRegion();
  mustSave(log, payload);
  return writeImage(dir, name, sim);
}

async function bootLineAway(image: string): Promise<number> {
  const d = startDesktop(bundle, image);
  try {
    const m = await d.waitFor(/^restored Mochi, updates 10, away (\d+) s$/);
    return Number(m[1]);
  } finally {
    d.child.kill("SIGKILL");
    await d.exited;
  }
}

describe("desktop absence rule with the real clock", () => {
  it("a pet saved an hour ago has been away an hour", async () => {
    const away = await bootLineAway(imageSavedAgo("hour.bin", HOUR));
    expect(away).toBeGreaterThanOrEqual(3600);
    expect(away).toBeLessThan(3600 + 30);
  });

  it("a pet saved a month ago is credited seven days at most", async () => {
    expect(await bootLineAway(imageSavedAgo("month.bin", 30 * 24 * HOUR))).toBe(WEEK / 1000);
  });
});
