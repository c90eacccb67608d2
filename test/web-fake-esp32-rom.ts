/**
 * A stand-in for an ESP32 in its ROM's download mode, for the real esptool-js in the page to talk to
 * over the stand-in serial port (test/web-fake-serial.ts hands it the bytes once the chip booted with
 * IO0 low). It speaks the serial protocol esptool uses: SLIP frames, SYNC, register reads and writes
 * (the chip's magic value, the eFuse words behind the chip name and MAC, the SPI registers through
 * which the flash answers its ID), GET_SECURITY_INFO refused as the ESP32's ROM refuses it, the
 * flasher stub uploaded to RAM and answering "OHAI", the baud-rate change, and the stub's commands:
 * read flash, erase all, compressed writes (inflated with the browser's DecompressionStream) and the
 * MD5 of a flash range. A 4 MiB flash is kept in memory; what was read and written is recorded in
 * `window.__espRom.record` for the test.
 *
 * Bundled by the test with esbuild and injected before the page loads (it imports the page's MD5;
 * that MD5 is itself held to node:crypto by test/web-release-archive-and-md5.test.ts).
 */
import { md5Hex } from "../src/web/device/md5";

export interface RomPlan {
  /** The chip family to report: its magic value in the detection register (default ESP32). */
  chip?: "ESP32" | "ESP32-C3";
  /** The SPI flash's JEDEC ID; its third byte is the size (0x16: 4 MiB, 0x15: 2 MiB). */
  flashId?: number;
  /** The first download session that reaches this many compressed blocks fails every later one. */
  failAtBlock?: number;
}

export interface RomRecord {
  resets: number;
  stubStarted: number;
  bauds: number[];
  reads: { address: number; size: number }[];
  writes: { address: number; length: number; md5: string }[];
  eraseAll: number;
  failedBlocks: number;
}

const SLIP_END = 0xc0;
const SLIP_ESC = 0xdb;
const MAGIC = { ESP32: 0x00f01d83, "ESP32-C3": 0x6921506f };
const EFUSE = 0x3ff5a000;
const SPI = 0x3ff42000;
const SPI_CMD_USR = 1 << 18;

function slip(p: Uint8Array): Uint8Array {
  const out = [SLIP_END];
  for (const b of p) {
    if (b === SLIP_END) out.push(SLIP_ESC, 0xdc);
    else if (b === SLIP_ESC) out.push(SLIP_ESC, 0xdd);
    else out.push(b);
  }
  out.push(SLIP_END);
  return new Uint8Array(out);
}

const u32 = (b: Uint8Array, at: number): number => ((b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16) | ((b[at + 3] as number) << 24)) >>> 0;

async function inflate(parts: Uint8Array[]): Promise<Uint8Array> {
  const stream = new Blob(parts as BlobPart[]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export function installFakeRom(plan: RomPlan): void {
  const chip = plan.chip || "ESP32";
  const record: RomRecord = { resets: 0, stubStarted: 0, bauds: [], reads: [], writes: [], eraseAll: 0, failedBlocks: 0 };
  const flash = new Uint8Array(4 * 1024 * 1024).fill(0xff);
  const regs = new Map<number, number>([
    [0x40001000, MAGIC[chip]],
    // eFuse words: MAC 24:0a:c4:12:34:56, package ESP32-D0WD, revision 3.
    [EFUSE + 4 * 1, 0xc4123456],
    [EFUSE + 4 * 2, 0x0000240a],
    [EFUSE + 4 * 3, (1 << 9) | (1 << 15)],
    [EFUSE + 4 * 5, 1 << 20],
    [0x3ff66000 + 0x7c, 0x80000000],
    [0x3ff40014, 347], // UART clock divider: a 40 MHz crystal at 115200 baud
  ]);
  let stub = false;
  let blocksThisSession = 0;
  let failing = false;
  let failUsed = false;
  let pending: number[] | null = null; // a SLIP frame being received
  let escaped = false;
  let writing: { address: number; parts: Uint8Array[] } | null = null;

  const response = (op: number, val: number, data: number[]): Uint8Array => {
    const status = stub ? [0, 0] : [0, 0, 0, 0];
    const body = [...data, ...status];
    return slip(new Uint8Array([1, op, body.length & 0xff, body.length >> 8, val & 0xff, (val >>> 8) & 0xff, (val >>> 16) & 0xff, (val >>> 24) & 0xff, ...body]));
  };
  const failure = (op: number, error: number): Uint8Array => {
    const body = stub ? [1, error] : [1, error, 0, 0];
    return slip(new Uint8Array([1, op, body.length, 0, 0, 0, 0, 0, ...body]));
  };

  async function command(p: Uint8Array): Promise<Uint8Array[]> {
    if (p.length < 8 || p[0] !== 0) return []; // the host's acknowledgements while it reads flash
    const op = p[1] as number;
    const d = p.subarray(8);
    switch (op) {
      case 0x08: // SYNC: the ROM answers eight times, the stub once
        return stub ? [response(op, 0, [])] : Array.from({ length: 8 }, () => response(op, 0x20120707, []));
      case 0x0a: // READ_REG
        return [response(op, regs.get(u32(d, 0)) || 0, [])];
      case 0x09: {
        // WRITE_REG; SPI_CMD's USR bit runs the SPI command set up in USR2 (0x9f: read the JEDEC ID)
        const addr = u32(d, 0);
        const value = u32(d, 4);
        regs.set(addr, value);
        if (addr === SPI && (value & SPI_CMD_USR) !== 0) {
          if (((regs.get(SPI + 0x24) || 0) & 0xff) === 0x9f) regs.set(SPI + 0x80, plan.flashId === undefined ? 0x1640ef : plan.flashId);
          regs.set(SPI, value & ~SPI_CMD_USR);
        }
        return [response(op, 0, [])];
      }
      case 0x14: // GET_SECURITY_INFO: not in the ESP32's ROM, which answers "invalid message" eight times
        return Array.from({ length: 8 }, () => failure(0x00, 0x05));
      case 0x05: // MEM_BEGIN
      case 0x07: // MEM_DATA
      case 0x0d: // SPI_ATTACH
        return [response(op, 0, [])];
      case 0x06: // MEM_END: the stub starts and says hello
        stub = true;
        record.stubStarted++;
        return [response(op, 0, []), slip(new TextEncoder().encode("OHAI"))];
      case 0x0f: // CHANGE_BAUDRATE
        record.bauds.push(u32(d, 0));
        return [response(op, 0, [])];
      case 0xd2: {
        // READ_FLASH (stub): the data in packets of the given size, then the MD5 of it all
        const address = u32(d, 0);
        const size = u32(d, 4);
        const packet = u32(d, 8);
        record.reads.push({ address, size });
        const frames = [response(op, 0, [])];
        const data = flash.slice(address, address + size);
        for (let at = 0; at < size; at += packet) frames.push(slip(data.subarray(at, Math.min(size, at + packet))));
        const digest = md5Hex(data);
        frames.push(slip(new Uint8Array(digest.match(/../g)!.map((h) => parseInt(h, 16)))));
        return frames;
      }
      case 0xd0: // ERASE_FLASH
        flash.fill(0xff);
        record.eraseAll++;
        (window as unknown as { __espRom: { erasedAll: boolean } }).__espRom.erasedAll = true;
        return [response(op, 0, [])];
      case 0x10: // FLASH_DEFL_BEGIN: size, blocks, block size, offset
        writing = { address: u32(d, 12), parts: [] };
        return [response(op, 0, [])];
      case 0x11: {
        // FLASH_DEFL_DATA
        blocksThisSession++;
        if (plan.failAtBlock !== undefined && !failUsed && blocksThisSession >= plan.failAtBlock) failing = true;
        if (failing) {
          record.failedBlocks++;
          return [failure(op, 0xc1)];
        }
        const length = u32(d, 0);
        if (writing) writing.parts.push(new Uint8Array(d.subarray(16, 16 + length)));
        return [response(op, 0, [])];
      }
      case 0x12: {
        // FLASH_DEFL_END: the stub has written the inflated image by now
        if (writing) {
          const image = await inflate(writing.parts);
          flash.set(image, writing.address);
          record.writes.push({ address: writing.address, length: image.length, md5: md5Hex(image) });
          writing = null;
        }
        return [response(op, 0, [])];
      }
      case 0x13: {
        // SPI_FLASH_MD5: the stub answers the 16 bytes of the digest
        const address = u32(d, 0);
        const size = u32(d, 4);
        const digest = md5Hex(flash.subarray(address, address + size));
        return [response(op, 0, digest.match(/../g)!.map((h) => parseInt(h, 16)))];
      }
      default:
        return [failure(op, 0x05)];
    }
  }

  (window as unknown as { __espRom: unknown }).__espRom = {
    flash,
    record,
    erasedAll: false,
    reset() {
      record.resets++;
      stub = false;
      blocksThisSession = 0;
      if (failing) failUsed = true;
      failing = false;
      pending = null;
      writing = null;
    },
    async receive(bytes: Uint8Array): Promise<Uint8Array[]> {
      const out: Uint8Array[] = [];
      for (const b of bytes) {
        if (pending === null) {
          if (b === SLIP_END) pending = [];
          continue;
        }
        if (escaped) {
          pending.push(b === 0xdc ? SLIP_END : SLIP_ESC);
          escaped = false;
        } else if (b === SLIP_ESC) escaped = true;
        else if (b === SLIP_END) {
          const p = new Uint8Array(pending);
          pending = null;
          if (p.length > 0) out.push(...(await command(p)));
          else pending = []; // two ENDs in a row: the second starts a frame
        } else pending.push(b);
      }
      return out;
    },
  };
}
