/**
 * Child process for test/desktop-region-image-file.test.ts: saves payload 1, 2, 3, ... into a region
 * image file forever and reports each completed save on stdout (synchronously), until killed.
 * argv: <image path> <address> <size> <sectorSize> <first id>
 */
import { writeSync } from "node:fs";
import { openRegionImage } from "../src/host/node/regionImage";
import { createSlotLog } from "../src/storage/slotLog";
import { crcValid, makePayload } from "./storage-fixtures";

const [path, address, size, sectorSize, first] = process.argv.slice(2);
const g = { address: Number(address), size: Number(size), sectorSize: Number(sectorSize) };
const opened = openRegionImage({ path: path as string, address: g.address, size: g.size, pageSize: g.sectorSize });
if (opened.image === null) {
  writeSync(2, opened.message + "\n");
  process.exit(2);
}
const log = createSlotLog({ ...g, flash: opened.image.flash, isValidPayload: crcValid }).log!;
log.load();
for (let id = Number(first); ; id++) {
  const r = log.save(makePayload(id));
  if (r.status !== "ok") {
    writeSync(2, "save failed: " + r.status + " " + r.message + "\n");
    process.exit(3);
  }
  writeSync(1, id + "\n");
}
