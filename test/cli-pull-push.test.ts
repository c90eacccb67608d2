/**
 * `pet-save pull` and `push` without a board: a stand-in console (test/console-vm-board.ts) runs what
 * pull and push send in a vm context with Espruino's Flash (over a NorFlashSim at the ESP32 region's
 * address), E.CRC32, E.toString, btoa and print, the way the interpreter would. The image must come
 * back byte for byte; a transfer with a chunk missing or damaged writes nothing. push sends nothing
 * for a file that fails its check, and sends the current save of an image (never a torn one).
 */
import { afterAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bytesToHex } from "../src/core/hex";
import { main } from "../src/host/node/cli";
import { pullWith } from "../src/host/node/cli/pull";
import { parsePullLines, pullProgram } from "../src/inspect/regionPull";
import { payloadToPush, pushWith } from "../src/host/node/cli/push";
import { readProfile } from "../src/host/node/cli/regionFile";
import { BOARDS_DIR } from "../src/host/node/boardProfiles";
import type { Exchange } from "../src/boards/consoleProtocol";
import { vmBoard } from "./console-vm-board";
import { createEspruinoE } from "../src/host/emulator/espruinoE";
import { createFlashModule } from "../src/host/emulator/flashModule";
import { NorFlashSim } from "../src/storage/norFlashSim";
import { createSlotLog } from "../src/storage/slotLog";
import { loadWorld } from "../src/save/codec";
import { cleanImage, foreignImage, memoryIo, petPayload, rotten, tempDir, tornImage, writeImage } from "./region-tools-fixtures";

const dir = tempDir("pet-pull-push-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const esp32 = readProfile(join(BOARDS_DIR, "esp32.json"));
const REGION = esp32.profile.petRegion; // 0x310000, 64 KiB, 4 KiB pages

/** An ESP32's flash window holding a pet log with a few saves. */
function boardFlash(): NorFlashSim {
  const sim = new NorFlashSim({ size: REGION.size, pageSize: REGION.pageSize, baseAddress: REGION.address });
  const log = createSlotLog({ flash: sim, address: REGION.address, size: REGION.size, sectorSize: REGION.pageSize, isValidPayload: (p) => loadWorld(p, 0).status === "ok" }).log!;
  for (let u = 1; u <= 5; u++) log.save(petPayload("Bean", u));
  return sim;
}

/** A board's console over `sim`, as the interpreter runs what it is sent, with the globals pull and push rely on. */
function fakeBoard(sim: NorFlashSim, pet?: { importHex(hex: string): string }): Exchange {
  const flash = createFlashModule({ flash: sim, regionAddress: REGION.address, flashAddress: REGION.address, size: REGION.size }, { Uint8Array, ArrayBuffer });
  const E = { ...createEspruinoE(), toString: (d: Uint8Array) => String.fromCharCode(...d) };
  const board = vmBoard({ require: (name: string) => (name === "Flash" ? flash : undefined), E, btoa: (s: string) => Buffer.from(s, "latin1").toString("base64"), pet });
  board.noise.push("fake board: the pet's own console line the pull must ignore");
  return board.exchange;
}

/** What the board prints for the pull program, as one text. */
async function pullText(sim: NorFlashSim): Promise<string> {
  let text = "";
  await fakeBoard(sim)(pullProgram(REGION.address, REGION.size), (l) => ((text += l + "\n"), /PETPULL END/.test(l) ? true : null), 1000, "the pull");
  return text;
}

/** An Exchange that answers every pick from `text`'s lines (a transfer as it arrived). */
function replay(text: string): Exchange {
  return async (_sent, pick, _ms, what) => {
    for (const l of text.split("\n")) {
      const v = pick(l);
      if (v !== null && v !== undefined) return v;
    }
    throw new Error("no answer to " + what);
  };
}

describe("pull", () => {
  it("copies the board's region byte for byte into an image file", async () => {
    const sim = boardFlash();
    const out = join(dir, "pulled.bin");
    const io = memoryIo();
    expect(await pullWith(fakeBoard(sim), esp32, out, io)).toBe(0);
    expect(Buffer.compare(readFileSync(out), Buffer.from(sim.image()))).toBe(0);
    expect(io.err).toMatch(/current save at sector 0 slot 4/);
    // ...and the image is what inspect and extract work on.
    const pay = join(dir, "pulled.pay");
    expect(await main(["extract", out, "-o", pay, "--board", join(BOARDS_DIR, "esp32.json")], memoryIo())).toBe(0);
    expect(Buffer.compare(readFileSync(pay), Buffer.from(petPayload("Bean", 5)))).toBe(0);
  });

  it("the program reads only the profile's region, in chunks, through require(\"Flash\").read", () => {
    const code = pullProgram(REGION.address, REGION.size);
    expect(code).toContain('require("Flash")');
    expect(code).toContain("a=" + REGION.address + ",n=" + REGION.size);
    expect(code).not.toMatch(/erasePage|\.write\(/);
  });

  it("a missing chunk, a damaged chunk or a missing end writes nothing", async () => {
    const sim = boardFlash();
    const good = await pullText(sim);
    const lines = good.split("\n");
    const chunkLines = lines.filter((l) => /^PETPULL \d+ /.test(l));
    const dropped = lines.filter((l) => l !== chunkLines[10]).join("\n");
    expect(() => parsePullLines(dropped, REGION.size)).toThrow(/1 of 64 chunks are missing/);
    // One base64 character of chunk 3 changed: the bytes decode, but the CRC the board sent disagrees.
    const parts = (chunkLines[3] as string).split(" ");
    const data = parts[2] as string;
    parts[2] = data.slice(0, 10) + (data[10] === "A" ? "B" : "A") + data.slice(11);
    const damaged = good.replace(chunkLines[3] as string, parts.join(" "));
    expect(() => parsePullLines(damaged, REGION.size)).toThrow(/offset 3072 fails its CRC-32/);
    expect(() => parsePullLines(good.replace(/PETPULL END.*/, "PETPULL 0 AAAA 0"), REGION.size)).toThrow(/arrived twice/);
    expect(() => parsePullLines(good.replace(/PETPULL END.*/, ""), REGION.size)).toThrow(/did not finish/);
    expect(() => parsePullLines("Unable to connect!\n", REGION.size)).toThrow(/never started/);

    const out = join(dir, "never-written.bin");
    await expect(pullWith(replay(dropped), esp32, out, memoryIo())).rejects.toThrow(/nothing written/);
    expect(existsSync(out)).toBe(false);
  });
});

describe("push", () => {
  function recordingPet(answer = "ok") {
    const imported: string[] = [];
    return { imported, pet: { importHex: (hex: string) => (imported.push(hex), answer) } };
  }

  it("a payload that passes loadWorld is imported through pet.importHex", async () => {
    const payload = petPayload("Bean", 42);
    const { imported, pet } = recordingPet();
    const io = memoryIo();
    expect(await pushWith(fakeBoard(boardFlash(), pet), payloadToPush(payload, "bean.pay", undefined, Date.now()), "bean.pay", io)).toBe(0);
    expect(imported).toEqual([bytesToHex(payload)]);
    expect(io.err).toMatch(/imported it/);
  });

  it("an image sends its current save, never the torn one after it", async () => {
    const { sim, newestCommitted } = tornImage();
    const path = writeImage(dir, "torn.bin", sim);
    const payload = payloadToPush(readFileSync(path), path, undefined, Date.now());
    expect(Buffer.compare(Buffer.from(payload), Buffer.from(newestCommitted))).toBe(0);
    const { imported, pet } = recordingPet();
    await pushWith(fakeBoard(boardFlash(), pet), payload, path, memoryIo());
    expect(imported).toEqual([bytesToHex(newestCommitted)]);
  });

  it("a damaged payload or a foreign image is refused before anything is sent (exit 1)", async () => {
    const bad = join(dir, "bad.pay");
    writeFileSync(bad, rotten(petPayload("Bean", 3)));
    const io = memoryIo();
    // The port is never opened: the check fails first.
    expect(await main(["push", "--port", "tcp://127.0.0.1:9", bad], io)).toBe(1);
    expect(io.err).toMatch(/rejected: bad-checksum[\s\S]*nothing was sent/);
    const foreign = writeImage(dir, "foreign.bin", foreignImage());
    const io2 = memoryIo();
    expect(await main(["push", "--port", "tcp://127.0.0.1:9", foreign], io2)).toBe(1);
    expect(io2.err).toMatch(/no current save \(no-log/);
  });

  it("the board's refusal or a board without the pet firmware is exit 1 with the reason", async () => {
    const payload = cleanImage().newest;
    await expect(pushWith(fakeBoard(boardFlash(), recordingPet("bad-name").pet), payload, "x", memoryIo())).rejects.toThrow(
      /refused the import: bad-name/,
    );
    await expect(pushWith(fakeBoard(boardFlash()), payload, "x", memoryIo())).rejects.toThrow(/not running/);
  });
});
