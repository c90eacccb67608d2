/**
 * "Put Espruino on it first" in a real browser, with esptool-js replaced at the page's boundary to it
 * (globalThis.__espruinoPetFlasher, see src/web/device/esptoolFlasher.ts) by a fake that records
 * what it is asked to write: the three files are sorted by content and written at 0x1000, 0x8000
 * and 0x10000 in that order with a rising progress bar, then the page connects to the new Espruino
 * (the stand-in serial console) and uploads the pet. Files that do not keep the pet's region, another
 * chip, and a write that fails are refused with nothing (more) written and no upload.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openPageFixture, watchErrors, type PageFixture } from "./web-page";
import { installFakeSerial, type FakeState } from "./web-fake-serial";

interface Plan {
  chip: string;
  failAtPercent?: number;
}
interface Record_ {
  connects: number;
  writes: { address: number; length: number; first: number }[];
  eraseAll: boolean | null;
  progress: number[];
  finished: number;
}

/** Runs in the page: the fake flasher factory. */
function installFakeFlasher(plan: Plan): void {
  const rec: Record_ = { connects: 0, writes: [], eraseAll: null, progress: [], finished: 0 };
  (window as unknown as { __fakeEsptool: Record_ }).__fakeEsptool = rec;
  (globalThis as unknown as { __espruinoPetFlasher: unknown }).__espruinoPetFlasher = () => ({
    async connect() {
      rec.connects++;
      return plan.chip;
    },
    async write(images: { address: number; bytes: Uint8Array }[], eraseAll: boolean, progress: (d: number, t: number) => void) {
      rec.eraseAll = eraseAll;
      const total = images.reduce((n, i) => n + i.bytes.length, 0);
      let done = 0;
      for (const i of images) {
        for (let at = 0; at < i.bytes.length; at += 4096) {
          done += Math.min(4096, i.bytes.length - at);
          if (plan.failAtPercent !== undefined && (100 * done) / total >= plan.failAtPercent) throw new Error("Timeout waiting for packet header");
          progress(done, total);
          rec.progress.push(Math.round((100 * done) / total));
        }
        rec.writes.push({ address: i.address, length: i.bytes.length, first: i.bytes[0] as number });
      }
    },
    async finish() {
      rec.finished++;
    },
  });
}

/** An ESP-IDF partition table: 32-byte rows AA 50 type subtype offset size label, 0xFF after. */
function partitionTable(rows: [string, number, number, number, number][]): Uint8Array {
  const t = new Uint8Array(0xc00).fill(0xff);
  rows.forEach(([label, type, subtype, offset, size], k) => {
    const v = new DataView(t.buffer, k * 32, 32);
    v.setUint8(0, 0xaa);
    v.setUint8(1, 0x50);
    v.setUint8(2, type);
    v.setUint8(3, subtype);
    v.setUint32(4, offset, true);
    v.setUint32(8, size, true);
    for (let i = 0; i < 16; i++) v.setUint8(12 + i, i < label.length ? label.charCodeAt(i) : 0);
    v.setUint32(28, 0, true);
  });
  return t;
}
const ESPRUINO_TABLE = partitionTable([
  ["nvs", 1, 2, 0x9000, 0x6000],
  ["phy_init", 1, 1, 0xf000, 0x1000],
  ["factory", 0, 0, 0x10000, 0x300000],
  ["flash", 1, 0x40, 0x310000, 0x10000],
]);
// Before 2v26 Storage sat where the pet's region is now: no partition of its own at 0x310000.
const OLD_TABLE = partitionTable([
  ["nvs", 1, 2, 0x9000, 0x6000],
  ["phy_init", 1, 1, 0xf000, 0x1000],
  ["factory", 0, 0, 0x10000, 0x300000],
]);
const espImage = (size: number): Buffer => Buffer.from(new Uint8Array(size).fill(0x11).fill(0xe9, 0, 1));
const BOOT = { name: "bootloader.bin", mimeType: "application/octet-stream", buffer: espImage(24 * 1024) };
const FIRMWARE = { name: "espruino_esp32.bin", mimeType: "application/octet-stream", buffer: espImage(300 * 1024) };
const TABLE = { name: "partitions_espruino.bin", mimeType: "application/octet-stream", buffer: Buffer.from(ESPRUINO_TABLE) };

let fx: PageFixture;
beforeAll(async () => {
  fx = await openPageFixture();
});
afterAll(async () => {
  if (fx) await fx.close();
});

async function open(plan: Plan): Promise<{ page: Page; errors: string[] }> {
  const page = await fx.browser.context.newPage();
  const errors = watchErrors(page);
  await page.addInitScript(installFakeSerial, { board: "ESP32", version: "2v29" });
  await page.addInitScript(installFakeFlasher, plan);
  await page.goto(fx.url);
  await page.click("#tab-device");
  await page.click("#esp-box summary");
  return { page, errors };
}
const rec = (page: Page): Promise<Record_> => page.evaluate(() => (window as unknown as { __fakeEsptool: Record_ }).__fakeEsptool);
const serial = (page: Page): Promise<FakeState> => page.evaluate(() => (window as unknown as { __fakeSerial: FakeState }).__fakeSerial);

describe("writing Espruino with esptool-js", () => {
  it("writes the three files at 0x1000, 0x8000, 0x10000 in order with progress, then uploads the pet", async () => {
    const { page, errors } = await open({ chip: "ESP32" });
    // Picked in a muddled order: the page sorts them by what they are.
    await page.setInputFiles("#esp-files", [FIRMWARE, TABLE, BOOT]);
    await page.waitForSelector("#esp-result[data-state=ok]");
    await page.check("#esp-erase");
    await page.click("#esp-write");
    await page.waitForSelector("#dev-info[data-upload=done]", { timeout: 30_000 });
    const r = await rec(page);
    expect(r.writes).toEqual([
      { address: 0x1000, length: BOOT.buffer.length, first: 0xe9 },
      { address: 0x8000, length: TABLE.buffer.length, first: 0xaa },
      { address: 0x10000, length: FIRMWARE.buffer.length, first: 0xe9 },
    ]);
    expect(r.eraseAll).toBe(true);
    expect(r.finished).toBe(1);
    expect(r.progress.length).toBeGreaterThan(10);
    expect([...r.progress].sort((a, b) => a - b)).toEqual(r.progress);
    expect(await page.getAttribute("#esp-progress", "value")).toBe("100");
    expect((await serial(page)).loads).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("refuses a partition table without the pet's region (Espruino before 2v26) and writes nothing", async () => {
    const { page } = await open({ chip: "ESP32" });
    await page.setInputFiles("#esp-files", [BOOT, { ...TABLE, buffer: Buffer.from(OLD_TABLE) }, FIRMWARE]);
    await page.waitForSelector("#esp-result[data-state=error]");
    const text = await page.locator("#esp-result").innerText();
    expect(text).toContain("no partition at 0x310000 of 65536 bytes");
    expect(text).toContain("Nothing was written");
    expect(await page.isDisabled("#esp-write")).toBe(true);
    expect((await rec(page)).connects).toBe(0);
    await page.close();
  });

  it("refuses two files, or a file that is no ESP32 image", async () => {
    const { page } = await open({ chip: "ESP32" });
    await page.setInputFiles("#esp-files", [BOOT, { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") }]);
    await page.waitForSelector("#esp-result[data-state=error]");
    const text = await page.locator("#esp-result").innerText();
    expect(text).toContain("pick exactly three files");
    expect(text).toContain("notes.txt is neither an ESP32 image");
    await page.close();
  });

  it("refuses another chip before writing anything", async () => {
    const { page } = await open({ chip: "ESP32-S3" });
    await page.setInputFiles("#esp-files", [BOOT, TABLE, FIRMWARE]);
    await page.waitForSelector("#esp-result[data-state=ok]");
    await page.click("#esp-write");
    await page.waitForSelector("#esp-result[data-state=error]");
    expect(await page.locator("#esp-result").innerText()).toContain("this chip is ESP32-S3");
    const r = await rec(page);
    expect(r.connects).toBe(1);
    expect(r.writes).toEqual([]);
    expect((await serial(page)).writes).toBe(0);
    await page.close();
  });

  it("a write that fails half-way says so, does not reset or upload, and can be tried again", async () => {
    const { page } = await open({ chip: "ESP32", failAtPercent: 50 });
    await page.setInputFiles("#esp-files", [BOOT, TABLE, FIRMWARE]);
    await page.waitForSelector("#esp-result[data-state=ok]");
    await page.click("#esp-write");
    await page.waitForSelector("#esp-result[data-state=error]");
    expect(await page.locator("#esp-result").innerText()).toContain("Writing Espruino failed: Timeout waiting for packet header");
    const r = await rec(page);
    expect(r.finished).toBe(0);
    expect((await serial(page)).writes).toBe(0);
    expect(await page.isDisabled("#esp-write")).toBe(false);
    await page.close();
  });
});
