/**
 * Save format v1: every offset, size and fixed value of the 84-byte payload, in one place.
 * The codec, the CLI, the golden tests and the docs all read these names; nothing else in the project
 * should spell an offset as a bare number. See docs/save-format-v1.md for the field table.
 */

/** The four magic bytes "PETS" (0x50 0x45 0x54 0x53) at offset 0. */
export const MAGIC = [0x50, 0x45, 0x54, 0x53];
/** The same four magic bytes read as one little-endian u32 (0x53544550): one DataView access, not four. */
export const MAGIC_U32LE = 0x53544550;
/** The only format version written and the only one read. */
export const FORMAT_VERSION = 1;

export const OFFSET_MAGIC = 0;
export const OFFSET_VERSION = 4;
export const OFFSET_ELAPSED = 6;
export const OFFSET_UPDATE_COUNT = 14;
export const OFFSET_SAVED_AT = 22;
export const OFFSET_ACTIVITY = 30;
export const OFFSET_EXPRESSION = 31;
export const OFFSET_ACTIVITY_SINCE = 32;
export const OFFSET_EXPRESSION_SINCE = 40;
export const OFFSET_NAME_LENGTH = 48;
export const OFFSET_NAME_BYTES = 49;
export const OFFSET_CRC = 80;

export const MAGIC_SIZE = 4;
export const VERSION_SIZE = 2;
/** Room for the name: the longest name (31 bytes) with no terminator stored. */
export const NAME_FIELD_SIZE = 31;

/** Magic plus version: the bytes a reader needs before it can say anything about a payload. */
export const HEADER_LENGTH = OFFSET_MAGIC + MAGIC_SIZE + VERSION_SIZE; // 6
/** The CRC covers bytes 0 to 79, everything before the check itself. */
export const CRC_COVERED_LENGTH = OFFSET_CRC; // 80
/**
 * Every v1 payload is exactly this long: no length prefix, no trailing data. The 4-byte CRC at
 * OFFSET_CRC ends it. Written as a number: the bundle keeps a sum of two constants as a sum.
 */
export const PAYLOAD_LENGTH = 84;

/**
 * The u32 fields as indexes of two Uint32Array views over a payload, which the device's codec uses
 * instead of a DataView (src/save/codec.ts, ESPRUINO_WORD_VIEWS). One view starts at byte 0 and
 * holds the fields on the 4-byte grid: the magic, the two since stamps and the CRC. The three u64s
 * from OFFSET_ELAPSED to OFFSET_ACTIVITY (elapsed, update count, saved-at) sit 2 bytes off that
 * grid, so a second view starts at OFFSET_ELAPSED and holds their six halves, low half first.
 */
export const WORD_COUNT = PAYLOAD_LENGTH / 4; // 21
export const WORD_MAGIC = OFFSET_MAGIC / 4; // 0
export const WORD_ACTIVITY_SINCE = OFFSET_ACTIVITY_SINCE / 4; // 8
export const WORD_EXPRESSION_SINCE = OFFSET_EXPRESSION_SINCE / 4; // 10
export const WORD_CRC = OFFSET_CRC / 4; // 20
export const SHIFTED_WORD_COUNT = (OFFSET_ACTIVITY - OFFSET_ELAPSED) / 4; // 6
export const SHIFTED_ELAPSED = 0;
export const SHIFTED_UPDATE_COUNT = (OFFSET_UPDATE_COUNT - OFFSET_ELAPSED) / 4; // 2
export const SHIFTED_SAVED_AT = (OFFSET_SAVED_AT - OFFSET_ELAPSED) / 4; // 4

/** A load adds at most seven days of absence to the world clock. */
export const ABSENCE_CLAMP_MS = 604800000;
