/**
 * `pet-save` takes payloads in the form the project hands them out: hex text (test/golden/*.hex,
 * pet.exportHex()). Every golden file, given directly to decode and verify, gets the status that
 * test/golden/README.md promises for it; 84-byte files stay binary; hex that is not quite hex is
 * refused with a hint instead of a bare bad-magic.
 */
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { main, usageText } from "../src/host/node/cli";
import { describeStatus } from "../src/save/status";
import { payloadToPush } from "../src/host/node/cli/push";
import { memoryIo, petPayload, tempDir } from "./region-tools-fixtures";

const GOLDEN = fileURLToPath(new URL("./golden", import.meta.url));
const dir = tempDir("pet-save-hex-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** file -> expected status, from the README's table (the promise, written independently of the code). */
function promised(): Map<string, { status: string; withNow: boolean }> {
  const table = new Map<string, { status: string; withNow: boolean }>();
  for (const line of readFileSync(join(GOLDEN, "README.md"), "utf8").split("\n")) {
    // "(with now)": the status needs the clock the row describes; "(with now 0)": loaded without one.
    const m = /^\| `([a-z0-9-]+\.hex)` \| ([a-z-]+)(?: \(with now( 0)?\))? \|/.exec(line);
    if (m) table.set(m[1] as string, { status: m[2] as string, withNow: /\(with now\)/.test(line) });
  }
  return table;
}

/** The clock the README gives for the one vector whose status needs one. */
const OVERFLOW_NOW = "1767225601000";

describe("pet-save decode/verify on test/golden/*.hex directly", () => {
  const table = promised();
  const files = readdirSync(GOLDEN).filter((f) => f.endsWith(".hex")).sort();

  it("the README promises a status for every golden file", () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
    expect([...table.keys()].sort()).toEqual(files);
  });

  for (const file of files) {
    it(file, async () => {
      const { status, withNow } = table.get(file)!;
      const extra = withNow ? ["--now", OVERFLOW_NOW] : [];
      for (const command of ["decode", "verify"]) {
        const io = memoryIo();
        const code = await main([command, join(GOLDEN, file), ...extra], io);
        if (status === "ok") {
          expect({ code, err: io.err }).toEqual({ code: 0, err: "" });
          if (command === "verify") expect(io.out).toBe("ok\n");
        } else {
          expect(code).toBe(1);
          // A bad magic in hex text is judged as binary (bad-magic all the same) and gets the hex hint.
          const hint = status === "bad-magic" ? /hint: the file looks like hex text.*\n/ : /^$/;
          const head = "rejected: " + status + "\n" + describeStatus(status as never) + "\n";
          expect(io.err.slice(0, head.length)).toBe(head);
          expect(io.err.slice(head.length)).toMatch(hint);
        }
      }
    });
  }

  it("decode of hex text and of its binary agree field for field", async () => {
    const text = readFileSync(join(GOLDEN, "valid-utf8-name.hex"), "utf8");
    const bin = join(dir, "utf8.pay");
    writeFileSync(bin, Buffer.from(text.trim(), "hex"));
    const a = memoryIo();
    const b = memoryIo();
    await main(["decode", join(GOLDEN, "valid-utf8-name.hex"), "--json"], a);
    await main(["decode", bin, "--json"], b);
    expect(JSON.parse(a.out).name).toBe("Zoë 🐾");
    expect(a.out).toBe(b.out);
  });
});

describe("hex text forms", () => {
  const hex = Buffer.from(petPayload("Mochi", 3)).toString("hex");

  it("upper case, wrapped lines and CRLF are hex text too; stdin as well", async () => {
    const wrapped = join(dir, "wrapped.hex");
    writeFileSync(wrapped, hex.toUpperCase().replace(/(.{32})/g, "$1\r\n") + "\r\n");
    const io = memoryIo();
    expect(await main(["decode", wrapped, "--json"], io)).toBe(0);
    expect(JSON.parse(io.out).name).toBe("Mochi");
    const stdinIo = memoryIo();
    stdinIo.readStdin = async () => new Uint8Array(Buffer.from(hex + "\n"));
    expect(await main(["verify", "-"], stdinIo)).toBe(0);
  });

  it("inspect shows a hex payload as decode does; push checks it the same way", async () => {
    const path = join(dir, "pet.hex");
    writeFileSync(path, hex + "\n");
    const a = memoryIo();
    expect(await main(["inspect", path, "--json"], a)).toBe(0);
    expect(JSON.parse(a.out).name).toBe("Mochi");
    const raw = new Uint8Array(readFileSync(path));
    expect(raw.length).toBe(169);
    expect(Buffer.from(payloadToPush(raw, path, undefined, 0)).toString("hex")).toBe(hex);
  });

  it("an odd number of hex digits is refused by name", async () => {
    const path = join(dir, "odd.hex");
    writeFileSync(path, hex.slice(0, -1) + "\n");
    const io = memoryIo();
    expect(await main(["decode", path], io)).toBe(1);
    expect(io.err).toBe(path + " looks like hex text but holds an odd number of hex digits (167); a payload is 168 digits\n");
  });

  it("an 84-byte file is binary even when it is made of hex digits; bad-magic then says it looks like hex", async () => {
    const path = join(dir, "84-digits.hex");
    writeFileSync(path, hex.slice(0, 84));
    const io = memoryIo();
    expect(await main(["decode", path], io)).toBe(1);
    expect(io.err).toMatch(/^rejected: bad-magic\n.*\nhint: the file looks like hex text/);
  });

  it("hex with a 0x prefix is not hex text; the bad-magic names the likely cause", async () => {
    const path = join(dir, "prefixed.hex");
    writeFileSync(path, "0x" + hex + "\n");
    const io = memoryIo();
    expect(await main(["verify", path], io)).toBe(1);
    expect(io.err).toMatch(/^rejected: bad-magic\n.*\nhint: the file looks like hex text; pet-save reads it as hex only when/);
  });

  it("short binaries made of ASCII digits are judged as binary, not as hex", async () => {
    for (const text of ["5", "12 34", "deadbeef\n"]) {
      const io = memoryIo();
      io.readStdin = async () => new Uint8Array(Buffer.from(text));
      expect(await main(["decode", "-"], io)).toBe(1);
      expect(io.err).toMatch(text.length < 6 ? /^rejected: too-short\n/ : /^rejected: bad-magic\n/);
    }
  });

  it("a binary bad magic gets no hint", async () => {
    const io = memoryIo();
    const path = join(dir, "bad-magic.pay");
    writeFileSync(path, Buffer.from(readFileSync(join(GOLDEN, "reject-bad-magic.hex"), "utf8").trim(), "hex"));
    expect(await main(["decode", path], io)).toBe(1);
    expect(io.err).not.toMatch(/hint/);
  });

  it("the usage text says payloads may be hex text", () => {
    expect(usageText()).toMatch(/PAYLOAD is one save: 84 binary bytes, or its hex text/);
  });
});
