/**
 * What a file handed to `pet-save inspect`/`push` or the page's "Check a file" is, told once before
 * anything decodes it (src/inspect/fileKind.ts): 84 bytes is a binary payload, hex text with the
 * magic is a payload's hex text, a region's size is a region image, anything else is neither. The
 * boards are asked only for a file that is not a payload.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyFile } from "../src/inspect/fileKind";
import type { LoadedProfile } from "../src/inspect/regionReport";
import { saveWorld } from "../src/save/codec";
import { PAYLOAD_LENGTH } from "../src/save/layout";
import { bytesToHex } from "../src/core/hex";
import { validWorld } from "./core-arbitraries";

const board = { file: "boards/made-up.json", profile: { name: "made-up", petRegion: { size: 4096 } } } as unknown as LoadedProfile;
const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A regionBoard that knows the made-up board and counts how often it is asked. */
function boards(): { find: (size: number) => LoadedProfile | null; asked: number } {
  const b = {
    asked: 0,
    find: (size: number): LoadedProfile | null => {
      b.asked++;
      return size === 4096 ? board : null;
    },
  };
  return b;
}

describe("a file's kind, told from its size, its magic and whether it is hex text", () => {
  it("84 bytes is a binary payload, even when every byte is a hex digit; the boards are not asked", () => {
    const b = boards();
    const digits = text("50455453".repeat(11).slice(0, PAYLOAD_LENGTH));
    expect(classifyFile(digits, "x", b.find)).toEqual({ kind: "payload", bytes: digits, fromHex: false });
    expect(b.asked).toBe(0);
  });

  it("hex text of a payload (any case, wrapped over lines) is that payload's bytes", () => {
    fc.assert(
      fc.property(validWorld, fc.boolean(), fc.integer({ min: 8, max: 200 }), (world, upper, width) => {
        const payload = saveWorld(world, 0).bytes as Uint8Array;
        let hex = bytesToHex(payload);
        if (upper) hex = hex.toUpperCase();
        const lines = hex.match(new RegExp(".{1," + width + "}", "g")) as string[];
        const b = boards();
        expect(classifyFile(text(lines.join("\n") + "\n"), "pet.hex", b.find)).toEqual({ kind: "payload", bytes: payload, fromHex: true });
        expect(b.asked).toBe(0);
      }),
      { numRuns: 100 },
    );
  });

  it("hex text with an odd number of digits is refused by name", () => {
    const k = classifyFile(text("504554530"), "odd.hex", boards().find);
    expect(k.kind).toBe("bad-hex");
    expect(k.kind === "bad-hex" && k.message).toMatch(/^odd\.hex .*odd number of hex digits \(9\)/);
  });

  it("a file of a board's region size is that region's image", () => {
    const b = boards();
    expect(classifyFile(new Uint8Array(4096).fill(0xff), "region.bin", b.find)).toEqual({ kind: "region", board });
    expect(b.asked).toBe(1);
  });

  it("anything else is neither, with a note of whether it looks like hex text (for the hint)", () => {
    expect(classifyFile(new Uint8Array(100), "zeros.bin", boards().find)).toEqual({ kind: "neither", looksLikeHex: false });
    expect(classifyFile(text("0x5045545301000000 # a payload?\n"), "wrong.hex", boards().find)).toEqual({ kind: "neither", looksLikeHex: false });
    expect(classifyFile(text("deadbeefdeadbeef\n"), "notmagic.hex", boards().find)).toEqual({ kind: "neither", looksLikeHex: true });
    expect(classifyFile(new Uint8Array(0), "empty", boards().find)).toEqual({ kind: "neither", looksLikeHex: false });
  });
});
