/**
 * The page as built (scripts/lib/buildWeb.js), served and opened in Chromium, with one part swapped
 * for the emulated ESP32: the flasher stub, the small program esptool loads into the chip's RAM to
 * do the writing. esptool-js 0.7's ESP32 stub never starts on the kit's QEMU: it calls the ROM's
 * uart_tx_wait_idle (0x40009278), which waits for the UART's TX_DONE interrupt bit to clear after
 * clearing it, and QEMU's UART model (hw/char/esp32_uart.c, uart_update_irq) sets that bit again
 * whenever its transmit FIFO is empty; the chip spins there and never says OHAI. The stub of the
 * kit's esptool 3.3.3 (tools/esptool.py) runs there, speaks the same protocol to esptool-js, and is
 * put in its place in the built page, taken from the kit at test time. Everything else the page
 * does, esptool-js's ROM protocol, resets, compressed writes, MD5 checks and flash reads included, is
 * the page's own. On a board the page sends its own stub (test/web-espruino-install-real-esptool
 * runs that stub's protocol against a stand-in ROM; no board has run it here).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWeb } from "../scripts/lib/buildWeb.js";
import { serveStatic } from "../scripts/lib/staticServer.js";
import type { Kit } from "../src/host/node/emulatedChip/qemuChip";
import { ESPTOOL_PYTHON } from "./chip-esptool";
import { launchBrowser, type TestBrowser } from "./web-browser";

export interface StubPage {
  url: string;
  browser: TestBrowser;
  close(): Promise<void>;
}

interface Stub {
  entry: number;
  text: string;
  text_start: number;
  data: string;
  data_start: number;
}

/** The ESP32 flasher stub of the kit's esptool.py, in esptool-js's form (base64 text and data). */
export function kitStub(kit: Kit): Stub {
  const py = [
    "import base64, json, re, sys, zlib",
    "src = open(sys.argv[1]).read()",
    'm = re.search(r\'ESP32ROM\\.STUB_CODE = eval\\(zlib\\.decompress\\(base64\\.b64decode\\(b"""(.*?)"""\\)\\)\\)\', src, re.S)',
    "d = eval(zlib.decompress(base64.b64decode(m.group(1))))",
    "print(json.dumps({'entry': d['entry'], 'text': base64.b64encode(d['text']).decode(), 'text_start': d['text_start'], 'data': base64.b64encode(d['data']).decode(), 'data_start': d['data_start']}))",
  ].join("\n");
  return JSON.parse(execFileSync(ESPTOOL_PYTHON, ["-c", py, join(kit.dir, "tools", "esptool.py")], { encoding: "utf8" })) as Stub;
}

/** Builds the page into a folder of its own, puts the kit's stub in place of esptool-js's, serves it, and opens Chromium. */
export async function openPageWithKitStub(kit: Kit): Promise<StubPage> {
  const outDir = mkdtempSync(join(tmpdir(), "pet-web-kit-stub-"));
  await buildWeb({ outDir });
  const app = join(outDir, "app.js");
  const js = readFileSync(app, "utf8");
  // esbuild writes esptool-js's stub_flasher/esp32.json as one object literal.
  const literal = /\{entry:\d+,text:"[A-Za-z0-9+/=]+",text_start:\d+,data:"[A-Za-z0-9+/=]+",data_start:\d+,bss_start:\d+\}/g;
  const found = js.match(literal) ?? [];
  if (found.length !== 1) throw new Error("expected esptool-js's ESP32 stub once in the built page, found it " + found.length + " times");
  const s = kitStub(kit);
  writeFileSync(app, js.replace(literal, () => "{entry:" + s.entry + ',text:"' + s.text + '",text_start:' + s.text_start + ',data:"' + s.data + '",data_start:' + s.data_start + "}"));
  const server = await serveStatic(outDir);
  const browser = await launchBrowser();
  return {
    url: server.url,
    browser,
    async close() {
      await browser.close();
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
