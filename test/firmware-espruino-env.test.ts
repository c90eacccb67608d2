/**
 * The module that reads Espruino's globals for the firmware (all but the `E` that src/core/bytes.ts
 * and src/save/crc32.ts read themselves): what it asks the interpreter for. Stubs the globals
 * on globalThis for the duration of each test.
 */
import { afterEach, describe, expect, it } from "vitest";
import { envFromGlobals } from "../src/host/espruino/env";
import type { EspruinoFlash } from "../src/storage/flash";

const g = globalThis as unknown as Record<string, unknown>;
const installed: string[] = [];

function install(name: string, value: unknown): void {
  installed.push(name);
  g[name] = value;
}

afterEach(() => {
  for (const name of installed) delete g[name];
  installed.length = 0;
});

const flash: EspruinoFlash = { read: () => new Uint8Array(0), write: () => undefined, erasePage: () => undefined };

function installBasics(): void {
  install("getTime", () => 12.5);
  install("global", g);
}

describe("espruinoEnv", () => {
  it("reads the clock, publishes into the global scope and carries the Flash module", () => {
    installBasics();
    const env = envFromGlobals(flash);
    expect(env.flash).toBe(flash);
    expect(env.getTime()).toBe(12.5);
    env.publish("petForTest", 42);
    expect(g["petForTest"]).toBe(42);
    installed.push("petForTest");
    // No pins and no I2C here: those capabilities are left out rather than failing later.
    expect(env.setWatch).toBeUndefined();
    expect(env.digitalWrite).toBeUndefined();
    expect(env.setupI2C).toBeUndefined();
  });

  it("asks Graphics for an LSB-on-top vertical-byte buffer (Espruino's default is MSB since 2v25)", () => {
    installBasics();
    const calls: unknown[][] = [];
    install("Graphics", {
      createArrayBuffer: (...args: unknown[]) => {
        calls.push(args);
        return {};
      },
    });
    const setups: unknown[] = [];
    install("I2C1", { setup: (o: unknown) => setups.push(o), writeTo: () => undefined });
    const env = envFromGlobals(flash);
    env.createGraphics!(128, 64);
    expect(calls).toEqual([[128, 64, 1, { vertical_byte: true, msb: false }]]);
    const bus = env.setupI2C!("D22", "D21", 400000);
    expect(setups).toEqual([{ scl: "D22", sda: "D21", bitrate: 400000 }]);
    expect(bus).toBe(g["I2C1"]);
  });

  it("passes setWatch, digitalWrite and pinMode through when the interpreter has them", () => {
    installBasics();
    const sw = () => 1;
    const dw = () => undefined;
    install("setWatch", sw);
    install("digitalWrite", dw);
    const pm = () => undefined;
    install("pinMode", pm);
    const env = envFromGlobals(flash);
    expect(env.setWatch).toBe(sw);
    expect(env.digitalWrite).toBe(dw);
    expect(env.pinMode).toBe(pm);
  });

  it("takes name bytes from E.toUint8Array and text from E.asUTF8(E.toString(bytes))", () => {
    installBasics();
    const calls: string[] = [];
    install("E", {
      toUint8Array: (s: string) => {
        calls.push("toUint8Array");
        return new Uint8Array(Buffer.from(s, "utf8"));
      },
      toString: (b: Uint8Array) => {
        calls.push("toString");
        return String.fromCharCode(...b);
      },
      asUTF8: (s: string) => {
        calls.push("asUTF8");
        return Buffer.from(s, "latin1").toString("utf8");
      },
    });
    const env = envFromGlobals(flash);
    expect(Array.from(env.utf8Bytes!("é☺"))).toEqual([195, 169, 226, 152, 186]);
    expect(env.utf8Text!(new Uint8Array([0x5a, 0x6f, 0xc3, 0xab]))).toBe("Zoë");
    expect(calls).toEqual(["toUint8Array", "toString", "asUTF8"]);
  });

  it("without E.asUTF8 (no Unicode strings) the text is E.toString's byte string", () => {
    installBasics();
    install("E", {
      toUint8Array: (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff),
      toString: (b: Uint8Array) => String.fromCharCode(...b),
    });
    const env = envFromGlobals(flash);
    expect(env.utf8Text!(new Uint8Array([0x5a, 0x6f, 0xc3, 0xab]))).toBe("Zo\u00c3\u00ab");
  });

  it("leaves both out when E lacks toUint8Array (the desktop host's E has only CRC32)", () => {
    installBasics();
    install("E", { CRC32: () => 0 });
    const env = envFromGlobals(flash);
    expect(env.utf8Bytes).toBeUndefined();
    expect(env.utf8Text).toBeUndefined();
  });
});
