/**
 * NorFlashSim behaves like NOR flash (erase to 0xFF, writes AND), counts what it does, and tears
 * operations reproducibly when power is cut.
 */
import { describe, expect, it } from "vitest";
import { NorFlashSim, createPrng } from "../src/storage/norFlashSim";

function sim(extra: Partial<ConstructorParameters<typeof NorFlashSim>[0]> = {}): NorFlashSim {
  return new NorFlashSim({ size: 1024, pageSize: 256, baseAddress: 0x4000, ...extra });
}

function ones(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) for (let i = 0; i < 8; i++) n += (b >> i) & 1;
  return n;
}

describe("NorFlashSim NOR semantics", () => {
  it("starts erased, writes AND, erase restores 0xFF for exactly one page", () => {
    const f = sim();
    expect(f.read(4, 0x4000).bytes).toEqual(new Uint8Array([255, 255, 255, 255]));
    expect(f.write(new Uint8Array([0xf0, 0x0f, 0xaa, 0x55]), 0x4100)).toBe("ok");
    expect(f.write(new Uint8Array([0xcc, 0xcc, 0xff, 0x00]), 0x4100)).toBe("ok");
    expect(f.read(4, 0x4100).bytes).toEqual(new Uint8Array([0xc0, 0x0c, 0xaa, 0x00]));
    f.write(new Uint8Array([0]), 0x40ff);
    expect(f.erasePage(0x4180)).toBe("ok"); // any address inside the page
    expect(f.read(4, 0x4100).bytes).toEqual(new Uint8Array([255, 255, 255, 255]));
    expect(f.read(1, 0x40ff).bytes).toEqual(new Uint8Array([0])); // the page before is untouched
    expect(f.eraseCounts()).toEqual([0, 1, 0, 0]);
  });

  it("strict mode refuses a write over a byte that is not erased, and changes nothing", () => {
    const f = sim({ strict: true });
    expect(f.write(new Uint8Array([1, 2]), 0x4010)).toBe("ok");
    expect(f.write(new Uint8Array([0xff, 0xff, 0]), 0x400f)).toBe("not-erased");
    expect(f.read(3, 0x400f).bytes).toEqual(new Uint8Array([0xff, 1, 2]));
    expect(f.write(new Uint8Array([0]), 0x4012)).toBe("ok");
  });

  it("reports out-of-range accesses as statuses", () => {
    const f = sim();
    expect(f.read(4, 0x3ffe).status).toBe("out-of-range");
    expect(f.read(4, 0x4400 - 3).status).toBe("out-of-range");
    expect(f.write(new Uint8Array(2), 0x4400)).toBe("out-of-range");
    expect(f.erasePage(0x4400)).toBe("out-of-range");
  });

  it("counts reads, writes, erases and bytes, and traces operations", () => {
    const f = sim({ trace: true });
    f.read(10, 0x4000);
    f.read(3, 0x4000);
    f.write(new Uint8Array(7), 0x4020);
    f.erasePage(0x4000);
    expect(f.stats).toEqual({ reads: 2, writes: 1, erases: 1, bytesRead: 13, bytesWritten: 7, mutations: 2 });
    expect(f.trace.map((t) => t.op)).toEqual(["read", "read", "write", "erase"]);
  });

  it("the PRNG is deterministic per seed", () => {
    const a = createPrng(5);
    const b = createPrng(5);
    const c = createPrng(6);
    const sa = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(sa);
    expect([c(), c(), c()]).not.toEqual(sa);
  });
});

describe("NorFlashSim power cuts", () => {
  const data = new Uint8Array(32).fill(0); // every bit to be cleared

  it("tears the (N+1)th mutation, then every call reports power-lost until powerOn", () => {
    const f = sim();
    f.cutPowerAfter({ afterMutations: 2, writeTear: "none" });
    f.read(4, 0x4000); // reads are not counted
    expect(f.write(new Uint8Array([1]), 0x4000)).toBe("ok");
    expect(f.erasePage(0x4100)).toBe("ok");
    expect(f.write(new Uint8Array([2]), 0x4001)).toBe("power-lost");
    expect(f.read(2, 0x4000).status).toBe("power-lost");
    expect(f.write(new Uint8Array([3]), 0x4002)).toBe("power-lost");
    expect(f.erasePage(0x4000)).toBe("power-lost");
    f.powerOn();
    expect(f.read(3, 0x4000).bytes).toEqual(new Uint8Array([1, 0xff, 0xff]));
  });

  it("write tears: none, all, prefix of words, random words, random bits", () => {
    const cut = (mode: "none" | "all" | "prefix" | "words" | "bits", seed: number) => {
      const f = sim({ seed });
      f.cutPowerAfter({ afterMutations: 0, writeTear: mode });
      expect(f.write(data, 0x4000)).toBe("power-lost");
      f.powerOn();
      return f.read(32, 0x4000).bytes!;
    };
    expect(ones(cut("none", 1))).toBe(256);
    expect(ones(cut("all", 1))).toBe(0);
    let sawPartialPrefix = false;
    for (let seed = 1; seed < 40; seed++) {
      const p = cut("prefix", seed);
      const landed = p.findIndex((b) => b === 0xff);
      const k = landed < 0 ? 32 : landed;
      expect(k % 4).toBe(0);
      for (let i = k; i < 32; i++) expect(p[i]).toBe(0xff); // nothing after the first missing word
      if (k > 0 && k < 32) sawPartialPrefix = true;
      const w = cut("words", seed);
      for (let i = 0; i < 32; i += 4) {
        const word = [w[i], w[i + 1], w[i + 2], w[i + 3]];
        expect(word.every((b) => b === 0) || word.every((b) => b === 0xff)).toBe(true);
      }
      const b = cut("bits", seed);
      expect(ones(b)).toBeGreaterThan(40);
      expect(ones(b)).toBeLessThan(216);
    }
    expect(sawPartialPrefix).toBe(true);
    expect(cut("bits", 7)).toEqual(cut("bits", 7)); // reproducible
  });

  it("a torn write never sets a bit (AND still holds)", () => {
    const f = sim({ seed: 3 });
    f.write(new Uint8Array(8).fill(0x0f), 0x4000);
    f.cutPowerAfter({ afterMutations: 0, writeTear: "bits" });
    f.write(new Uint8Array(8).fill(0xf0), 0x4000);
    f.powerOn();
    for (const b of f.read(8, 0x4000).bytes!) expect(b & 0xf0).toBe(0);
  });

  it("erase tears: prefix, random words, random bytes, none; a torn erase still counts as wear", () => {
    const cut = (mode: "none" | "prefix" | "words" | "random", seed: number) => {
      const f = sim({ seed });
      f.write(new Uint8Array(256).fill(0), 0x4100);
      f.cutPowerAfter({ afterMutations: 0, eraseTear: mode });
      expect(f.erasePage(0x4100)).toBe("power-lost");
      expect(f.eraseCounts()[1]).toBe(1);
      f.powerOn();
      return f.read(256, 0x4100).bytes!;
    };
    expect(ones(cut("none", 1))).toBe(0);
    const r = cut("random", 2);
    expect(ones(r)).toBeGreaterThan(700);
    expect(ones(r)).toBeLessThan(1348);
    const w = cut("words", 2);
    for (let i = 0; i < 256; i += 4) expect(w[i] === w[i + 3]).toBe(true);
    const p = cut("prefix", 9);
    const k = p.findIndex((b) => b === 0);
    for (let i = k < 0 ? 256 : k; i < 256; i++) expect(p[i]).toBe(0);
  });
});

describe("NorFlashSim failure injection", () => {
  it("status, throw and silent failures, with after and count", () => {
    const f = sim();
    f.injectFailure({ op: "write", mode: "status", after: 1, count: 1 });
    expect(f.write(new Uint8Array([1]), 0x4000)).toBe("ok");
    expect(f.write(new Uint8Array([2]), 0x4001)).toBe("write-failed");
    expect(f.write(new Uint8Array([3]), 0x4002)).toBe("ok");
    expect(f.read(3, 0x4000).bytes).toEqual(new Uint8Array([1, 0xff, 3]));
    f.clearFailures();
    f.injectFailure({ op: "read", mode: "throw", count: 1 });
    expect(() => f.read(1, 0x4000)).toThrow();
    expect(f.read(1, 0x4000).status).toBe("ok");
    f.injectFailure({ op: "erase", mode: "silent" });
    expect(f.erasePage(0x4000)).toBe("ok");
    expect(f.read(1, 0x4000).bytes![0]).toBe(1); // not erased, as the ESP32 port would hide
    f.injectFailure({ op: "write", mode: "silent" });
    expect(f.write(new Uint8Array([0]), 0x4010)).toBe("ok");
    expect(f.read(1, 0x4010).bytes![0]).toBe(0xff);
  });

  it("calls onChange synchronously with the changed range", () => {
    const seen: [number, number][] = [];
    const f = sim({ onChange: (o, cells) => seen.push([o, cells.length]) });
    f.write(new Uint8Array(3), 0x4005);
    f.erasePage(0x4200);
    expect(seen).toEqual([
      [5, 3],
      [0x200, 256],
    ]);
  });
});

describe("NorFlashSim strict mode and word-padded writes", () => {
  it("strict allows writing a value again or clearing more bits, refuses asking for a 1 over a 0", () => {
    const f = sim({ strict: true });
    expect(f.write(new Uint8Array([0x5a, 0x0f]), 0x4020)).toBe("ok");
    expect(f.write(new Uint8Array([0x5a]), 0x4020)).toBe("ok"); // same value: AND changes nothing
    expect(f.write(new Uint8Array([0x00]), 0x4020)).toBe("ok"); // a partly set mark made solid
    expect(f.write(new Uint8Array([0x1f]), 0x4021)).toBe("not-erased"); // wants bit 4 back
    expect(f.read(2, 0x4020).bytes).toEqual(new Uint8Array([0x00, 0x0f]));
  });

  it("a write that is not whole words becomes a read-modify-write of whole words", () => {
    const f = sim({ wordPadded: true, strict: true, trace: true });
    f.write(new Uint8Array([0x00, 0x00]), 0x4004); // neighbours already programmed
    f.resetStats();
    expect(f.write(new Uint8Array([0x00]), 0x4006)).toBe("ok");
    expect(f.stats.bytesWritten).toBe(4);
    expect(f.trace).toEqual([{ op: "write", address: 0x4004, length: 4, status: "ok", torn: false }]);
    expect(f.read(4, 0x4004).bytes).toEqual(new Uint8Array([0, 0, 0, 0xff]));
    // three bytes across a word boundary: two words
    f.resetStats();
    expect(f.write(new Uint8Array([1, 2, 3]), 0x400b)).toBe("ok");
    expect(f.trace[0]).toMatchObject({ address: 0x4008, length: 8 });
    expect(f.read(8, 0x4008).bytes).toEqual(new Uint8Array([0xff, 0xff, 0xff, 1, 2, 3, 0xff, 0xff]));
    // whole words pass through unchanged
    f.resetStats();
    f.write(new Uint8Array(8).fill(0x11), 0x4010);
    expect(f.trace[0]).toMatchObject({ address: 0x4010, length: 8 });
  });

  it("without the option a 1-byte write programs one byte", () => {
    const f = sim({ trace: true });
    f.write(new Uint8Array([0]), 0x4006);
    expect(f.stats.bytesWritten).toBe(1);
    expect(f.trace[0]).toMatchObject({ address: 0x4006, length: 1 });
  });

  it("a torn padded write never changes the neighbours it carries along", () => {
    for (let seed = 1; seed < 30; seed++) {
      const f = sim({ wordPadded: true, seed });
      f.write(new Uint8Array([0x12, 0x34, 0x56]), 0x4000);
      f.cutPowerAfter({ afterMutations: 0, writeTear: "bits" });
      expect(f.write(new Uint8Array([0x00]), 0x4003)).toBe("power-lost");
      f.powerOn();
      expect(Array.from(f.read(3, 0x4000).bytes!)).toEqual([0x12, 0x34, 0x56]);
    }
  });

  it("the mixed erase tear leaves each word old, erased or random", () => {
    const kinds = new Set<string>();
    for (let seed = 1; seed < 5; seed++) {
      const f = sim({ seed });
      f.write(new Uint8Array(256).fill(0), 0x4100);
      f.cutPowerAfter({ afterMutations: 0, eraseTear: "mixed" });
      expect(f.erasePage(0x4100)).toBe("power-lost");
      f.powerOn();
      const b = f.read(256, 0x4100).bytes!;
      for (let i = 0; i < 256; i += 4) {
        const w = Array.from(b.subarray(i, i + 4));
        kinds.add(w.every((x) => x === 0) ? "old" : w.every((x) => x === 0xff) ? "erased" : "random");
      }
    }
    expect([...kinds].sort()).toEqual(["erased", "old", "random"]);
  });
});
