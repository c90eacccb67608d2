/**
 * "A bare ESP32? Put Espruino on it first": the three release files are checked (espruinoImages.ts),
 * then written with esptool-js (esptoolFlasher.ts) at 0x1000 / 0x8000 / 0x10000 with a progress bar;
 * the board is reset and the page goes on to connect and upload the pet. Nothing is written unless
 * every check passed and the chip is an ESP32.
 */
import { byId } from "../dom";
import { checkEspruinoFiles, type FlashImage } from "./espruinoImages";
import { flasherFactory } from "./esptoolFlasher";
import type { PortLike } from "./serialLink";

/** Espruino needs a moment after the reset before its console answers. */
const BOOT_WAIT_MS = 2500;

export interface WriterHooks {
  petRegion: { address: number; size: number };
  requestPort(): Promise<PortLike>;
  /** Lets go of the port if the console link holds it (esptool-js needs it to itself). */
  release(): Promise<void>;
  /** After a successful write and reset: connect to Espruino and upload the pet. */
  afterWrite(port: PortLike): Promise<void>;
}

const hex = (n: number): string => "0x" + n.toString(16);

export function startEspruinoWriter(h: WriterHooks): void {
  const pick = byId("esp-files", HTMLInputElement);
  const erase = byId("esp-erase", HTMLInputElement);
  const write = byId("esp-write", HTMLButtonElement);
  const progress = byId("esp-progress", HTMLProgressElement);
  const out = byId("esp-result", HTMLPreElement);
  let images: FlashImage[] = [];
  const show = (text: string, state: "ok" | "error" | "busy" | "done"): void => {
    out.textContent = text;
    out.classList.toggle("rejected", state === "error");
    out.dataset.state = state;
  };

  pick.addEventListener("change", async () => {
    const files = await Promise.all(Array.from(pick.files || []).map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
    const r = checkEspruinoFiles(files, h.petRegion);
    images = r.images;
    write.disabled = images.length === 0;
    if (r.problems.length > 0) return show("These files cannot be written:\n- " + r.problems.join("\n- ") + "\nNothing was written.", "error");
    show("Ready to write:\n" + images.map((i) => "  " + hex(i.address).padEnd(8) + " " + i.name + " (" + i.role + ", " + i.bytes.length + " bytes)").join("\n"), "ok");
  });

  write.addEventListener("click", async () => {
    if (images.length === 0) return;
    let port: PortLike;
    try {
      port = await h.requestPort();
    } catch {
      return show("No port chosen; nothing was written.", "error");
    }
    write.disabled = true;
    await h.release();
    progress.value = 0;
    const flasher = flasherFactory()(port);
    let wrote = false;
    try {
      show("Connecting to the ESP32's download mode…", "busy");
      const chip = await flasher.connect();
      if (chip !== "ESP32") {
        throw new Error("this chip is " + chip + ". Espruino's ESP32 release and the pet's boards/esp32.json are for the original ESP32 only; nothing was written");
      }
      show("Writing Espruino to the " + chip + "…", "busy");
      wrote = true;
      await flasher.write(images, erase.checked, (done, total) => {
        progress.value = Math.round((100 * done) / total);
      });
      progress.value = 100;
      await flasher.finish();
    } catch (e) {
      write.disabled = false;
      const why = e instanceof Error ? e.message : String(e);
      return show(
        (wrote
          ? "Writing Espruino failed: " + why + ". The board may hold a partial image now: write the three files again before using it."
          : "Could not start: " + why + ". If the board did not enter its download mode, hold BOOT, press EN, let go of BOOT and try again."),
        "error",
      );
    }
    show("Espruino written and the board reset. Connecting to it to upload the pet…", "done");
    await new Promise((r) => setTimeout(r, BOOT_WAIT_MS));
    write.disabled = false;
    await h.afterWrite(port);
  });
}
