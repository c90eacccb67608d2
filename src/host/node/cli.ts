/**
 * `pet-save`: desktop tool for save format v1 payloads. A dispatcher over COMMANDS, one module per
 * command in ./cli/. To add a command, write ./cli/<name>.ts exporting a Command and add it to the
 * table. `main` is what bin/pet-save.js calls and what the tests call in-process.
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
  let text = "usage: pet-save <command> [arguments]   (a file or OUT may be - for stdin/stdout)\n\n";
  for (const c of COMMANDS) text += "  pet-save " + c.usage.padEnd(36) + " " + c.summary + "\n";
  text +=
    "\nPAYLOAD is one save: 84 binary bytes, or its hex text (168 hex digits from 50455453, as pet.exportHex()\n" +
    "prints and test/golden/*.hex hold; whitespace and line breaks are ignored). IMAGE is a region image (binary).\n";
  text += "\nexit status: 0 accepted, 1 rejected payload/world or unreadable input, 2 bad usage\n";
  return text;
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
  if (name === "--help" || name === "-h" || name === "help") {
    io.writeStdout(usageText());
    return EXIT_OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) {
    io.writeStderr((name === undefined ? "missing command" : "unknown command: " + name) + "\n" + usageText());
    return EXIT_USAGE;
  }
  try {
    return await command.run(argv.slice(1), io);
  } catch (e) {
    if (!(e instanceof CliError)) throw e; // a bug, not a user error: let it show its stack
    io.writeStderr(e.message + "\n");
    if (e.exitCode === EXIT_USAGE) io.writeStderr("usage: pet-save " + command.usage + "\n");
    return e.exitCode;
  }
}
