/**
 * The Device tab in a real browser against a stand-in navigator.serial (test/web-fake-serial.ts): it
 * identifies the board, refuses the wrong board, an old Espruino and a board that never answers,
 * uploads the ESP32 bundle into .bootcde piece by piece with a progress bar and loads it, shows the
 * live pet and acts on it, backs it up and restores through the codec, and stops cleanly (no
 * restart of a half-written file) when the connection is cut mid-upload.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { buildFirmware, DEFAULT_BOARD } from "../scripts/lib/build.js";
import { openPageFixture, watchErrors, type PageFixture } from "./web-page";
import { installFakeSerial, type FakeBoard, type FakeState } from "./web-fake-serial";
import { cleanImage } from "./region-tools-fixtures";

const golden = (name: string): string => fileURLToPath(new URL("./golden/" + name, import.meta.url));
const MINIMAL_HEX = readFileSync(golden("valid-minimal.hex"), "utf8").trim();

let fx: PageFixture;
let esp32Bundle: string;
beforeAll(async () => {
  fx = await openPageFixture();
  esp32Bundle = (await buildFirmware({ board: DEFAULT_BOARD, outFile: null })).code;
});
afterAll(async () => {
  if (fx) await fx.close();
});

async function deviceTab(board: FakeBoard | null): Promise<{ page: Page; errors: string[] }> {
  const page = await fx.browser.context.newPage();
  const errors = watchErrors(page);
  if (board === null) await page.addInitScript(() => Object.defineProperty(Navigator.prototype, "serial", { get: () => undefined }));
  else await page.addInitScript(installFakeSerial, board);
  await page.goto(fx.url);
  await page.click("#tab-device");
  return { page, errors };
}
const fake = (page: Page): Promise<FakeState> => page.evaluate(() => (window as unknown as { __fakeSerial: FakeState }).__fakeSerial);

describe("web device tab", () => {
  it("says plainly when the browser has no Web Serial", async () => {
    const { page } = await deviceTab(null);
    expect(await page.locator("#dev-support").innerText()).toContain("no Web Serial");
    expect(await page.isDisabled("#dev-connect")).toBe(true);
    await page.close();
  });

  it("refuses a board the profiles do not cover, and sends it nothing", async () => {
    const { page } = await deviceTab({ board: "ESP8266", version: "2v29" });
    await page.click("#dev-connect");
    await page.waitForSelector("#dev-info[data-state=error]");
    expect(await page.locator("#dev-info").innerText()).toContain('BOARD "ESP8266"');
    expect(await page.isDisabled("#dev-upload")).toBe(true);
    expect((await fake(page)).writes).toBe(0);
    await page.close();
  });

  it("refuses an ESP32 with an Espruino older than 2v26", async () => {
    const { page } = await deviceTab({ board: "ESP32", version: "2v25" });
    await page.click("#dev-connect");
    await page.waitForSelector("#dev-info[data-state=error]");
    expect(await page.locator("#dev-info").innerText()).toContain("needs 2v26 or later");
    await page.close();
  });

  it("gives up on a board that never answers, saying what to check", async () => {
    const { page } = await deviceTab({ board: "ESP32", version: "2v29", silent: true });
    await page.click("#dev-connect");
    await page.waitForSelector("#dev-info[data-state=error]");
    expect(await page.locator("#dev-info").innerText()).toContain("did not answer");
    expect(await page.isDisabled("#dev-connect")).toBe(false);
    await page.close();
  });

  it("uploads the ESP32 bundle into .bootcde, loads it and shows the live pet; acts on it and backs it up", async () => {
    const region = cleanImage().sim.image(); // three saves of "Mochi", the newest with 3 updates
    const { page, errors } = await deviceTab({ board: "ESP32", version: "2v29", exportHex: MINIMAL_HEX, region: Array.from(region) });
    await page.click("#dev-connect");
    await page.waitForFunction(() => document.getElementById("dev-info")!.textContent!.includes("supported"));
    expect(await page.locator("#dev-status").innerText()).toContain("No pet");
    await page.click("#dev-upload");
    await page.waitForSelector("#dev-info[data-upload=done]");
    expect(await page.getAttribute("#dev-progress", "value")).toBe("100");
    const state = await fake(page);
    expect(state.files[".bootcde"]).toBe(esp32Bundle);
    expect(state.writes).toBe(Math.ceil(esp32Bundle.length / 1024));
    expect(state.loads).toBe(1);
    await page.waitForSelector("#dev-status[data-name=Pip]");

    await page.click("#dev-interact");
    await expect.poll(async () => (await fake(page)).pet!.updates).toBe(1);

    page.once("dialog", (d) => void d.accept("Rex"));
    await page.click("#dev-rename");
    await page.waitForSelector("#dev-status[data-name=Rex]");

    const [d] = await Promise.all([page.waitForEvent("download"), page.click("#dev-download")]);
    expect(readFileSync((await d.path()) as string, "utf8").trim()).toBe(MINIMAL_HEX);
    const [b] = await Promise.all([page.waitForEvent("download"), page.click("#dev-download-bin")]);
    expect(readFileSync((await b.path()) as string).toString("hex")).toBe(MINIMAL_HEX);

    // The whole region, read as pet-save pull reads it: byte for byte the board's.
    const [img] = await Promise.all([page.waitForEvent("download"), page.click("#dev-download-image")]);
    expect(Buffer.compare(readFileSync((await img.path()) as string), Buffer.from(region))).toBe(0);
    expect(await page.locator("#dev-info").innerText()).toContain("current save at sector 0 slot 2");

    await page.setInputFiles("#dev-restore", golden("reject-bad-checksum.hex"));
    await page.waitForFunction(() => document.getElementById("dev-info")!.textContent!.includes("rejected: bad-checksum"));
    expect((await fake(page)).imported).toEqual([]);
    await page.setInputFiles("#dev-restore", golden("valid-utf8-name.hex"));
    await page.waitForFunction(() => document.getElementById("dev-info")!.textContent!.includes("importHex() answered"));
    expect((await fake(page)).imported).toEqual([readFileSync(golden("valid-utf8-name.hex"), "utf8").trim()]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a connection cut mid-upload stops with the byte count, never loads the half-written file, and leaves the old pet running", async () => {
    const { page } = await deviceTab({ board: "ESP32", version: "2v29", runningPet: "Old", cutAfterChunks: 3 });
    await page.click("#dev-connect");
    await page.waitForSelector("#dev-status[data-name=Old]");
    await page.click("#dev-upload");
    await page.waitForSelector("#dev-info[data-upload=failed]");
    const text = await page.locator("#dev-info").innerText();
    expect(text).toContain("Upload stopped at byte 3072 of " + esp32Bundle.length);
    expect(text).toContain("save is untouched");
    const state = await fake(page);
    expect(state.loads).toBe(0);
    expect(state.pet!.name).toBe("Old");
    expect(await page.isDisabled("#dev-connect")).toBe(false);
    for (const b of ["#dev-upload", "#dev-interact", "#dev-download-image"]) expect(await page.isDisabled(b)).toBe(true);
    await page.close();
  });
});
