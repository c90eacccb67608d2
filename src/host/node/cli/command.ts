/** The shape of one `pet-save` command, and the shared way a command reports a rejected payload. */
import { describeStatus, type LoadStatus, type SaveStatus } from "../../../save/status";
import { CliError, EXIT_REJECTED, type CliIo } from "./io";

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The synopsis, e.g. "decode FILE [--now MS] [--json]". */
  usage: string;
  /** Runs with the arguments after the command name; returns the exit code or throws CliError. */
  run(args: string[], io: CliIo): Promise<number>;
}

/** "rejected: <status>" and its one-line explanation, exit 1. */
export function rejected(status: LoadStatus | SaveStatus): CliError {
  return new CliError(EXIT_REJECTED, "rejected: " + status + "\n" + describeStatus(status));
}
