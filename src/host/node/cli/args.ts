/** Argument parsing for one command: node's parseArgs, with its errors turned into usage errors. */
import { parseArgs } from "node:util";
import { u64FromDecimal, type U64 } from "../../../core/u64";
import { usageError } from "./io";

export interface ParsedArgs {
  positionals: string[];
  values: { [name: string]: string | boolean | undefined };
}

export type OptionSpec = { [name: string]: { type: "string" | "boolean"; short?: string } };

export function parseCommandArgs(args: string[], options: OptionSpec, positionalCount: number): ParsedArgs {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs({ args: args, options: options, allowPositionals: true, strict: true }) as ParsedArgs;
  } catch (e) {
    throw usageError(e instanceof Error ? e.message : String(e));
  }
  if (parsed.positionals.length !== positionalCount) {
    throw usageError("expected " + positionalCount + " file argument(s), got " + parsed.positionals.length);
  }
  return parsed;
}

/** --now MS: a decimal millisecond count (0 means no clock). Absent means 0. */
export function nowOption(value: string | boolean | undefined): U64 {
  if (value === undefined) return { hi: 0, lo: 0 };
  const now = typeof value === "string" ? u64FromDecimal(value) : null;
  if (now === null) throw usageError("--now takes a non-negative decimal number of milliseconds, got " + String(value));
  return now;
}
