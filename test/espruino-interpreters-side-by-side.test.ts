/**
 * Several interpreters at once (src/host/node/interpreter/espruinoLinux.ts with src/host/node/interpreter/espruinoShim.c): each
 * gets a console port of its own on 127.0.0.1, the fixed 2323 is left alone, and a command sent to
 * one reaches that one only. This is what lets the interpreter test files run in parallel.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { espruinoShim, openConsole, portAnswers, startEspruino, TELNET_PORT, type EspruinoProcess } from "../src/host/node/interpreter/espruinoLinux";
import { ESPRUINO, NEEDS_ESPRUINO } from "./espruino-interpreter";

describe.skipIf(!ESPRUINO)("interpreters side by side " + NEEDS_ESPRUINO, () => {
  const procs: EspruinoProcess[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const p of procs) await p.kill();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("each has its own console port, and what one is told stays in it", async () => {
    expect(await espruinoShim()).not.toBeNull(); // cc is there wherever ESPRUINO was built
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(join(tmpdir(), "pet-side-by-side-"));
      dirs.push(dir);
      procs.push(await startEspruino(ESPRUINO!, dir));
    }
    const [a, b] = procs as [EspruinoProcess, EspruinoProcess];
    expect(a.port).not.toBe(b.port);
    expect([a.port, b.port]).not.toContain(TELNET_PORT);
    expect(await portAnswers(TELNET_PORT)).toBe(false);
    const ca = await openConsole({ port: a.port });
    const cb = await openConsole({ port: b.port });
    try {
      await ca.evaluate('require("Storage").write("who","a")');
      await cb.evaluate('require("Storage").write("who","b")');
      expect(await ca.evaluate('require("Storage").read("who")')).toBe("a");
      expect(await cb.evaluate('require("Storage").read("who")')).toBe("b");
      // load() restarts the interpreter and its console server: the port must stay the same.
      await ca.evaluate("global.before=1");
      await ca.evaluate("setTimeout(load,10),1");
    } finally {
      await ca.close();
      await cb.close();
    }
    const end = Date.now() + 10_000;
    for (;;) {
      try {
        const again = await openConsole({ port: a.port, timeoutMs: 1000 });
        try {
          if ((await again.evaluate("typeof before")) === "undefined") {
            expect(await again.evaluate('require("Storage").read("who")')).toBe("a");
            break;
          }
        } finally {
          await again.close();
        }
      } catch (e) {
        if (Date.now() > end) throw e;
      }
      if (Date.now() > end) throw new Error("the console on port " + a.port + " did not come back after load()");
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 60_000);
});
