/**
 * The companion page: the Simulator (the firmware bundle for boards/web.json on a simulated board in
 * a sandboxed Worker), the Device tab (Web Serial: Espruino, then the bundle for boards/esp32.json,
 * then the live pet), the Backups kept in this browser, and "Check a file". The bundles and profiles are built
 * into this script (virtual:firmware, see scripts/lib/buildWeb.js): the page needs no server and no
 * network once loaded, and its service worker (offline.ts) keeps it for a reload without network.
 */
import { deviceBoard, deviceFirmware, simBoard } from "virtual:firmware";
import type { LoadedProfile } from "../inspect/regionReport";
import { createAnnouncer } from "./announcer";
import { backUpFirst } from "./backups/backupFirst";
import { regionSummary } from "./backups/regionSummary";
import { startBackupsTab } from "./backups/backupsTab";
import { startDeviceTab } from "./device/deviceTab";
import { byId, showPicked } from "./dom";
import { wireDrops } from "./drops";
import { startCheckFileTab } from "./checkFile/checkFileTab";
import { keepPageOffline } from "./offline";
import { putImage, wireSimBackup } from "./sim/simBackup";
import { startSimulatorTab } from "./sim/simulatorTab";
import { startTabs } from "./tabs";

const simRegion: LoadedProfile = { file: "boards/web.json", profile: simBoard };
const deviceRegion: LoadedProfile = { file: "boards/esp32.json", profile: deviceBoard };

const tabs = startTabs();
const announcer = createAnnouncer(byId("announcer", HTMLParagraphElement));
const files = startCheckFileTab([simRegion, deviceRegion]);

const simBackUp = async (reason: string): Promise<string> => backUpFirst({ source: "simulator", board: simRegion, reason, image: await sim.image() });
const sim = startSimulatorTab(simRegion, announcer, simBackUp);
wireSimBackup(sim, simBackUp);

/** A region image into the simulator, from the board or a backup: the sentence that says how it went. */
async function intoSimulator(bytes: Uint8Array, name: string): Promise<string> {
  let said = "";
  await putImage(sim, bytes, name, simBackUp, (text) => (said = text));
  return said;
}

const device = startDeviceTab(deviceFirmware, deviceRegion, {
  say: announcer,
  simulator: { putImage: intoSimulator, exportHex: async () => String(await sim.call("exportHex")) },
  changed: () => backups.refresh(),
});

const backups = startBackupsTab(() => {
  const toBoard = device.toBoard();
  const simOn = sim.running();
  const named = (at: number): string => "the backup of " + new Date(at).toLocaleString();
  return {
    petName: (b) => regionSummary(b.bytes, b.boardFile === deviceRegion.file ? deviceRegion : simRegion).name,
    show(b) {
      files.show(b.bytes, "backup of " + new Date(b.at).toLocaleString() + " (" + b.reason + ")");
      tabs.select("tab-files");
    },
    toSimulator: simOn ? (b) => intoSimulator(b.bytes, named(b.at)) : null,
    toBoard: toBoard === null ? null : (b) => toBoard(b.bytes, named(b.at)),
  };
});

sim.onRunning((on) => {
  device.simulatorRunning(on);
  backups.refresh();
});

wireDrops(
  byId("drop-hint", HTMLDivElement),
  (dropped) => {
    tabs.select("tab-device");
    showPicked(byId("esp-files", HTMLInputElement), dropped);
    void device.espruino.take(dropped);
  },
  (dropped) => {
    tabs.select("tab-files");
    showPicked(byId("files-pick", HTMLInputElement), dropped);
    void files.check(dropped);
  },
);

keepPageOffline();
