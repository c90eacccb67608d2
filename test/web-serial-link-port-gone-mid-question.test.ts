/**
 * The Device tab's serial link (src/web/device/serialLink.ts) when the port goes away around a
 * question: before it is asked, while its text is still being written, or by a write that fails.
 * Each time the question fails with the link's own error, at once and not at its time limit, and no
 * promise is left rejected with nobody to handle it: in the page, such a rejection is an uncaught
 * error (Playwright's "pageerror"), which the emulated-ESP32 tier's install test once caught after
 * a power cut. An answer that comes while the text is still going out is not missed.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LinkError, openLink, type PortLike, type SerialLink } from "../src/web/device/serialLink";

const LONG_MS = 60_000; // longer than any of these tests may take: a failure must not wait for it

/** A port like Web Serial's, driven by the test: what the board says, a write held or failing, a cable pulled. */
function standInPort(): {
  port: PortLike;
  written: () => string;
  says(line: string): void;
  unplug(): void;
  holdWrites(): void;
  finishWrite(): void;
  failWrites(): void;
} {
  let toPage: ReadableStreamDefaultController<Uint8Array> | null = null;
  let written = "";
  let hold = false;
  let fail = false;
  let release: (() => void) | null = null;
  const port: PortLike = {
    open: async () => undefined,
    close: async () => undefined,
    readable: new ReadableStream<Uint8Array>({ start: (c) => void (toPage = c) }),
    writable: new WritableStream<Uint8Array>({
      write: (chunk) => {
        if (fail) throw new Error("The device has been lost.");
        written += new TextDecoder().decode(chunk);
        if (hold) return new Promise<void>((r) => (release = r));
        return undefined;
      },
    }),
  };
  return {
    port,
    written: () => written,
    says: (line) => toPage?.enqueue(new TextEncoder().encode(line + "\r\n")),
    unplug: () => toPage?.close(),
    holdWrites: () => void (hold = true),
    finishWrite: () => release?.(),
    failWrites: () => void (fail = true),
  };
}

const pickAnswer = (line: string): string | null => (line.startsWith("=") ? line.slice(1) : null);
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 50));

let unhandled: unknown[];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
});

/** What `question` settled with: its answer, or the error it failed with. */
async function outcome(question: Promise<string>): Promise<string> {
  try {
    return "answer " + (await question);
  } catch (e) {
    expect(e).toBeInstanceOf(LinkError);
    return (e as LinkError).kind + ": " + (e as LinkError).message;
  }
}

describe("the serial link when the port goes away around a question", () => {
  let board: ReturnType<typeof standInPort>;
  let link: SerialLink;
  beforeEach(async () => {
    board = standInPort();
    link = await openLink(board.port, 115200, () => undefined);
  });

  it("answers with the line after the question, even one that comes while the text is still going out", async () => {
    board.holdWrites();
    const question = link.ask("pet.status()\n", pickAnswer, LONG_MS, "pet.status()");
    await settle();
    expect(board.written()).toBe("pet.status()\n");
    board.says("=Pip");
    board.finishWrite();
    expect(await outcome(question)).toBe("answer Pip");
    await settle();
    expect(unhandled).toEqual([]);
  });

  it("a port that closed before the question: it fails with the board gone, and nothing is left unhandled", async () => {
    board.unplug();
    await settle();
    const started = Date.now();
    expect(await outcome(link.ask("pet.status()\n", pickAnswer, LONG_MS, "pet.status()"))).toBe("lost: the board went away (the serial port closed)");
    expect(Date.now() - started).toBeLessThan(LONG_MS / 2);
    expect(board.written()).toBe("");
    await settle();
    expect(unhandled).toEqual([]);
  });

  it("a port that closes while the text is being written: it fails with the board gone, and nothing is left unhandled", async () => {
    board.holdWrites();
    const question = outcome(link.ask("pet.status()\n", pickAnswer, LONG_MS, "pet.status()"));
    await settle();
    board.unplug();
    await settle(); // the question has failed, and the write is still under way
    board.finishWrite();
    expect(await question).toBe("lost: the board went away (the serial port closed)");
    await settle();
    expect(unhandled).toEqual([]);
  });

  it("a write that fails: the question fails with it, and its waiter ends then, leaving nothing to fail unhandled at its time limit", async () => {
    board.failWrites();
    expect(await outcome(link.ask("pet.status()\n", pickAnswer, 200, "pet.status()"))).toBe("lost: could not write to the board (The device has been lost.)");
    await new Promise((r) => setTimeout(r, 400)); // past the question's time limit
    expect(unhandled).toEqual([]);
  });

  it("a question with no answer fails at its time limit, and the next question still gets its answer", async () => {
    expect(await outcome(link.ask("pet.status()\n", pickAnswer, 100, "pet.status()"))).toBe("timeout: no answer from the board within 0.1 s (pet.status())");
    const next = link.ask("pet.name()\n", pickAnswer, LONG_MS, "pet.name()");
    board.says("=Kiwi");
    expect(await outcome(next)).toBe("answer Kiwi");
    expect(unhandled).toEqual([]);
  });
});
