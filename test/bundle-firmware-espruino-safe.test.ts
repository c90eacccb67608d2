/**
 * The real firmware bundle (src/host/espruino/main.ts, built in-process for the ESP32 and Linux profiles)
 * is ES5 that Espruino can run: no TypeScript helpers, no missing built-ins, declarations before use
 * in every scope, only built-in modules required, the chosen profile inlined, within the size budget.
 * The checks themselves are shown to fail on bad code in test/bundle-checker-catches-bad-code.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { bundleForVersion, sentBytes } from "../src/boards/bundleForm";
import { buildFirmware, BUNDLE_BUDGET_BYTES, BUNDLE_ONLY_PROPERTIES, DEVICE_PROFILE_KEYS, ROOT, type BuildResult } from "../scripts/lib/build.js";
import { checkBundle, formatFindings, parseEs5 } from "../scripts/lib/bundleCheck.js";
import { fromOuterBlock } from "../scripts/lib/outerBlock.js";
import type { PetBoard } from "../firmware/board";

const builds: Record<string, BuildResult> = {};

beforeAll(async () => {
  builds.esp32 = await buildFirmware({ board: join(ROOT, "boards", "esp32.json"), outFile: null });
  builds.linux = await buildFirmware({ board: join(ROOT, "boards", "linux.json"), outFile: null });
});

describe.each(["esp32", "linux"])("firmware bundle for %s", (board) => {
  it("parses as ECMAScript 5 (its outer block in the ES5 form it stands for: test/bundle-outer-block)", () => {
    expect(parseEs5(fromOuterBlock(builds[board]!.code)).error).toBeNull();
  });

  it("passes every check (helpers, built-ins, labels, require, declaration order)", () => {
    const code = builds[board]!.code;
    const findings = checkBundle(code);
    expect(formatFindings(code, findings)).toBe("");
  });

  it("has no helper or missing built-in even before minification (nothing hidden by mangling)", () => {
    const code = builds[board]!.unminified;
    const findings = checkBundle(code, { order: false });
    expect(formatFindings(code, findings)).toBe("");
  });

  it("carries its own board profile", () => {
    const { code, profile } = builds[board]!;
    expect(code).toContain(String(profile.petRegion.address));
    expect(code).not.toContain("virtual:board-profile");
  });

  it("carries the default pet's name as its UTF-8 bytes, made by the build", () => {
    const { code, profile } = builds[board]!;
    expect(code).toContain(JSON.stringify(Array.from(new TextEncoder().encode(profile.defaultPetName as string))));
  });

  it("carries only the profile keys the firmware reads", () => {
    const code = builds[board]!.code;
    for (const key of ["notes", "storageArea", "host", "$schema"]) expect(code, key).not.toContain(key);
    expect(code).not.toContain(JSON.stringify(builds[board]!.profile.name));
  });

  it("shortens the bundle-only property names everywhere, and keeps the names the outside uses", () => {
    const code = builds[board]!.code;
    // As a property: `.name` or `name:` in an object literal (quoted or not); not inside a text.
    for (const name of BUNDLE_ONLY_PROPERTIES) expect(code, name).not.toMatch(new RegExp("\\." + name + "\\b|[{,]\"?" + name + "\"?:"));
    // What the console, the env and Espruino's APIs see keeps its name.
    for (const name of ["status", "exportHex", "importHex", "getTime", "erasePage", "petRegion", "activity", "updateCount"]) expect(code, name).toContain(name);
  });

  it("takes Espruino's byte built-ins without asking, and carries none of their plain-loop fallbacks", () => {
    const code = builds[board]!.code;
    expect(code).not.toContain("ESPRUINO_BUILD");
    // crc32Bitwise's reflected polynomial, 0xEDB88320, exists only in the fallback.
    expect(code).not.toContain(String(0xedb88320));
    // The one question left is the env's text coding, once a boot (joinBytes, in every boot's header
    // read, no longer asks: ESPRUINO_FIRMWARE), not the hot paths'.
    const asked = code.match(/typeof \$\$E\.[A-Za-z0-9]+/g) ?? [];
    expect([...new Set(asked)].sort()).toEqual(["typeof $$E.toUint8Array"]);
    expect(code).not.toContain("ESPRUINO_FIRMWARE");
    // ... while the unminified bundle, which Node-hosted tests may run, still asks.
    expect(builds[board]!.unminified).toContain('typeof E !== "undefined" && E && typeof E.CRC32 === "function"');
  });

  it("takes no view with subarray, which the ESP32's own firmware before 2v14 does not have", () => {
    // 2v06 has no Uint8Array subarray ("Function \"subarray\" not found!"), and the function form
    // adds none (src/boards/bundleForm.ts): views are made with the Uint8Array constructor.
    expect(builds[board]!.code).not.toContain("subarray");
  });

  it("carries the panel, button and LED code exactly when its profile has them", () => {
    const { code, profile } = builds[board]!;
    // Words only that code holds: the drawing, the panel's I2C set-up, the button's pull resistor, the LED's pin.
    const marks: [unknown, string[]][] = [
      [profile.display, ["drawCircle", "setupI2C", "display unavailable"]],
      [profile.button, ["input_pullup", "button failed"]],
      [profile.led, ["led failed"]],
    ];
    for (const [part, words] of marks) for (const w of words) expect(code.includes(w), w).toBe(part !== undefined);
  });

  it("built without warnings", () => {
    expect(builds[board]!.warnings).toEqual([]);
  });
});

describe("size budget", () => {
  it(`minified ESP32 bundle stays within ${BUNDLE_BUDGET_BYTES} bytes (docs/firmware.md)`, () => {
    expect(builds.esp32!.bytes).toBeGreaterThan(1000); // a real firmware, not an empty file
    expect(builds.esp32!.bytes).toBeLessThanOrEqual(BUNDLE_BUDGET_BYTES);
  });

  it("the ESP32 bundle as Storage holds it stays within 32 KiB in either form (issue 28)", () => {
    for (const version of ["2v06.63", "2v29"]) {
      const sent = sentBytes(bundleForVersion(builds.esp32!.code, version).files);
      expect(sent).toBeGreaterThan(1000);
      expect(sent).toBeLessThanOrEqual(32 * 1024);
    }
  });
});

describe("the profile keys the bundle carries", () => {
  it("are the keys of PetBoard, the profile as the bundle carries it (src/boards/boardProfile.ts BundledProfile)", () => {
    // TypeScript refuses this object unless it names every key of PetBoard and nothing else.
    const keys: Record<keyof PetBoard, true> = {
      petRegion: true,
      button: true,
      led: true,
      display: true,
      defaultPetName: true,
      petLayout: true,
      storageSizes: true,
      defaultPetNameBytes: true,
    };
    expect([...DEVICE_PROFILE_KEYS].sort()).toEqual(Object.keys(keys).sort());
  });
});
