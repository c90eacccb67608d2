/**
 * Finding the board: listing serial ports, picking the one ESP32 board when no port is named, and
 * checking a port that is named. Used by `npm run upload`, `pet-save pull` / `push`, board-check and
 * the soak.
 *
 * Why not just the uploader's list: the `espruino` tool (0.1.67) only connects to ports its own
 * list shows, and that list is `serialport`'s, which on Linux comes from `udevadm` (absent in
 * containers and on OpenWrt, and without a database on WSL 2 with usbipd) and from which the tool
 * drops every /dev/ttyS* (WSL 1's COM ports). So we list with `serialport` where it works and, on
 * Linux, also read /sys/class/tty ourselves, which needs no udev; a named port that exists is used
 * whether or not any list shows it (src/host/node/upload/uploaderShim.cjs makes the tool accept it).
 *
 * A port is { path, vendorId?, productId?, manufacturer?, product?, serialNumber? }, USB ids as
 * four lower-case hex digits. Env PET_SERIAL_LIST names a JSON file holding such an array: the list
 * then comes from it instead of the machine (the tests' boundary; nothing else sets it).
 */
import { accessSync, constants, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** A serial port as listed: USB ids as four lower-case hex digits. */
export interface SerialPortInfo {
  path: string;
  vendorId?: string;
  productId?: string;
  manufacturer?: string;
  product?: string;
  serialNumber?: string;
}

/** What listSerialPorts answers. */
export interface PortListing {
  /** What a person can choose from. */
  ports: SerialPortInfo[];
  /** The paths the espruino tool's own list would show. */
  uploaderPaths: string[];
}

/** Which kind of Linux this is, for the advice we give. */
export type Wsl = "wsl1" | "wsl2" | null;

/** USB serial chips found on ESP32 boards, by USB vendor:product id. */
export const ESP32_USB_IDS: { vendorId: string; productId: string; chip: string }[] = [
  { vendorId: "10c4", productId: "ea60", chip: "CP210x (Silicon Labs)" },
  { vendorId: "1a86", productId: "7523", chip: "CH340 (WCH)" },
  { vendorId: "1a86", productId: "7522", chip: "CH340K (WCH)" },
  { vendorId: "1a86", productId: "55d4", chip: "CH9102 (WCH)" },
  { vendorId: "1a86", productId: "55d3", chip: "CH343 (WCH)" },
  { vendorId: "0403", productId: "6001", chip: "FT232R (FTDI)" },
  { vendorId: "0403", productId: "6010", chip: "FT2232 (FTDI)" },
  { vendorId: "0403", productId: "6014", chip: "FT232H (FTDI)" },
  { vendorId: "0403", productId: "6015", chip: "FT231X (FTDI)" },
  { vendorId: "303a", productId: "1001", chip: "ESP32-S3/C3 built-in USB (Espressif)" },
];

/** A port that cannot be used, or no port to pick: the message says why and what to do. */
export class PortError extends Error {}

const require = createRequire(import.meta.url);

/** "0x10C4", "10c4" or 4292 become "10c4"; anything else undefined. */
function usbId(v: unknown): string | undefined {
  if (typeof v === "number") return v.toString(16).padStart(4, "0");
  if (typeof v !== "string" || !/^(0x)?[0-9a-f]{1,4}$/i.test(v.trim())) return undefined;
  return v.trim().replace(/^0x/i, "").toLowerCase().padStart(4, "0");
}

function cleanPort(p: Record<string, unknown>): SerialPortInfo {
  const out: SerialPortInfo = { path: String(p.path) };
  const vid = usbId(p.vendorId);
  const pid = usbId(p.productId);
  if (vid) out.vendorId = vid;
  if (pid) out.productId = pid;
  for (const k of ["manufacturer", "product", "serialNumber"] as const) {
    const v = p[k];
    if (typeof v === "string" && v !== "") out[k] = v;
  }
  return out;
}

/** `serialport`'s list, or [] when it fails (no module, no udevadm): never throws. */
async function serialportList(): Promise<SerialPortInfo[]> {
  try {
    const { SerialPort } = require("serialport") as { SerialPort: { list(): Promise<Record<string, unknown>[]> } };
    return (await SerialPort.list()).map(cleanPort);
  } catch {
    return [];
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
}

/**
 * Serial devices from Linux's sysfs (no udev needed): every /sys/class/tty entry backed by a device
 * whose /dev node exists; USB ones carry the ids and strings of the USB device above them.
 */
export function sysfsPorts(classDir = "/sys/class/tty", devDir = "/dev"): SerialPortInfo[] {
  let names: string[];
  try {
    names = readdirSync(classDir);
  } catch {
    return [];
  }
  const ports: SerialPortInfo[] = [];
  for (const name of names.sort()) {
    let dev: string;
    try {
      dev = realpathSync(join(classDir, name, "device"));
    } catch {
      continue; // virtual terminals and ptys have no device
    }
    const path = join(devDir, name);
    try {
      if (!statSync(path).isCharacterDevice()) continue;
    } catch {
      continue; // a container sees the host's sysfs but not its /dev
    }
    const port: SerialPortInfo = { path };
    // Walk up from the tty's device to the USB device that has the ids (interface, then device).
    for (let d = dev, i = 0; i < 6 && d !== dirname(d); d = dirname(d), i++) {
      const vid = readText(join(d, "idVendor"));
      if (vid === undefined) continue;
      Object.assign(port, cleanPort({ path, vendorId: vid, productId: readText(join(d, "idProduct")), manufacturer: readText(join(d, "manufacturer")), product: readText(join(d, "product")), serialNumber: readText(join(d, "serial")) }));
      break;
    }
    ports.push(port);
  }
  return ports;
}

/** /dev/ttyS0.. without USB ids: the PC UARTs Linux always creates (or WSL 1's COM ports), noise in a list. */
function isLegacyUart(p: SerialPortInfo): boolean {
  return /^\/dev\/ttyS\d+$/.test(p.path) && !p.vendorId;
}

/**
 * The serial ports of this machine: { ports, uploaderPaths }. `ports` is what a person can choose
 * from; `uploaderPaths` the paths the espruino tool's own list would show (serialport's list minus
 * the ports the tool ignores), to say when a named port is not among them.
 */
export async function listSerialPorts({ platform = process.platform as string, env = process.env as Record<string, string | undefined> } = {}): Promise<PortListing> {
  let raw: SerialPortInfo[];
  let extra: SerialPortInfo[] = [];
  if (env.PET_SERIAL_LIST) raw = (JSON.parse(readFileSync(env.PET_SERIAL_LIST, "utf8")) as Record<string, unknown>[]).map(cleanPort);
  else {
    raw = await serialportList();
    if (platform === "linux") extra = sysfsPorts();
  }
  const byPath = new Map<string, SerialPortInfo>(raw.map((p) => [p.path, p]));
  for (const p of extra) byPath.set(p.path, { ...p, ...byPath.get(p.path) });
  const ports = [...byPath.values()].filter((p) => !(platform === "linux" && isLegacyUart(p)));
  // The tool's own filters (core/serial_node_serial.js and its SERIAL_IGNORE default).
  // /dev/ttyS* is in both (SERIAL_IGNORE on every platform), so one pattern covers them.
  const ignored = (path: string): boolean => /^\/dev\/ttyS|^\/dev\/.*\.(SOC|MALS)$/.test(path);
  return { ports, uploaderPaths: raw.map((p) => p.path).filter((path) => !ignored(path)) };
}

/** The ESP32 chip a port's USB ids name, or undefined. */
export function esp32Chip(p: SerialPortInfo): string | undefined {
  const id = ESP32_USB_IDS.find((i) => i.vendorId === p.vendorId && i.productId === p.productId);
  return id ? id.chip : undefined;
}

/** One line per port: path, ids, strings, and the chip when it is one ESP32 boards carry. */
export function describePort(p: SerialPortInfo): string {
  const parts = [p.path];
  if (p.vendorId || p.productId) parts.push((p.vendorId || "????") + ":" + (p.productId || "????"));
  const words = [p.manufacturer, p.product].filter(Boolean).join(" ");
  if (words) parts.push(words);
  if (p.serialNumber) parts.push("serial " + p.serialNumber);
  const chip = esp32Chip(p);
  if (chip) parts.push("[ESP32 board? " + chip + "]");
  return parts.join("  ");
}

export function formatPortList(ports: SerialPortInfo[]): string {
  if (ports.length === 0) return "  (no serial ports found)";
  return ports.map((p) => "  " + describePort(p)).join("\n");
}

/** Which kind of Linux this is, for the advice we give: "wsl1", "wsl2" or null. */
export function wslKind(readRelease: () => string = () => readText("/proc/sys/kernel/osrelease") || ""): Wsl {
  const r = readRelease();
  if (/microsoft-standard|WSL2/i.test(r)) return "wsl2";
  if (/Microsoft/.test(r)) return "wsl1";
  return null;
}

function choosingHelp(platform: string, wsl: Wsl): string {
  const lines = ["Name the port with --port P (`npm run upload -- --list` shows every port)."];
  if (wsl === "wsl1") lines.push("On WSL 1 the board's COM port N is /dev/ttySN: --port COM3 (or /dev/ttyS3); Windows' Device Manager shows the number under Ports (COM & LPT).");
  if (wsl === "wsl2") lines.push("On WSL 2 a USB board must be attached first: in Windows, `usbipd list` then `usbipd attach --wsl --busid <BUSID>`; it then appears as /dev/ttyUSB0 or /dev/ttyACM0.");
  if (platform === "linux" && !wsl) lines.push("Nothing at all? Check the cable carries data (many only charge) and `dmesg` after plugging in.");
  if (platform === "win32") lines.push("On Windows the port is COMn (Device Manager, Ports (COM & LPT)); CP210x and CH34x boards may need the vendor's driver.");
  if (platform === "darwin") lines.push("On macOS the port is /dev/cu.usbserial-* or /dev/cu.usbmodem*; CH34x boards on old macOS need WCH's driver.");
  return lines.join("\n");
}

/**
 * Without --port: the one port whose USB ids are an ESP32 board's. None or several is a PortError
 * listing what is there and how to choose.
 */
export function choosePort(ports: SerialPortInfo[], { platform = process.platform as string, wsl = null as Wsl } = {}): SerialPortInfo {
  const boards = ports.filter(esp32Chip);
  if (boards.length === 1) return boards[0] as SerialPortInfo;
  const head =
    boards.length === 0
      ? "no ESP32 board found: no USB serial device with the ids of the chips ESP32 boards carry (CP210x, CH34x, FTDI, ESP32-S3/C3 USB). Serial ports here:"
      : boards.length + " USB serial devices that could be ESP32 boards; choose one with --port. Serial ports here:";
  throw new PortError(head + "\n" + formatPortList(ports) + "\n" + choosingHelp(platform, wsl));
}

function groupName(gid: number): string {
  const line = (readText("/etc/group") || "").split("\n").find((l) => l.split(":")[2] === String(gid));
  return line ? (line.split(":")[0] as string) : "gid " + gid;
}

/**
 * A named port: the path to open, a note when we changed the name (COM3 on WSL 1, a bare ttyUSB0),
 * or a PortError when it is not there or not ours to open. `listPorts` is called only for errors.
 */
export async function checkNamedPort(
  name: string,
  { platform = process.platform as string, wsl = null as Wsl, listPorts = listSerialPorts as () => Promise<PortListing> } = {},
): Promise<{ path: string; note?: string }> {
  if (name.startsWith("tcp://")) return { path: name };
  const missing = async (why: string): Promise<PortError> => {
    const { ports } = await listPorts();
    return new PortError(why + ". Serial ports here:\n" + formatPortList(ports) + "\n" + choosingHelp(platform, wsl));
  };
  if (platform === "win32") {
    if (/^(\\\\\.\\)?COM\d+$/i.test(name)) return { path: name };
    throw await missing("no serial port " + JSON.stringify(name) + ": on Windows a serial port is named COMn");
  }
  let path = name;
  let note: string | undefined;
  const com = /^COM(\d+)$/i.exec(name);
  if (com && wsl === "wsl1") {
    path = "/dev/ttyS" + com[1];
    note = name + " is " + path + " under WSL 1";
  } else if (com) {
    throw await missing("no serial port " + JSON.stringify(name) + (wsl === "wsl2" ? ": WSL 2 cannot open Windows' COM ports" : ": COM names are Windows'"));
  } else if (!name.includes("/")) {
    path = "/dev/" + name;
    note = "using " + path + " for " + name;
  }
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch {
    throw await missing("no serial port " + JSON.stringify(path) + (path !== name ? " (for " + JSON.stringify(name) + ")" : "") + ": it does not exist");
  }
  if (!st.isCharacterDevice()) throw await missing(JSON.stringify(path) + " is not a serial port (not a character device)");
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
  } catch {
    const group = groupName(st.gid);
    // Joining the device's group helps only when the group may read and write it (dialout's can).
    if ((st.mode & 0o060) === 0o060 && st.gid !== 0) {
      throw new PortError("no permission to open " + path + ": it belongs to group " + group + ". Join it with `sudo usermod -aG " + group + " $USER`, then log out and back in.");
    }
    throw new PortError("no permission to open " + path + ": only its owner may (mode " + (st.mode & 0o777).toString(8) + ", group " + group + "); a udev rule giving it to group dialout with mode 660 is the usual fix.");
  }
  return note ? { path, note } : { path };
}

/**
 * The port to use for --port `named` (or null): { path, lines } where `lines` are what to tell the
 * person (which board was picked, that a named port is not in the uploader's list). PortError when
 * there is none.
 */
export async function resolveBoardPort(
  named: string | null | undefined,
  {
    platform = process.platform as string,
    wsl = (platform === "linux" ? wslKind() : null) as Wsl,
    listPorts = listSerialPorts as () => Promise<PortListing>,
  } = {},
): Promise<{ path: string; lines: string[] }> {
  if (named) {
    const r = await checkNamedPort(named, { platform, wsl, listPorts });
    const lines = r.note ? [r.note] : [];
    if (r.path.startsWith("tcp://")) return { path: r.path, lines };
    const { uploaderPaths } = await listPorts();
    let real = r.path;
    try {
      real = realpathSync(r.path);
    } catch {
      // Windows COM names have no file
    }
    // Windows does not care about the case of COM names, and neither does the tool.
    const same = (a: string, b: string): boolean => (platform === "win32" ? a.toLowerCase() === b.toLowerCase() : a === b);
    if (!uploaderPaths.some((u) => same(u, r.path) || same(u, real))) {
      lines.push("port " + r.path + " is not in the espruino tool's list of serial ports; using it as named");
    }
    return { path: r.path, lines };
  }
  const { ports } = await listPorts();
  const p = choosePort(ports, { platform, wsl });
  // The picked port gets the same checks as a named one: above all, that we may open it.
  await checkNamedPort(p.path, { platform, wsl, listPorts });
  return { path: p.path, lines: ["no --port given: using " + describePort(p) + ", the one ESP32 board plugged in"] };
}
