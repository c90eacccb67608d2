/**
 * `pet-save pull` and `push` against Espruino's Linux build over its telnet console: the pulled image
 * is byte for byte the pet region of the interpreter's flash file, and a pushed payload becomes the
 * live pet (and its newest save). A damaged payload is refused before the port is opened; a push
 * with a profile the board does not fit (the default ESP32 one, env BOARD unset) is refused before
 * anything is sent.
 *
 * Runs only when env ESPRUINO names the interpreter binary (test/espruino-interpreter.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openConsole, startEspruino, type EspruinoProcess } from "../src/host/node/interpreter/espruinoLinux";
import { main } from "../src/host/node/cli";
import type { RegionJson } from "../src/inspect/regionReport";
import { memoryIo, petPayload, rotten } from "./region-tools-fixtures";
import { ESPRUINO, loadInterpreterProfile, NEEDS_ESPRUINO, type InterpreterProfile } from "./espruino-interpreter";

const ROOT = join(__dirname, "..");

describe.skipIf(!ESPRUINO)("pull and push on Espruino's Linux build " + NEEDS_ESPRUINO, () => {
  let dir = "";
  let proc: EspruinoProcess | null = null;
  let board: InterpreterProfile;
  let PORT = "";
  let BOARD = "";

  function flashBundle(): Promise<{ code: number; out: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [join(ROOT, "scripts", "upload.js"), "--port", PORT, "--bundle", join(dir, "firmware.js")],
        { cwd: ROOT, env: { ...process.env, BOARD }, timeout: 90_000 },
        (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: stdout + stderr }),
      );
    });
  }

  async function evaluate(expr: string): Promise<unknown> {
    const con = await openConsole({ port: proc!.port });
    try {
      return await con.evaluate(expr);
    } finally {
      await con.close();
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pet-pull-espruino-"));
    board = await loadInterpreterProfile();
    BOARD = board.path;
    proc = await startEspruino(ESPRUINO!, dir);
    PORT = "tcp://127.0.0.1:" + proc.port;
    const r = await flashBundle();
    expect(r.code, r.out).toBe(0);
    expect(await evaluate('pet.hatch("Kiwi")')).toBe("ok");
  }, 120_000);

  afterAll(async () => {
    if (proc) await proc.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("pull copies the pet region of the interpreter's flash byte for byte", async () => {
    const image = join(dir, "pulled.bin");
    const io = memoryIo();
    expect(await main(["pull", "--port", PORT, "-o", image, "--board", BOARD], io), io.err).toBe(0);
    const region = board.profile.petRegion;
    const flashFile = readFileSync(join(dir, "espruino.flash"));
    const start = region.address - board.flashStart;
    const pulled = readFileSync(image);
    expect(pulled.length).toBe(region.size);
    // The pet saves only when asked or when it changes activity; a save between the pull and this
    // read would show up as a difference, so compare the log's current save as well as the bytes.
    const inspectIo = memoryIo();
    expect(await main(["inspect", image, "--json", "--board", BOARD], inspectIo)).toBe(0);
    const j = JSON.parse(inspectIo.out) as RegionJson;
    expect(j.current.payload?.name).toBe("Kiwi");
    expect(Buffer.compare(pulled, flashFile.subarray(start, start + region.size))).toBe(0);
  }, 120_000);

  it("push makes a payload the live pet; a damaged one is refused before connecting", async () => {
    const good = join(dir, "mango.pay");
    writeFileSync(good, petPayload("Mango", 77));
    // With the ESP32's profile (the default) the interpreter does not fit: refused, nothing sent.
    const refused = memoryIo();
    const saved = process.env.BOARD;
    delete process.env.BOARD;
    try {
      expect(await main(["push", "--port", PORT, good], refused)).toBe(1);
    } finally {
      if (saved !== undefined) process.env.BOARD = saved;
    }
    expect(refused.err).toMatch(/^the board at tcp:\S+ \(Espruino \S+ on LINUX\w*\) does not fit boards\/esp32\.json: this board reports BOARD "LINUX\w*".*Nothing was sent\.\n$/s);
    expect(((await evaluate("pet.status()")) as { name: string }).name).toBe("Kiwi");

    const io = memoryIo();
    expect(await main(["push", "--port", PORT, good, "--board", BOARD], io), io.err).toBe(0);
    const status = (await evaluate("pet.status()")) as { name: string; updateCount: string };
    expect(status.name).toBe("Mango");
    expect(Number(status.updateCount)).toBeGreaterThanOrEqual(77);

    const bad = join(dir, "bad.pay");
    writeFileSync(bad, rotten(petPayload("Mango", 78)));
    const badIo = memoryIo();
    expect(await main(["push", "--port", PORT, bad], badIo)).toBe(1);
    expect(badIo.err).toMatch(/bad-checksum[\s\S]*nothing was sent/);
    expect(((await evaluate("pet.status()")) as { name: string }).name).toBe("Mango");
  }, 120_000);
});
