/**
 * "1. Espruino on the board" in a real browser, with the real esptool-js built into the page talking
 * to stand-ins: a serial port that, like a real one, refuses a second open while the first is open
 * (test/web-fake-serial.ts), and an ESP32 ROM and flasher stub behind it (test/web-fake-esp32-rom.ts).
 *
 * A board that does not enter its download mode (its auto-reset does not pull IO0 low; the chip boots
 * Espruino, which echoes esptool's bytes back as text, as a board not in download mode does) fails
 * to connect within a few seconds, is tried once more at 115200 baud, and leaves the port closed
 * after each try; with BOOT held, the next Write goes through: the chip, its MAC and flash size are
 * shown and asked about before anything is written, the pet's region is read and kept as a backup,
 * the three files (picked, or the release .tgz as downloaded) are written at 0x1000, 0x8000 and
 * 0x10000 and checked by MD5, the board is reset into Espruino and the pet uploaded; the pet of the
 * erased board is then put back from the backup. Another chip, a flash too small, files that do not
 * keep the pet's region, and a write that fails half-way are refused or reported, with the port
 * closed and a retry that works.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { acceptDialogs, openPageFixture, watchErrors, type PageFixture } from "./web-page";
import { installFakeSerial, type FakeBoard, type FakeState } from "./web-fake-serial";
import type { RomPlan, RomRecord } from "./web-fake-esp32-rom";
import { cleanImage, tempDir } from "./region-tools-fixtures";
import { ARDUINO_DEFAULT_ROWS, ESPRUINO_2V26_ROWS, partitionTable } from "./partition-tables";
import { bytesToHex } from "../src/core/hex";

// Espruino's own table (2v26 on), and Arduino's default one, whose SPIFFS covers the pet's region.
const ESPRUINO_TABLE = partitionTable(ESPRUINO_2V26_ROWS);
const NOT_ESPRUINO_TABLE = partitionTable(ARDUINO_DEFAULT_ROWS);
/** An ESP image of `size` bytes (first byte 0xE9), its bytes varied so each file is its own. */
const espImage = (size: number, seed: number): Buffer => {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + seed * 7 + (i >> 9)) & 0xff;
  b[0] = 0xe9;
  return b;
};
const file = (name: string, buffer: Buffer | Uint8Array): { name: string; mimeType: string; buffer: Buffer } => ({ name, mimeType: "application/octet-stream", buffer: Buffer.from(buffer) });
const BOOT = file("bootloader.bin", espImage(24 * 1024, 1));
const FIRMWARE = file("espruino_esp32.bin", espImage(64 * 1024, 2));
const TABLE = file("partitions_espruino.bin", ESPRUINO_TABLE);
const md5 = (b: Buffer): string => createHash("md5").update(b).digest("hex");
const REGION = cleanImage().sim.image(); // three saves of "Mochi", the newest with 3 updates
const BOARD: FakeBoard = { board: "ESP32", version: "2v29", runningPet: "Old", region: Array.from(REGION) };

let fx: PageFixture;
let romScript: string;
let releaseTgz: Buffer;
beforeAll(async () => {
  fx = await openPageFixture();
  const rom = await build({ entryPoints: [join(__dirname, "web-fake-esp32-rom.ts")], bundle: true, format: "iife", globalName: "__fakeRomModule", write: false, logLevel: "silent" });
  romScript = rom.outputFiles[0]!.text;
  // The release as espruino.com ships it: a folder in a gzipped tar, made here by GNU tar.
  const dir = tempDir("pet-release-");
  const inner = join(dir, "espruino_2v29_esp32");
  mkdirSync(inner);
  for (const f of [BOOT, TABLE, FIRMWARE]) writeFileSync(join(inner, f.name), f.buffer);
  writeFileSync(join(inner, "README_flash.txt"), "esptool.py write_flash 0x1000 bootloader.bin 0x8000 partitions_espruino.bin 0x10000 espruino_esp32.bin\n");
  execFileSync("tar", ["czf", join(dir, "espruino_2v29_esp32.tgz"), "-C", dir, "espruino_2v29_esp32"]);
  releaseTgz = readFileSync(join(dir, "espruino_2v29_esp32.tgz"));
});
afterAll(async () => {
  if (fx) await fx.close();
});

async function open(plan: RomPlan, board: FakeBoard = BOARD): Promise<{ page: Page; errors: string[]; dialogs: string[] }> {
  const page = await fx.browser.context.newPage();
  const errors = watchErrors(page);
  const dialogs = acceptDialogs(page);
  await page.addInitScript({ content: romScript + "\n__fakeRomModule.installFakeRom(" + JSON.stringify(plan) + ");" });
  await page.addInitScript(installFakeSerial, board);
  await page.goto(fx.url);
  await page.click("#tab-device");
  return { page, errors, dialogs };
}
const rom = (page: Page): Promise<RomRecord> => page.evaluate(() => (window as unknown as { __espRom: { record: RomRecord } }).__espRom.record);
const serial = (page: Page): Promise<FakeState> => page.evaluate(() => (window as unknown as { __fakeSerial: FakeState }).__fakeSerial);
const holdBoot = (page: Page): Promise<void> => page.evaluate(() => void ((window as unknown as { __fakeSerial: FakeState }).__fakeSerial.holdBoot = true));
const result = (page: Page): Promise<string> => page.locator("#esp-result").innerText();

describe("installing Espruino with the real esptool-js", () => {
  it("a board not in download mode: the connect fails within seconds, is tried again at 115200, and leaves the port closed; with BOOT held the write goes through, shown and asked first, backed up, checked, then the pet is uploaded and the old one put back", async () => {
    const { page, errors, dialogs } = await open({});
    expect(await page.getAttribute("#step-espruino", "open")).not.toBeNull();
    await page.setInputFiles("#esp-files", [FIRMWARE, TABLE, BOOT]); // a muddled order: sorted by content
    await page.waitForSelector("#esp-result[data-state=ok]");
    await page.check("#esp-erase");

    await page.click("#esp-install");
    await page.waitForSelector("#esp-result[data-state=error]", { timeout: 30_000 });
    expect(await result(page)).toContain("Could not reach the ESP32's download mode");
    expect(await result(page)).toContain("hold the BOOT button");
    const log = await page.locator("#esp-log").innerText();
    expect(log).toContain("The chip started in boot mode 0x13 (its firmware in flash), not in its download mode");
    expect(await result(page)).toContain("the chip started in boot mode 0x13");
    expect(log).toContain("Trying once more at 115200 baud");
    let s = await serial(page);
    expect(s.port.open).toBe(false);
    expect(s.port.opens).toBe(2); // one try at each speed, each opened a closed port
    expect(s.port.closes).toBe(2);
    expect(s.port.refusedOpens).toBe(0);
    expect(s.boots.every((b) => b === "firmware")).toBe(true);
    expect(dialogs).toEqual([]);

    await holdBoot(page); // the person holds BOOT and tries again
    await page.click("#esp-install");
    await page.waitForSelector("#dev-info[data-upload=done]", { timeout: 30_000 });
    expect(dialogs[0]).toContain("Install Espruino on this ESP32-D0WD-V3 (revision 3), MAC 24:0a:c4:12:34:56, flash 4MB");
    expect(dialogs[0]).toContain("The whole flash is erased first");
    expect(dialogs[0]).toContain("Backed up the pet's region first (Mochi, updates 3)");
    const r = await rom(page);
    expect(r.reads).toEqual([{ address: 0x310000, size: 0x10000 }]);
    expect(r.eraseAll).toBe(1);
    expect(r.writes).toEqual([
      { address: 0x1000, length: BOOT.buffer.length, md5: md5(BOOT.buffer) },
      { address: 0x8000, length: TABLE.buffer.length, md5: md5(TABLE.buffer) },
      { address: 0x10000, length: FIRMWARE.buffer.length, md5: md5(FIRMWARE.buffer) },
    ]);
    expect(r.bauds).toEqual([921600]);
    expect(await page.getAttribute("#esp-progress", "value")).toBe("100");
    expect(await page.locator("#esp-log").textContent()).toContain("Hash of data verified"); // (step 1 is closed by now)
    s = await serial(page);
    expect(s.boots.filter((b) => b === "download").length).toBe(1);
    expect(s.boots[s.boots.length - 1]).toBe("firmware"); // reset into Espruino after the write
    expect(s.loads).toBe(1);
    expect(await page.getAttribute("#step-pet", "open")).not.toBeNull();

    // The erased board now runs a new Pip; the backup taken before writing brings Mochi back.
    await page.click("#tab-backups");
    const row = page.locator("#backups-list tr", { hasText: "before installing Espruino" });
    expect(await row.locator("td").nth(3).innerText()).toBe("Mochi, updates 3");
    await row.getByRole("button", { name: /^Onto the board/ }).click();
    await page.waitForFunction(() => document.getElementById("backups-result")!.textContent!.includes("answered"));
    expect(await page.locator("#backups-result").innerText()).toContain('pet.importHex() answered "ok"');
    expect((await serial(page)).imported).toEqual([bytesToHex(cleanImage().newest)]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("takes the release .tgz as downloaded, picked or dropped on the page, and unpacks it in the page", async () => {
    const { page } = await open({});
    await page.click("#tab-sim");
    await page.evaluate(
      ({ data }) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(data)], "espruino_2v29_esp32.tgz"));
        document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      { data: Array.from(releaseTgz) },
    );
    await page.waitForSelector("#esp-result[data-state=ok]");
    expect(await page.getAttribute("#tab-device", "aria-selected")).toBe("true");
    expect(await page.$eval("#esp-files", (el) => Array.from((el as HTMLInputElement).files!, (f) => f.name))).toEqual(["espruino_2v29_esp32.tgz"]); // shown as picked
    const text = await result(page);
    expect(text).toContain("from espruino_2v29_esp32.tgz: bootloader.bin, partitions_espruino.bin, espruino_esp32.bin");
    expect(text).toMatch(/0x1000 +bootloader\.bin \(bootloader, 24576 bytes\)/);
    expect(text).toMatch(/0x10000 +espruino_esp32\.bin \(Espruino firmware, 65536 bytes\)/);
    expect(await page.isDisabled("#esp-install")).toBe(false);
    // A download cut short: said so, with what to do, and nothing about picking three files.
    await page.setInputFiles("#esp-files", [file("espruino_2v29_esp32.tgz", releaseTgz.subarray(0, releaseTgz.length >> 1))]);
    await page.waitForSelector("#esp-result[data-state=error]");
    let text2 = await result(page);
    expect(text2).toContain("espruino_2v29_esp32.tgz is cut short");
    expect(text2).toContain("Download the ESP32 release again from espruino.com");
    expect(text2).toContain("Nothing was written");
    expect(text2).not.toContain("three files;");
    expect(text2).not.toContain("Failed to fetch");
    expect(await page.isDisabled("#esp-install")).toBe(true);
    await page.setInputFiles("#esp-files", [file("espruino_2v29_esp32.tgz", releaseTgz)]);
    await page.waitForSelector("#esp-result[data-state=ok]");
    // A web page saved under the release's name (a failed download), dropped on the page: it still
    // goes to step 1, which says what it is.
    await page.click("#tab-files");
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(["<!DOCTYPE html><html><body>Not found</body></html>"], "espruino_2v29_esp32.tgz"));
      document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await page.waitForSelector("#esp-result[data-state=error]");
    expect(await page.getAttribute("#tab-device", "aria-selected")).toBe("true");
    text2 = await result(page);
    expect(text2).toContain("espruino_2v29_esp32.tgz is a web page (HTML), not the release");
    expect(text2).not.toContain("three files;");
    await page.close();
  });

  it("refuses another chip and a flash too small before writing anything, with the port closed", async () => {
    for (const [plan, words] of [
      [{ chip: "ESP32-C3" }, "This chip is ESP32-C3"],
      [{ flashId: 0x1540ef }, "needs 4 MB of flash"],
    ] as const) {
      const { page, dialogs } = await open(plan);
      await page.setInputFiles("#esp-files", [BOOT, TABLE, FIRMWARE]);
      await page.waitForSelector("#esp-result[data-state=ok]");
      await holdBoot(page);
      await page.click("#esp-install");
      await page.waitForSelector("#esp-result[data-state=error]", { timeout: 30_000 });
      expect(await result(page)).toContain(words);
      expect(await result(page)).toContain("Nothing was written");
      expect((await rom(page)).writes).toEqual([]);
      expect((await serial(page)).port.open).toBe(false);
      expect(dialogs).toEqual([]);
      await page.close();
    }
  });

  it("refuses a partition table that puts something else over the pet's region, and files that are not a release, without connecting", async () => {
    const { page } = await open({});
    await page.setInputFiles("#esp-files", [BOOT, file("partitions_espruino.bin", NOT_ESPRUINO_TABLE), FIRMWARE]);
    await page.waitForSelector("#esp-result[data-state=error]");
    expect(await result(page)).toContain('puts its partition "spiffs" (0x290000 to 0x400000) over the pet\'s region at 0x310000');
    expect(await result(page)).toContain("Nothing was written");
    expect(await page.isDisabled("#esp-install")).toBe(true);
    await page.setInputFiles("#esp-files", [BOOT, { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") }]);
    await page.waitForSelector("#esp-result[data-state=error] >> text=notes.txt is neither an ESP32 image");
    expect(await result(page)).toContain("pick exactly three files");
    expect((await serial(page)).port.opens).toBe(0);
    await page.close();
  });

  it("a write that fails half-way says so, closes the port, does not reset or upload, and Write then works", async () => {
    const { page } = await open({ failAtBlock: 2 });
    await page.setInputFiles("#esp-files", [BOOT, TABLE, FIRMWARE]);
    await page.waitForSelector("#esp-result[data-state=ok]");
    await holdBoot(page);
    await page.click("#esp-install");
    await page.waitForSelector("#esp-result[data-state=error]", { timeout: 30_000 });
    expect(await result(page)).toContain("Installing Espruino failed");
    expect(await result(page)).toContain("partial image");
    let s = await serial(page);
    expect(s.port.open).toBe(false);
    expect(s.boots[s.boots.length - 1]).toBe("download"); // not reset into a half-written firmware
    expect(s.loads).toBe(0);
    expect((await rom(page)).failedBlocks).toBeGreaterThan(0);

    await holdBoot(page);
    await page.click("#esp-install");
    await page.waitForSelector("#dev-info[data-upload=done]", { timeout: 30_000 });
    expect((await rom(page)).writes.slice(-3).map((w) => w.address)).toEqual([0x1000, 0x8000, 0x10000]);
    s = await serial(page);
    expect(s.port.refusedOpens).toBe(0);
    expect(s.loads).toBe(1);
    await page.close();
  });
});
