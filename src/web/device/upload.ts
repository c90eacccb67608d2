/**
 * The upload itself: the bundle into Storage `.bootcde` in acknowledged pieces, then the CRC check
 * (protocol.ts has the text). It stops at the first piece not acknowledged, or acknowledged `false`,
 * and at a CRC that differs, and reports how far it got; it never sends `load`, which is the
 * caller's step once this has succeeded.
 */
import * as P from "./protocol";

export type Exchange = <T>(text: string, pick: (line: string) => T | null, ms: number, what: string) => Promise<T>;

/** Thrown when the upload stops; `done` is how many bytes the board acknowledged. */
export class UploadStopped extends Error {
  constructor(readonly cause: unknown, readonly done: number) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = "UploadStopped";
  }
}

export async function writeBootFile(code: string, exchange: Exchange, ackMs: number, progress: (done: number) => void): Promise<void> {
  let done = 0;
  try {
    for (const s of P.uploadCommands(code)) {
      const ack = await exchange(s.line, (l) => {
        const a = P.parseAck(l);
        return a !== null && a.offset === s.offset ? a : null;
      }, ackMs, "Storage.write at byte " + s.offset);
      if (!ack.ok) throw new Error("Storage refused the write at byte " + s.offset + " (is Storage full? require(\"Storage\").compact() typed at the board's console may help)");
      done = s.end;
      progress(done);
    }
    const crc = await exchange(P.crcCommand(), P.parseCrc, ackMs, "CRC of " + P.BOOT_FILE);
    const want = P.bundleCrc(code);
    if (crc !== want) throw new Error(P.BOOT_FILE + " on the board does not match the firmware (CRC " + crc + ", expected " + want + ")");
  } catch (e) {
    throw new UploadStopped(e, done);
  }
}
