/**
 * The Device tab's console protocol (src/web/device/protocol.ts) against the real interpreter:
 * Espruino's Linux build over its telnet console, the same text the page sends over Web Serial.
 * Identify, the upload of a bundle in acknowledged Storage.write pieces, the CRC check, the erasing
 * of a file the function form left, load, then
 * pet.status(), a rename with a non-ASCII name, exportHex and a restore of a golden payload through
 * importHex. The bundle is the one for the interpreter's own profile (test/espruino-interpreter.ts),
 * and the board identifies as the Linux build it is (LINUX_ESP32 or LINUX), which the page itself
 * would refuse.
 *
 * Runs only when env ESPRUINO names the interpreter binary.
 */
import { connect, type Socket } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interpreterIdentity, startEspruino, TELNET_HOST, type EspruinoProcess } from "../src/host/node/interpreter/espruinoLinux";
import { buildFirmware } from "../scripts/lib/build.js";
import * as P from "../src/web/device/protocol";
import { ESPRUINO, loadInterpreterProfile, NEEDS_ESPRUINO } from "./espruino-interpreter";
import type { BoardProfile } from "../src/boards/boardProfile";
const GOLDEN_HEX = readFileSync(fileURLToPath(new URL("./golden/valid-utf8-name.hex", import.meta.url)), "utf8").trim();

describe.skipIf(!ESPRUINO)("the Device tab's protocol on Espruino's Linux build " + NEEDS_ESPRUINO, () => {
  let dir = "";
  let proc: EspruinoProcess | null = null;
  let sock: Socket | null = null;
  let code = "";
  const lines: string[] = [];

  /** Sends text and waits (event-driven, bounded) for the first later line `pick` accepts. */
  function ask<T>(text: string, pick: (l: string) => T | null, ms = 10_000): Promise<T> {
    const start = lines.length;
    return new Promise((resolve, reject) => {
      const check = (): void => {
        for (let k = start; k < lines.length; k++) {
          const v = pick(lines[k] as string);
          if (v !== null) {
            clearTimeout(timer);
            sock!.off("data", onData);
            return resolve(v);
          }
        }
      };
      const onData = (): void => check();
      const timer = setTimeout(() => {
        sock!.off("data", onData);
        reject(new Error("no answer to " + JSON.stringify(text.slice(0, 60)) + "; got " + JSON.stringify(lines.slice(start))));
      }, ms);
      sock!.on("data", onData);
      sock!.write(text);
    });
  }

  beforeAll(async () => {
    code = (await buildFirmware({ board: (await loadInterpreterProfile()).path, outFile: null })).code;
    dir = mkdtempSync(join(tmpdir(), "pet-web-proto-"));
    proc = await startEspruino(ESPRUINO!, dir);
    sock = connect(proc.port, TELNET_HOST);
    await new Promise((r) => sock!.once("connect", r));
    let buf = "";
    // Registered first, so every later listener sees the lines of its chunk already split.
    sock.prependListener("data", (d: Buffer) => {
      buf += d.toString("latin1");
      let i: number;
      while ((i = buf.indexOf("\n")) >= 0) {
        lines.push(Buffer.from(buf.slice(0, i).replace(/\r$/, ""), "latin1").toString("utf8"));
        buf = buf.slice(i + 1);
      }
    });
  });
  afterAll(async () => {
    if (sock) sock.destroy();
    if (proc) await proc.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("identifies the interpreter: the page's ESP32 profile is refused, the interpreter's own profile fits", async () => {
    const own = await loadInterpreterProfile();
    const esp32 = JSON.parse(readFileSync(fileURLToPath(new URL("../boards/esp32.json", import.meta.url)), "utf8")) as BoardProfile;
    const { board } = await interpreterIdentity(ESPRUINO!);
    expect(board).toMatch(/^LINUX/);
    const forEsp32 = await ask(P.identifyCommand(esp32.petRegion), P.parseIdentity);
    expect(forEsp32.board).toBe(board);
    expect(forEsp32.version).toMatch(/^2v\d+/);
    expect(P.refusal(forEsp32, esp32)).toContain('BOARD "' + board + '"');
    // Without the second Ctrl-C: two in a row make the Linux build quit (a board only stops what runs).
    const id = await ask(P.identifyCommand(own.profile.petRegion).replace("\x03", ""), P.parseIdentity);
    expect(id.free!.length).toBeGreaterThan(0);
    expect(own.profile.espruino!.storageSizes ?? [own.profile.storageArea!.size]).toContain(id.storage);
    expect(P.refusal(id, own.profile)).toBeNull();
  });

  it("uploads the bundle in acknowledged pieces whose CRC on the board matches, and load() starts the pet", async () => {
    const steps = P.uploadCommands([{ name: P.BOOT_FILE, code }]);
    for (const s of steps) {
      const ack = await ask(s.line, (l) => {
        const a = P.parseAck(l);
        return a !== null && a.offset === s.offset ? a : null;
      });
      expect(ack.ok).toBe(true);
    }
    expect(await ask(P.crcCommand(), P.parseCrc)).toBe(P.bundleCrc(code));
    // A function form's body left by an older Espruino is erased; a file that is not there is no error.
    expect((await ask(P.uploadCommands([{ name: "petfw.js", code: "old body" }])[0]!.line, P.parseAck)).ok).toBe(true);
    expect(await ask(P.eraseCommand("petfw.js"), P.parseErased)).toBe(true);
    expect(await ask(P.eraseCommand("petfw.js"), P.parseErased)).toBe(true);
    expect(await ask("\x10print('#pet-files '+JSON.stringify(require(\"Storage\").list()))\n", (l) => (l.includes("#pet-files ") ? l.slice(l.indexOf("#pet-files ")) : null))).toBe('#pet-files [".bootcde"]');
    expect(await ask(P.crcCommand(), P.parseCrc)).toBe(P.bundleCrc(code));
    const booted = ask(P.loadCommand(), (l) => (/hatched Pip|restored/.test(l) ? l : null), 20_000);
    expect(await booted).toContain("Pip");
    const s = await ask(P.statusCommand(), (l) => (P.parseStatus(l).found ? P.parseStatus(l) : null));
    expect(s.status && s.status.name).toBe("Pip");
  });

  it("acts on the live pet: a non-ASCII rename, export, and a golden restore through importHex", async () => {
    expect(await ask(P.petCallCommand("interact"), P.parseResult)).toBe("ok");
    expect(await ask(P.petCallCommand("rename", ["Zoë"]), P.parseResult)).toBe("ok");
    let s = await ask(P.statusCommand(), (l) => (P.parseStatus(l).found ? P.parseStatus(l) : null));
    expect(s.status && s.status.name).toBe("Zoë");
    expect(await ask(P.petCallCommand("exportHex"), P.parseResult)).toMatch(/^50455453[0-9a-f]{160}$/);
    expect(await ask(P.petCallCommand("importHex", [GOLDEN_HEX]), P.parseResult)).toBe("ok");
    s = await ask(P.statusCommand(), (l) => (P.parseStatus(l).found ? P.parseStatus(l) : null));
    // test/golden/README.md: "Zoë 🐾", 3600 updates.
    expect(s.status && s.status.name).toBe("Zoë 🐾");
    expect(Number(s.status && s.status.updateCount)).toBeGreaterThanOrEqual(3600);
  });
});
