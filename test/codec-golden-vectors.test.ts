/**
 * The committed golden payloads in test/golden/*.hex, pinned three ways:
 *  1. each file equals a payload assembled here by hand from the field table (per-field literal hex,
 *     CRC from Node's zlib.crc32 — code independent of src/save),
 *  2. loadWorld gives each file its expected status,
 *  3. saveWorld of the decoded valid worlds reproduces the file byte for byte.
 * The .hex files are the truth: if the codec and a file disagree, the codec is wrong.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32 as zlibCrc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { loadWorld, saveWorld } from "../src/save/codec";
import type { LoadStatus } from "../src/save/status";
import { bytesToHex, hexToBytes } from "../src/core/hex";
import { u64ToDecimal } from "../src/core/u64";
import { createWorld } from "../src/core/world";
import type { World } from "../src/core/types";

const GOLDEN = fileURLToPath(new URL("./golden", import.meta.url));

/** The fields in payload order, each as the literal little-endian hex of its bytes. */
interface Fields {
  magic: string; // offset 0, 4 bytes
  version: string; // offset 4, u16
  elapsed: string; // offset 6, u64
  updateCount: string; // offset 14, u64
  savedAt: string; // offset 22, u64
  activity: string; // offset 30, u8
  expression: string; // offset 31, u8
  activitySince: string; // offset 32, u64
  expressionSince: string; // offset 40, u64
  nameLength: string; // offset 48, u8
  nameBytes: string; // offset 49, 31 bytes
}

const ZERO_U64 = "0000000000000000";
const MAX_U64 = "ffffffffffffffff";

const MINIMAL: Fields = {
  magic: "50455453", // "PETS"
  version: "0100", // 1
  elapsed: ZERO_U64,
  updateCount: ZERO_U64,
  savedAt: ZERO_U64, // unknown
  activity: "00", // idle
  expression: "00", // neutral
  activitySince: ZERO_U64,
  expressionSince: ZERO_U64,
  nameLength: "01",
  nameBytes: "41" + "00".repeat(30), // "A"
};

function withFields(changes: Partial<Fields>): Fields {
  return { ...MINIMAL, ...changes };
}

/** Bytes 0..79 from the fields, then the CRC (of `crcOf`, default the same fields) little-endian. */
function assemble(fields: Fields, crcOf: Fields = fields): string {
  const body = (f: Fields): string =>
    f.magic + f.version + f.elapsed + f.updateCount + f.savedAt + f.activity + f.expression +
    f.activitySince + f.expressionSince + f.nameLength + f.nameBytes;
  const data = body(fields);
  expect(data.length).toBe(160); // the hand-written fields must fill bytes 0..79 exactly
  const crc = zlibCrc32(Buffer.from(body(crcOf), "hex")) >>> 0;
  const crcLE = Buffer.alloc(4);
  crcLE.writeUInt32LE(crc, 0);
  return data + crcLE.toString("hex");
}

const MINIMAL_HEX = assemble(MINIMAL);

interface Vector {
  file: string;
  hex: string;
  status: LoadStatus;
  /** The wall clock passed to loadWorld (default 0: unknown). */
  nowMs?: number;
}

const VECTORS: Vector[] = [
  { file: "valid-minimal", hex: MINIMAL_HEX, status: "ok" },
  {
    file: "valid-maximal",
    hex: assemble({
      magic: "50455453",
      version: "0100",
      elapsed: MAX_U64,
      updateCount: MAX_U64,
      savedAt: MAX_U64, // no now can be later, so the absence is always 0 and the clock cannot overflow
      activity: "04", // sleeping, the highest activity
      expression: "05", // curious, the highest expression
      activitySince: MAX_U64, // may equal the world clock
      expressionSince: MAX_U64,
      nameLength: "1f", // 31
      nameBytes: "ff".repeat(31), // not UTF-8: names are kept as bytes
    }),
    status: "ok",
  },
  {
    file: "valid-utf8-name",
    hex: assemble({
      magic: "50455453",
      version: "0100",
      elapsed: "80ee360000000000", // 3600000 (one hour)
      updateCount: "100e000000000000", // 3600
      savedAt: "00a8da769b010000", // 1767225600000 = 2026-01-01T00:00:00Z
      activity: "04", // sleeping
      expression: "02", // sleepy
      activitySince: "c0c62d0000000000", // 3000000
      expressionSince: "c0c62d0000000000",
      nameLength: "09",
      nameBytes: "5a6fc3ab20f09f90be" + "00".repeat(22), // "Zoë 🐾" in UTF-8
    }),
    status: "ok",
  },
  { file: "reject-too-short-empty", hex: "", status: "too-short" },
  { file: "reject-too-short-5-bytes", hex: "50455453" + "01", status: "too-short" },
  { file: "reject-bad-magic", hex: assemble(withFields({ magic: "50455473" /* "PETs" */ })), status: "bad-magic" },
  { file: "reject-unsupported-version-0", hex: assemble(withFields({ version: "0000" })), status: "unsupported-version" },
  { file: "reject-unsupported-version-2", hex: assemble(withFields({ version: "0200" })), status: "unsupported-version" },
  // Version is checked before length: a short version-2 payload is unsupported, not malformed.
  { file: "reject-unsupported-version-2-length-10", hex: "50455453" + "0200" + "00000000", status: "unsupported-version" },
  // 0x0100 read little-endian is 256, not 1.
  { file: "reject-unsupported-version-256", hex: assemble(withFields({ version: "0001" })), status: "unsupported-version" },
  { file: "reject-bad-length-10", hex: "50455453" + "0100" + "00000000", status: "bad-length" },
  { file: "reject-bad-length-83", hex: MINIMAL_HEX.slice(0, 166), status: "bad-length" },
  { file: "reject-bad-length-85", hex: MINIMAL_HEX + "00", status: "bad-length" },
  // elapsed changed to 1 but the stored CRC is the minimal pet's.
  { file: "reject-bad-checksum", hex: assemble(withFields({ elapsed: "0100000000000000" }), MINIMAL), status: "bad-checksum" },
  { file: "reject-unknown-activity", hex: assemble(withFields({ activity: "05" })), status: "unknown-activity" },
  { file: "reject-unknown-expression", hex: assemble(withFields({ expression: "06" })), status: "unknown-expression" },
  {
    file: "reject-bad-name-zero-inside",
    hex: assemble(withFields({ nameLength: "03", nameBytes: "410042" + "00".repeat(28) })),
    status: "bad-name",
  },
  {
    file: "reject-bad-name-nonzero-padding",
    hex: assemble(withFields({ nameLength: "01", nameBytes: "4142" + "00".repeat(29) })),
    status: "bad-name",
  },
  { file: "reject-bad-name-length-0", hex: assemble(withFields({ nameLength: "00", nameBytes: "00".repeat(31) })), status: "bad-name" },
  { file: "reject-bad-name-length-32", hex: assemble(withFields({ nameLength: "20", nameBytes: "41".repeat(31) })), status: "bad-name" },
  {
    // Elapsed 2^64 - 1000, saved at 2026-01-01T00:00:00Z, loaded 1000 ms later: the sum is 2^64.
    file: "reject-clock-overflow",
    hex: assemble(withFields({ elapsed: "18fcffffffffffff" /* 2^64 - 1000 */, savedAt: "00a8da769b010000" })),
    status: "clock-overflow",
    nowMs: 1767225601000,
  },
  {
    file: "reject-invalid-world-activity-since",
    hex: assemble(withFields({ elapsed: "e803000000000000" /* 1000 */, activitySince: "e903000000000000" /* 1001 */ })),
    status: "invalid-world",
  },
  {
    file: "reject-invalid-world-expression-since",
    hex: assemble(withFields({ elapsed: "e803000000000000", expressionSince: "e903000000000000" })),
    status: "invalid-world",
  },
  {
    // Activity since 1000 ms past the stored clock: invalid without a wall clock, but a load 1000 ms
    // after the save moves the clock onto the stamp and the assembled world is valid (see below).
    file: "reject-invalid-world-since-within-absence",
    hex: assemble(
      withFields({
        elapsed: "e803000000000000", // 1000
        savedAt: "00a8da769b010000", // 1767225600000
        activitySince: "d007000000000000", // 2000
      }),
    ),
    status: "invalid-world",
  },
];

function readGolden(file: string): string {
  return readFileSync(join(GOLDEN, file + ".hex"), "utf8").trim();
}

describe("golden vectors", () => {
  it("every .hex file in test/golden is pinned here and listed in its README", () => {
    const onDisk = readdirSync(GOLDEN).filter((f) => f.endsWith(".hex")).map((f) => f.slice(0, -4)).sort();
    expect(onDisk).toEqual(VECTORS.map((v) => v.file).sort());
    const readme = readFileSync(join(GOLDEN, "README.md"), "utf8");
    for (const v of VECTORS) expect(readme).toContain("`" + v.file + ".hex`");
  });

  for (const v of VECTORS) {
    describe(v.file, () => {
      it("file holds the hand-assembled bytes as lower-case hex", () => {
        const text = readGolden(v.file);
        expect(text).toMatch(/^[0-9a-f]*$/);
        expect(text).toBe(v.hex);
      });

      it("loads as " + v.status, () => {
        const bytes = hexToBytes(readGolden(v.file)) as Uint8Array;
        expect(loadWorld(bytes, v.nowMs ?? 0).status).toBe(v.status);
      });

      if (v.status !== "ok") {
        it("leaves the destination world untouched", () => {
          const into = createWorld(new Uint8Array([0x5a])) as World;
          into.elapsed = { hi: 0, lo: 99 };
          const before = JSON.stringify({ ...into, name: Array.from(into.name) });
          const r = loadWorld(hexToBytes(readGolden(v.file)) as Uint8Array, v.nowMs ?? 0, into);
          expect(r.world).toBeNull();
          expect(JSON.stringify({ ...into, name: Array.from(into.name) })).toBe(before);
        });
      }
    });
  }

  it("the clock-overflow vector loads without the absence, and exactly at the ceiling", () => {
    const bytes = hexToBytes(readGolden("reject-clock-overflow")) as Uint8Array;
    expect(loadWorld(bytes, 0).status).toBe("ok");
    const atCeiling = loadWorld(bytes, 1767225600999); // absence 999: elapsed lands on 2^64 - 1
    expect(atCeiling.status).toBe("ok");
    expect(u64ToDecimal(atCeiling.world!.elapsed)).toBe("18446744073709551615");
    expect(atCeiling.absenceMs).toBe(999);
  });

  it("the since-within-absence vector loads once the absence reaches the stamp, not a millisecond earlier", () => {
    const bytes = hexToBytes(readGolden("reject-invalid-world-since-within-absence")) as Uint8Array;
    const early = loadWorld(bytes, 1767225600999); // absence 999: clock 1999, stamp 2000
    expect(early.status).toBe("invalid-world");
    expect(early.world).toBeNull();
    const onTime = loadWorld(bytes, 1767225601000); // absence 1000: clock 2000 equals the stamp
    expect(onTime.status).toBe("ok");
    expect(onTime.absenceMs).toBe(1000);
    expect(u64ToDecimal(onTime.world!.elapsed)).toBe("2000");
    expect(u64ToDecimal(onTime.world!.activitySince)).toBe("2000");
    // A week later the absence is clamped to seven days, still far past the stamp.
    expect(loadWorld(bytes, 1767225600000 + 30 * 86400000).status).toBe("ok");
  });

  for (const file of ["valid-minimal", "valid-maximal", "valid-utf8-name"]) {
    it(file + ": saveWorld of the decoded world reproduces the file", () => {
      const bytes = hexToBytes(readGolden(file)) as Uint8Array;
      const loaded = loadWorld(bytes, 0);
      expect(loaded.status).toBe("ok");
      const saved = saveWorld(loaded.world!, loaded.savedAt);
      expect(saved.status).toBe("ok");
      expect(bytesToHex(saved.bytes!)).toBe(readGolden(file));
    });
  }

  it("valid-utf8-name decodes to the expected fields", () => {
    const loaded = loadWorld(hexToBytes(readGolden("valid-utf8-name")) as Uint8Array, 0);
    const w = loaded.world!;
    expect(Buffer.from(w.name).toString("utf8")).toBe("Zoë 🐾");
    expect(u64ToDecimal(w.elapsed)).toBe("3600000");
    expect(u64ToDecimal(w.updateCount)).toBe("3600");
    expect(u64ToDecimal(loaded.savedAt)).toBe("1767225600000");
    expect([w.activity, w.expression]).toEqual([4, 2]);
    expect(u64ToDecimal(w.activitySince)).toBe("3000000");
    expect(u64ToDecimal(w.expressionSince)).toBe("3000000");
  });
});
