/**
 * The upload itself: the running pet saved and stopped (quietCommand), the bundle's Storage files
 * (`.bootcde` last, bundleForm.ts) in acknowledged pieces (as large as the free memory the board
 * reported allows), then each file's CRC checked (consoleProtocol.ts has the text) and the other
 * form's files that this one replaces erased, over whatever transport the host hands in as
 * `exchange`: the page's Web Serial link and the Node upload's serial or tcp console alike. It stops
 * at the first piece not acknowledged, or acknowledged `false`, and at a CRC that differs, and
 * reports how far it got; it never sends `load`, which is the caller's step once this has succeeded.
 */
import * as P from "./consoleProtocol";
import type { Exchange } from "./consoleProtocol";
import type { StorageFile } from "./bundleForm";

/** Thrown when the upload stops; `done` is how many bytes (of all the files) the board acknowledged. */
export class UploadStopped extends Error {
  constructor(readonly cause: unknown, readonly done: number) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = "UploadStopped";
  }
}

/** How long a board may take over one piece when the caller does not say: a Storage.write that compacts takes seconds. */
export const ACK_MS = 20000;

/**
 * Writes `files` in order and checks each one's CRC; `progress` hears the bytes acknowledged so far,
 * of all of them. Then erases the `stale` files (SentBundle.stale), only once the new ones are in
 * place and checked: a cut before that leaves a file the next upload erases, never a board without
 * firmware. Answers the stale files that are still there (the board said so): the firmware is
 * complete all the same, so that is the caller's to mention, not a stopped upload.
 */
export async function writeBootFile(files: StorageFile[], exchange: Exchange, ackMs: number, progress: (done: number) => void, stale: readonly string[] = []): Promise<string[]> {
  let done = 0;
  try {
    const quiet = await exchange(P.quietCommand(), P.parseQuiet, ackMs, "the pet's last save before the upload");
    for (const s of P.uploadCommands(files, P.pieceBytes(quiet.free))) {
      const ack = await exchange(s.line, (l) => {
        const a = P.parseAck(l);
        return a !== null && a.offset === s.offset ? a : null;
      }, ackMs, "Storage.write at byte " + s.offset);
      if (!ack.ok) throw new Error("Storage refused the write at byte " + s.offset + " (is Storage full? require(\"Storage\").compact() typed at the board's console may help)");
      done = s.end;
      progress(done);
    }
    for (const f of files) {
      const crc = await exchange(P.crcCommand(f.name), P.parseCrc, ackMs, "CRC of " + f.name);
      const want = P.bundleCrc(f.code);
      if (crc !== want) throw new Error(f.name + " on the board does not match the firmware (CRC " + crc + ", expected " + want + ")");
    }
  } catch (e) {
    throw new UploadStopped(e, done);
  }
  // The firmware is whole from here on: a file the board does not erase, or does not answer about,
  // is reported, never a stopped upload.
  const kept: string[] = [];
  for (const name of stale) {
    const gone = await exchange(P.eraseCommand(name), P.parseErased, ackMs, "erasing " + name).catch(() => false);
    if (!gone) kept.push(name);
  }
  return kept;
}
