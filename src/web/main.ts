/**
 * The companion page: the Simulator (the firmware bundle for boards/web.json running here), the
 * Device tab (Web Serial: upload the bundle for boards/esp32.json, then watch and back up the pet)
 * and "Check a file". The bundles and profiles are built into this script (virtual:firmware, see
 * scripts/lib/buildWeb.js): the page needs no server and no network once loaded.
 */
import { simFirmware, simBoard, deviceFirmware, deviceBoard } from "virtual:firmware";
import { startTabs } from "./tabs";
import { startSimulatorTab } from "./sim/simulatorTab";
import { startFilesTab } from "./files/filesTab";
import { startDeviceTab } from "./device/deviceTab";

const tabs = startTabs();
startFilesTab(
  [
    { file: "boards/web.json", profile: simBoard },
    { file: "boards/esp32.json", profile: deviceBoard },
  ],
  () => tabs.select("tab-files"),
);
startDeviceTab(deviceFirmware, deviceBoard);
startSimulatorTab(simFirmware, simBoard).then(
  () => document.body.setAttribute("data-sim", "running"),
  (e: unknown) => {
    document.body.setAttribute("data-sim", "failed");
    const status = document.getElementById("sim-status");
    if (status) status.textContent = "The simulator did not start: " + (e instanceof Error ? e.message : String(e));
  },
);
