/**
 * The board's whole pet region, read over the console exactly as `pet-save pull` reads it (the
 * program and the checks are src/inspect/regionPull.ts), then looked at by the same region
 * report: the image is handed out only when every chunk arrived with its CRC.
 */
import { parsePullLines, PULL_CHUNK, pullProgram } from "../../inspect/regionPull";
import { readRegion } from "../../inspect/regionReport";
import type { BoardProfile } from "../../boards/boardProfile";
import { command } from "./protocol";
import type { Exchange } from "./upload";

/** 64 KiB as base64 lines is about 90 KB: some 8 s at 115200 baud; this leaves a wide margin. */
const PULL_MS = 60_000;

export async function pullRegion(
  exchange: Exchange,
  region: BoardProfile["petRegion"],
  progress: (bytes: number) => void,
): Promise<{ bytes: Uint8Array; summary: string }> {
  let text = "";
  let chunks = 0;
  const all = await exchange(command(pullProgram(region.address, region.size)), (line) => {
    if (line.indexOf("PETPULL") < 0) return null;
    text += line + "\n";
    if (/PETPULL \d+ /.test(line)) progress(Math.min(region.size, ++chunks * PULL_CHUNK));
    return /PETPULL END/.test(line) ? text : null;
  }, PULL_MS, "reading the pet region");
  const bytes = parsePullLines(all, region.size);
  const c = readRegion(bytes, { file: "boards/esp32.json", profile: { name: "ESP32", petRegion: region } as BoardProfile });
  const summary = c.current.status === "ok" ? "current save at sector " + c.current.sector + " slot " + c.current.slot : "no readable save in it (" + c.current.status + ")";
  return { bytes, summary };
}
