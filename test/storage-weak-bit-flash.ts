/**
 * A small model of weakly programmed cells, which NorFlashSim does not have: a write cut by a power
 * failure whose bits all land but only weakly. The cells read exactly what was written (a mark reads
 * 0x00), yet decay back to what they held before unless a later completed write programs them again.
 * Tests use it to pin that the first save after a boot programs again the marks the boot relied on,
 * since reading them cannot tell a weak 0x00 from a solid one.
 */
import { StatusFlash, FlashStatus } from "../src/storage/flash";
import { NorFlashSim } from "../src/storage/norFlashSim";

export interface WeakBitFlash {
  flash: StatusFlash;
  /** The next write for which `match` is true lands completely but weakly, and power dies with it. */
  cutWeaklyAt(match: (data: Uint8Array, address: number) => boolean): void;
  /** Addresses of cells still weak (written weakly and not programmed again by a completed write). */
  weakCells(): number[];
  /** Time passes: every cell still weak reads its old value again. */
  decay(): void;
}

export function weakBitFlash(sim: NorFlashSim): WeakBitFlash {
  let armed: ((data: Uint8Array, address: number) => boolean) | null = null;
  /** address -> the value the cell held before its weak write */
  const weak: { [address: string]: number } = {};
  const flash: StatusFlash = {
    pageSize: sim.pageSize,
    read: (n, a) => sim.read(n, a),
    erasePage: (a) => {
      const s = sim.erasePage(a);
      if (s === "ok") {
        const page = a - ((a - sim.baseAddress) % sim.pageSize);
        for (const k of Object.keys(weak)) if (+k >= page && +k < page + sim.pageSize) delete weak[k];
      }
      return s;
    },
    write: (d, a): FlashStatus => {
      if (armed !== null && !sim.poweredOff && armed(d, a)) {
        armed = null;
        const before = sim.read(d.length, a).bytes!;
        const s = sim.write(d, a);
        if (s !== "ok") return s;
        for (let i = 0; i < d.length; i++) if (before[i] !== d[i]) weak[String(a + i)] = before[i]!;
        // Power dies in this write: the same write again, torn with nothing landing, turns the sim off.
        sim.cutPowerAfter({ afterMutations: 0, writeTear: "none" });
        return sim.write(d, a);
      }
      const s = sim.write(d, a);
      if (s === "ok") for (let i = 0; i < d.length; i++) delete weak[String(a + i)];
      return s;
    },
  };
  return {
    flash,
    cutWeaklyAt: (match) => (armed = match),
    weakCells: () => Object.keys(weak).map(Number),
    decay: () => {
      for (const k of Object.keys(weak)) sim.poke(+k, new Uint8Array([weak[k]!]));
      for (const k of Object.keys(weak)) delete weak[k];
    },
  };
}
