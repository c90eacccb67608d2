/** One option of a command: --name (with -short), taking a value when `value` names it ("FILE"). */
export interface OptionSpec {
  name: string;
  short?: string;
  value?: string;
  multiple?: boolean;
  help: string;
}

export interface CommandSpec<V = Record<string, string | boolean | undefined>> {
  /** As --version and the messages name it: "npm run build". */
  program: string;
  /** The usage line: "usage: npm run build -- [--out FILE]". */
  usage: string;
  /** What the command does. */
  about: string;
  options?: OptionSpec[];
  /** Further help sections after the options: [title, rows or text]. */
  sections?: [string, [string, string][] | string][];
  examples?: string[];
  /** What each exit status means; 2 (bad usage) is added unless the command says more of it. */
  exits: [number, string][];
  positionals?: boolean;
  /** Put before the message of an Error the command throws. */
  failurePrefix?: string;
  onClosed?: () => void;
  exitWhenDone?: boolean;
  run(values: V, positionals: string[]): Promise<number | void> | number | void;
}

export class UsageError extends Error {}
export class CommandFailure extends Error {
  constructor(message: string, status?: number);
  status: number;
}
export function helpText(spec: CommandSpec<never>): string;
export function parseCommandLine(
  spec: CommandSpec<never>,
  argv: string[],
): { version: true } | { help: true } | { usageError: string } | { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] };
export function runCommand<V>(spec: CommandSpec<V>): Promise<void>;
export function runHostCommand(o: {
  program: string;
  bundle: string;
  main: (module: Record<string, unknown>, argv: string[]) => Promise<number> | number;
  guard?: boolean;
  exitWhenDone?: boolean;
}): Promise<void>;
