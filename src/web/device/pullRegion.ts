/**
 * The board's whole pet region, read over the console with the program and the checks of
 * `pet-save pull` (src/inspect/regionPull.ts), one flash page at a time, then looked at by the same
 * region report: the image is handed out only when every chunk arrived with its CRC.
 *
 * One page per request, each with a limit of its own (pullMs of a page, about a minute), because
 * what a board takes depends on its flash reads and not only on the baud rate: Espruino 2v06 on the
 * emulated ESP32 takes about half a second for each 1 KiB read, half a minute for the region, more
 * on a busy host. Page by page, a board that keeps answering is read to the end however
 * slow its flash, one that stops is given up on within a page's limit, and nothing else is sent
 * while a page is still being printed.
 *
 * `logOnly` reads what the slot log reads and no more (logPullProgram, the soak's read after a cut):
 * each sector's 12-byte header, and the sector whole only when that header is not erased, the
 * sectors left out taken as erased. The pet that image restores is the one the board would boot
 * with; the backups before an upload, a hatch or a restore read so, which on an empty region is 16
 * headers instead of 64 KiB (about a second instead of half a minute on the emulated ESP32). "Download region image"
 * and the copy into the simulator read every byte.
 */
import { logPullProgram, pullOver, pullProgram } from "../../inspect/regionPull";
import { readRegion } from "../../inspect/regionReport";
import type { BoardProfile } from "../../boards/boardProfile";
import type { Exchange } from "./protocol";

export async function pullRegion(
  exchange: Exchange,
  region: BoardProfile["petRegion"],
  progress: (bytes: number) => void,
  { logOnly = false }: { logOnly?: boolean } = {},
): Promise<{ bytes: Uint8Array; summary: string }> {
  const bytes = new Uint8Array(region.size);
  for (let at = 0; at < region.size; at += region.pageSize) {
    const size = Math.min(region.pageSize, region.size - at);
    const program = logOnly ? logPullProgram(region.address + at, size, region.pageSize) : pullProgram(region.address + at, size);
    bytes.set(await pullOver(exchange, program, size, (n) => progress(at + n)), at);
  }
  const c = readRegion(bytes, { file: "boards/esp32.json", profile: { name: "ESP32", petRegion: region } as BoardProfile });
  const summary = c.current.status === "ok" ? "current save at sector " + c.current.sector + " slot " + c.current.slot : "no readable save in it (" + c.current.status + ")";
  return { bytes, summary };
}
