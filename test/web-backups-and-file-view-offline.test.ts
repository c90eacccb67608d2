/**
 * Backups, the file view and the page offline, in a real browser with the network cut right after
 * the page loaded (the static server stopped and the context offline): a restore into the simulator
 * asks first and keeps a backup, a bad payload is refused with its status and changes nothing, the
 * save and the region image download; a board's region image (an ESP32's, from `pet-save pull`)
 * becomes the simulator's pet and comes back out of it; the Backups tab downloads, puts back and
 * deletes; dropped files are each shown as `pet-save decode` / `inspect` show them, and a region image
 * is drawn slot by slot in the legend's colours, a click or the arrow keys decoding a slot. The page
 * asks the network for nothing after loading, and a reload with no network still opens it (the
 * service worker's copy).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { main, type CliIo } from "../src/host/node/cli";
import { loadWorld } from "../src/save/codec";
import { nameToString } from "../src/core/name";
import { u64ToDecimal } from "../src/core/u64";
import { readRegion } from "../src/inspect/regionReport";
import { cleanImage, rottenNewestImage, tornImage } from "./region-tools-fixtures";
import { openPageFixture, openSimulatorPage, pickFiles, type PageFixture } from "./web-page";

const golden = (name: string): string => fileURLToPath(new URL("./golden/" + name, import.meta.url));
// From test/golden/README.md (written by hand), not from the codec.
const UTF8_PET = { file: "valid-utf8-name.hex", name: "Zoë 🐾", updates: 3600 };
const WEB_PROFILE = JSON.parse(readFileSync(fileURLToPath(new URL("../boards/web.json", import.meta.url)), "utf8"));

let fx: PageFixture;
let page: Page;
let errors: string[];
const answers: boolean[] = [];
const asked: string[] = [];
const requestsAfterLoad: string[] = [];
let installability: { errors: unknown[]; manifest: string } = { errors: ["not asked"], manifest: "" };

beforeAll(async () => {
  fx = await openPageFixture();
  ({ page, errors } = await openSimulatorPage(fx));
  page.on("dialog", (d) => {
    asked.push(d.message());
    void (answers.shift() ? d.accept() : d.dismiss());
  });
  await page.waitForSelector("#sim-saved[data-name]");
  await page.waitForSelector("body[data-offline=ready]"); // the service worker keeps the page's files
  // Chromium's own verdict on installing the page as an app, asked while the server still answers.
  const cdp = await fx.browser.context.newCDPSession(page);
  installability = {
    errors: (await cdp.send("Page.getInstallabilityErrors")).installabilityErrors,
    manifest: (await cdp.send("Page.getAppManifest")).url,
  };
  await cdp.detach();
  await fx.stopServer();
  await fx.browser.context.setOffline(true);
  page.on("request", (r) => {
    if (!r.url().startsWith("blob:") && !r.url().startsWith("data:")) requestsAfterLoad.push(r.url());
  });
});
afterAll(async () => {
  if (fx) await fx.close();
});

async function cliStdout(argv: string[]): Promise<string> {
  let out = "";
  const io: CliIo = {
    readStdin: async () => new Uint8Array(0),
    writeStdout: (d) => void (out += typeof d === "string" ? d : Buffer.from(d).toString("utf8")),
    writeStderr: () => undefined,
  };
  await main(argv, io);
  return out;
}

/** Drops files on the page the way a person does (one drop event carrying them all). */
async function dropFiles(files: { name: string; bytes: Uint8Array }[]): Promise<void> {
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([new Uint8Array(f.data)], f.name));
    document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files.map((f) => ({ name: f.name, data: Array.from(f.bytes) })));
}

/** The bytes a button downloads; `lastDownloadName` the name the page gave the file. */
let lastDownloadName = "";
async function download(button: string): Promise<Buffer> {
  const [d] = await Promise.all([page.waitForEvent("download"), page.click(button)]);
  lastDownloadName = d.suggestedFilename();
  return readFileSync((await d.path()) as string);
}
/** Today's date in the page, as the page writes it in file names. */
const today = (): Promise<string> =>
  page.evaluate(() => {
    const d = new Date();
    return d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0");
  });
const backupResult = (): Promise<string> => page.locator("#sim-backup-result").innerText();
const currentName = (image: Uint8Array): string => {
  const c = readRegion(image, { file: "boards/web.json", profile: WEB_PROFILE });
  return nameToString(loadWorld(c.current.payload!, 0).world!.name);
};

describe("web backups and file view, offline", () => {
  it("can be installed as an app: Chromium finds its manifest and icon and has nothing against it", () => {
    expect(installability.manifest).toMatch(/\/manifest\.webmanifest$/);
    expect(installability.errors).toEqual([]);
  });

  it("asks before restoring a save into the simulator, and cancelling changes nothing", async () => {
    const before = await page.getAttribute("#sim-status", "data-name");
    answers.push(false);
    await page.setInputFiles("#sim-restore", golden(UTF8_PET.file));
    await page.waitForFunction(() => document.getElementById("sim-backup-result")!.textContent!.includes("not restored"));
    expect(asked[asked.length - 1]).toContain("Replace " + before + " in the simulator with " + UTF8_PET.name);
    expect(await page.getAttribute("#sim-status", "data-name")).toBe(before);
    // The picker goes on showing what was picked.
    expect(await page.$eval("#sim-restore", (el) => Array.from((el as HTMLInputElement).files!, (f) => f.name))).toEqual([UTF8_PET.file]);
  });

  it("restores a golden payload into the simulator through pet.importHex, after keeping a backup", async () => {
    answers.push(true);
    await pickFiles(page, "#sim-restore", golden(UTF8_PET.file)); // the same file again, picked in the chooser
    await page.waitForFunction(() => document.getElementById("sim-backup-result")!.textContent!.includes("answered"));
    const text = await backupResult();
    expect(text).toContain('pet.importHex() answered "ok"');
    expect(text).toContain("Backed up the pet's region first (Pip");
    await expect.poll(() => page.getAttribute("#sim-status", "data-name")).toBe(UTF8_PET.name);
    expect(Number(await page.getAttribute("#sim-status", "data-updates"))).toBeGreaterThanOrEqual(UTF8_PET.updates);
  });

  it("refuses a bad payload with its status and explanation, asks nothing and changes nothing", async () => {
    const before = await page.getAttribute("#sim-status", "data-name");
    const questions = asked.length;
    await page.setInputFiles("#sim-restore", golden("reject-bad-checksum.hex"));
    await page.waitForFunction(() => document.getElementById("sim-backup-result")!.textContent!.includes("rejected"));
    const text = await backupResult();
    expect(text).toContain("rejected: bad-checksum");
    expect(text).toContain("Nothing was changed");
    expect(await page.getAttribute("#sim-backup-result", "class")).toContain("rejected");
    expect(await page.getAttribute("#sim-status", "data-name")).toBe(before);
    expect(asked.length).toBe(questions);
  });

  it("downloads the current save as hex and binary, both the restored pet", async () => {
    const hex = (await download("#sim-download-hex")).toString("utf8").trim();
    expect(hex).toMatch(/^[0-9a-f]{168}$/);
    // Named after the pet ("Zoë 🐾" as the panel shows it, in lower case) and the date.
    expect(lastDownloadName).toBe("zoe-" + (await today()) + "-save.hex");
    const bin = await download("#sim-download-bin");
    expect(bin.length).toBe(84);
    expect(lastDownloadName).toBe("zoe-" + (await today()) + "-save.bin");
    // Two exports a moment apart (the stamp and clock move on), each the restored pet.
    for (const bytes of [new Uint8Array(bin), new Uint8Array(Buffer.from(hex, "hex"))]) {
      const loaded = loadWorld(bytes, 0);
      expect(loaded.status).toBe("ok");
      expect(nameToString(loaded.world!.name)).toBe(UTF8_PET.name);
      expect(Number(u64ToDecimal(loaded.world!.updateCount))).toBeGreaterThanOrEqual(UTF8_PET.updates);
    }
  });

  it("downloads the whole region image, whose current save is the restored pet", async () => {
    const image = await download("#sim-download-image");
    expect(image.length).toBe(65536);
    expect(lastDownloadName).toBe("zoe-" + (await today()) + "-region.bin");
    expect(currentName(new Uint8Array(image))).toBe(UTF8_PET.name);
  });

  it("a board's region image becomes the simulator's pet (asked first, a backup kept), and its image comes back out", async () => {
    const board = cleanImage().sim.image(); // an ESP32 region as pet-save pull writes it: "Mochi", 3 updates
    answers.push(true);
    await page.setInputFiles("#sim-load-image", { name: "pet-region-esp32.bin", mimeType: "application/octet-stream", buffer: Buffer.from(board) });
    await page.waitForFunction(() => document.getElementById("sim-backup-result")!.textContent!.includes("now runs the pet of"));
    expect(asked[asked.length - 1]).toContain("with pet-region-esp32.bin (Mochi, updates 3)");
    await expect.poll(() => page.getAttribute("#sim-status", "data-name")).toBe("Mochi");
    await page.waitForFunction(() => document.getElementById("sim-console")!.textContent!.includes("restored Mochi, updates 3"));
    expect(currentName(new Uint8Array(await download("#sim-download-image")))).toBe("Mochi");
    // An image with no save in it is refused: the simulator would only hatch a new pet from it.
    await page.setInputFiles("#sim-load-image", { name: "blank.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(65536, 0xff) });
    await page.waitForFunction(() => document.getElementById("sim-backup-result")!.textContent!.includes("blank.bin holds no save"));
    expect(await page.getAttribute("#sim-status", "data-name")).toBe("Mochi");
  });

  it("the Backups tab lists what was kept, downloads a backup, puts one back into the simulator, and deletes one", async () => {
    await page.click("#tab-backups");
    const rows = page.locator("#backups-list tr");
    expect(await rows.count()).toBe(2);
    const restoring = rows.filter({ hasText: "before restoring " + UTF8_PET.file });
    expect(await restoring.locator("td").nth(3).innerText()).toMatch(/^Pip, updates \d+$/);
    const loading = rows.filter({ hasText: "before loading pet-region-esp32.bin" });
    expect(await loading.locator("td").nth(3).innerText()).toMatch(new RegExp("^" + UTF8_PET.name + ", updates \\d+$"));

    const [d] = await Promise.all([page.waitForEvent("download"), loading.getByRole("button", { name: /^Download/ }).click()]);
    const kept = new Uint8Array(readFileSync((await d.path()) as string));
    expect(currentName(kept)).toBe(UTF8_PET.name);
    expect(d.suggestedFilename()).toBe("zoe-" + (await today()) + "-region.bin"); // the backup's pet and day

    answers.push(true);
    await loading.getByRole("button", { name: /^Into the simulator/ }).click();
    await page.waitForFunction(() => document.getElementById("backups-result")!.textContent!.includes("now runs the pet of"));
    await expect.poll(() => page.getAttribute("#sim-status", "data-name")).toBe(UTF8_PET.name);
    // No board is connected: nothing can go onto one.
    expect(await restoring.getByRole("button", { name: /^Onto the board/ }).isDisabled()).toBe(true);

    const count = await rows.count(); // putting back kept a backup of Mochi first
    expect(count).toBe(3);
    answers.push(true);
    await restoring.getByRole("button", { name: /^Delete/ }).click();
    await expect.poll(() => rows.count()).toBe(count - 1);
    expect(await rows.filter({ hasText: "before restoring " + UTF8_PET.file }).count()).toBe(0);
  });

  it("while files are dragged over the page, says where they will go on a card that reads over whatever is under it", async () => {
    await page.evaluate(() => document.dispatchEvent(new DragEvent("dragover", { bubbles: true, cancelable: true, dataTransfer: new DataTransfer() })));
    const card = page.locator("#drop-hint p");
    expect(await card.isVisible()).toBe(true);
    expect(await card.innerText()).toContain("Drop to check the files here");
    // The card's own background is opaque (the page under it does not show through the words).
    expect(await card.evaluate((el) => getComputedStyle(el).backgroundColor)).toMatch(/^rgb\(\d+, \d+, \d+\)$/);
    await page.evaluate(() => document.dispatchEvent(new DragEvent("dragleave", { bubbles: true, relatedTarget: null })));
    expect(await page.locator("#drop-hint").isHidden()).toBe(true);
  });

  it("several dropped files are each shown, as pet-save decode shows them", async () => {
    await dropFiles([
      { name: UTF8_PET.file, bytes: readFileSync(golden(UTF8_PET.file)) },
      { name: "bad.hex", bytes: readFileSync(golden("reject-bad-magic.hex")) },
    ]);
    expect(await page.getAttribute("#tab-files", "aria-selected")).toBe("true");
    await page.waitForSelector("#files-results[data-count='2']");
    // The tab's picker shows the dropped files, as if they had been picked there.
    expect(await page.$eval("#files-pick", (el) => Array.from((el as HTMLInputElement).files!, (f) => f.name))).toEqual([UTF8_PET.file, "bad.hex"]);
    const blocks = page.locator("#files-results .file-result");
    expect(await blocks.evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.name, (e as HTMLElement).dataset.verdict]))).toEqual([
      [UTF8_PET.file, "ok"],
      ["bad.hex", "rejected"],
    ]);
    const cli = await cliStdout(["decode", golden(UTF8_PET.file)]);
    expect(cli).toContain("Zo"); // the CLI really printed the payload
    expect((await blocks.nth(0).innerText()).replace(/\s+/g, " ")).toContain(cli.trim().replace(/\s+/g, " "));
    expect(await blocks.nth(1).innerText()).toContain("rejected: bad-magic");
  });

  it("dropped region images are each drawn slot by slot in the legend's colours, and a click or the arrow keys decode a slot", async () => {
    await dropFiles([
      { name: "clean.bin", bytes: cleanImage().sim.image() }, // Mochi 1, 2, 3 in slots 0..2 of sector 0
      { name: "torn.bin", bytes: tornImage().sim.image() }, // then slot 3 written but never committed
      { name: "rotten.bin", bytes: rottenNewestImage().sim.image() }, // Mochi 1, 2, then a committed slot 2 that rotted
    ]);
    await page.waitForSelector("#files-results[data-count='3']");
    const blocks = page.locator("#files-results .file-result");
    expect(await blocks.locator("canvas").count()).toBe(3);
    const legend = Object.fromEntries(
      await page.locator("#files-results .file-result").first().locator(".legend li").evaluateAll((lis) =>
        lis.map((li) => [li.textContent!.trim(), getComputedStyle(li.querySelector(".swatch")!).backgroundColor]),
      ),
    ) as Record<string, string>;
    expect(Object.keys(legend)).toEqual(["valid", "current", "torn", "invalid", "erased", "not in the log"]);

    /** The colour drawn for sector s, slot k of the picture in block b, as CSS rgb(). */
    const cell = (b: number, s: number, k: number): Promise<string> =>
      blocks.nth(b).locator("canvas").evaluate((c: HTMLCanvasElement, { s, k }) => {
        const d = c.dataset;
        const x = Number(d.left) + k * (Number(d.cellW) + Number(d.gap)) + Number(d.cellW) / 2;
        const y = s * (Number(d.cellH) + Number(d.gap)) + Number(d.cellH) / 2;
        const p = c.getContext("2d")!.getImageData(Math.floor(x), Math.floor(y), 1, 1).data;
        return "rgb(" + p[0] + ", " + p[1] + ", " + p[2] + ")";
      }, { s, k });
    expect(await blocks.nth(0).locator("canvas").getAttribute("data-rows")).toBe("16");
    expect(await blocks.nth(0).locator("canvas").getAttribute("data-cols")).toBe("48");
    expect([await cell(0, 0, 0), await cell(0, 0, 1), await cell(0, 0, 2), await cell(0, 0, 3), await cell(0, 5, 7)]).toEqual([legend.valid, legend.valid, legend.current, legend.erased, legend.erased]);
    expect([await cell(1, 0, 2), await cell(1, 0, 3)]).toEqual([legend.current, legend.torn]);
    expect([await cell(2, 0, 1), await cell(2, 0, 2)]).toEqual([legend.current, legend.invalid]);

    // A click on the torn slot decodes it; the arrow keys move on to the next one.
    const torn = blocks.nth(1).locator("canvas");
    const at = await torn.evaluate((c: HTMLCanvasElement) => ({
      scale: c.getBoundingClientRect().width / c.width,
      x: Number(c.dataset.left) + 3 * (Number(c.dataset.cellW) + Number(c.dataset.gap)) + Number(c.dataset.cellW) / 2,
      y: Number(c.dataset.cellH) / 2,
    }));
    await torn.click({ position: { x: at.x * at.scale, y: at.y * at.scale } });
    const detail = blocks.nth(1).locator(".slot-detail");
    expect(await detail.innerText()).toContain("sector 0 slot 3: torn: written but never committed");
    expect(await detail.innerText()).toMatch(/update count: +4/);
    await torn.press("ArrowLeft");
    expect(await detail.innerText()).toContain("sector 0 slot 2: valid, the current save");
    expect(await detail.innerText()).toMatch(/update count: +3/);
    await blocks.nth(2).locator("canvas").focus();
    await blocks.nth(2).locator("canvas").press("ArrowRight");
    await blocks.nth(2).locator("canvas").press("ArrowRight");
    await blocks.nth(2).locator("canvas").press("ArrowRight");
    expect(await blocks.nth(2).locator(".slot-detail").innerText()).toContain("sector 0 slot 2: invalid: committed, but the codec rejects it\nrejected: bad-checksum");
    // ...and the text report still says it in words, as pet-save inspect does.
    expect(await blocks.nth(0).locator(".file-text").innerText()).toContain("region image clean.bin: 16 sectors of 4096 bytes");
  });

  it("asked the network for nothing after loading, and had no page errors", () => {
    expect(requestsAfterLoad).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("a reload with no network still opens the page, and the pet is still there", async () => {
    const name = await page.getAttribute("#sim-status", "data-name");
    await page.reload();
    await page.waitForSelector("body[data-sim=running]");
    await expect.poll(() => page.getAttribute("#sim-status", "data-name")).toBe(name);
    expect(await page.locator("#tab-device").innerText()).toBe("Device");
  });
});
