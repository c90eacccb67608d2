/**
 * Backups and the file view in a real browser, with the network cut right after the page loaded
 * (the static server stopped and the context offline): restoring a golden payload into the
 * simulator, refusing a bad one with its status and changing nothing, downloading the save and the
 * region image, and a dropped file shown as `pet-save decode` / `inspect` would show it. The page
 * must not ask the network for anything after loading.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { main, type CliIo } from "../src/host/node/cli";
import { loadWorld } from "../src/save/codec";
import { nameToString } from "../src/core/name";
import { u64ToDecimal } from "../src/core/u64";
import { readRegion } from "../src/host/files/regionReport";
import { openPageFixture, openSimulatorPage, type PageFixture } from "./web-page";

const golden = (name: string): string => fileURLToPath(new URL("./golden/" + name, import.meta.url));
// From test/golden/README.md (written by hand), not from the codec.
const UTF8_PET = { file: "valid-utf8-name.hex", name: "Zoë 🐾", updates: 3600 };

let fx: PageFixture;
let page: Page;
let errors: string[];
const requestsAfterLoad: string[] = [];

beforeAll(async () => {
  fx = await openPageFixture();
  ({ page, errors } = await openSimulatorPage(fx));
  await page.waitForSelector("#sim-saved[data-name]");
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

/** Drops a file on the page the way a person does (a drop event carrying a File). */
async function dropFile(name: string, bytes: Uint8Array): Promise<void> {
  await page.evaluate(
    ({ name, data }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], name));
      document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { name, data: Array.from(bytes) },
  );
}

async function download(button: string): Promise<Buffer> {
  const [d] = await Promise.all([page.waitForEvent("download"), page.click(button)]);
  return readFileSync((await d.path()) as string);
}

describe("web backups and file view, offline", () => {
  it("restores a golden payload into the simulator through pet.importHex", async () => {
    await page.setInputFiles("#sim-restore", golden(UTF8_PET.file));
    await page.waitForFunction(() => document.getElementById("sim-backup-result")!.textContent!.includes("answered"));
    expect(await page.locator("#sim-backup-result").innerText()).toContain('pet.importHex() answered "ok"');
    await expect.poll(() => page.getAttribute("#sim-status", "data-name")).toBe(UTF8_PET.name);
    expect(Number(await page.getAttribute("#sim-status", "data-updates"))).toBeGreaterThanOrEqual(UTF8_PET.updates);
  });

  it("refuses a bad payload with its status and explanation, and changes nothing", async () => {
    const before = await page.getAttribute("#sim-status", "data-name");
    await page.setInputFiles("#sim-restore", golden("reject-bad-checksum.hex"));
    await page.waitForFunction(() => document.getElementById("sim-backup-result")!.textContent!.includes("rejected"));
    const text = await page.locator("#sim-backup-result").innerText();
    expect(text).toContain("rejected: bad-checksum");
    expect(text).toContain("Nothing was changed");
    expect(await page.getAttribute("#sim-backup-result", "class")).toContain("rejected");
    expect(await page.getAttribute("#sim-status", "data-name")).toBe(before);
  });

  it("downloads the current save as hex and binary, both the restored pet", async () => {
    const hex = (await download("#sim-download-hex")).toString("utf8").trim();
    expect(hex).toMatch(/^[0-9a-f]{168}$/);
    const bin = await download("#sim-download-bin");
    expect(bin.length).toBe(84);
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
    const profile = JSON.parse(readFileSync(fileURLToPath(new URL("../boards/web.json", import.meta.url)), "utf8"));
    const c = readRegion(new Uint8Array(image), { file: "boards/web.json", profile });
    expect(c.current.status).toBe("ok");
    expect(nameToString(loadWorld(c.current.payload!, 0).world!.name)).toBe(UTF8_PET.name);
  });

  it("a dropped payload is shown as pet-save decode shows it", async () => {
    await dropFile(UTF8_PET.file, readFileSync(golden(UTF8_PET.file)));
    expect(await page.getAttribute("#tab-files", "aria-selected")).toBe("true");
    await page.waitForSelector("#files-result[data-verdict=ok]");
    const shown = await page.locator("#files-result").innerText();
    const cli = await cliStdout(["decode", golden(UTF8_PET.file)]);
    expect(cli).toContain("Zo"); // the CLI really printed the payload
    expect(shown.replace(/\s+/g, " ")).toContain(cli.trim().replace(/\s+/g, " "));
  });

  it("a dropped bad payload shows its status and explanation", async () => {
    await dropFile("bad.hex", readFileSync(golden("reject-bad-magic.hex")));
    await page.waitForSelector("#files-result[data-verdict=rejected]");
    expect(await page.locator("#files-result").innerText()).toContain("rejected: bad-magic");
  });

  it("a dropped region image is shown sector by sector as pet-save inspect shows it", async () => {
    await page.click("#tab-sim");
    const image = await download("#sim-download-image");
    await dropFile("region.bin", image);
    await page.waitForSelector("#files-result[data-verdict=ok]");
    const shown = await page.locator("#files-result").innerText();
    expect(shown).toContain("region image region.bin: 16 sectors of 4096 bytes");
    expect(shown).toMatch(/current save: sector \d+ slot \d+ .*"Zoë 🐾"/);
    expect(shown).toContain("<- current");
  });

  it("asked the network for nothing after loading, and had no page errors", () => {
    expect(requestsAfterLoad).toEqual([]);
    expect(errors).toEqual([]);
  });
});
