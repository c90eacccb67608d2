/**
 * The simulated board's flash chip: the storage layer's NorFlashSim (NOR rules: erase to 0xFF, a
 * write only clears bits, writes padded to words as on the ESP32) over the pet's region, in the
 * board's memory. The board cannot reach IndexedDB from its sandbox, so after every burst of writes
 * it hands the page a copy of the whole region (`handOver`), and the page keeps the copies in order
 * (../regionKeeper.ts): what the browser holds is always the region as it was after some prefix of
 * the firmware's flash operations. Closing the tab, or the watchdog's reset, is then exactly a power
 * cut: a burst not yet handed over is lost, as it would be on a board.
 */
import { NorFlashSim } from "../../../storage/norFlashSim";

export interface BoardFlash {
  flash: NorFlashSim;
  /** Hands over at once a burst still waiting for its turn (the page asked to settle). */
  flush(): void;
}

export function createBoardFlash(region: { size: number; pageSize: number }, image: Uint8Array | null, handOver: (bytes: Uint8Array) => void): BoardFlash {
  let timer: ReturnType<typeof setTimeout> | null = null;
  function send(): void {
    timer = null;
    handOver(flash.image());
  }
  // One copy per burst of writes (a save is several): the state after the burst is still a prefix.
  const schedule = (): void => {
    if (timer === null) timer = setTimeout(send, 0);
  };
  const flash = new NorFlashSim({
    size: region.size,
    pageSize: region.pageSize,
    initial: image !== null && image.length === region.size ? image : undefined,
    wordPadded: true,
    onChange: schedule,
  });
  return {
    flash,
    flush() {
      if (timer === null) return;
      clearTimeout(timer);
      send();
    },
  };
}
