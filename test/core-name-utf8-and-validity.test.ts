/**
 * Pet names: the UTF-8 coder against Node's TextEncoder/TextDecoder as the independent oracle, the
 * byte-length and zero-byte rules of isValidName at their edges, and the text the panel draws for a
 * name (nameForDisplay) against Unicode's decompositions.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nameForDisplay, nameFromString, nameToString, utf8Decode, utf8Encode } from "../src/core/name";
import { isValidName } from "../src/core/world";
import { createWorld } from "../src/core/world";
import { statusLine } from "../firmware/report";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8"); // replacement mode, the WHATWG default

/** Strings of raw UTF-16 code units, so lone and reversed surrogates occur often. */
const codeUnitString = fc
  .array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff })), { maxLength: 40 })
  .map((units) => String.fromCharCode(...units));

describe("utf8Encode matches TextEncoder", () => {
  it("on any string of code points", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (s) => {
        expect([...utf8Encode(s)]).toEqual([...encoder.encode(s)]);
      }),
      { numRuns: 1000 },
    );
  });

  it("on strings with lone surrogates (each becomes U+FFFD, EF BF BD)", () => {
    fc.assert(
      fc.property(codeUnitString, (s) => {
        expect([...utf8Encode(s)]).toEqual([...encoder.encode(s)]);
      }),
      { numRuns: 1000 },
    );
    expect([...utf8Encode("\ud800")]).toEqual([0xef, 0xbf, 0xbd]);
  });

  it("on the byte-length boundaries 1, 2, 3 and 4", () => {
    for (const s of ["\u007f", "\u0080", "\u07ff", "\u0800", "\uffff", "\u{10000}", "\u{10ffff}"]) {
      expect([...utf8Encode(s)]).toEqual([...encoder.encode(s)]);
    }
  });
});

describe("utf8Decode matches TextDecoder", () => {
  it("on any bytes, including broken, overlong, surrogate and cut-off sequences", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        expect(utf8Decode(bytes)).toBe(decoder.decode(bytes));
      }),
      { numRuns: 3000 },
    );
  });

  it("on bytes drawn from lead and continuation ranges, where the tricky cases live", () => {
    const tricky = fc.constantFrom(0x41, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff);
    fc.assert(
      fc.property(fc.array(tricky, { maxLength: 12 }), (arr) => {
        const bytes = new Uint8Array(arr);
        expect(utf8Decode(bytes)).toBe(decoder.decode(bytes));
      }),
      { numRuns: 3000 },
    );
  });

  it("gives one U+FFFD for a sequence cut short, then reads the breaking byte afresh", () => {
    expect(utf8Decode(new Uint8Array([0xe1, 0x80, 0x41]))).toBe("\ufffdA");
    expect(utf8Decode(new Uint8Array([0xf0, 0x9f, 0x98]))).toBe("\ufffd");
    expect(utf8Decode(new Uint8Array([0xed, 0xa0, 0x80]))).toBe("\ufffd\ufffd\ufffd");
  });

  it("round trips every encoded string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (s) => {
        expect(utf8Decode(utf8Encode(s))).toBe(decoder.decode(encoder.encode(s)));
      }),
    );
  });
});

describe("isValidName", () => {
  const ofLength = (n: number) => new Uint8Array(n).fill(0x61);

  it("takes 1 to 31 bytes and refuses 0 and 32", () => {
    expect(isValidName(ofLength(0))).toBe(false);
    expect(isValidName(ofLength(1))).toBe(true);
    expect(isValidName(ofLength(31))).toBe(true);
    expect(isValidName(ofLength(32))).toBe(false);
  });

  it("refuses a zero byte anywhere", () => {
    for (const at of [0, 15, 30]) {
      const bytes = ofLength(31);
      bytes[at] = 0;
      expect(isValidName(bytes), `zero at ${at}`).toBe(false);
    }
    expect(isValidName(new Uint8Array([0]))).toBe(false);
  });

  it("accepts any other bytes, valid UTF-8 or not", () => {
    expect(isValidName(new Uint8Array([0xff, 0xfe, 0x80]))).toBe(true);
  });

  it("refuses what is not a Uint8Array", () => {
    for (const bad of [null, undefined, "abc", [0x61], new Uint16Array([0x61])]) {
      expect(isValidName(bad as unknown as Uint8Array)).toBe(false);
    }
  });

  it("agrees with an independent statement of the rule on random bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const want = bytes.length >= 1 && bytes.length <= 31 && !bytes.includes(0);
        expect(isValidName(bytes)).toBe(want);
      }),
    );
  });
});

describe("nameFromString / nameToString", () => {
  it("takes a 31-byte multibyte name and refuses 32 bytes", () => {
    const ten = "ñ".repeat(10) + "abcdefghijk"; // 20 + 11 = 31 bytes
    expect(nameFromString(ten)?.length).toBe(31);
    expect(nameFromString(ten + "z")).toBeNull();
    expect(nameFromString("")).toBeNull();
    expect(nameFromString("a\u0000b")).toBeNull();
  });

  it("round trips any string that makes a valid name", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 12 }), (s) => {
        const bytes = nameFromString(s);
        const valid = encoder.encode(s).length >= 1 && encoder.encode(s).length <= 31 && !s.includes("\u0000");
        expect(bytes !== null).toBe(valid);
        if (bytes) expect(nameToString(bytes)).toBe(s);
      }),
    );
  });
});

describe("nameForDisplay (what the panel and the console lines show)", () => {
  /**
   * The letters of U+00C0..U+017F that Unicode does not decompose into a letter and marks, each
   * given here by its look (written for this test, not copied from the code).
   */
  const BY_LOOK: Record<string, string> = {
    Æ: "A", Ð: "D", "×": "x", Ø: "O", Þ: "P", ß: "s", æ: "a", ð: "d", "÷": "/", ø: "o", þ: "p",
    Đ: "D", đ: "d", Ħ: "H", ħ: "h", ı: "i", ĸ: "k", Ł: "L", ł: "l", ŉ: "n", Ŋ: "N", ŋ: "n", Œ: "O", œ: "o", Ŧ: "T", ŧ: "t",
  };
  /**
   * Independent statement of the rule: TextDecoder's reading, then per code point: printable ASCII as
   * it is; U+00C0..U+017F as the first letter of its compatibility decomposition (NFKD: é is e and an
   * accent, ſ is s, Ĳ is IJ), or by its look where it has none; anything else "?".
   */
  function expected(bytes: Uint8Array): string {
    return Array.from(decoder.decode(bytes))
      .map((ch) => {
        const cp = ch.codePointAt(0)!;
        if (cp >= 0x20 && cp <= 0x7e) return ch;
        if (cp < 0xc0 || cp > 0x17f) return "?";
        const first = ch.normalize("NFKD").charAt(0);
        return /^[A-Za-z]$/.test(first) ? first : BY_LOOK[ch]!;
      })
      .join("");
  }

  it("keeps printable ASCII, draws accented Latin letters as the nearest letter the font has, and gives one ? per other code point", () => {
    expect(nameForDisplay(encoder.encode("Pip the 2nd!"))).toBe("Pip the 2nd!");
    // U+263A is the case the ESP32's 8-bit strings got wrong: its low byte 0x3A is ':'.
    expect(nameForDisplay(encoder.encode("\u263a"))).toBe("?");
    expect(nameForDisplay(encoder.encode("Zo\u00eb"))).toBe("Zoe"); // the font has no ë
    expect(nameForDisplay(encoder.encode("\u017baba"))).toBe("Zaba"); // Ż
    expect(nameForDisplay(encoder.encode("caf\u00e9 ma\u00f1ana"))).toBe("cafe manana");
    expect(nameForDisplay(encoder.encode("\u0141ucja \u00c6r\u00f8 Stra\u00dfe"))).toBe("Lucja Aro Strase"); // Ł, Æ, ø, ß: by their look
    expect(nameForDisplay(encoder.encode("\u00bfQu\u00e9?"))).toBe("?Que?"); // ¿ is below the table
    expect(nameForDisplay(encoder.encode("\u0180\u0391\u0436"))).toBe("???"); // past it: ƀ, Greek, Cyrillic
    expect(nameForDisplay(encoder.encode("a\u{1f600}b"))).toBe("a?b"); // outside the BMP: one ?, not two
    expect(nameForDisplay(encoder.encode("a\u001b[2Jb\u007f"))).toBe("a?[2Jb?"); // control characters
    expect(nameForDisplay(new Uint8Array([0x41, 0xff, 0xe2, 0x98, 0x42]))).toBe("A??B"); // bad bytes as U+FFFD
  });

  it("has one letter for every code point of U+00C0..U+017F, each as the independent rule says", () => {
    for (let cp = 0xc0; cp <= 0x17f; cp++) {
      const ch = String.fromCodePoint(cp);
      const shown = nameForDisplay(encoder.encode(ch));
      expect(shown, ch).toBe(expected(encoder.encode(ch)));
      expect(shown, ch).toMatch(/^[A-Za-z/]$/);
    }
  });

  it("agrees with the independent rule on random bytes and strings", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const shown = nameForDisplay(bytes);
        expect(shown).toBe(expected(bytes));
        expect(/^[\x20-\x7e]*$/.test(shown)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 12 }), (s) => {
        expect(nameForDisplay(encoder.encode(s))).toBe(expected(encoder.encode(s)));
      }),
    );
    // Latin names: letters of the table among ASCII ones.
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0x1ff })), { maxLength: 15 }), (cps) => {
        const bytes = encoder.encode(String.fromCodePoint(...cps));
        expect(nameForDisplay(bytes)).toBe(expected(bytes));
      }),
    );
    // Printable ASCII with the odd byte from just outside it (0x1F, 0x7F, 0x80): the shortcut for
    // names that are printable ASCII throughout, and its edges.
    fc.assert(
      fc.property(fc.array(fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) }, { weight: 1, arbitrary: fc.constantFrom(0x1f, 0x7f, 0x80, 0xc3) }), { maxLength: 31 }), (codes) => {
        const bytes = new Uint8Array(codes);
        expect(nameForDisplay(bytes)).toBe(expected(bytes));
      }),
    );
  });

  it("gives the same text where String.fromCharCode keeps only a code point's low byte (the ESP32 build, which has no Unicode strings)", () => {
    const names = ["Zo\u00eb", "\u017baba", "\u263aPip", "a\u{1f600}b", "\u0141ucja", "\u0100\u017f", "Pip"];
    const want = names.map((n) => nameForDisplay(encoder.encode(n)));
    const real = String.fromCharCode;
    let got: string[];
    String.fromCharCode = (...codes: number[]) => real(...codes.map((c) => c & 0xff));
    try {
      expect(String.fromCharCode(0x263a)).toBe(":"); // the stand-in does what the ESP32 build does
      got = names.map((n) => nameForDisplay(encoder.encode(n)));
    } finally {
      String.fromCharCode = real;
    }
    expect(got).toEqual(want);
    expect(want).toEqual(["Zoe", "Zaba", "?Pip", "a?b", "Lucja", "As", "Pip"]);
  });

  it("is what the firmware's status line prints, while utf8Decode keeps the real name", () => {
    const world = createWorld(encoder.encode("\u263aPip"))!;
    expect(statusLine(world, "")).toMatch(/^\?Pip: /);
    expect(utf8Decode(world.name)).toBe("\u263aPip");
  });
});
