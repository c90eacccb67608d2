import type { EspruinoConsole, EspruinoProcess } from "./espruinoLinux.js";

export const FLASH_START: number;
/** A flash fault, in the simulator's FailureRule shape (src/storage/norFlashSim.ts). */
export interface FlashFault {
  op: "write" | "erase";
  mode: "silent" | "half";
  after?: number;
  count?: number;
}
export function faultControlText(region: { address: number; size: number }, rules: FlashFault[]): string;
export interface InterpreterBoard {
  dir: string;
  binary: string;
  flashFile: string;
  readonly port: number;
  readonly process: EspruinoProcess;
  readonly cuts: number;
  openConsole(options?: { timeoutMs?: number }): Promise<EspruinoConsole>;
  upload(profile: string, options?: { bundle?: string; timeoutMs?: number }): Promise<{ code: number; out: string }>;
  /** SIGKILL, `whileOff` (the flash file may be read or rewritten), and the interpreter again on the same flash file. */
  powerCut(whileOff?: () => void | Promise<void>): Promise<EspruinoProcess>;
  setFaults(region: { address: number; size: number }, rules: FlashFault[]): void;
  clearFaults(): void;
  faultsApplied(): string[];
  stop(): Promise<void>;
}
export function startInterpreterBoard(binary: string, dir: string, options?: { readyTimeoutMs?: number }): Promise<InterpreterBoard>;
