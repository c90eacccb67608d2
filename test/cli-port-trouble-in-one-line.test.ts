/**
 * `pet-save pull` and `push` say what is wrong with a port in one line, with what to do, instead of
 * the uploader's crash dump (where Node prints the cause between its own source line and the stack):
 * a device that is not a serial port is refused before the uploader starts; a crash is reduced to
 * its error line plus advice; a refused connection is said in words. Output to a device (-o
 * /dev/full) is written into, not replaced, and a full disk is one line.
 */
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, statSync } from "node:fs";
import { main, type CliIo } from "../src/host/node/cli";
import { connectFailure, notSerialPortReason, uploaderCrash } from "../src/host/node/cli/portTrouble";

/** What the espruino uploader printed when given /dev/null as its port (EspruinoTools 0.1.67, Node 20). */
const DEV_NULL_CRASH = `Espruino Command-line Tool 0.1.67
-----------------------------------

Explicit board JSON supplied: "/tmp/pet-upload-x/espruino-tools-board.json"
Connecting to '/dev/null'
node:internal/process/promises:391
    triggerUncaughtException(err, true /* fromPromise */);
    ^

Error: Error: Inappropriate ioctl for device setting custom baud rate of 115200
Emitted 'error' event on SerialPort instance at:
    at SerialPort._error (/work/node_modules/@serialport/stream/dist/index.js:79:18)
    at /work/node_modules/@serialport/stream/dist/index.js:112:18

Node.js v20.20.2
`;

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
    expect(notSerialPortReason("/dev/tty")).toBeNull(); // a terminal: the uploader finds out the rest
    expect(notSerialPortReason("tcp://127.0.0.1:2323")).toBeNull();
    expect(notSerialPortReason("/dev/null", "win32")).toBeNull();
  });

  it("reads the cause and the advice out of the uploader's crash, and leaves other output alone", () => {
    expect(uploaderCrash(DEV_NULL_CRASH, "/dev/null")).toBe(
      "the espruino uploader failed on /dev/null: Inappropriate ioctl for device setting custom baud rate of 115200; " +
        "it is not a serial port: name the board's port (`npm run upload -- --list` lists them)",
    );
    const busy = DEV_NULL_CRASH.replace("Error: Error: Inappropriate ioctl for device setting custom baud rate of 115200", "Error: Error Resource temporarily unavailable Cannot lock port");
    expect(uploaderCrash(busy, "/dev/ttyUSB0")).toMatch(/another program has the port open/);
    expect(uploaderCrash("Connecting to '/dev/ttyUSB0'\nConnected\n--] PETPUSH ok\n", "/dev/ttyUSB0")).toBeNull();
    expect(uploaderCrash(DEV_NULL_CRASH, "/dev/null")!.includes("\n")).toBe(false);
  });

  it("says a failed connection in words, not as the uploader's JSON", () => {
    const refused = 'Connecting to \'tcp://127.0.0.1:1\'\nRECEIVE ERROR: {"errno":-111,"code":"ECONNREFUSED","syscall":"connect","address":"127.0.0.1","port":1}\n';
    expect(connectFailure(refused)).toBe("connection refused: nothing listens there");
    expect(connectFailure("Connecting to 'tcp://nowhere.invalid:23'\nERROR: getaddrinfo ENOTFOUND nowhere.invalid\n")).toBe("no such host");
    expect(connectFailure("[pet] progress 1 2\nPort \"/dev/ttyUSB9\" not found\n")).toBe('Port "/dev/ttyUSB9" not found');
    expect(connectFailure("")).toBe("the uploader said nothing");
  });

  it.runIf(process.platform === "linux" && existsSync("/sys/dev/char"))("pull --port /dev/null is one line and status 1, the uploader never started", async () => {
    const io = memoryIo();
    expect(await main(["pull", "--port", "/dev/null", "-o", "/tmp/never-written.bin"], io)).toBe(1);
    expect(io.err).toBe("/dev/null is not a serial port (a mem device): name the board's port, e.g. /dev/ttyUSB0 (`npm run upload -- --list` lists them)\n");
    expect(existsSync("/tmp/never-written.bin")).toBe(false);
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
