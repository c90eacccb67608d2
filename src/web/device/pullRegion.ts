/**
 * The board's whole pet region, read over the console with the program and the checks of
 * `pet-save pull` (src/inspect/regionPull.ts), one flash page at a time, then looked at by the same
 * region report: the image is handed out only when every chunk arrived with its CRC.
 *
 * One page per request, each with a limit of its own, because what a board takes depends on its
 * flash reads and not only on the baud rate: Espruino 2v06 on the emulated ESP32 takes about a
 * quarter of a second for each 256-byte read, over a minute for the region. Asked for the whole
 * region at once under one limit, such a board was given up on while it was still printing, and the
 * next command then waited behind the rest of the dump and failed too. Page by page, a board that
 * keeps answering is read to the end, one that stops is given up on within PAGE_MS, and nothing
 * else is sent while a page is still being printed.
 */
import { parsePullLines, PULL_CHUNK, pullProgram } from "../../inspect/regionPull";
import { readRegion } from "../../inspect/regionReport";
import type { BoardProfile } from "../../boards/boardProfile";
import { command } from "./protocol";
import type { Exchange } from "./upload";

/** A 4 KiB page as base64 lines is about 5.6 KB: half a second at 115200 baud; 16 reads of 256 bytes. */
const PAGE_MS = 20_000;

export async function pullRegion(
  exchange: Exchange,
  region: BoardProfile["petRegion"],
  progress: (bytes: number) => void,
): Promise<{ bytes: Uint8Array; summary: string }> {
  const bytes = new Uint8Array(region.size);
  let chunks = 0;
  for (let at = 0; at < region.size; at += region.pageSize) {
    const size = Math.min(region.pageSize, region.size - at);
    let text = "";
    const page = await exchange(command(pullProgram(region.address + at, size)), (line) => {
      if (line.indexOf("PETPULL") < 0) return null;
      text += line + "\n";
      if (/PETPULL \d+ /.test(line)) progress(Math.min(region.size, ++chunks * PULL_CHUNK));
      return /PETPULL END/.test(line) ? text : null;
    }, PAGE_MS, "reading the pet region at 0x" + (region.address + at).toString(16));
    bytes.set(parsePullLines(page, size), at);
  }
  const c = readRegion(bytes, { file: "boards/esp32.json", profile: { name: "ESP32", petRegion: region } as BoardProfile });
  const summary = c.current.status === "ok" ? "current save at sector " + c.current.sector + " slot " + c.current.slot : "no readable save in it (" + c.current.status + ")";
  return { bytes, summary };
}
