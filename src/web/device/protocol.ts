/**
 * The Device tab's console protocol is the one every program shares: src/boards/consoleProtocol.ts.
 * Kept under this name for the tab's modules.
 */
export * from "../../boards/consoleProtocol";
