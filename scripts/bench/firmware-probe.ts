/**
 * Bench probe, bundled like the firmware (buildFirmware with this entry, board boards/linux.json) and
 * kept in Storage beside the firmware by scripts/bench/firmware.ts, which evaluates it from there in
 * the same interpreter process. It publishes one global, `benchRestore(wallMs)`: the firmware's store
 * restore path exactly as boot takes it, `openPetStore(require("Flash"), board.petRegion, board.petLayout)` then
 * `.restore(wallMs)` (slot log scan over the device flash + decode), and `benchRegionCheck()`: the
 * boot's check of the region against the board (src/boards/regionFit.ts) exactly as the firmware
 * runs it, process.env.STORAGE read included (src/host/espruino/env.ts reads it once at boot). Not
 * part of the firmware.
 */
import board from "virtual:board-profile";
import { openPetStore } from "../../firmware/store";
import type { EspruinoFlash } from "../../src/storage/flash";
import { regionMisfit } from "../../src/boards/regionFit";

declare const require: (name: string) => unknown;
declare const process: { env: { STORAGE?: number } };
declare const global: { [name: string]: unknown };

global["benchRestore"] = function (wallMs: number): unknown {
  const opened = openPetStore(require("Flash") as EspruinoFlash, board.petRegion, board.petLayout);
  if (opened.store === null) return { loaded: null, status: opened.status, reason: "store did not open" };
  return opened.store.restore(wallMs);
};

global["benchRegionCheck"] = function (): number {
  const r = board.petRegion;
  return regionMisfit(require("Flash") as EspruinoFlash, process.env.STORAGE, r.address, r.address + r.size, r.pageSize, board.storageSizes as number[]);
};
