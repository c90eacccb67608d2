/**
 * The Device tab in a real browser against a stand-in navigator.serial (test/web-fake-serial.ts): it
 * identifies the board and opens the step the board needs; refuses the wrong board, an old Espruino
 * and a board that never answers; says what to check when no port is chosen; keeps a backup of the
 * pet's region, then uploads the ESP32 bundle into .bootcde piece by piece with a progress bar and
 * loads it; shows the live pet and acts on it, with every answer shown (a rejected rename too); hatch
 * and restore ask first, keep a backup, and cancelling hatches or sends nothing; backs up and
 * restores through the codec; copies the pet between the board and the simulator both ways; lets
 * go of the port with no uncaught error when Disconnect comes while a question is still being
 * written; and stops cleanly (no restart of a half-written file) when the connection is cut mid-upload.
 */
import { blockFormCode } from "../src/boards/bundleForm";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Dialog, Page } from "playwright-core";
import { buildFirmware, DEFAULT_BOARD } from "../scripts/lib/build.js";
import { canvasRows, openPageFixture, watchErrors, type PageFixture } from "./web-page";
import { NAME_ROWS, nameRows } from "./web-name-drawing";
import { installFakeSerial, type FakeBoard, type FakeState } from "./web-fake-serial";
import { cleanImage, tornImage } from "./region-tools-fixtures";
import { hexToBytes } from "../src/core/hex";
import { loadWorld } from "../src/save/codec";
import { nameToString } from "../src/core/name";
import { BODY_FILE, functionForm } from "../src/boards/bundleForm";

const golden = (name: string): string => fileURLToPath(new URL("./golden/" + name, import.meta.url));
const MINIMAL_HEX = readFileSync(golden("valid-minimal.hex"), "utf8").trim();
const UTF8_HEX = readFileSync(golden("valid-utf8-name.hex"), "utf8").trim();

let fx: PageFixture;
let esp32Bundle: string;
beforeAll(async () => {
  fx = await openPageFixture();
  esp32Bundle = (await buildFirmware({ board: DEFAULT_BOARD, outFile: null })).code;
});
afterAll(async () => {
  if (fx) await fx.close();
});

/**
 * A page on the Device tab with the stand-in board. `answers` are given, in order, to the page's
 * questions (confirm and prompt): true accepts, false cancels, a string is typed in.
 */
async function deviceTab(board: FakeBoard | null, answers: (boolean | string)[] = []): Promise<{ page: Page; errors: string[]; asked: string[] }> {
  const page = await fx.browser.context.newPage();
  const errors = watchErrors(page);
  const asked: string[] = [];
  page.on("dialog", (d: Dialog) => {
    asked.push(d.message());
    const a = answers.shift();
    void (a === false || a === undefined ? d.dismiss() : d.accept(typeof a === "string" ? a : undefined));
  });
  if (board === null) await page.addInitScript(() => Object.defineProperty(Navigator.prototype, "serial", { get: () => undefined }));
  else await page.addInitScript(installFakeSerial, board);
  await page.goto(fx.url);
  await page.click("#tab-device");
  return { page, errors, asked };
}
const fake = (page: Page): Promise<FakeState> => page.evaluate(() => (window as unknown as { __fakeSerial: FakeState }).__fakeSerial);
const info = (page: Page): Promise<string> => page.locator("#dev-info").innerText();
const infoHas = (page: Page, text: string): Promise<unknown> => page.waitForFunction((t) => document.getElementById("dev-info")!.textContent!.includes(t), text);
const openStep = (page: Page): Promise<string | null> => page.getAttribute("body", "data-device-step");

describe("web device tab", () => {
  it("says plainly when the browser has no Web Serial, and offers nothing it cannot do", async () => {
    const { page } = await deviceTab(null);
    expect(await page.locator("#dev-support").innerText()).toContain("This browser has no Web Serial");
    expect(await page.locator("#dev-support").innerText()).not.toContain("`");
    for (const id of ["#dev-connect", "#esp-files", "#esp-install"]) expect(await page.isDisabled(id)).toBe(true);
    await page.close();
  });

  it("no port chosen: says what to check (cable, driver)", async () => {
    const { page } = await deviceTab({ board: "ESP32", version: "2v29", noPortChosen: true });
    await page.click("#dev-connect");
    await page.waitForSelector("#dev-info[data-state=error]");
    const text = await info(page);
    expect(text).toContain("No port chosen");
    expect(text).toContain("cable that carries data");
    expect(text).toContain("CP210x or CH340");
    await page.close();
  });

  it("refuses a board the profiles do not cover, and an old Espruino, sends them nothing, and opens step 1", async () => {
    for (const [board, version, words] of [
      ["ESP8266", "2v29", 'BOARD "ESP8266"'],
      ["ESP32", "2v05", "needs 2v06 or later"],
    ]) {
      const { page } = await deviceTab({ board: board as string, version: version as string });
      await page.click("#dev-connect");
      await page.waitForSelector("#dev-info[data-state=error]");
      expect(await info(page)).toContain(words);
      expect(await page.isDisabled("#dev-upload")).toBe(true);
      expect((await fake(page)).writes).toBe(0);
      expect(await openStep(page)).toBe("espruino");
      expect((await fake(page)).port.open).toBe(false);
      await page.close();
    }
  });

  it("gives up on a board that never answers, saying what to check, with step 1 open and the port closed", async () => {
    const { page } = await deviceTab({ board: "ESP32", version: "2v29", silent: true });
    await page.click("#dev-connect");
    await page.waitForSelector("#dev-info[data-state=error]");
    expect(await info(page)).toContain("did not answer");
    expect(await page.isDisabled("#dev-connect")).toBe(false);
    expect(await openStep(page)).toBe("espruino");
    expect((await fake(page)).port.open).toBe(false);
    await page.close();
  });

  it("keeps a backup, uploads the ESP32 bundle into .bootcde, loads it and shows the live pet; acts on it and backs it up", async () => {
    const region = cleanImage().sim.image(); // three saves of "Mochi", the newest with 3 updates
    // The board ran the function form under an older Espruino: its body file is still in Storage.
    const earlier = { [BODY_FILE]: "old body", ".bootcde": "old head" };
    const { page, errors, asked } = await deviceTab({ board: "ESP32", version: "2v29", exportHex: MINIMAL_HEX, region: Array.from(region), files: earlier }, [true]);
    await page.click("#dev-connect");
    await infoHas(page, "supported");
    await page.waitForFunction(() => document.getElementById("dev-status")!.textContent!.includes("No pet"));
    await expect.poll(() => openStep(page)).toBe("firmware");
    await page.click("#dev-upload");
    await page.waitForSelector("#dev-info[data-upload=done]");
    expect(await openStep(page)).toBe("pet");
    expect(await page.getAttribute("#dev-progress", "value")).toBe("100");
    const state = await fake(page);
    // What the upload sends: the bundle pretokenised (src/boards/pretokenise.ts).
    expect(state.files[".bootcde"]).toBe(blockFormCode(esp32Bundle));
    expect(state.writes).toBe(Math.ceil(blockFormCode(esp32Bundle).length / 1024));
    expect(state.loads).toBe(1);
    // The old body is erased, after the new .bootcde is written and checked and before the load.
    expect(Object.keys(state.files)).toEqual([".bootcde"]);
    const at = (text: string): number => state.log.findIndex((l) => l.includes(text));
    expect(at("#pet-erased")).toBeGreaterThan(at("#pet-crc"));
    expect(at("#pet-erased")).toBeLessThan(at('load(".bootcde")'));
    // The backup before the upload read what the slot log reads, one sector per request.
    const pulls = (log: string[]): string[] => log.filter((l) => l.includes("PETPULL BEGIN"));
    expect(pulls(state.log)).toHaveLength(16);
    expect(pulls(state.log).every((l) => l.includes("PETPULL SKIP"))).toBe(true);
    await page.waitForSelector("#dev-status[data-name=Pip]", { state: "attached" });

    await page.click("#dev-interact");
    await expect.poll(async () => (await fake(page)).pet!.updates).toBe(1);
    await page.fill("#dev-name", "Rex");
    await page.click("#dev-rename");
    await page.waitForSelector("#dev-status[data-name=Rex]", { state: "attached" });

    // Downloads are named after the pet and the day: the page's own date, as it writes it.
    const date = await page.evaluate(() => {
      const t = new Date();
      return t.getFullYear() + "-" + String(t.getMonth() + 1).padStart(2, "0") + "-" + String(t.getDate()).padStart(2, "0");
    });
    const [d] = await Promise.all([page.waitForEvent("download"), page.click("#dev-download")]);
    expect(d.suggestedFilename()).toBe("a-" + date + "-save.hex"); // valid-minimal's pet is "A"
    expect(readFileSync((await d.path()) as string, "utf8").trim()).toBe(MINIMAL_HEX);
    const [b] = await Promise.all([page.waitForEvent("download"), page.click("#dev-download-bin")]);
    expect(readFileSync((await b.path()) as string).toString("hex")).toBe(MINIMAL_HEX);

    // The whole region, read as pet-save pull reads it: byte for byte the board's.
    const [img] = await Promise.all([page.waitForEvent("download"), page.click("#dev-download-image")]);
    expect(img.suggestedFilename()).toBe("mochi-" + date + "-region.bin"); // the pet current in it, and the day
    expect(Buffer.compare(readFileSync((await img.path()) as string), Buffer.from(region))).toBe(0);
    expect(pulls((await fake(page)).log).filter((l) => !l.includes("PETPULL SKIP"))).toHaveLength(16); // every byte, page by page
    expect(await info(page)).toContain("Mochi, updates 3");

    await page.setInputFiles("#dev-restore", golden("reject-bad-checksum.hex"));
    await infoHas(page, "rejected: bad-checksum");
    expect((await fake(page)).imported).toEqual([]);
    await page.setInputFiles("#dev-restore", golden("valid-utf8-name.hex"));
    await infoHas(page, "importHex() answered");
    expect(asked[asked.length - 1]).toContain("Replace Rex on the board with Zoë 🐾");
    expect((await fake(page)).imported).toEqual([UTF8_HEX]);

    // Backups were kept before the upload and before the restore, both of the board's region.
    await page.click("#tab-backups");
    const rows = page.locator("#backups-list tr[data-source=board]");
    await expect.poll(() => rows.count()).toBe(1); // the same region twice is kept once
    expect(await rows.first().innerText()).toContain("before uploading the pet firmware");
    expect(await rows.first().innerText()).toContain("Mochi, updates 3");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows a rejected rename and refuses what the name rule refuses; asks before hatching and restoring, and cancelling sends nothing", async () => {
    const { page, asked } = await deviceTab({ board: "ESP32", version: "2v29", runningPet: "Old", renameAnswer: "bad-name", region: Array.from(tornImage().sim.image()) }, [
      false, // hatch Pip? no
      true, // hatch Tom? yes
      false, // restore? no
    ]);
    await page.click("#dev-connect");
    await page.waitForSelector("#dev-status[data-name=Old]", { state: "attached" });
    expect(await openStep(page)).toBe("pet");
    // The board refuses a name the page's rule takes: its answer is shown with what it means.
    await page.fill("#dev-name", "a name the board refuses");
    await page.click("#dev-rename");
    await infoHas(page, 'pet.rename() answered "bad-name": the name length is not 1 to 31');
    expect(await page.getAttribute("#dev-info", "data-state")).toBe("error");
    // A name the rule refuses is said so as it is typed, and cannot be sent.
    const renamesSent = (await fake(page)).log.filter((l) => l.includes("pet.rename(")).length;
    await page.fill("#dev-name", "\u00e9".repeat(16));
    expect(await page.locator("#dev-name-note").innerText()).toContain("Too long: this name is 32 bytes of UTF-8");
    expect(await page.isDisabled("#dev-rename")).toBe(true);
    expect(await page.isDisabled("#dev-hatch")).toBe(true);
    expect((await fake(page)).log.filter((l) => l.includes("pet.rename(")).length).toBe(renamesSent);

    await page.fill("#dev-name", "");
    await page.click("#dev-hatch");
    await infoHas(page, "Nothing hatched");
    expect((await fake(page)).hatched).toEqual([]);
    await page.fill("#dev-name", "Tom");
    await page.click("#dev-hatch");
    await page.waitForSelector("#dev-status[data-name=Tom]", { state: "attached" });
    expect((await fake(page)).hatched).toEqual(["Tom"]);
    expect(asked.filter((q) => q.startsWith("Hatch a new pet called ") && q.includes(" on the board? Old is replaced"))).toHaveLength(2);

    await page.setInputFiles("#dev-restore", golden("valid-utf8-name.hex"));
    await infoHas(page, "Not restored");
    expect((await fake(page)).imported).toEqual([]);

    await page.click("#tab-backups");
    expect(await page.locator("#backups-list tr", { hasText: "before hatching" }).count()).toBe(1);
    await page.close();
  });

  it("draws a name the panel's font lacks letters of as the board does: Zoë as Zoe", async () => {
    const { page } = await deviceTab({ board: "ESP32", version: "2v29", runningPet: "Old" });
    await page.click("#dev-connect");
    await page.waitForSelector("#dev-status[data-name=Old]", { state: "attached" });
    await page.fill("#dev-name", "Zo\u00eb");
    expect(await page.locator("#dev-name-note").innerText()).toContain("The board's screen has no \u201c\u00eb\u201d: it shows this name as \u201cZoe\u201d");
    await page.click("#dev-rename");
    await page.waitForSelector("#dev-status[data-name='Zo\u00eb']", { state: "attached" });
    await expect.poll(() => canvasRows(page, "dev-oled", NAME_ROWS)).toEqual(nameRows("Zoe"));
    await page.close();
  });

  it("copies the board's pet into the simulator, and the simulator's pet onto the board, asking first", async () => {
    const region = cleanImage().sim.image();
    const { page, asked } = await deviceTab({ board: "ESP32", version: "2v29", runningPet: "Old", region: Array.from(region) }, [true, true]);
    await page.waitForSelector("body[data-sim=running]");
    await page.click("#dev-connect");
    await page.waitForSelector("#dev-status[data-name=Old]", { state: "attached" });
    await page.click("#dev-to-sim");
    await infoHas(page, "The simulator now runs the pet of the board's region (Mochi, updates 3)");
    expect(asked[0]).toContain("with the board's region (Mochi, updates 3)");
    await expect.poll(() => page.getAttribute("#sim-status", "data-name")).toBe("Mochi");

    await page.click("#dev-from-sim");
    await infoHas(page, 'pet.importHex() answered "ok"');
    expect(asked[1]).toContain("Replace Old on the board with Mochi (the simulator)");
    const imported = (await fake(page)).imported;
    expect(imported.length).toBe(1);
    const sent = loadWorld(hexToBytes(imported[0] as string)!, 0);
    expect(sent.status).toBe("ok");
    expect(nameToString(sent.world!.name)).toBe("Mochi");
    await page.close();
  });

  it("Disconnect while a status question is still being written: the port is let go with no uncaught error, and the page says Disconnected", async () => {
    const { page, errors } = await deviceTab({ board: "ESP32", version: "2v29", runningPet: "Old" });
    await page.click("#dev-connect");
    await page.waitForSelector("#dev-status[data-name=Old]", { state: "attached" });
    await page.evaluate(() => void ((window as unknown as { __fakeSerial: FakeState }).__fakeSerial.holdWrites = true));
    // The next poll's pet.status() has gone to the port and is not written yet.
    await page.waitForFunction(() => (window as unknown as { __fakeSerial: FakeState }).__fakeSerial.heldWrites > 0);
    await page.click("#dev-disconnect");
    await page.waitForFunction(() => document.getElementById("dev-info")!.textContent!.includes("Disconnected."));
    await page.evaluate(() => (window as unknown as { __releaseWrites: () => void }).__releaseWrites());
    await page.evaluate(() => new Promise((r) => setTimeout(r, 300))); // the poll ends, after its write
    expect(errors).toEqual([]);
    expect(await info(page)).toContain("Disconnected.");
    expect(await info(page)).not.toContain("Connection lost");
    expect((await fake(page)).port.open).toBe(false);
    expect(await page.isDisabled("#dev-disconnect")).toBe(true);
    await page.close();
  });

  it("gives an Espruino before 2v14 (the emulated chip's 2v06) the bundle's function form", async () => {
    const { page } = await deviceTab({ board: "ESP32", version: "2v06.63" });
    await page.click("#dev-connect");
    await infoHas(page, "supported");
    await expect.poll(() => openStep(page)).toBe("firmware");
    await page.click("#dev-upload");
    await page.waitForSelector("#dev-info[data-upload=done]");
    const state = await fake(page);
    const form = functionForm(esp32Bundle);
    expect(state.files[BODY_FILE]).toBe(form.body.code);
    expect(state.files[".bootcde"]).toBe(form.head);
    expect(state.files[".bootcde"]!.startsWith("(function(s,f){")).toBe(true);
    expect(state.writes).toBe(Math.ceil(form.body.code.length / 1024) + 1);
    expect(state.log.indexOf("(timers cleared)")).toBeGreaterThanOrEqual(0); // the pet paused before the first piece
    await page.close();
  });

  it("a connection cut mid-upload stops with the byte count, never loads the half-written file, and leaves the old pet saved and paused", async () => {
    const { page } = await deviceTab({ board: "ESP32", version: "2v29", runningPet: "Old", cutAfterChunks: 3 });
    await page.click("#dev-connect");
    await page.waitForSelector("#dev-status[data-name=Old]", { state: "attached" });
    await page.click("#step-firmware summary"); // a pet runs, so step 3 is open: the person opens step 2
    await page.click("#dev-upload");
    await page.waitForSelector("#dev-info[data-upload=failed]");
    const text = await info(page);
    expect(text).toContain("Upload stopped at byte 3072 of " + blockFormCode(esp32Bundle).length);
    expect(text).toContain("save is untouched");
    const state = await fake(page);
    expect(state.loads).toBe(0);
    expect(state.pet!.name).toBe("Old");
    expect(await page.isDisabled("#dev-connect")).toBe(false);
    for (const b of ["#dev-upload", "#dev-interact", "#dev-download-image"]) expect(await page.isDisabled(b)).toBe(true);
    await page.close();
  });
});
