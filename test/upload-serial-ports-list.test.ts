/**
 * src/host/node/serial/serialPorts.ts in-process: reading Linux sysfs without udev, the stubbed list and the
 * espruino tool's own filters, and the advice for named ports on Windows and WSL.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkNamedPort, choosePort, listSerialPorts, PortError, resolveBoardPort, sysfsPorts, wslKind } from "../src/host/node/serial/serialPorts";

const dir = mkdtempSync(join(tmpdir(), "pet-serial-list-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const noList = async () => ({ ports: [], uploaderPaths: [] });

describe("sysfsPorts", () => {
  it("finds USB ids above a tty's interface, keeps non-USB devices, skips ttys without a device or a /dev node", () => {
    // A fake /sys: class/tty entries link to devices. The /dev side must hold character devices, so
    // the fake ttys are named after two every system has: /dev/null and /dev/zero.
    const usbDev = join(dir, "devices", "usb1", "1-1");
    mkdirSync(join(usbDev, "1-1:1.0", "null"), { recursive: true });
    for (const [f, v] of [["idVendor", "10c4"], ["idProduct", "ea60"], ["manufacturer", "Silicon Labs"], ["product", "CP2102"], ["serial", "0001"]]) writeFileSync(join(usbDev, f!), v + "\n");
    mkdirSync(join(dir, "devices", "platform", "uart0"), { recursive: true });
    const cls = join(dir, "class", "tty");
    for (const name of ["null", "zero", "ttyGONE", "tty0"]) mkdirSync(join(cls, name), { recursive: true });
    symlinkSync(join(usbDev, "1-1:1.0", "null"), join(cls, "null", "device"));
    symlinkSync(join(dir, "devices", "platform", "uart0"), join(cls, "zero", "device"));
    symlinkSync(join(dir, "devices", "platform", "uart0"), join(cls, "ttyGONE", "device"));
    expect(sysfsPorts(cls, "/dev")).toEqual([
      { path: "/dev/null", vendorId: "10c4", productId: "ea60", manufacturer: "Silicon Labs", product: "CP2102", serialNumber: "0001" },
      { path: "/dev/zero" },
    ]);
  });
});

describe("listSerialPorts with a stubbed list", () => {
  it("hides PC UARTs without USB ids on Linux and leaves out of the tool's list what the tool ignores", async () => {
    const file = join(dir, "ports.json");
    writeFileSync(file, JSON.stringify([{ path: "/dev/ttyS0" }, { path: "/dev/ttyUSB0", vendorId: "0x10C4", productId: "EA60" }, { path: "/dev/pts/3" }]));
    const r = await listSerialPorts({ platform: "linux", env: { PET_SERIAL_LIST: file } });
    expect(r.ports).toEqual([{ path: "/dev/ttyUSB0", vendorId: "10c4", productId: "ea60" }, { path: "/dev/pts/3" }]);
    expect(r.uploaderPaths).toEqual(["/dev/ttyUSB0", "/dev/pts/3"]);
  });
});

describe("named ports", () => {
  it("WSL 1: COMn is /dev/ttySn (and its absence is said with both names)", async () => {
    const e = await checkNamedPort("COM250", { platform: "linux", wsl: "wsl1", listPorts: noList }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PortError);
    expect((e as Error).message).toMatch(/no serial port "\/dev\/ttyS250" \(for "COM250"\): it does not exist/);
    expect((e as Error).message).toMatch(/WSL 1 the board's COM port N is \/dev\/ttySN/);
  });

  it("WSL 2: a COM name is refused with how to attach a USB board", async () => {
    await expect(checkNamedPort("COM3", { platform: "linux", wsl: "wsl2", listPorts: noList })).rejects.toThrow(/WSL 2 cannot open Windows' COM ports[\s\S]*usbipd attach --wsl/);
  });

  it("Windows: COMn is taken as named, a Unix path is not", async () => {
    expect(await checkNamedPort("COM12", { platform: "win32", listPorts: noList })).toEqual({ path: "COM12" });
    await expect(checkNamedPort("/dev/ttyUSB0", { platform: "win32", listPorts: noList })).rejects.toThrow(/on Windows a serial port is named COMn/);
  });

  it("a bare device name is looked for in /dev, and tcp:// is passed through", async () => {
    expect(await checkNamedPort("null", { platform: "linux", listPorts: noList })).toEqual({ path: "/dev/null", note: "using /dev/null for null" });
    expect(await resolveBoardPort("tcp://127.0.0.1:2323", { platform: "linux", wsl: null, listPorts: noList })).toEqual({ path: "tcp://127.0.0.1:2323", lines: [] });
  });

  it("a listed named port gets no 'not listed' line; an unlisted one gets exactly one", async () => {
    const listed = async () => ({ ports: [], uploaderPaths: ["/dev/null"] });
    expect((await resolveBoardPort("/dev/null", { platform: "linux", wsl: null, listPorts: listed })).lines).toEqual([]);
    expect((await resolveBoardPort("/dev/null", { platform: "linux", wsl: null, listPorts: noList })).lines).toEqual([
      "port /dev/null is not in the espruino tool's list of serial ports; using it as named",
    ]);
  });
});

describe("choosing and WSL", () => {
  it("the ESP32-S3/C3 built-in USB counts as a board; its absence names what is there", () => {
    expect(choosePort([{ path: "/dev/ttyACM0", vendorId: "303a", productId: "1001" }, { path: "/dev/ttyACM1", vendorId: "2341", productId: "0043" }]).path).toBe("/dev/ttyACM0");
    expect(() => choosePort([{ path: "/dev/ttyACM1", vendorId: "2341", productId: "0043" }], { platform: "linux", wsl: "wsl2" })).toThrow(/no ESP32 board found[\s\S]*ttyACM1[\s\S]*usbipd/);
  });

  it("tells WSL 1 from WSL 2 from plain Linux by the kernel release", () => {
    expect(wslKind(() => "4.4.0-19041-Microsoft")).toBe("wsl1");
    expect(wslKind(() => "5.15.153.1-microsoft-standard-WSL2")).toBe("wsl2");
    expect(wslKind(() => "6.8.0-45-generic")).toBeNull();
  });
});

describe("the picked port", () => {
  it("is checked like a named one: a listed board whose device is gone is an error naming it", async () => {
    const listed = async () => ({ ports: [{ path: "/dev/ttyGONE0", vendorId: "10c4", productId: "ea60" }], uploaderPaths: ["/dev/ttyGONE0"] });
    await expect(resolveBoardPort(undefined, { platform: "linux", wsl: null, listPorts: listed })).rejects.toThrow(/no serial port "\/dev\/ttyGONE0": it does not exist/);
  });

  it("Windows COM names match the tool's list whatever their case", async () => {
    const listed = async () => ({ ports: [], uploaderPaths: ["COM4"] });
    expect((await resolveBoardPort("com4", { platform: "win32", wsl: null, listPorts: listed })).lines).toEqual([]);
  });
});
