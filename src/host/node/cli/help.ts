/**
 * The help texts of `pet-save`: the command list (`pet-save --help`) and each command's own page
 * (`pet-save <command> --help`: synopsis, what it does, options, examples, exit statuses), rendered
 * from the `help` each command declares, so a command cannot ship without one.
 */
import type { Command } from "./command";

export const PROGRAM = "pet-save";

const FILE_NOTE =
  "PAYLOAD is one save: 84 binary bytes, or its hex text (168 hex digits from 50455453, as pet.exportHex()\n" +
  "prints and test/golden/*.hex hold; whitespace and line breaks are ignored). IMAGE is a region image (binary).\n";

/** `pet-save --help`: every command in one line each, what the file words mean, the exit statuses. */
export function commandListText(commands: Command[]): string {
  let text = "usage: " + PROGRAM + " <command> [arguments]   (a file or OUT may be - for stdin/stdout)\n\n";
  for (const c of commands) text += "  " + PROGRAM + " " + c.usage.padEnd(36) + " " + c.summary + "\n";
  text += "\n" + FILE_NOTE;
  text += "\n" + PROGRAM + " <command> --help shows a command's options and examples; " + PROGRAM + " --version its version.\n";
  text += "Backups and restores step by step: docs/backup.md.\n";
  text += "\nexit status: 0 accepted, 1 rejected payload/world or unreadable input, 2 bad usage\n";
  return text;
}

/** `pet-save <command> --help`. */
export function commandHelpText(c: Command): string {
  const h = c.help;
  let text = "usage: " + PROGRAM + " " + c.usage + "\n\n" + h.about.trim() + "\n";
  const options: [string, string][] = [...h.options, ["-h, --help", "this help"]];
  const width = Math.max(...options.map(([o]) => o.length));
  text += "\noptions:\n";
  for (const [o, what] of options) text += "  " + o.padEnd(width) + "  " + what + "\n";
  text += "\nexample" + (h.examples.length > 1 ? "s" : "") + ":\n";
  for (const e of h.examples) text += "  " + e + "\n";
  text += "\nexit status:\n";
  const exits: [number, string][] = [...h.exits, [2, "bad usage (the reason and the synopsis on stderr)"]];
  for (const [code, what] of exits) text += "  " + code + "  " + what + "\n";
  return text;
}
