/**
 * The fields of the board profile (src/boards/boardProfile.ts, chosen at build time) that the firmware
 * reads. Declared here as a structural subset so the firmware and its tests do not depend on how
 * the profile is validated or built: any BoardProfile is a PetBoard.
 */
import type { PinId } from "../src/platform/env";
import type { RegionLayout } from "../src/storage/regionLayout";

export interface PetBoard {
  /** The reserved flash region holding the slot log: absolute address, size, erase page size. */
  petRegion: { address: number; size: number; pageSize: number };
  /**
   * The slot log's layout for petRegion, as computeLayout derives it (one log sector per page). Not
   * in the profile files: the build adds it (scripts/lib/build.js, deviceLayout), so the device
   * neither derives it at every boot nor carries the code that would; tests add it themselves.
   */
  petLayout: RegionLayout;
  /** A push button; activeLow (the default) means pressed reads 0, like the ESP32's BOOT (D0). */
  button?: { pin: PinId; activeLow?: boolean };
  /** A LED driven high to light (the ESP32 DevKit's D2). */
  led?: { pin: PinId };
  display?: {
    driver: string;
    width: number;
    height: number;
    i2c: { scl: PinId; sda: PinId; bitrate?: number };
    address: number;
  };
  /**
   * The Storage size (process.env.STORAGE) the board must report. Not in the profile files: the build
   * adds it for a profile that runs on Espruino (scripts/lib/build.js, deviceStorageCheck, from the
   * profile's espruino.storageSize or storageArea.size). When present, the boot checks the region
   * against what the board reports (src/boards/regionFit.ts) before any flash access, and runs the
   * pet without saving when it does not fit. The desktop and web simulators' profiles have none.
   */
  storageSize?: number;
  /** The name a new pet gets (pet.hatch(), a long press, a first boot). */
  defaultPetName?: string;
  /**
   * defaultPetName as UTF-8 bytes. Not in the profile files: the build adds it in place of the text
   * (scripts/lib/build.js, deviceName), so the device does not encode the name at every boot. The
   * firmware takes these bytes when they make a valid name, and the text otherwise.
   */
  defaultPetNameBytes?: number[];
}
