/**
 * One writer per region image (docs/adr/0008-one-writer-per-image.md), end to end with `npm start`:
 * two desktops started at the same moment on one image, and a `pet-save pull` or `extract` aimed at
 * an image a desktop is running on. Exactly one writer runs; the other is refused at once, with
 * status 1 and a message naming the holder's process id and command, and changes nothing; every
 * save the running one confirmed ("saved: ...") is in the image after a kill -9, which leaves no
 * lock behind; `pet-save inspect` meanwhile reads a whole image (the copy the desktop hands out).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDesktopBundle, startDesktop, type Desktop } from "./desktop-process";
import { main } from "../src/host/node/cli";
import type { RegionJson } from "../src/inspect/regionReport";
import { memoryIo } from "./region-tools-fixtures";

let dir = "";
let bundle = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pet-one-writer-"));
  bundle = await buildDesktopBundle(join(dir, "firmware.js"));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function inspect(image: string): Promise<{ json: RegionJson; err: string }> {
  const io = memoryIo();
  expect(await main(["inspect", image, "--json"], io), io.err).toBe(0);
  return { json: JSON.parse(io.out) as RegionJson, err: io.err };
}

/** The update counts of every "saved: updates N" line a desktop printed (its confirmed saves). */
function confirmed(d: Desktop): number[] {
  return d.lines.map((l) => /^saved: updates (\d+) /.exec(l)).filter((m) => m !== null).map((m) => Number(m![1]));
}

describe("desktop: one writer per region image", () => {
  it("two npm start on one image: one runs, the other is refused at once naming it; no confirmed save is lost", async () => {
    const image = join(dir, "shared.bin");
    const a = startDesktop(bundle, image);
    const b = startDesktop(bundle, image);
    // Exactly one of them runs; the other exits 1 without printing a single line of the pet.
    const [first] = await Promise.race([a.exited.then(() => [b, a]), b.exited.then(() => [a, b])]);
    const winner = first as Desktop;
    const loser = winner === a ? b : a;
    expect((await loser.exited).code).toBe(1);
    expect(loser.stderr()).toContain("refusing to run on " + image + " is in use by process " + winner.child.pid + " (npm start -- --bundle ");
    expect(loser.stderr()).toContain("quit that one first (q), or use --image for another file");
    expect(loser.lines).toEqual([]);

    await winner.waitFor(/^saved: updates 0 \(Pip, sector 0 slot 0\)$/);
    // The winner saves on; a writer that tries meanwhile is refused too.
    for (let i = 0; i < 3; i++) {
      const before = winner.lines.length;
      winner.send("s");
      await winner.waitFor(/^pet\.save\(\): ok$/, 15000, before);
    }
    const again = startDesktop(bundle, image);
    expect((await again.exited).code).toBe(1);
    expect(again.stderr()).toContain("in use by process " + winner.child.pid);
    // pet-save inspect reads the image meanwhile: the copy the running desktop hands out.
    const live = await inspect(image);
    expect(live.err).toContain("from process " + winner.child.pid);
    expect(Number(live.json.current.payload?.updateCount)).toBeGreaterThanOrEqual(Math.max(...confirmed(winner)));

    winner.child.kill("SIGKILL");
    await winner.exited;
    const saves = confirmed(winner);
    expect(saves.length).toBeGreaterThanOrEqual(1);
    const onDisk = (await inspect(image)).json;
    expect(onDisk.current.status).toBe("ok");
    expect(Number(onDisk.current.payload?.updateCount)).toBeGreaterThanOrEqual(Math.max(...saves));

    // The killed writer's lock is gone with its process: the next start runs at once and restores it.
    const next = startDesktop(bundle, image);
    const restored = await next.waitFor(/^restored Pip, updates (\d+)/);
    expect(Number(restored[1])).toBe(Number(onDisk.current.payload?.updateCount));
    next.send("q");
    expect((await next.exited).code).toBe(0);
  });

  it("pull -o and extract -o onto an image a desktop runs on are refused, and the image is unchanged", async () => {
    const image = join(dir, "running.bin");
    const d = startDesktop(bundle, image);
    await d.waitFor(/^saved: updates 0 /);
    try {
      // A replacing write (pull and extract write through a temporary file and a rename) would give
      // the path a new inode and leave the desktop writing to the old, unlinked one.
      const inode = statSync(image).ino;
      const pull = memoryIo();
      // Refused before any port is looked at: /dev/null is never opened.
      expect(await main(["pull", "--port", "/dev/null", "-o", image], pull)).toBe(1);
      expect(pull.err).toContain("cannot write " + image + " is in use by process " + d.child.pid);
      expect(pull.err).toContain("nothing was written");
      const other = join(dir, "other.bin");
      const extract = memoryIo();
      expect(await main(["extract", image, "-o", image], extract)).toBe(1);
      expect(extract.err).toContain("in use by process " + d.child.pid);
      expect(statSync(image).ino).toBe(inode);
      // Writing a payload elsewhere from the running image works (it is read as the desktop's copy).
      const ok = memoryIo();
      expect(await main(["extract", image, "-o", other], ok), ok.err).toBe(0);
      expect(readFileSync(other).length).toBe(84);
    } finally {
      d.send("q");
      await d.exited;
    }
  });
});
