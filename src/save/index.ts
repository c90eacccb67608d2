/** Save format v1: the codec, its statuses, the CRC and the layout constants. */
export { saveWorld, loadWorld, type SaveResult, type LoadResult } from "./codec";
export { crc32, crc32Bitwise } from "./crc32";
export { LOAD_STATUSES, describeStatus, type LoadStatus, type SaveStatus } from "./status";
export * from "./layout";
