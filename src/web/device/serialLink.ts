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
  /**
   * Sends `text` and resolves with the first line from then on that `pick` accepts, within
   * `timeoutMs`; each line is offered once. A port that is gone before, during or after the write
   * rejects with the link's error, and the waiter goes with it.
   */
  ask<T>(text: string, pick: (line: string) => T | null | undefined, timeoutMs: number, what: string): Promise<T>;
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
  // The one pending question's waiter (commands go one at a time), held in an object the reader loop shares.
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

  async function send(text: string): Promise<void> {
    if (lost) throw lost;
    try {
      await writer.write(new TextEncoder().encode(text));
    } catch (e) {
      throw new LinkError("could not write to the board (" + (e instanceof Error ? e.message : String(e)) + ")", "lost");
    }
  }

  return {
    send,
    ask<T>(text: string, pick: (line: string) => T | null | undefined, timeoutMs: number, what: string): Promise<T> {
      // This question's own ending, for a write that fails (nothing went out, so nothing will answer).
      let fail = (e: LinkError): void => void e;
      // The waiter is in place before the text goes out, so an answer that comes at once is not missed.
      const answer = new Promise<T>((resolve, reject) => {
        if (lost) return reject(lost);
        const waiter = (line: string): void => {
          const v = pick(line);
          if (v !== null && v !== undefined) {
            done();
            resolve(v);
          }
        };
        fail = (e) => {
          done();
          reject(e);
        };
        // Only its own: a waiter that has ended leaves a later one in place.
        const done = (): void => {
          clearTimeout(timer);
          if (current.waiter === waiter) current.waiter = null;
          if (current.fail === fail) current.fail = null;
        };
        const timer = setTimeout(() => fail(new LinkError("no answer from the board within " + timeoutMs / 1000 + " s (" + what + ")", "timeout")), timeoutMs);
        current.waiter = waiter;
        current.fail = fail;
      });
      // The answer can reject before the caller awaits it (the port closed before or during the
      // write): this handler keeps the page from reporting that as unhandled; the caller still gets
      // the rejection through the promise returned.
      answer.catch(() => undefined);
      return send(text).then(
        () => answer,
        (e: LinkError) => {
          fail(e);
          return answer;
        },
      );
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
