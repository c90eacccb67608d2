/**
 * The "Check a file" view: any file dropped on the page, or picked, is shown the way `pet-save
 * decode` (a payload) or `pet-save inspect` (a region image) would show it, with the same code
 * (src/inspect). Nothing is changed and nothing leaves the browser.
 */
import { loadWorld } from "../../save/codec";
import { PAYLOAD_LENGTH } from "../../save/layout";
import { payloadJson } from "../../save/payloadJson";
import { payloadText } from "../../inspect/payloadReport";
import { classifyFile } from "../../inspect/fileKind";
import { readRegion, regionJson, regionText, type LoadedProfile, type RegionContents } from "../../inspect/regionReport";
import { describeStatus } from "../../save/status";
import { rejectionText } from "./judgePayload";

export interface FileVerdict {
  text: string;
  rejected: boolean;
  /** For a region image: what the reader found, for the picture of its slots. */
  region?: RegionContents;
}

/**
 * What `pet-save inspect FILE` prints for these bytes, and whether the file was refused: what the
 * file is, told once (src/inspect/fileKind.ts), then one decode of it as that.
 */
export function describeFile(file: Uint8Array, name: string, boards: LoadedProfile[]): FileVerdict {
  const k = classifyFile(
    file,
    name,
    (size) => boards.find((b) => b.profile.petRegion.size === size) ?? null,
    (size) => boards.find((b) => b.profile.host !== "desktop" && b.profile.petRegion.address + b.profile.petRegion.size <= size) ?? null,
  );
  if (k.kind === "bad-hex") return { text: k.message, rejected: true };
  if (k.kind === "region" || k.kind === "chip") {
    // A whole chip's dump (esptool's read_flash, the emulated ESP32's flash file) is read at the region's address.
    const region = k.kind === "chip" ? file.subarray(k.offset, k.offset + k.board.profile.petRegion.size) : file;
    const title = k.kind === "chip" ? name + " (the pet region at 0x" + k.offset.toString(16) + " of a " + file.length / 1048576 + " MiB flash dump)" : name;
    const contents = readRegion(region, k.board);
    if (contents.scan.status !== "ok") return { text: name + ": could not read the image (" + contents.scan.status + ")", rejected: true };
    const j = regionJson(contents);
    const bad = j.current.status !== "ok" && j.current.status !== "empty";
    return { text: regionText(j, title, false, k.board.file) + (bad ? name + ": no readable save in this region (" + j.current.status + ")\n" : ""), rejected: bad, region: contents };
  }
  // A payload, or neither: judged as `pet-save decode` would, so the status says what is wrong.
  const r = loadWorld(k.kind === "payload" ? k.bytes : file, 0);
  if (r.status === "ok" && r.world !== null) return { text: name + ": a save payload\n" + payloadText(payloadJson(r.world, r.savedAt), r.savedAt, r.absenceMs), rejected: false };
  const rejection = name + ": " + rejectionText({ status: r.status, explanation: describeStatus(r.status) });
  if (k.kind === "payload") return { text: rejection, rejected: true };
  const hint = r.status === "bad-magic" && k.looksLikeHex ? "\nhint: the file looks like hex text, but hex text of a payload begins with the magic 50455453 (\"PETS\")" : "";
  return {
    text: rejection + hint + "\n(it is " + file.length +
      " bytes: neither an " + PAYLOAD_LENGTH + "-byte payload nor a region image of " + boards.map((b) => b.profile.name + " (" + b.profile.petRegion.size + " bytes)").join(" or ") + ")",
    rejected: true,
  };
}
