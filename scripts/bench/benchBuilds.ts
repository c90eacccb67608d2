/**
 * The bundles the bench's firmware sections run, built as the upload builds them and refused when the
 * bundle checks would refuse them (scripts/lib/bundleCheck.js), and the profiles it derives to build
 * them: the Linux interpreter's profile with the ESP32's panel, button and LED added, and the same
 * profile as a simulator's (which leaves the boot's region check out).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildFirmware, ROOT } from "../lib/build.js";
import { checkBundle, formatFindings } from "../lib/bundleCheck.js";
import { errorText, type Figures } from "./benchTables";
import { blockFormCode } from "../../src/boards/bundleForm";

const HERE = join(ROOT, "scripts", "bench");

/** The bundle of `entry` (default: the firmware's) for the profile `board`, Espruino-safe or an error (as built: the chip's session puts it in its form, bundleForm.ts). */
export async function checkedBundle(entry: string | undefined, board: string, defines?: Record<string, unknown>): Promise<string> {
  const built = await buildFirmware({ board, outFile: null, entry, ...(defines ? { defines } : {}) });
  const findings = checkBundle(built.code);
  if (findings.length > 0) throw new Error("bundle of " + (entry ?? "src/host/espruino/main.ts") + " is not Espruino-safe:\n" + formatFindings(built.code, findings));
  return built.code;
}

/**
 * The Linux profile with the ESP32 profile's display, button and LED added: the ESP32's bundle in
 * everything but its flash addresses, which the Linux build does not have (its $schema dropped: the
 * copy lives elsewhere).
 */
function withEsp32Hardware(linux: Record<string, unknown>): Record<string, unknown> {
  const esp32 = JSON.parse(readFileSync(join(ROOT, "boards", "esp32.json"), "utf8")) as { display: unknown; button: unknown; led: unknown };
  const copy: Record<string, unknown> = { ...linux, display: esp32.display, button: esp32.button, led: esp32.led };
  delete copy.$schema;
  return copy;
}

/** What the Linux interpreter's session runs, each as the upload sends it to that Espruino (the block form, pretokenised); the optional ones are null when they did not build (figures say why). */
export interface LinuxBuilds {
  firmware: string;
  probe: string | null;
  ticks: string | null;
  noRegionCheck: string | null;
  esp32Like: string | null;
}

/**
 * The bundles for the interpreter's profile `boardFile` (its JSON `board`), with the derived profiles
 * written into `work`. The probe, the tick entry and the two variants are optional: a failure is
 * noted in `figures` and their figures are skipped.
 */
export async function linuxBuilds(boardFile: string, board: Record<string, unknown>, work: string, figures: Figures): Promise<LinuxBuilds> {
  const optional = async (entry: string | undefined, key: string, profile: string, defines?: Record<string, unknown>): Promise<string | null> => {
    try {
      return blockFormCode(await checkedBundle(entry === undefined ? undefined : join(HERE, entry), profile, defines));
    } catch (e) {
      figures[key] = { skipped: errorText(e).split("\n")[0] };
      return null;
    }
  };
  const firmware = blockFormCode(await checkedBundle(undefined, boardFile));
  const probe = await optional("firmware-probe.ts", "probeBuild", boardFile);
  // The Linux profile has no panel, button or LED, so its bundle carries none of their code
  // (scripts/lib/build.js, buildDefines). The ticks (redraws) and a second boot figure use it with
  // the ESP32's SSD1306, button and LED added: the Linux build has I2C1, Graphics and pins, and its
  // I2C writes go nowhere.
  const esp32LikeBoard = join(work, "linux-with-esp32-hardware.json");
  writeFileSync(esp32LikeBoard, JSON.stringify(withEsp32Hardware(board)));
  const ticks = await optional("firmware-ticks.ts", "ticksBuild", esp32LikeBoard);
  // The same firmware without the boot's region check (BOARD_CHECKS_REGION false, which compiles the
  // check and its reading of process.env out: scripts/lib/build.js buildDefines), so that what the
  // check costs the boot is a difference of two boots. Only that define: the profile as a
  // simulator's (host desktop, as until 2026-12-06) also turned the device's codec views and byte
  // helpers off, and the difference took their cost for the check's.
  const noRegionCheck = await optional(undefined, "noRegionCheckBuild", boardFile, { BOARD_CHECKS_REGION: false });
  const esp32Like = await optional(undefined, "esp32LikeBuild", esp32LikeBoard);
  if (esp32Like !== null) figures.esp32LikeBundleBytes = esp32Like.length;
  return { firmware, probe, ticks, noRegionCheck, esp32Like };
}
