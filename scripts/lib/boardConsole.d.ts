export const DEFAULT_BAUD: number;
export class ConsoleError extends Error {
  kind: "open" | "silent" | "lost";
  constructor(message: string, kind: "open" | "silent" | "lost");
}
export function openTrouble(port: string, message: string): string;
export interface BoardConsole {
  port: string;
  /** Everything the board printed so far, one line an entry. */
  lines: string[];
  send(text: string): Promise<void>;
  ask<T>(js: string, pick: (line: string) => T | null | undefined, ms: number, what: string, resendMs?: number): Promise<T>;
  run(js: string, endPick: (line: string) => unknown, ms: number, what: string): Promise<string[]>;
  close(): Promise<void>;
}
export function openBoardConsole(port: string, options?: { baud?: number }): Promise<BoardConsole>;
