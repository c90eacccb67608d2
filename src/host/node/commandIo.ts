/**
 * Where a command's lines go (upload, board-check, the soak): `out` for what it answers, `err` for
 * what it is doing and what went wrong. The tests hand in their own to read both.
 */
export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
}

/** The process's own stdout and stderr. */
export const PROCESS_IO: CommandIo = { out: (t) => void process.stdout.write(t), err: (t) => void process.stderr.write(t) };
