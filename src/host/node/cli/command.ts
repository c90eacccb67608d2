/** The shape of one `pet-save` command, and the shared way a command reports a rejected payload. */
import { describeStatus, type LoadStatus, type SaveStatus } from "../../../save/status";
import { CliError, EXIT_REJECTED, looksLikeHexText, type CliIo } from "./io";

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The synopsis, e.g. "decode FILE [--now MS] [--json]". */
  usage: string;
  /** What `pet-save <name> --help` prints besides the synopsis (rendered by help.ts). */
  help: CommandHelp;
  /** Runs with the arguments after the command name; returns the exit code or throws CliError. */
  run(args: string[], io: CliIo): Promise<number>;
}

export interface CommandHelp {
  /** What the command does, in a few sentences (wrapped as written). */
  about: string;
  /** Each option (and argument) with what it does: ["--now MS", "the clock to judge against"]. */
  options: [string, string][];
  /** Whole command lines, as a person would type them. */
  examples: string[];
  /** What each exit status means for this command: [[0, "..."], [1, "..."]]; 2 is always bad usage. */
  exits: [number, string][];
}

/**
 * "rejected: <status>" and its one-line explanation, exit 1. Given the bytes that were judged, a
 * bad magic that is really hex text read as binary gets a hint saying so.
 */
export function rejected(status: LoadStatus | SaveStatus, bytes?: Uint8Array): CliError {
  let message = "rejected: " + status + "\n" + describeStatus(status);
  if (status === "bad-magic" && bytes !== undefined && looksLikeHexText(bytes)) {
    message +=
      "\nhint: the file looks like hex text; pet-save reads it as hex only when it holds nothing but hex digits and" +
      " whitespace (no 0x, no comments), begins with the magic 50455453 (\"PETS\") and is not exactly 84 bytes long;" +
      " otherwise its bytes are judged as a binary payload";
  }
  return new CliError(EXIT_REJECTED, message);
}
