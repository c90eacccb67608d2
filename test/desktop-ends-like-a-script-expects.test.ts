/**
 * `npm start` as a script uses it: the end of its piped input is a q (a press in progress is
 * finished, the pet saved, status 0), a reader that goes away (`npm start | head`) ends it quietly
 * with the pet saved, and a refused --image is answered before anything is built. --help and
 * --version answer too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../src/host/node/cli";
import { buildDesktopBundle, ROOT, START } from "./desktop-process";

let dir = "";
let bundle = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pet-desktop-script-"));
  bundle = await buildDesktopBundle(join(dir, "firmware.js"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The image's current save as `pet-save inspect --json` reports it (in-process). */
async function currentSave(image: string): Promise<{ status: string; slot: number; payload: { updateCount: string } | null }> {
  let out = "";
  const io = { readStdin: async () => new Uint8Array(0), writeStdout: (d: string | Uint8Array) => void (out += String(d)), writeStderr: () => undefined };
  await main(["inspect", image, "--json"], io);
  return JSON.parse(out).current;
}

describe("npm start in a script", () => {
  it("saves and exits 0 when its piped input ends, after the press it was given", async () => {
    const image = join(dir, "piped.bin");
    const r = spawnSync(process.execPath, [START, "--bundle", bundle, "--image", image], { cwd: ROOT, input: " ", encoding: "utf8", timeout: 30000 });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^no save found: region empty, hatched Pip$/m);
    // The input ends at once, inside the press: the release still reaches the firmware through the
    // button's debounce, the pet plays, and the save on the way out keeps it (the press is update 1;
    // pet.save() takes no step of its own, so it writes update 1).
    expect(r.stdout).toMatch(/^pet: Pip, playing, happy, updates 1$/m);
    expect(r.stdout).toMatch(/^pet\.save\(\): ok$/m);
    expect(r.stdout).toMatch(/^saved: updates 1 \(Pip/m);
    const saved = (await currentSave(image)) as unknown as { status: string; payload: { activityName: string; updateCount: string } };
    expect(saved.status).toBe("ok");
    expect(saved.payload.activityName).toBe("playing");
  });

  it("ends quietly, the pet saved, when the reader of its output goes away", async () => {
    const image = join(dir, "head.bin");
    const child = spawn(process.execPath, [START, "--bundle", bundle, "--image", image, "--speed", "600"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    // Read one line, then go away like `| head -1`; the pet keeps printing at 600x and meets the closed pipe.
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.stdout.destroy();
    child.stdin.write(" ");
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    expect(code).toBe(0);
    expect(stderr).toBe("");
    // Saved on the way out: the hatch wrote slot 0 at boot, the save on the way out a slot after it
    // (pet.save() takes no step, so the pet it wrote may still be the hatched one, updates 0).
    const saved = await currentSave(image);
    expect(saved.status).toBe("ok");
    expect(saved.slot).toBeGreaterThanOrEqual(1);
  });

  it("refuses an image that is not a pet region before it builds anything", () => {
    const image = join(dir, "notes.txt");
    writeFileSync(image, "not a pet\n");
    const cache = mkdtempSync(join(tmpdir(), "pet-empty-cache-"));
    try {
      // No --bundle: a build would be needed, and with an empty cache it would leave an entry.
      const r = spawnSync(process.execPath, [START, "--image", image], {
        cwd: ROOT,
        input: "",
        encoding: "utf8",
        timeout: 30000,
        env: { ...process.env, PET_BUILD_CACHE_DIR: cache },
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/^refusing to use .*notes\.txt as the pet region: it is 10 bytes/);
      expect(readdirSync(cache)).toEqual([]);
      expect(readFileSync(image, "utf8")).toBe("not a pet\n");
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it("answers --help with its options, keys and exit statuses, and --version", () => {
    const help = spawnSync(process.execPath, [START, "--help"], { cwd: ROOT, encoding: "utf8" });
    expect(help.status).toBe(0);
    for (const word of ["--image PATH", "--reset", "--speed N", "--blocks", "--lines", "--version", "keys:", "examples:", "exit status:"]) expect(help.stdout).toContain(word);
    const version = spawnSync(process.execPath, [START, "--version"], { cwd: ROOT, encoding: "utf8" });
    expect(version.status).toBe(0);
    expect(version.stdout).toBe("npm start " + JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version + "\n");
  });
});
