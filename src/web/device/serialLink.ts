/**
 * A line-oriented link over a Web Serial port (or anything shaped like one: the tests' stand-in):
 * text out, lines in. Every line read is offered to the current waiter and to the log; a waiter that
 * sees no matching line in time, or a port that fails, rejects with a sentence saying which.
 */
export interface PortLike {
  open(options: { baudRate: number }): Promise<void>;
  close(): Promise<void>;
  readable: ReadableStream<Uint8Array> | null;
  writable: WritableStream<Uint8Array> | null;
}

export class LinkError extends Error {
  constructor(message: string, readonly kind: "timeout" | "lost") {
    super(message);
    this.name = "LinkError";
  }
}

export interface SerialLink {
  send(text: string): Promise<void>;
  /** The first line (from now on) that `pick` accepts, within `timeoutMs`; each line is offered once. */
  waitFor<T>(pick: (line: string) => T | null | undefined, timeoutMs: number, what: string): Promise<T>;
  close(): Promise<void>;
}

export async function openLink(port: PortLike, baudRate: number, onLine: (line: string) => void): Promise<SerialLink> {
  await port.open({ baudRate });
  if (!port.readable || !port.writable) throw new LinkError("the port opened without streams", "lost");
  const reader = port.readable.getReader();
  const writer = port.writable.getWriter();
  const decoder = new TextDecoder();
  let pending = "";
  let lost: LinkError | null = null;
  // The one pending waitFor (commands go one at a time), held in an object the reader loop shares.
  const current: { waiter: ((line: string) => void) | null; fail: ((e: LinkError) => void) | null } = { waiter: null, fail: null };

  (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        pending += decoder.decode(value, { stream: true });
        let nl: number;
        while ((nl = pending.indexOf("\n")) >= 0) {
          const line = pending.slice(0, nl).replace(/\r$/, "");
          pending = pending.slice(nl + 1);
          onLine(line);
          if (current.waiter) current.waiter(line);
        }
      }
      lost = new LinkError("the board went away (the serial port closed)", "lost");
    } catch (e) {
      lost = new LinkError("the serial connection was cut (" + (e instanceof Error ? e.message : String(e)) + ")", "lost");
    }
    if (current.fail) current.fail(lost);
  })();

  return {
    async send(text: string) {
      if (lost) throw lost;
      try {
        await writer.write(new TextEncoder().encode(text));
      } catch (e) {
        throw new LinkError("could not write to the board (" + (e instanceof Error ? e.message : String(e)) + ")", "lost");
      }
    },
    waitFor<T>(pick: (line: string) => T | null | undefined, timeoutMs: number, what: string): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (lost) return reject(lost);
        const done = (): void => {
          clearTimeout(timer);
          current.waiter = null;
          current.fail = null;
        };
        const timer = setTimeout(() => {
          done();
          reject(new LinkError("no answer from the board within " + timeoutMs / 1000 + " s (" + what + ")", "timeout"));
        }, timeoutMs);
        current.waiter = (line) => {
          const v = pick(line);
          if (v !== null && v !== undefined) {
            done();
            resolve(v);
          }
        };
        current.fail = (e) => {
          done();
          reject(e);
        };
      });
    },
    async close() {
      try {
        await reader.cancel();
      } catch {
        /* already gone */
      }
      reader.releaseLock();
      writer.releaseLock();
      try {
        await port.close();
      } catch {
        /* already closed */
      }
    },
  };
}
