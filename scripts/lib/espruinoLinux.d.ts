import type { ChildProcess } from "node:child_process";

export const TELNET_PORT: number;
export const TELNET_HOST: string;
export function portAnswers(port?: number, host?: string): Promise<boolean>;
export interface EspruinoProcess {
  child: ChildProcess;
  /** The telnet console's port on 127.0.0.1 (its own with the shim; 2323 without). */
  port: number;
  output(): string;
  exited(): { code: number | null; signal: string | null; error?: string } | null;
  waitFor(re: RegExp, ms?: number): Promise<RegExpMatchArray>;
  kill(): Promise<void>;
}
export const LOCK_FILE: string;
export function acquireTelnetPort(timeoutMs?: number): Promise<void>;
export function releaseTelnetPort(): void;
/** The compiled LD_PRELOAD shim (scripts/lib/espruinoShim.c), or null where it cannot be built. */
export function espruinoShim(): Promise<string | null>;
export function startEspruino(
  binary: string,
  dir: string,
  options?: { readyTimeoutMs?: number; portWaitMs?: number; env?: Record<string, string> },
): Promise<EspruinoProcess>;
/** process.env.BOARD and VERSION of an interpreter binary. */
export function interpreterIdentity(binary: string): Promise<{ board: string; version: string }>;
/** boards/linux-esp32.json for the ESP32-like build (BOARD LINUX_ESP32), boards/linux.json for the stock one (LINUX). */
export function interpreterProfile(binary: string): Promise<string>;
export interface EspruinoConsole {
  evaluate(expr: string, ms?: number): Promise<unknown>;
  pending(): string;
  close(): Promise<void>;
}
export function openConsole(options?: { timeoutMs?: number; port?: number }): Promise<EspruinoConsole>;
