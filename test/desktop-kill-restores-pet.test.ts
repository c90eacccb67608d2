/**
 * `npm start` end to end: the desktop runs the real firmware bundle over a region image; killing it
 * with SIGKILL (a power cut) and starting it again brings the same pet back, with an update count no
 * lower than the last save it reported. And a kill in the middle of a burst of saves never loses the
 * pet: the next start always restores one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDesktopBundle, startDesktop } from "./desktop-process";
import { main } from "../src/host/node/cli";

let dir = "";
let bundle = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pet-desktop-"));
  bundle = await buildDesktopBundle(join(dir, "firmware.js"));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** pet-save inspect --json of an image, in-process. */
interface InspectJson {
  current: { status: string; payload: { name: string; updateCount: string; elapsedMs: string } | null };
  sectors: Array<{ state: string }>;
}

async function inspectJson(image: string): Promise<InspectJson> {
  let out = "";
  const code = await main(["inspect", image, "--json"], {
    readStdin: async () => new Uint8Array(0),
    writeStdout: (d) => (out += typeof d === "string" ? d : Buffer.from(d).toString()),
    writeStderr: () => undefined,
  });
  expect(code).toBe(0);
  return JSON.parse(out);
}

describe("desktop: kill -9 and start again", () => {
  it("restores the same pet with an update count no lower than the last reported save", async () => {
    const image = join(dir, "pet-region.bin");
    // At 600x the firmware ticks 14 times a second (each tick one update), so the world moves on quickly.
    const first = startDesktop(bundle, image, ["--speed", "600"]);
    await first.waitFor(/^no save found: region empty, hatched Pip$/);
    await first.waitFor(/^saved: updates 0 \(Pip/); // the hatch is written at once
    // Let the world run a few ticks (a save, s, reports how many), then interact: the interaction
    // asks for a save at once.
    for (let ticks = 0; ticks < 2; ) {
      const from = first.lines.length;
      first.send("s");
      ticks = Number((await first.waitFor(/^saved: updates (\d+) \(Pip/, 15000, from))[1]);
    }
    const before = first.lines.length;
    first.send(" ");
    const saved = await first.waitFor(/^saved: updates (\d+) \(Pip/, 15000, before);
    const lastReported = Number(saved[1]);
    expect(lastReported).toBeGreaterThanOrEqual(2);
    first.child.kill("SIGKILL");
    const exit = await first.exited;
    expect(exit.signal).toBe("SIGKILL");

    // What the image holds after the cut, read independently of the desktop.
    const onDisk = await inspectJson(image);
    expect(onDisk.current.status).toBe("ok");
    const diskCount = Number(onDisk.current.payload?.updateCount);
    expect(diskCount).toBeGreaterThanOrEqual(lastReported);

    const second = startDesktop(bundle, image, ["--speed", "20"]);
    const restored = await second.waitFor(/^restored (\S+), updates (\d+)/);
    expect(restored[1]).toBe("Pip");
    expect(Number(restored[2])).toBe(diskCount);
    expect(second.lines.some((l) => /hatched/.test(l))).toBe(false);
    second.send("q"); // q saves and quits cleanly
    const quitSave = await second.waitFor(/^saved: updates (\d+)/);
    expect(Number(quitSave[1])).toBeGreaterThanOrEqual(diskCount); // pet.save() takes no step: the ticks since the restore, if any
    expect((await second.exited).code).toBe(0);
  });

  it("a kill in the middle of a burst of saves still restores a pet every time", async () => {
    const image = join(dir, "burst.bin");
    let highest = -1;
    for (let round = 0; round < 3; round++) {
      const d = startDesktop(bundle, image, ["--speed", "50"]);
      const boot = await d.waitFor(/^(restored|no save found)/);
      if (round > 0) {
        expect(boot[1]).toBe("restored");
        const m = /updates (\d+)/.exec(boot.input ?? "");
        expect(Number(m?.[1])).toBeGreaterThanOrEqual(highest);
      }
      // Saves back to back ("s" writes at once, bypassing the save policy), crossing into new
      // sectors (erases) along the way; the kill lands at a moment that varies per round.
      const hammer = setInterval(() => d.send("sss"), 2);
      await new Promise((r) => setTimeout(r, 300 + round * 230));
      clearInterval(hammer);
      for (const l of d.lines) {
        const m = /^saved: updates (\d+)/.exec(l);
        if (m) highest = Math.max(highest, Number(m[1]));
      }
      d.child.kill("SIGKILL");
      await d.exited;
      expect(existsSync(image)).toBe(true);
      expect(readFileSync(image).length).toBe(65536);
    }
    const final = await inspectJson(image);
    expect(final.current.status).toBe("ok");
    expect(Number(final.current.payload?.updateCount)).toBeGreaterThanOrEqual(highest);
    // The burst filled sectors and erased new ones, so the cuts had erases to land in too.
    expect(final.sectors.filter((s) => s.state === "log").length).toBeGreaterThanOrEqual(2);
  });
});
