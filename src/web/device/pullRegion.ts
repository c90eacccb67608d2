/**
 * The board's whole pet region, read over the console exactly as `pet-save pull` reads it (the
 * program and the checks are src/inspect/regionPull.ts), then looked at by the same region
 * report: the image is handed out only when every chunk arrived with its CRC.
 */
import { pullOver, pullProgram } from "../../inspect/regionPull";
import { readRegion } from "../../inspect/regionReport";
import type { BoardProfile } from "../../boards/boardProfile";
import type { Exchange } from "./protocol";

export async function pullRegion(
  exchange: Exchange,
  region: BoardProfile["petRegion"],
  progress: (bytes: number) => void,
): Promise<{ bytes: Uint8Array; summary: string }> {
  const bytes = await pullOver(exchange, pullProgram(region.address, region.size), region.size, progress);
  const c = readRegion(bytes, { file: "boards/esp32.json", profile: { name: "ESP32", petRegion: region } as BoardProfile });
  const summary = c.current.status === "ok" ? "current save at sector " + c.current.sector + " slot " + c.current.slot : "no readable save in it (" + c.current.status + ")";
  return { bytes, summary };
}
