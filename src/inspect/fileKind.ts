/**
 * What a file handed to `pet-save inspect` or `push`, or dropped on the page's "Check a file" tab,
 * is, told once from what can be seen without decoding it: its size, whether it is hex text that
 * starts with the payload's magic, and whether a board's pet region has its size. The caller then
 * decodes it once, as what it is: a payload with the codec, a region image with the region reader.
 *
 * The order is the rule (docs/backup.md): exactly 84 bytes is a binary payload (even when every
 * byte is an ASCII digit); hex text beginning 50455453 ("PETS") is a payload's hex text; a file of
 * a board's region size is that region's image; a file of a whole chip's flash (a power of two of
 * at least 1 MiB, as `esptool.py read_flash 0 0x400000` writes, or the emulated ESP32's flash file)
 * that holds a board's region at the region's own address is that chip's dump, the region inside
 * it; anything else is neither, and the codec says what is wrong with it as a payload (too short,
 * bad magic, bad length). Host-neutral: no Node, no DOM.
 */
import { PAYLOAD_LENGTH } from "../save/layout";
import { looksLikeHexText, payloadFromBytes, PayloadFileError } from "./payloadFile";
import type { LoadedProfile } from "./regionReport";

export type FileKind =
  /** A payload: the 84 bytes, decoded from hex text when `fromHex`. */
  | { kind: "payload"; bytes: Uint8Array; fromHex: boolean }
  /** A region image of `board`'s pet region (offset 0 = the region's first byte). */
  | { kind: "region"; board: LoadedProfile }
  /** A dump of a whole chip's flash (offset = flash address), `board`'s region inside it at the region's address. */
  | { kind: "chip"; board: LoadedProfile; offset: number }
  /** Hex text that cannot be a payload (an odd number of digits): `message` says so, naming the file. */
  | { kind: "bad-hex"; message: string }
  /** Neither a payload nor a region image of any board offered; `looksLikeHex`: nearly all hex digits (for a hint). */
  | { kind: "neither"; looksLikeHex: boolean };

/** True for the size of a whole chip's flash: a power of two of at least 1 MiB. */
export function isChipSize(size: number): boolean {
  return size >= 0x100000 && (size & (size - 1)) === 0;
}

/**
 * Tells what `file` (named `name` in messages) is. `regionBoard(size)` answers the board whose pet
 * region is `size` bytes, or null; `chipBoard(size)`, the board whose region lies inside a chip of
 * `size` bytes at its address (a dump's offset is the flash address), or null. They are asked only
 * when the file is not a payload, in that order.
 */
export function classifyFile(
  file: Uint8Array,
  name: string,
  regionBoard: (size: number) => LoadedProfile | null,
  chipBoard: (size: number) => LoadedProfile | null = () => null,
): FileKind {
  let input;
  try {
    input = payloadFromBytes(file, name);
  } catch (e) {
    if (e instanceof PayloadFileError) return { kind: "bad-hex", message: e.message };
    throw e;
  }
  if (input.fromHex || file.length === PAYLOAD_LENGTH) return { kind: "payload", bytes: input.bytes, fromHex: input.fromHex };
  const board = regionBoard(file.length);
  if (board !== null) return { kind: "region", board };
  const chip = isChipSize(file.length) ? chipBoard(file.length) : null;
  if (chip !== null) return { kind: "chip", board: chip, offset: chip.profile.petRegion.address };
  return { kind: "neither", looksLikeHex: looksLikeHexText(file) };
}
