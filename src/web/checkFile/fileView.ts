/**
 * The "Check a file" view: any file dropped on the page, or picked, is shown the way `pet-save
 * decode` (a payload) or `pet-save inspect` (a region image) would show it, with the same code
 * (src/inspect). Nothing is changed and nothing leaves the browser.
 */
import { loadWorld } from "../../save/codec";
import { PAYLOAD_LENGTH } from "../../save/layout";
import { payloadJson } from "../../save/payloadJson";
import { payloadText } from "../../inspect/payloadReport";
import { looksLikeHexText, payloadFromBytes, PayloadFileError } from "../../inspect/payloadFile";
import { readRegion, regionJson, regionText, type LoadedProfile, type RegionContents } from "../../inspect/regionReport";
import { describeStatus } from "../../save/status";
import { rejectionText } from "./judgePayload";

export interface FileVerdict {
  text: string;
  rejected: boolean;
  /** For a region image: what the reader found, for the picture of its slots. */
  region?: RegionContents;
}

/** What `pet-save inspect FILE` prints for these bytes, and whether the file was refused. */
export function describeFile(file: Uint8Array, name: string, boards: LoadedProfile[]): FileVerdict {
  let input;
  try {
    input = payloadFromBytes(file, name);
  } catch (e) {
    if (e instanceof PayloadFileError) return { text: e.message, rejected: true };
    throw e;
  }
  const bytes = input.bytes;
  // As `pet-save inspect`: 84 bytes or hex text is a payload, anything else must be a region image.
  if (bytes.length === PAYLOAD_LENGTH || input.fromHex) {
    const r = loadWorld(bytes, 0);
    if (r.status !== "ok" || r.world === null) return { text: name + ": " + rejectionText({ status: r.status, explanation: describeStatus(r.status) }), rejected: true };
    return { text: name + ": a save payload\n" + payloadText(payloadJson(r.world, r.savedAt), r.savedAt, r.absenceMs), rejected: false };
  }
  const board = boards.find((b) => b.profile.petRegion.size === bytes.length);
  if (board === undefined) {
    // Not an image of any region: judge it as `pet-save decode` would, so the status says what is wrong.
    const r = loadWorld(bytes, 0);
    const hint = r.status === "bad-magic" && looksLikeHexText(bytes) ? "\nhint: the file looks like hex text, but hex text of a payload begins with the magic 50455453 (\"PETS\")" : "";
    return {
      text: name + ": " + rejectionText({ status: r.status, explanation: describeStatus(r.status) }) + hint + "\n(it is " + bytes.length +
        " bytes: neither an " + PAYLOAD_LENGTH + "-byte payload nor a region image of " + boards.map((b) => b.profile.name + " (" + b.profile.petRegion.size + " bytes)").join(" or ") + ")",
      rejected: true,
    };
  }
  const contents = readRegion(bytes, board);
  if (contents.scan.status !== "ok") return { text: name + ": could not read the image (" + contents.scan.status + ")", rejected: true };
  const j = regionJson(contents);
  const bad = j.current.status !== "ok" && j.current.status !== "empty";
  return { text: regionText(j, name, false, board.file) + (bad ? name + ": no readable save in this region (" + j.current.status + ")\n" : ""), rejected: bad, region: contents };
}
