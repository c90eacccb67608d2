/**
 * `pet-save pull` and `push` say what is wrong with a port in one line, with what to do: a device
 * that is not a serial port is refused before anything opens it, and a refused connection is said in
 * words (the one transport's, as the upload says it). Output to a device (-o /dev/full) is written
 * into, not replaced, and a full disk is one line.
 */
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, statSync } from "node:fs";
import { main, type CliIo } from "../src/host/node/cli";
import { notSerialPortReason } from "../src/host/node/cli/portTrouble";

function memoryIo(): CliIo & { out: string; err: string } {
  const io = {
    out: "",
    err: "",
    readStdin: async () => new Uint8Array(0),
    writeStdout: (d: string | Uint8Array) => void (io.out += String(d)),
    writeStderr: (t: string) => void (io.err += t),
  };
  return io;
}

describe("port trouble", () => {
  it.runIf(process.platform === "linux" && existsSync("/sys/dev/char"))("tells a device that is not a serial port from one that may be", () => {
    expect(notSerialPortReason("/dev/null")).toBe(
      "/dev/null is not a serial port (a mem device): name the board's port, e.g. /dev/ttyUSB0 (`npm run upload -- --list` lists them)",
    );
    expect(notSerialPortReason("/dev/zero")).toMatch(/^\/dev\/zero is not a serial port/);
    expect(notSerialPortReason("/dev/tty")).toBeNull(); // a terminal: opening it finds out the rest
    expect(notSerialPortReason("tcp://127.0.0.1:2323")).toBeNull();
    expect(notSerialPortReason("/dev/null", "win32")).toBeNull();
  });

  it.runIf(process.platform === "linux" && existsSync("/sys/dev/char"))("pull --port /dev/null is one line and status 1, the port never opened", async () => {
    const io = memoryIo();
    expect(await main(["pull", "--port", "/dev/null", "-o", "/tmp/never-written.bin"], io)).toBe(1);
    expect(io.err).toBe("/dev/null is not a serial port (a mem device): name the board's port, e.g. /dev/ttyUSB0 (`npm run upload -- --list` lists them)\n");
    expect(existsSync("/tmp/never-written.bin")).toBe(false);
  });

  it("push to a console where nothing listens is one line and status 1, in the words the upload uses", async () => {
    const io = memoryIo();
    io.readStdin = async () => new Uint8Array(readFileSync(new URL("./golden/valid-minimal.hex", import.meta.url)));
    expect(await main(["push", "--port", "tcp://127.0.0.1:1", "-"], io)).toBe(1);
    expect(io.err).toBe("nothing listens at tcp://127.0.0.1:1: is the board (or `espruino --telnet`) running there?\n");
  });

  it.runIf(process.platform === "linux" && existsSync("/dev/full"))("writes -o into a device rather than replacing it, and a full one is one line", async () => {
    // encode's input: a golden payload as decode --json prints it.
    const decoded = memoryIo();
    decoded.readStdin = async () => new Uint8Array(readFileSync(new URL("./golden/valid-minimal.hex", import.meta.url)));
    expect(await main(["decode", "-", "--json"], decoded)).toBe(0);
    const json = new TextEncoder().encode(decoded.out);

    const full = memoryIo();
    full.readStdin = async () => json;
    expect(await main(["encode", "-", "-o", "/dev/full"], full)).toBe(1);
    expect(full.err).toBe("cannot write /dev/full: no space left on the device; free some space or write somewhere else\n");
    expect(statSync("/dev/full").isCharacterDevice()).toBe(true); // not renamed over by a temporary file

    const sink = memoryIo();
    sink.readStdin = async () => json;
    expect(await main(["encode", "-", "-o", "/dev/null"], sink)).toBe(0);
    expect(statSync("/dev/null").isCharacterDevice()).toBe(true);
  });
});
