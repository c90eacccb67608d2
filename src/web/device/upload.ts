/**
 * The upload in acknowledged pieces is the one the Node upload shares: src/boards/bootFileUpload.ts.
 * Kept under this name for the tab's modules.
 */
export * from "../../boards/bootFileUpload";
