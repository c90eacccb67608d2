import type { ChildProcess } from "node:child_process";

export const TELNET_PORT: number;
export const TELNET_HOST: string;
export function portAnswers(port?: number, host?: string): Promise<boolean>;
export interface EspruinoProcess {
  child: ChildProcess;
  output(): string;
  exited(): { code: number | null; signal: string | null; error?: string } | null;
  waitFor(re: RegExp, ms?: number): Promise<RegExpMatchArray>;
  kill(): Promise<void>;
}
export const LOCK_FILE: string;
export function acquireTelnetPort(timeoutMs?: number): Promise<void>;
export function releaseTelnetPort(): void;
export function startEspruino(
  binary: string,
  dir: string,
  options?: { readyTimeoutMs?: number; portWaitMs?: number },
): Promise<EspruinoProcess>;
export interface EspruinoConsole {
  evaluate(expr: string, ms?: number): Promise<unknown>;
  pending(): string;
  close(): Promise<void>;
}
export function openConsole(options?: { timeoutMs?: number }): Promise<EspruinoConsole>;
