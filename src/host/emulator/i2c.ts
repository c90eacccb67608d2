/**
 * I2C1 as the firmware uses it: setup({scl, sda, bitrate}) then writeTo(address, data...). Every
 * transaction to the display's address goes to the SSD1306 model; a write to any other address
 * fails the way a missing device does on the board (an exception naming the address).
 */
import type { Ssd1306 } from "./ssd1306";

export interface I2COptions {
  scl?: unknown;
  sda?: unknown;
  bitrate?: number;
}

/**
 * Flattens writeTo's data arguments as Espruino does: numbers are bytes, arrays / typed arrays /
 * strings contribute their elements, and {data, count} repeats data count times.
 */
export function flattenI2CData(parts: unknown[]): number[] {
  const out: number[] = [];
  function add(v: unknown): void {
    if (typeof v === "number" || typeof v === "boolean") out.push(Number(v) & 0xff);
    else if (typeof v === "string") for (let i = 0; i < v.length; i++) out.push(v.charCodeAt(i) & 0xff);
    else if (v !== null && typeof v === "object") {
      const o = v as { data?: unknown; count?: unknown; length?: unknown };
      if (o.data !== undefined) {
        const count = typeof o.count === "number" ? o.count : 1;
        for (let k = 0; k < count; k++) add(o.data);
      } else if (typeof o.length === "number") {
        const a = v as ArrayLike<unknown>;
        for (let i = 0; i < a.length; i++) add(a[i]);
      } else if (Object.prototype.toString.call(v) === "[object ArrayBuffer]") add(new Uint8Array(v as ArrayBuffer));
    }
  }
  for (const p of parts) add(p);
  return out;
}

export interface SimI2C {
  setup(options?: I2COptions): void;
  writeTo(address: unknown, ...data: unknown[]): void;
  /** Transactions so far (tests). */
  transactions: number;
  /** Whether setup() was called (writeTo before setup fails, as on the board). */
  isSetUp: boolean;
}

export function createSimI2C(displayAddress: number, panel: Ssd1306): SimI2C {
  const bus: SimI2C = {
    transactions: 0,
    isSetUp: false,
    setup(): void {
      bus.isSetUp = true;
    },
    writeTo(address: unknown, ...data: unknown[]): void {
      if (!bus.isSetUp) throw new Error("I2C1 is not set up: call I2C1.setup() first");
      const addr = typeof address === "object" && address !== null ? Number((address as { address?: unknown }).address) : Number(address);
      if (addr !== displayAddress) throw new Error("I2C: no device answered at address 0x" + addr.toString(16));
      bus.transactions++;
      panel.receive(flattenI2CData(data));
    },
  };
  return bus;
}
