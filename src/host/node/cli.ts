/**
 * `pet-save`: desktop tool for save format v1 payloads. A dispatcher over COMMANDS, one module per
 * command in ./cli/. To add a command, write ./cli/<name>.ts exporting a Command (with its help) and
 * add it to the table. `main` is what bin/pet-save.js calls (compiled to dist/host/pet-save.js) and
 * what the tests call in-process.
 *
 * `--help` (or -h) and `--version` work everywhere: alone, and after any command (`pet-save decode
 * --help`), before a `--` that ends the options.
 */
import { decodeCommand } from "./cli/decode";
import { encodeCommand } from "./cli/encode";
import { verifyCommand } from "./cli/verify";
import { inspectCommand } from "./cli/inspect";
import { extractCommand } from "./cli/extract";
import { pullCommand } from "./cli/pull";
import { pushCommand } from "./cli/push";
import type { Command } from "./cli/command";
import { CliError, EXIT_OK, EXIT_USAGE, readStreamLimited, type CliIo } from "./cli/io";
import { commandHelpText, commandListText, PROGRAM } from "./cli/help";
import { packageVersion } from "./packageRoot";

export type { CliIo } from "./cli/io";
export type { Command } from "./cli/command";

export const COMMANDS: Command[] = [
  decodeCommand,
  encodeCommand,
  verifyCommand,
  inspectCommand,
  extractCommand,
  pullCommand,
  pushCommand,
];

export function usageText(): string {
  return commandListText(COMMANDS);
}

/** "pet-save 0.1.0". */
export function versionText(): string {
  return PROGRAM + " " + packageVersion() + "\n";
}

/** Whether `args` hold `flag` as an option (before any `--`, which ends the options). */
function hasFlag(args: string[], ...flags: string[]): boolean {
  for (const a of args) {
    if (a === "--") return false;
    if (flags.indexOf(a) >= 0) return true;
  }
  return false;
}

/** The real process streams (stdin replaceable, for tests). */
export function nodeIo(stdin: AsyncIterable<unknown> = process.stdin): CliIo {
  return {
    readStdin(maxBytes) {
      return readStreamLimited(stdin, maxBytes);
    },
    writeStdout(data) {
      process.stdout.write(data);
    },
    writeStderr(text) {
      process.stderr.write(text);
    },
  };
}

/** Runs `pet-save` with `argv` (the arguments after the program name) and returns the exit code. */
export async function main(argv: string[], io: CliIo = nodeIo()): Promise<number> {
  const name = argv[0];
  if (name === "--help" || name === "-h") {
    io.writeStdout(usageText());
    return EXIT_OK;
  }
  if (name === "help") {
    // `pet-save help decode` is `pet-save decode --help`.
    const about = COMMANDS.find((c) => c.name === argv[1]);
    io.writeStdout(about === undefined ? usageText() : commandHelpText(about));
    return EXIT_OK;
  }
  if (name === "--version" || (name !== undefined && hasFlag(argv.slice(1), "--version"))) {
    io.writeStdout(versionText());
    return EXIT_OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (command !== undefined && hasFlag(argv.slice(1), "--help", "-h")) {
    io.writeStdout(commandHelpText(command));
    return EXIT_OK;
  }
  if (command === undefined) {
    io.writeStderr((name === undefined ? "missing command" : "unknown command: " + name) + "\n" + usageText());
    return EXIT_USAGE;
  }
  try {
    return await command.run(argv.slice(1), io);
  } catch (e) {
    if (!(e instanceof CliError)) throw e; // a bug, not a user error: let it show its stack
    io.writeStderr(e.message + "\n");
    if (e.exitCode === EXIT_USAGE) io.writeStderr("usage: pet-save " + command.usage + "\n(pet-save " + command.name + " --help for more)\n");
    return e.exitCode;
  }
}
