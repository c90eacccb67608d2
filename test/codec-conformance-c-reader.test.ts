/**
 * Two independently written readers of save format v1 agree to the byte: the C99 reader in
 * tools/c-reader (written from the field table) and our TypeScript codec behind `pet-save decode
 * --json` (which also runs on the device). For the golden vectors and a few thousand random payloads
 * both must give the same status, the same JSON for accepted payloads, and the same canonical
 * re-encoding. Skipped when no C compiler (`cc`) is on PATH.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32 as zlibCrc32 } from "node:zlib";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main, type CliIo } from "../src/host/node/cli";
import { bytesToHex } from "../src/core/hex";
import { loadWorld, saveWorld } from "../src/save/codec";
import { LOAD_STATUSES, type LoadStatus } from "../src/save/status";
import { clockBig, fromBig, U64_MAX_BIG, validWorld } from "./core-arbitraries";

const SOURCE = fileURLToPath(new URL("../tools/c-reader/pet_save_read.c", import.meta.url));
const GOLDEN = fileURLToPath(new URL("./golden", import.meta.url));

const hasCc = spawnSync("cc", ["--version"], { stdio: "ignore" }).error === undefined;
if (!hasCc) console.warn("conformance-c-reader: no `cc` on PATH, skipping the C reader conformance tests");

let dir = "";
let reader = "";

// ---- The two readers -------------------------------------------------------------------------------

interface Outcome {
  status: LoadStatus;
  /** The JSON line as printed, when accepted. */
  json: string | null;
  /** The re-encoded payload as hex, when accepted. */
  reencoded: string | null;
}

/** `pet-save decode - --json --now NOW` run in-process, plus the re-encoding saveWorld gives. */
async function ourReader(bytes: Uint8Array, now: bigint): Promise<Outcome> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    readStdin: async () => bytes,
    writeStdout: (d) => void (stdout += typeof d === "string" ? d : Buffer.from(d).toString("utf8")),
    writeStderr: (t) => void (stderr += t),
  };
  const code = await main(["decode", "-", "--json", "--now", now.toString()], io);
  const loaded = loadWorld(bytes, fromBig(now));
  if (code !== 0) {
    const m = /^rejected: ([a-z-]+)\n/.exec(stderr);
    if (code !== 1 || m === null) throw new Error("pet-save decode failed unexpectedly (" + code + "): " + stderr);
    // The CLI and the codec it wraps must tell the same story.
    expect(loaded.status).toBe(m[1]);
    return { status: m[1] as LoadStatus, json: null, reencoded: null };
  }
  expect(loaded.status).toBe("ok");
  const saved = saveWorld(loaded.world!, loaded.savedAt);
  expect(saved.status).toBe("ok");
  return { status: "ok", json: stdout.replace(/\n$/, ""), reencoded: bytesToHex(saved.bytes!) };
}

function runC(args: string[], input?: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(reader, args, { input: input ?? "", encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.error !== undefined) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** One C batch result line ("ok\tHEX\tJSON" or "rejected: STATUS") as an Outcome. */
function parseBatchLine(line: string): Outcome {
  if (line.startsWith("rejected: ")) return { status: line.slice(10) as LoadStatus, json: null, reencoded: null };
  const parts = line.split("\t");
  if (parts.length !== 3 || parts[0] !== "ok") throw new Error("unexpected C reader line: " + line);
  return { status: "ok", reencoded: parts[1] as string, json: parts[2] as string };
}

/** Every payload through the C reader in one process. */
function cReaderBatch(cases: readonly PayloadCase[]): Outcome[] {
  const input = cases.map((c) => c.now.toString() + " " + bytesToHex(c.bytes) + "\n").join("");
  const r = runC(["--batch", "--reencode"], input);
  expect(r.code).toBe(0);
  const lines = r.stdout.split("\n");
  expect(lines.pop()).toBe("");
  expect(lines).toHaveLength(cases.length);
  return lines.map(parseBatchLine);
}

// ---- Comparison --------------------------------------------------------------------------------------

function nameIsPrintableAscii(nameHex: string): boolean {
  const bytes = Buffer.from(nameHex, "hex");
  return bytes.every((b) => b >= 0x20 && b <= 0x7e);
}

/**
 * Null when the two outcomes agree, else what differs. The C reader prints `name` only for printable
 * ASCII names (it does not carry a UTF-8 decoder); then its line must equal ours byte for byte,
 * otherwise everything but `name` must be equal and nameHex carries the bytes.
 */
function disagreement(ours: Outcome, theirs: Outcome, input: Uint8Array, now: bigint): string | null {
  if (ours.status !== theirs.status) return "status " + ours.status + " (ours) vs " + theirs.status + " (C)";
  if (ours.status !== "ok") return null;
  const o = JSON.parse(ours.json!) as Record<string, unknown>;
  const c = JSON.parse(theirs.json!) as Record<string, unknown>;
  if (nameIsPrintableAscii(o.nameHex as string)) {
    if (ours.json !== theirs.json) return "JSON line " + ours.json + " (ours) vs " + theirs.json + " (C)";
  } else {
    const { name: _ignored, ...rest } = o;
    if (JSON.stringify(rest) !== JSON.stringify(c)) return "JSON " + JSON.stringify(rest) + " (ours, name left out) vs " + theirs.json + " (C)";
  }
  if (ours.reencoded !== theirs.reencoded) return "re-encoding " + ours.reencoded + " (ours) vs " + theirs.reencoded + " (C)";
  // Canonical bytes: with no absence added, re-encoding gives back the input exactly.
  const awayAdded = loadWorld(input, fromBig(now)).absenceMs !== 0;
  if (!awayAdded && theirs.reencoded !== bytesToHex(input)) return "re-encoding is not the input: " + theirs.reencoded;
  return null;
}

// ---- Random payloads ----------------------------------------------------------------------------------

interface PayloadCase {
  kind: string;
  bytes: Uint8Array;
  now: bigint;
}

const withCrc = (first80: Uint8Array): Uint8Array => {
  const out = new Uint8Array(84);
  out.set(first80.subarray(0, 80));
  Buffer.from(out.buffer).writeUInt32LE(zlibCrc32(out.subarray(0, 80)), 80);
  return out;
};

const u64Big = fc.bigInt({ min: 0n, max: U64_MAX_BIG });
const savedAtBig = fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 1n << 41n }), clockBig);

/** A wall clock for a payload saved at `savedAt`: unknown, just before, shortly after, days or years after, anything. */
const nowFor = (savedAt: bigint): fc.Arbitrary<bigint> =>
  fc.oneof(
    fc.constant(0n),
    fc.bigInt({ min: 0n, max: 10n }).map((d) => (savedAt >= d ? savedAt - d : 0n)),
    fc.bigInt({ min: 1n, max: 1n << 40n }).map((d) => (savedAt + d > U64_MAX_BIG ? U64_MAX_BIG : savedAt + d)),
    fc.constantFrom(604799999n, 604800000n, 604800001n).map((d) => (savedAt + d > U64_MAX_BIG ? U64_MAX_BIG : savedAt + d)),
    u64Big,
  );

/** A printable ASCII name, quotes and backslashes included, for worlds whose name the C reader prints. */
const printableName = fc.string({ minLength: 1, maxLength: 31, unit: fc.constantFrom(" ", '"', "\\", "~", "a", "Z", "0", "{") });

/** A valid world saved by our saveWorld; a third of them renamed to a printable ASCII name. */
const savedPayload = fc
  .tuple(validWorld, savedAtBig, fc.option(printableName, { freq: 2 }))
  .map(([w, s, name]) => {
    const world = name === null ? w : { ...w, name: new Uint8Array(Buffer.from(name, "latin1")) };
    return { bytes: saveWorld(world, fromBig(s)).bytes!, savedAt: s };
  });

const validCase = savedPayload.chain((p) => nowFor(p.savedAt).map((now) => ({ kind: "valid", bytes: p.bytes, now })));

/** A saved payload with 1 to 4 bits flipped; sometimes the CRC is fixed up so the field checks are reached. */
const bitFlipCase = fc
  .tuple(savedPayload, fc.array(fc.nat(84 * 8 - 1), { minLength: 1, maxLength: 4 }), fc.boolean())
  .chain(([p, bits, fixCrc]) => {
    let bytes: Uint8Array = new Uint8Array(p.bytes);
    for (const bit of bits) bytes[bit >> 3]! ^= 1 << (bit & 7);
    if (fixCrc) bytes = withCrc(bytes);
    return nowFor(p.savedAt).map((now) => ({ kind: fixCrc ? "bit-flip, CRC fixed" : "bit-flip", bytes, now }));
  });

/**
 * 31 nonzero name bytes: anything, printable ASCII (the C reader then prints `name` and its line must
 * match ours byte for byte), or the bytes at the edges of that (space, quote, backslash, tilde, DEL, 0x1f).
 */
const nameField = fc.oneof(
  fc.uint8Array({ minLength: 31, maxLength: 31, min: 1, max: 255 }),
  fc.uint8Array({ minLength: 31, maxLength: 31, min: 0x20, max: 0x7e }),
  fc.array(fc.constantFrom(0x20, 0x22, 0x5c, 0x7e, 0x7f, 0x41, 0x1f), { minLength: 31, maxLength: 31 }).map((a) => new Uint8Array(a)),
);

/** Field-shaped payloads with values just outside every range, and a correct CRC. */
const structuredCase = fc
  .record({
    activity: fc.nat(7),
    expression: fc.nat(7),
    nameLength: fc.oneof(fc.integer({ min: 1, max: 31 }), fc.constantFrom(0, 32, 33, 255)),
    name: nameField,
    zeroInside: fc.option(fc.nat(30), { freq: 6 }),
    dirtyPadding: fc.option(fc.tuple(fc.nat(30), fc.integer({ min: 1, max: 255 })), { freq: 6 }),
    elapsed: clockBig,
    sinceA: fc.oneof(clockBig, fc.constant(-1n), fc.constant(0n)),
    sinceE: fc.oneof(clockBig, fc.constant(-1n), fc.constant(0n)),
    updateCount: u64Big,
    savedAt: savedAtBig,
  })
  .chain((r) => {
    const buf = Buffer.alloc(80);
    buf.write("PETS", 0, "latin1");
    buf.writeUInt16LE(1, 4);
    buf.writeBigUInt64LE(r.elapsed, 6);
    buf.writeBigUInt64LE(r.updateCount, 14);
    buf.writeBigUInt64LE(r.savedAt, 22);
    buf[30] = r.activity;
    buf[31] = r.expression;
    // -1 stands for "just after the clock" (invalid) and otherwise a stamp is kept at or below it half the time.
    const since = (s: bigint): bigint => (s < 0n ? (r.elapsed === U64_MAX_BIG ? r.elapsed : r.elapsed + 1n) : s);
    buf.writeBigUInt64LE(since(r.sinceA), 32);
    buf.writeBigUInt64LE(since(r.sinceE), 40);
    buf[48] = r.nameLength;
    for (let i = 0; i < Math.min(r.nameLength, 31); i++) buf[49 + i] = r.name[i]!;
    if (r.zeroInside !== null) buf[49 + r.zeroInside] = 0;
    if (r.dirtyPadding !== null) buf[49 + r.dirtyPadding[0]] = r.dirtyPadding[1];
    const bytes = withCrc(new Uint8Array(buf));
    return nowFor(r.savedAt).map((now) => ({ kind: "structured, CRC fixed", bytes, now }));
  });

/**
 * A since stamp just past the stored elapsed, loaded with a now whose absence lands just before, on
 * or just after it (or no now at all). The last acceptance step judges the world with the absence
 * added, so these sit right on the edge between ok and invalid-world for both readers.
 */
const SEVEN_DAYS = 604800000n;
const sinceWindowCase = fc
  .record({
    elapsed: fc.oneof(fc.bigInt({ min: 0n, max: 1n << 40n }), clockBig),
    savedAt: fc.bigInt({ min: 1n, max: 1n << 41n }),
    past: fc.oneof(fc.bigInt({ min: 1n, max: 3n }), fc.bigInt({ min: 1n, max: 100000n }), fc.constantFrom(SEVEN_DAYS - 1n, SEVEN_DAYS, SEVEN_DAYS + 1n)),
    nudge: fc.oneof(fc.constantFrom(-1n, 0n, 1n), fc.bigInt({ min: -1000n, max: 1000n })),
    noNow: fc.boolean(),
    field: fc.constantFrom(32, 40, 0),
    other: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 3n })),
    base: savedPayload,
  })
  .map((r) => {
    const buf = Buffer.from(r.base.bytes.subarray(0, 80));
    const stamp = r.elapsed + r.past > U64_MAX_BIG ? U64_MAX_BIG : r.elapsed + r.past;
    buf.writeBigUInt64LE(r.elapsed, 6);
    buf.writeBigUInt64LE(r.savedAt, 22);
    // field 0: both stamps past the clock, the second by `other` less (never below zero)
    buf.writeBigUInt64LE(r.field === 40 ? r.elapsed : stamp, 32);
    buf.writeBigUInt64LE(r.field === 32 ? r.elapsed : stamp - r.other < 0n ? 0n : stamp - r.other, 40);
    const bytes = withCrc(new Uint8Array(buf));
    const target = r.savedAt + r.past + r.nudge;
    const now = r.noNow || target < 0n ? 0n : target > U64_MAX_BIG ? U64_MAX_BIG : target;
    return { kind: "since past stored elapsed, CRC fixed", bytes, now };
  });

/** 80 random bytes behind a correct header, with a correct CRC. */
const randomWithCrcCase = fc
  .tuple(fc.uint8Array({ minLength: 80, maxLength: 80 }), fc.boolean(), u64Big)
  .map(([raw, header, now]) => {
    const b = new Uint8Array(raw);
    if (header) b.set([0x50, 0x45, 0x54, 0x53, 1, 0]);
    return { kind: "random bytes, CRC fixed", bytes: withCrc(b), now };
  });

/** Any length from 0 to 100, often starting like a payload so the length checks are what decide. */
const randomLengthCase = fc
  .tuple(
    fc.uint8Array({ minLength: 0, maxLength: 100 }),
    fc.constantFrom(
      [],
      [0x50, 0x45, 0x54, 0x53],
      [0x50, 0x45, 0x54, 0x53, 1, 0],
      [0x50, 0x45, 0x54, 0x53, 2, 0],
      [0x50, 0x45, 0x54, 0x53, 1, 1],
    ),
    fc.constantFrom(0n, 1n, 1767225600000n),
  )
  .map(([raw, prefix, now]) => {
    const b = new Uint8Array(raw);
    b.set(prefix.slice(0, b.length));
    return { kind: "random length", bytes: b, now };
  });

const payloadCase: fc.Arbitrary<PayloadCase> = fc.oneof(
  { arbitrary: validCase, weight: 3 },
  { arbitrary: bitFlipCase, weight: 3 },
  { arbitrary: structuredCase, weight: 4 },
  { arbitrary: randomWithCrcCase, weight: 1 },
  { arbitrary: randomLengthCase, weight: 2 },
  { arbitrary: sinceWindowCase, weight: 2 },
);

// ---- Golden vectors -----------------------------------------------------------------------------------

/** The status a golden file is named for ("reject-<status>-..." or "valid-..."); README: clock-overflow needs its now. */
function goldenStatus(file: string): LoadStatus {
  if (file.startsWith("valid-")) return "ok";
  const status = LOAD_STATUSES.filter((s) => file.startsWith("reject-" + s)).sort((a, b) => b.length - a.length)[0];
  if (status === undefined) throw new Error("golden file name names no status: " + file);
  return status;
}

/**
 * test/golden/README.md: `reject-clock-overflow` overflows at this now, loads at one ms earlier and at 0;
 * `reject-invalid-world-since-within-absence` loads at this now and is invalid-world one ms earlier and at 0.
 */
const OVERFLOW_NOW = 1767225601000n;
const GOLDEN_NOWS = [0n, OVERFLOW_NOW - 1n, OVERFLOW_NOW];

// ---- Tests --------------------------------------------------------------------------------------------

describe.skipIf(!hasCc)("the C reader (tools/c-reader) and pet-save decode agree on save format v1", () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "pet-c-reader-"));
    reader = join(dir, "pet_save_read");
    const cc = spawnSync("cc", ["-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-o", reader, SOURCE], { encoding: "utf8" });
    if (cc.status !== 0) throw new Error("cc failed to build the C reader:\n" + cc.stderr);
  });
  afterAll(() => {
    if (dir !== "") rmSync(dir, { recursive: true, force: true });
  });

  const goldenFiles = readdirSync(GOLDEN).filter((f) => f.endsWith(".hex")).sort();

  it("finds the golden vectors", () => {
    expect(goldenFiles.length).toBeGreaterThanOrEqual(20);
  });

  for (const file of goldenFiles) {
    it("golden " + file + ": same status, JSON and re-encoding from the hex file", async () => {
      const path = join(GOLDEN, file);
      const bytes = new Uint8Array(Buffer.from(readFileSync(path, "utf8").trim(), "hex"));
      for (const now of GOLDEN_NOWS) {
        const ours = await ourReader(bytes, now);
        const json = runC(["--hex", "--now", now.toString(), path]);
        const re = runC(["--hex", "--now", now.toString(), "--reencode", path]);
        expect(json.stderr).toBe("");
        expect(json.code).toBe(ours.status === "ok" ? 0 : 1);
        expect(re.code).toBe(json.code);
        const theirs: Outcome =
          json.code === 0
            ? { status: "ok", json: json.stdout.replace(/\n$/, ""), reencoded: re.stdout.replace(/\n$/, "") }
            : { status: json.stdout.replace(/^rejected: /, "").trim() as LoadStatus, json: null, reencoded: null };
        if (json.code !== 0) expect(re.stdout).toBe(json.stdout);
        expect(disagreement(ours, theirs, bytes, now), file + " at now " + now).toBeNull();
      }
      // Independent of both readers: the status the file is named for (README: overflow at its now).
      const expectedNow = file.startsWith("reject-clock-overflow") ? OVERFLOW_NOW : 0n;
      expect((await ourReader(bytes, expectedNow)).status).toBe(goldenStatus(file));
      // README: the since-within-absence stamp is reached by the absence at OVERFLOW_NOW, not 1 ms before.
      if (file.startsWith("reject-invalid-world-since-within-absence")) {
        expect(runC(["--hex", "--now", OVERFLOW_NOW.toString(), path]).code, "C reader at now " + OVERFLOW_NOW).toBe(0);
        expect(runC(["--hex", "--now", (OVERFLOW_NOW - 1n).toString(), path]).stdout).toBe("rejected: invalid-world\n");
      }
    });
  }

  it("reads the golden vectors the same in batch mode as from files", async () => {
    const cases = goldenFiles.flatMap((file) => {
      const bytes = new Uint8Array(Buffer.from(readFileSync(join(GOLDEN, file), "utf8").trim(), "hex"));
      return GOLDEN_NOWS.map((now) => ({ kind: file, bytes, now }));
    });
    const theirs = cReaderBatch(cases);
    for (let i = 0; i < cases.length; i++) {
      const c = cases[i]!;
      expect(disagreement(await ourReader(c.bytes, c.now), theirs[i]!, c.bytes, c.now), c.kind).toBeNull();
    }
  });

  it("agrees on thousands of random payloads: saved worlds, bit flips, random fields and bytes with a good CRC, random lengths", async () => {
    const seen = new Map<LoadStatus, number>();
    let total = 0;
    let printableNames = 0;
    let otherNames = 0;
    // Stamps past the stored elapsed: accepted thanks to the absence, or still invalid-world.
    const sinceWindow = { ok: 0, "invalid-world": 0 } as Record<string, number>;
    await fc.assert(
      fc.asyncProperty(fc.array(payloadCase, { minLength: 1000, maxLength: 1000 }), async (cases) => {
        const theirs = cReaderBatch(cases);
        for (let i = 0; i < cases.length; i++) {
          const c = cases[i]!;
          const ours = await ourReader(c.bytes, c.now);
          const diff = disagreement(ours, theirs[i]!, c.bytes, c.now);
          if (diff !== null) {
            throw new Error("readers disagree on " + c.kind + " payload " + bytesToHex(c.bytes) + " at now " + c.now + ": " + diff);
          }
          seen.set(ours.status, (seen.get(ours.status) ?? 0) + 1);
          if (c.kind.startsWith("since past")) sinceWindow[ours.status] = (sinceWindow[ours.status] ?? 0) + 1;
          if (ours.status === "ok") {
            const printable = nameIsPrintableAscii((JSON.parse(ours.json!) as { nameHex: string }).nameHex);
            if (printable) printableNames++;
            else otherNames++;
          }
          total++;
        }
      }),
      { numRuns: 4, endOnFailure: true },
    );
    expect(total).toBe(4000);
    // The mix must reach every check, or agreement would prove little about the later ones.
    for (const status of LOAD_STATUSES) expect(seen.get(status) ?? 0, "payloads ending in " + status).toBeGreaterThan(0);
    // Both ways of comparing an accepted payload (whole line, or all but `name`) must have been used.
    expect(printableNames, "accepted payloads with printable ASCII names").toBeGreaterThan(10);
    expect(otherNames, "accepted payloads with other names").toBeGreaterThan(10);
    // Both sides of the edge the absence moves must have been compared.
    expect(sinceWindow.ok, "since past stored elapsed, accepted with the absence").toBeGreaterThan(20);
    expect(sinceWindow["invalid-world"], "since past stored elapsed, still invalid").toBeGreaterThan(20);
    console.info("conformance-c-reader: statuses over " + total + " random payloads " + JSON.stringify(Object.fromEntries(seen)) + ", accepted names printable/other " + printableNames + "/" + otherNames + ", since past stored elapsed " + JSON.stringify(sinceWindow));
  });

  it("rejects input that is not a payload with a usage error, not a status", () => {
    expect(runC(["--hex", join(GOLDEN, "README.md")]).code).toBe(2);
    expect(runC(["--now", "-1", join(GOLDEN, "valid-minimal.hex")]).code).toBe(2);
    expect(runC(["--now", "18446744073709551616", join(GOLDEN, "valid-minimal.hex")]).code).toBe(2);
    expect(runC([join(dir, "missing.bin")]).code).toBe(2);
    expect(runC(["--batch"], "12 5045545\nx 00\n").stdout).toBe('error: line is not "NOW HEX"\nerror: line is not "NOW HEX"\n');
  });

  it("reads a raw binary payload from stdin the same as its hex file", () => {
    const hex = readFileSync(join(GOLDEN, "valid-utf8-name.hex"), "utf8").trim();
    const r = spawnSync(reader, ["--reencode", "-"], { input: Buffer.from(hex, "hex"), encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(hex + "\n");
  });
});
