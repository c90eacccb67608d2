/**
 * Codec speed in Node: median nanoseconds per saveWorld, loadWorld and CRC-32 over the 80 covered
 * bytes. Node has no E.CRC32, so the "built-in" path is measured with a fake global E whose CRC32 is
 * zlib.crc32: it shows the codec's dispatch cost, not the interpreter's. On Espruino the gap between
 * the two CRC paths is far larger (see docs/adr/0002-crc32-fast-path.md).
 */
import { crc32 as zlibCrc32 } from "node:zlib";
import { createWorld } from "../../src/core/world";
import { nameFromString } from "../../src/core/name";
import { loadWorld, saveWorld } from "../../src/save/codec";
import { crc32, crc32Bitwise } from "../../src/save/crc32";
import { CRC_COVERED_LENGTH } from "../../src/save/layout";
import type { World } from "../../src/core/types";

const ROUNDS = 41;
const ITERATIONS = 5000;

/** Median over ROUNDS of the mean ns per call within a round of ITERATIONS calls. */
function medianNs(fn: () => unknown): number {
  for (let i = 0; i < ITERATIONS; i++) fn(); // warm-up
  const perCall: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < ITERATIONS; i++) fn();
    perCall.push(Number(process.hrtime.bigint() - start) / ITERATIONS);
  }
  perCall.sort((a, b) => a - b);
  return Math.round(perCall[(ROUNDS - 1) >> 1] as number);
}

function withFakeE<T>(fn: () => T): T {
  const g = globalThis as { E?: unknown };
  g.E = { CRC32: (data: Uint8Array) => zlibCrc32(data) };
  try {
    return fn();
  } finally {
    delete g.E;
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const world = createWorld(nameFromString("Benchmark Pet") as Uint8Array) as World;
  world.elapsed = { hi: 3, lo: 123456789 };
  world.updateCount = { hi: 0, lo: 99999 };
  const payload = saveWorld(world, 1767225600000).bytes as Uint8Array;
  const into = createWorld(nameFromString("x") as Uint8Array) as World;
  const now = 1767225605000;

  return {
    iterations_per_round: ITERATIONS,
    rounds: ROUNDS,
    saveWorld_median_ns: medianNs(() => saveWorld(world, 1767225600000)),
    loadWorld_median_ns: medianNs(() => loadWorld(payload, now, into)),
    crc32Bitwise_80B_median_ns: medianNs(() => crc32Bitwise(payload, 0, CRC_COVERED_LENGTH)),
    builtin_path: "E.CRC32 faked by zlib.crc32 (Node has no E)",
    crc32_builtin_80B_median_ns: withFakeE(() => medianNs(() => crc32(payload, 0, CRC_COVERED_LENGTH))),
    saveWorld_builtin_median_ns: withFakeE(() => medianNs(() => saveWorld(world, 1767225600000))),
    loadWorld_builtin_median_ns: withFakeE(() => medianNs(() => loadWorld(payload, now, into))),
  };
}
