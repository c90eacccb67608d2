/**
 * The one way the project's command-line entries (scripts/*.js, scripts/bench.ts, bin/pet-save.js)
 * meet the command line, so that each says only what is its own (its options, its help, its work):
 *
 * - `--version` anywhere before a `--` prints "<program> <version>", status 0, before anything else;
 * - `--help` / `-h` prints the help, rendered from what the command declares in the shape pet-save's
 *   commands use (src/host/node/cli/help.ts): usage, what it does, options, further sections
 *   (environment, keys), examples, exit statuses; status 0;
 * - an unknown option, a missing value or a bad one (a UsageError thrown by the command) is the
 *   reason and the usage line on stderr, status 2;
 * - a failure the command explains (any Error it throws, or a CommandFailure with its own status) is
 *   its message on stderr, status 1; anything else is failUnexpected's one line;
 * - the edges of the process (a reader gone, a full disk) are guardOutput's (processEdges.js).
 *
 * The desktop tools that run compiled (pet-save, the upload, board-check, the soak) take their own
 * arguments; runHostCommand loads their bundle from dist/host/ (hostBuild.js) and keeps the same edges.
 */
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { freshHostBundle } from "./hostBuild.js";
import { failUnexpected, guardOutput, versionLine, wantsVersion } from "./processEdges.js";

/** A mistake in the command line: the reason and the usage line on stderr, status 2. */
export class UsageError extends Error {}

/** A failure the command has put into words: the message on stderr as it is, status `status` (default 1). */
export class CommandFailure extends Error {
  constructor(message, status = 1) {
    super(message);
    this.status = status;
  }
}

/** The option rows of the help: the command's own, then --version and --help, as every entry has them. */
function optionRows(spec) {
  const rows = (spec.options || []).map((o) => [(o.short ? "-" + o.short + ", " : "") + "--" + o.name + (o.value ? " " + o.value : ""), o.help]);
  rows.push(["--version", "print the version"], ["-h, --help", "this help"]);
  return rows;
}

/** Rows as "  left   right", the left column as wide as its widest entry; a right side may run over lines. */
function table(rows) {
  const width = Math.max(...rows.map(([left]) => String(left).length));
  let text = "";
  for (const [left, right] of rows) {
    const lines = String(right).split("\n");
    text += "  " + String(left).padEnd(width) + "  " + lines[0] + "\n";
    for (const more of lines.slice(1)) text += "  " + " ".repeat(width) + "  " + more + "\n";
  }
  return text;
}

/** The help page of a command spec. */
export function helpText(spec) {
  let text = spec.usage + "\n\n" + spec.about.trim() + "\n";
  text += "\noptions:\n" + table(optionRows(spec));
  for (const [title, body] of spec.sections || []) text += "\n" + title + ":\n" + (Array.isArray(body) ? table(body) : body.replace(/\n?$/, "\n"));
  const examples = spec.examples || [];
  if (examples.length > 0) text += "\nexample" + (examples.length > 1 ? "s" : "") + ":\n" + examples.map((e) => "  " + e + "\n").join("");
  const exits = spec.exits.some(([code]) => code === 2) ? spec.exits : [...spec.exits, [2, "bad usage (the reason and the usage line on stderr)"]];
  text += "\nexit status:\n" + table([...exits].sort((a, b) => a[0] - b[0]));
  return text;
}

/**
 * What the command line asks of a command spec: { version }, { help }, { usageError: message }, or
 * { values, positionals } to run with. Pure: runCommand does the printing and the exit.
 */
export function parseCommandLine(spec, argv) {
  if (wantsVersion(argv)) return { version: true };
  const options = { help: { type: "boolean", short: "h" }, version: { type: "boolean" } };
  for (const o of spec.options || []) options[o.name] = { type: o.value ? "string" : "boolean", ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) };
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: spec.positionals === true });
  } catch (e) {
    return { usageError: e instanceof Error ? e.message : String(e) };
  }
  if (parsed.values.help) return { help: true };
  return { values: parsed.values, positionals: parsed.positionals };
}

/**
 * Runs a command: the command line read as `spec` declares (see the file's comment), then
 * `spec.run(values, positionals)`, whose answer (a number, or nothing for 0) is the exit status.
 * `spec.onClosed`: what to do when the reader of stdout goes away (it must end the process).
 * `spec.exitWhenDone`: end the process with that status even if something (a port, stdin) still
 * holds the event loop open.
 */
export async function runCommand(spec) {
  guardOutput(spec.program, { onClosed: spec.onClosed });
  const asked = parseCommandLine(spec, process.argv.slice(2));
  if (asked.version) return finish(0, versionLine(spec.program) + "\n");
  if (asked.help) return finish(0, helpText(spec));
  if (asked.usageError !== undefined) return finish(2, "", asked.usageError + "\n" + spec.usage + "\n");
  let status;
  try {
    status = (await spec.run(asked.values, asked.positionals)) ?? 0;
  } catch (e) {
    if (e instanceof UsageError) return finish(2, "", e.message + "\n" + spec.usage + "\n");
    if (e instanceof CommandFailure) return finish(e.status, "", e.message + "\n");
    if (e instanceof Error) return finish(1, "", (spec.failurePrefix || "") + e.message + "\n");
    failUnexpected(spec.program, e);
  }
  process.exitCode = status;
  if (spec.exitWhenDone) process.exit(status);
}

/** Writes what the command answers instead of running (or why it failed), then ends with `status`. */
function finish(status, out, err = "") {
  if (out !== "") process.stdout.write(out);
  if (err !== "") process.stderr.write(err);
  process.exit(status);
}

/**
 * Runs one of the compiled desktop tools (dist/host/<bundle>.js, rebuilt first in a checkout when a
 * source changed): `main(module, argv)` answers its exit status. The tool reads its own arguments;
 * an error it did not catch is failUnexpected's one line. `exitWhenDone`: as for runCommand.
 */
export async function runHostCommand({ program, bundle, main, guard = true, exitWhenDone = false }) {
  if (guard) guardOutput(program);
  try {
    const module = await import(pathToFileURL(await freshHostBundle(bundle)).href);
    process.exitCode = await main(module, process.argv.slice(2));
  } catch (e) {
    failUnexpected(program, e);
  }
  if (exitWhenDone) process.exit(process.exitCode);
}
