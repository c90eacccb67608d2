/**
 * Outcomes of saveWorld and loadWorld. Strings rather than exceptions: the codec never throws, and
 * the CLI and the firmware print these names as they are.
 */

/**
 * Every outcome of loadWorld, "ok" first, then the rejections in the order the loader checks them
 * (test/codec-acceptance-order.test.ts holds the loader to it).
 */
export const LOAD_STATUSES = [
  "ok",
  "too-short",
  "bad-magic",
  "unsupported-version",
  "bad-length",
  "bad-checksum",
  "unknown-activity",
  "unknown-expression",
  "bad-name",
  "clock-overflow",
  "invalid-world",
] as const;

/** Why a payload was not accepted, or "ok": one of LOAD_STATUSES. */
export type LoadStatus = (typeof LOAD_STATUSES)[number];

/** Why saveWorld refused: the world failed validateWorld, or the save stamp is not a clock value. */
export type SaveStatus = "ok" | "unknown-activity" | "unknown-expression" | "bad-name" | "invalid-world" | "bad-saved-at";

/**
 * A one-line human explanation of a status, for the desktop's messages (the firmware prints the status alone).
 *
 * A switch rather than a table of texts: on the interpreter a table is built at boot and holds its
 * texts in RAM for good (about 70 JsVars), while a function's texts stay in the bundle, in flash,
 * until the rare call that prints one.
 */
export function describeStatus(status: LoadStatus | SaveStatus): string {
  switch (status) {
    case "ok":
      return "the payload is a valid save format v1 world";
    case "too-short":
      return "fewer than 6 bytes: not even the magic and the format version are there";
    case "bad-magic":
      return "the first four bytes are not P E T S, so this is not a pet save payload";
    case "unsupported-version":
      return "the payload names a format version other than 1, which this reader does not read";
    case "bad-length":
      return "a version 1 payload is exactly 84 bytes and this one is not";
    case "bad-checksum":
      return "the CRC-32 over bytes 0 to 79 does not match the stored check: the payload is damaged";
    case "unknown-activity":
      return "the activity byte is not a known activity value";
    case "unknown-expression":
      return "the expression byte is not a known expression value";
    case "bad-name":
      return "the name length is not 1 to 31, a name byte is zero, or the padding after the name is not zero";
    case "clock-overflow":
      return "adding the time away to the world clock would pass 2^64 - 1 milliseconds";
    case "invalid-world":
      return "the world breaks the Core's rules (a since stamp lies after the world clock)";
    case "bad-saved-at":
      return "the save time is not a non-negative integer number of milliseconds (or a u64)";
    default:
      return "unknown status " + String(status);
  }
}
