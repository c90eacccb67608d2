/**
 * The upload's last step (src/boards/bootFileUpload.ts writeBootFile): the other form's files that
 * the new bundle replaces are erased only once the new files are written and their CRCs match, and
 * a file the board keeps, or does not answer about, is reported, never a stopped upload (the
 * firmware is whole by then). A board that answers with a wrong CRC has nothing erased.
 */
import { describe, expect, it } from "vitest";
import { UploadStopped, writeBootFile } from "../src/boards/bootFileUpload";
import { bundleCrc, type Exchange } from "../src/boards/consoleProtocol";

const FILES = [{ name: ".bootcde", code: "print(1)" }];

/** A board that acknowledges every piece, answers each CRC with `crc`, and each erase with `erase` (or never). */
function board(crc: number, erase: "true" | "false" | "silent"): { exchange: Exchange; sent: string[] } {
  const sent: string[] = [];
  const exchange: Exchange = async (text, pick, _ms, what) => {
    sent.push(text);
    const offset = /#pet-ack (\d+)/.exec(text);
    const line = text.includes("#pet-quiet")
      ? "#pet-quiet 600"
      : offset
        ? "#pet-ack " + offset[1] + " true"
        : text.includes("#pet-crc")
          ? "#pet-crc " + crc
          : text.includes("#pet-erased") && erase !== "silent"
            ? "#pet-erased " + erase
            : null;
    const v = line === null ? null : pick(line);
    if (v === null || v === undefined) throw new Error("no answer: " + what);
    return v;
  };
  return { exchange, sent };
}

describe("the upload erases the other form's files after the check", () => {
  it("erases them after the last CRC and answers none kept", async () => {
    const b = board(bundleCrc(FILES[0]!.code), "true");
    expect(await writeBootFile(FILES, b.exchange, 1000, () => {}, ["petfw.js"])).toEqual([]);
    const erase = b.sent.findIndex((l) => l.includes("#pet-erased"));
    expect(erase).toBeGreaterThan(b.sent.findIndex((l) => l.includes("#pet-crc")));
    expect(b.sent[erase]).toContain('"petfw.js"');
  });

  it("answers a file the board keeps, or does not answer about, without stopping the upload", async () => {
    expect(await writeBootFile(FILES, board(bundleCrc(FILES[0]!.code), "false").exchange, 1000, () => {}, ["petfw.js"])).toEqual(["petfw.js"]);
    expect(await writeBootFile(FILES, board(bundleCrc(FILES[0]!.code), "silent").exchange, 1000, () => {}, ["petfw.js"])).toEqual(["petfw.js"]);
  });

  it("erases nothing when a CRC differs", async () => {
    const b = board(12345, "true");
    await expect(writeBootFile(FILES, b.exchange, 1000, () => {}, ["petfw.js"])).rejects.toBeInstanceOf(UploadStopped);
    expect(b.sent.some((l) => l.includes("#pet-erased"))).toBe(false);
  });
});
