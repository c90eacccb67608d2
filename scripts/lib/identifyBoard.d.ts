import type { BoardConsole } from "./boardConsole.js";
import type { BoardFit, BoardReport } from "../../src/boards/boardFit";
import type { DeviceBoardProfile } from "../../src/boards/boardProfile";

export const IDENTIFY_MS: number;
export function boardFitRule(): Promise<typeof import("../../src/boards/boardFit")>;
export function identifyBoard(con: BoardConsole, profile: DeviceBoardProfile, file?: string): Promise<{ report: BoardReport; fit: BoardFit }>;
export function boardLine(report: BoardReport): string;
