/**
 * Names typed at the console reach the save as their UTF-8 bytes on every Espruino build. The ESP32
 * build has no Unicode strings: "Zoë" typed there is the byte string "Zo\xC3\xAB", which a JavaScript
 * UTF-8 encoder would encode a second time. The firmware takes the bytes from the env's utf8Bytes
 * (E.toUint8Array) and gives the name back through utf8Text (E.toString, no E.asUTF8 there).
 */
import { describe, expect, it } from "vitest";
import { startPet } from "../firmware/app";
import { fakeEnv, newFlash, rawFlashOver, testBoard } from "./firmware-fakes";

/** A string as a build without Unicode holds it: one character per UTF-8 byte. */
function byteString(s: string): string {
  return String.fromCharCode(...Buffer.from(s, "utf8"));
}

/** The env of an ESP32: E.toUint8Array keeps each character's low byte; E.toString makes one char per byte. */
function esp32Env() {
  const env = fakeEnv({ flash: rawFlashOver(newFlash()) });
  env.utf8Bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
  env.utf8Text = (bytes: Uint8Array) => String.fromCharCode(...bytes);
  return env;
}

describe("names typed on a build without Unicode strings (the ESP32)", () => {
  it("pet.rename stores the typed UTF-8 bytes once, and status().name gives them back", () => {
    const env = esp32Env();
    const app = startPet(testBoard(), env);
    expect(app.pet.rename(byteString("Zoë"))).toBe("ok");
    expect(app.pet.status()!.nameHex).toBe("5a6fc3ab");
    expect(app.pet.status()!.name).toBe(byteString("Zoë")); // prints as Zoë on a UTF-8 terminal
    expect(app.pet.exportHex().slice(96, 98 + 8)).toBe("045a6fc3ab");
  });

  it("a 31-byte accented name fits", () => {
    const app = startPet(testBoard(), esp32Env());
    expect(app.pet.rename(byteString("é".repeat(15) + "x"))).toBe("ok");
    expect(app.pet.status()!.nameHex).toBe("c3a9".repeat(15) + "78");
  });

  it("pet.hatch(name) too; the console line shows the name as the panel's font draws it (ë as e, ☺ as ?)", () => {
    const env = esp32Env();
    const app = startPet(testBoard(), env);
    expect(app.pet.hatch(byteString("Zoë☺"))).toBe("ok");
    expect(app.pet.status()!.nameHex).toBe("5a6fc3abe298ba");
    expect(env.lines[env.lines.length - 1]).toMatch(/^Zoe\?: idle, /);
  });

  it("the profile's default name is a code-point string on every build and is encoded by the Core", () => {
    const app = startPet(testBoard({ defaultPetName: "Zoë" }), esp32Env());
    expect(app.pet.status()!.nameHex).toBe("5a6fc3ab");
  });
});

describe("where strings are Unicode and E has no text functions (Node, the desktop host)", () => {
  it("the Core's UTF-8 coder is used", () => {
    const env = fakeEnv({ flash: rawFlashOver(newFlash()) });
    expect(env.utf8Bytes).toBeUndefined();
    const app = startPet(testBoard(), env);
    expect(app.pet.rename("Zoë")).toBe("ok");
    expect(app.pet.status()!.nameHex).toBe("5a6fc3ab");
    expect(app.pet.status()!.name).toBe("Zoë");
  });
});
