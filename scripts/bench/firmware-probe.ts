/**
 * Bench probe, bundled like the firmware (buildFirmware with this entry) and run on Espruino's Linux
 * build by scripts/bench/firmware.ts. It times the device path of one restore (slot log scan over
 * require("Flash") + decode) and one save (encode + slot log write), each n times, with getTime(),
 * and publishes the result as the global `probe`. Not part of the firmware.
 */
import board from "virtual:board-profile";
import { openPetStore } from "../../firmware/store";
import type { RawFlash } from "../../firmware/env";
import { createWorld } from "../../src/core/world";
import { nameFromString } from "../../src/core/name";
import { loadWorld, saveWorld } from "../../src/save/codec";

declare const require: (name: string) => unknown;
declare const getTime: () => number;
declare const global: { [name: string]: unknown };

function median(values: number[]): number {
  const sorted = values.slice().sort(function (a, b) {
    return a - b;
  });
  return sorted[sorted.length >> 1] as number;
}

function run(n: number): { saveMs: number; restoreMs: number; n: number; status: string } {
  const opened = openPetStore(require("Flash") as RawFlash, board.petRegion);
  const store = opened.store;
  const world = createWorld(nameFromString("Bench") as Uint8Array);
  if (store === null || world === null) return { saveMs: -1, restoreMs: -1, n: 0, status: "store: " + opened.status };
  const saves: number[] = [];
  const restores: number[] = [];
  let status = "ok";
  for (let i = 0; i < n; i++) {
    let t = getTime();
    const encoded = saveWorld(world, 1767225600000 + i * 1000);
    const saved = encoded.bytes !== null ? store.save(encoded.bytes) : encoded.status;
    saves.push((getTime() - t) * 1000);
    t = getTime();
    const found = store.restore();
    const loaded = found.payload !== null ? loadWorld(found.payload, 1767225600000 + i * 1000).status : found.reason;
    restores.push((getTime() - t) * 1000);
    if (saved !== "ok" || loaded !== "ok") status = "save " + saved + ", restore " + loaded;
  }
  return { saveMs: median(saves), restoreMs: median(restores), n: n, status: status };
}

global["probe"] = run;
