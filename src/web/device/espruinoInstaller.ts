/**
 * Step 1 of the Device tab, "Espruino on the board": the release picked or dropped as it comes (the
 * .tgz, unpacked here by releaseArchive.ts) or as its three files, checked (espruinoImages.ts); then,
 * on Install, esptool-js (esptoolSession.ts) connects to the chip and the page shows which chip it is,
 * its MAC and flash size, backs up the pet's region read straight from the flash, and asks before
 * writing. The images are written at 0x1000 / 0x8000 / 0x10000 with a progress bar and their MD5
 * checked, the board is reset, and the page goes on to connect and upload the pet. esptool's own log
 * is shown under the step. Every failure leaves the port closed, so Install can simply be pressed again.
 */
import type { LoadedProfile } from "../../inspect/regionReport";
import { backUpFirst } from "../backups/backupFirst";
import { byId, onFilesPicked } from "../dom";
import { checkEspruinoFiles, isImageOrTable, type FlashImage, type PickedFile } from "./espruinoImages";
import { connectEsp, NoDownloadMode, OtherChip, type EspSession } from "./esptoolSession";
import { releaseFiles } from "./releaseArchive";
import type { PortLike } from "./serialLink";

const LOG_LINES = 300;

export interface InstallerHooks {
  region: LoadedProfile;
  /** The port the person chose, or null (the hook has said why). */
  choosePort(): Promise<PortLike | null>;
  /** Lets go of the port if the console link holds it (esptool-js needs it to itself). */
  release(): Promise<void>;
  /** After a successful install and reset: connect to Espruino and upload the pet. */
  afterInstall(port: PortLike): Promise<void>;
}

export interface EspruinoInstaller {
  /** Files picked or dropped: a release .tgz, or its three files. */
  take(files: File[]): Promise<void>;
  /** No installing here (no Web Serial, or not a secure page): the controls are disabled, saying why. */
  disable(reason: string): void;
}

const hex = (n: number): string => "0x" + n.toString(16);

function flashBytes(size: string | null): number | null {
  const m = size === null ? null : /^(\d+)(KB|MB)$/.exec(size);
  return m ? Number(m[1]) * (m[2] === "MB" ? 1024 * 1024 : 1024) : null;
}

export function startEspruinoInstaller(h: InstallerHooks): EspruinoInstaller {
  const pick = byId("esp-files", HTMLInputElement);
  const erase = byId("esp-erase", HTMLInputElement);
  const install = byId("esp-install", HTMLButtonElement);
  const progress = byId("esp-progress", HTMLProgressElement);
  const out = byId("esp-result", HTMLPreElement);
  const logBox = byId("esp-log", HTMLPreElement);
  let images: FlashImage[] = [];
  let disabled = false;
  let writing = false;
  const show = (text: string, state: "ok" | "error" | "busy" | "done"): void => {
    out.textContent = text;
    out.classList.toggle("rejected", state === "error");
    out.dataset.state = state;
  };
  const log = (line: string): void => {
    if (logBox.parentElement) logBox.parentElement.hidden = false;
    logBox.textContent = (logBox.textContent + line + "\n").split("\n").slice(-LOG_LINES).join("\n");
    logBox.scrollTop = logBox.scrollHeight;
  };
  // The flash the profile needs: past the pet's region and Espruino's Storage.
  const p = h.region.profile;
  const needBytes = Math.max(p.petRegion.address + p.petRegion.size, p.storageArea ? p.storageArea.address + p.storageArea.size : 0);

  async function take(files: File[]): Promise<void> {
    if (disabled) return;
    let picked: PickedFile[] = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
    let from = "";
    const first = picked[0];
    // One file that is not an image or a table can only be meant as the release: say what it is.
    if (picked.length === 1 && first !== undefined && !isImageOrTable(first.bytes)) {
      try {
        const r = await releaseFiles(first);
        picked = r.files;
        from = r.note + "\n";
      } catch (e) {
        images = [];
        install.disabled = true;
        return show((e instanceof Error ? e.message : String(e)) + "\nNothing was written.", "error");
      }
    }
    const r = checkEspruinoFiles(picked, p.petRegion);
    images = r.images;
    install.disabled = images.length === 0 || writing;
    if (r.problems.length > 0) return show(from + "These files cannot be written:\n- " + r.problems.join("\n- ") + "\nNothing was written.", "error");
    show(from + "Ready to install:\n" + images.map((i) => "  " + hex(i.address).padEnd(8) + " " + i.name + " (" + i.role + ", " + i.bytes.length + " bytes)").join("\n"), "ok");
  }

  onFilesPicked(pick, (files) => void take(files));

  async function installOnce(port: PortLike): Promise<boolean> {
    progress.value = 0;
    show("Connecting to the ESP32's download mode (esptool's log is below)…", "busy");
    let s: EspSession;
    try {
      s = await connectEsp(port, log);
    } catch (e) {
      if (e instanceof OtherChip) {
        show("This chip is " + e.chip + ". Espruino's ESP32 release and the pet's boards/esp32.json are for the original ESP32 only. Nothing was written.", "error");
        return false;
      }
      const detail = e instanceof NoDownloadMode ? e.detail : e instanceof Error ? e.message : String(e);
      show(
        "Could not reach the ESP32's download mode (" + detail.split("\n")[0] + "). Nothing was written, and the port is closed again: " +
          "hold the BOOT button, press and let go of EN (or RST), let go of BOOT, and press Install Espruino again.",
        "error",
      );
      return false;
    }
    let wrote = false;
    try {
      const c = s.chip;
      const chipLine = c.description + ", MAC " + c.mac + ", flash " + (c.flashSize || "of unknown size") + " (writing at " + c.baud + " baud)";
      out.dataset.mac = c.mac;
      out.dataset.flash = c.flashSize || "";
      const have = flashBytes(c.flashSize);
      if (have !== null && have < needBytes) {
        show("Found " + chipLine + ".\nThe pet (boards/esp32.json) needs " + needBytes / 1048576 + " MB of flash: its region is at " + hex(p.petRegion.address) + ". Nothing was written.", "error");
        return false;
      }
      show("Found " + chipLine + ".\nReading the pet's region (" + hex(p.petRegion.address) + ", " + p.petRegion.size + " bytes) to keep a backup…", "busy");
      const region = await s.readFlash(p.petRegion.address, p.petRegion.size, (done, total) => (progress.value = Math.round((100 * done) / total)));
      const kept = await backUpFirst({ source: "board", board: h.region, reason: "before installing Espruino", image: region });
      const ask =
        "Install Espruino on this " + chipLine + "?\n" + (erase.checked ? "The whole flash is erased first. " : "") + kept;
      if (!confirm(ask)) {
        show("Found " + chipLine + ".\n" + kept + "\nNot written: you chose not to. Nothing was written.", "ok");
        return false;
      }
      show("Installing Espruino on the " + c.description + "…\n" + kept, "busy");
      wrote = true;
      progress.value = 0;
      await s.write(images, erase.checked, (done, total) => (progress.value = Math.round((100 * done) / total)));
      progress.value = 100;
      await s.resetIntoFirmware();
      show("Espruino installed, checked (MD5) and the board reset.\n" + kept + "\nConnecting to it to upload the pet…", "done");
      return true;
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      show(
        wrote
          ? "Installing Espruino failed: " + why + ". The board may hold a partial image now: install the files again before using it (the port is closed; press Install Espruino)."
          : "Stopped before writing: " + why + ". Nothing was written, and the port is closed again.",
        "error",
      );
      return false;
    } finally {
      await s.close();
    }
  }

  install.addEventListener("click", async () => {
    if (images.length === 0 || writing) return;
    const port = await h.choosePort();
    if (port === null) return show("No port chosen; nothing was written.", "error");
    writing = true;
    install.disabled = true;
    try {
      await h.release();
      if (await installOnce(port)) await h.afterInstall(port);
    } finally {
      writing = false;
      install.disabled = disabled || images.length === 0;
    }
  });

  return {
    take,
    disable(reason) {
      disabled = true;
      pick.disabled = true;
      erase.disabled = true;
      install.disabled = true;
      show(reason, "error");
    },
  };
}
