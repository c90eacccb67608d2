/**
 * Board profile: everything the firmware needs to know about one board, as plain data.
 *
 * A profile is a JSON file in boards/ (validated against boards/schema.json). The build picks one
 * (env BOARD), checks it with checkBoardProfile and hands it to the firmware as the default export of
 * the virtual module "virtual:board-profile" (BundledProfile below).
 *
 * The board's shape is declared here, once, as BoardProfile: every other shape of a board in the
 * project is picked from it (the firmware's PetBoard is BundledProfile, the emulator's HostBoard, the
 * region tools' LoadedProfile, the build's and the bench's). boards/schema.json says the same for
 * the files and their editors; test/boards-profiles-match-schema.test.ts holds the two together, key
 * by key at every level. checkBoardProfile adds the checks JSON Schema cannot express (alignment,
 * overlap with Storage).
 *
 * Plain ES5-safe code: it may be bundled into the firmware.
 */

import { nameFromString } from "../core/name";
import type { RegionLayout } from "../storage/regionLayout";

/** A byte range of flash, absolute addresses. */
export interface FlashRange {
  address: number;
  size: number;
}

/** The reserved flash region the pet's save log lives in. */
export interface PetRegion extends FlashRange {
  /** Erase unit of the flash there (what Flash.erasePage erases): 4096 on ESP32, 1024 on Linux. */
  pageSize: number;
}

export interface ButtonProfile {
  /** Espruino pin name, e.g. "D0" (the ESP32 BOOT button). */
  pin: string;
  /** True when pressing pulls the pin low. */
  activeLow: boolean;
}

export interface LedProfile {
  pin: string;
}

export interface I2CProfile {
  scl: string;
  sda: string;
  /** Bus speed in Hz. */
  bitrate: number;
}

export interface DisplayProfile {
  driver: "ssd1306-i2c";
  width: number;
  height: number;
  /** 7-bit I2C address, usually 0x3C. */
  address: number;
  i2c: I2CProfile;
}

/**
 * Which Espruino a device profile is for, as the board itself reports it at its console (read by
 * src/boards/boardFit.ts before anything is uploaded or written).
 */
export interface EspruinoProfile {
  /** process.env.BOARD of the builds the profile fits, e.g. "ESP32". */
  board: string;
  /** The oldest process.env.VERSION it fits, e.g. "2v06" (the flash partition the pet region is came with it). */
  minVersion: string;
  /**
   * process.env.STORAGE on the builds the profile fits: Storage's size in bytes as each reports it,
   * every one a Storage that starts at storageArea.address and lies inside storageArea (on the ESP32:
   * 256 KiB up to 2v25, 896 KiB from 2v26, both at 0x320000). Absent means [storageArea.size]. The
   * board reports Storage's size but not its address, so a size the profile does not list is a
   * Storage laid out in a way the profile does not know, and is refused (boardFit.ts). A size larger
   * than storageArea.size appears only where Storage nominally spans more than the part the profile
   * gives it (the stock Linux build, whose Storage covers its whole flash file and fills from the bottom).
   */
  storageSizes?: number[];
}

/** Where the profile is meant to run: real Espruino (ESP32, Linux build) or the desktop simulator. */
export type BoardHost = "espruino" | "desktop";

/** What every profile has, whatever it runs on. */
export interface BoardProfileCommon {
  /** Optional pointer to the schema, for editors; ignored by the code. */
  $schema?: string;
  name: string;
  petRegion: PetRegion;
  button?: ButtonProfile;
  led?: LedProfile;
  display?: DisplayProfile;
  /** Name given to a pet hatched without one. */
  defaultPetName?: string;
  /** Free text: why the numbers are what they are. */
  notes?: string;
}

/**
 * A profile for real Espruino (ESP32, the Linux build). storageArea is required: the flash there is
 * shared with Storage (saved code, .bootcde), and without its bounds nothing could tell that the pet
 * region sits inside it, where a save would overwrite the saved program (and Storage's compaction
 * would erase the pet).
 */
export interface DeviceBoardProfile extends BoardProfileCommon {
  /** Absent means "espruino". */
  host?: "espruino";
  /** Flash used by Espruino's Storage; the pet region must stay outside it. */
  storageArea: FlashRange;
  /** The board and Espruino versions this profile fits, and the Storage size they report. */
  espruino: EspruinoProfile;
}

/** A profile for the desktop simulator, whose region is a file of its own: there is no Storage to avoid. */
export interface DesktopBoardProfile extends BoardProfileCommon {
  host: "desktop";
  /** Optional here; checked against the region like on a device when given. */
  storageArea?: FlashRange;
  /** Not used by the desktop host; checked like on a device when given. */
  espruino?: EspruinoProfile;
}

export type BoardProfile = DeviceBoardProfile | DesktopBoardProfile;

/**
 * The profile as the firmware bundle carries it (the default export of "virtual:board-profile";
 * firmware/board.ts calls it PetBoard): the keys the firmware reads, as the profile declares them,
 * plus what the build derives from the profile for the device (scripts/lib/build.js), so that the
 * device does not derive it at every boot. Every other key (the name, the host, Storage's area, the
 * notes) serves the build, the upload or the reader of the file, and on the device would only hold
 * RAM. test/bundle-firmware-espruino-safe.test.ts holds the build's list of keys to this type.
 */
export type BundledProfile = Pick<BoardProfileCommon, "petRegion" | "button" | "led" | "display" | "defaultPetName"> & {
  /** The slot log's layout for petRegion, as layoutForRegion derives it (one log sector per page); deviceLayout in the build. */
  petLayout: RegionLayout;
  /**
   * The Storage sizes (process.env.STORAGE) the board may report, for a profile that runs on
   * Espruino (expectedStorageSizes below; deviceStorageCheck in the build). When present, the boot
   * checks the region against what the board reports (regionFit.ts) before any flash access. The
   * simulators' profiles have none.
   */
  storageSizes?: number[];
  /** defaultPetName as UTF-8 bytes, in place of the text (deviceName in the build). */
  defaultPetNameBytes?: number[];
};

/**
 * The Storage sizes (process.env.STORAGE) a board may report for the profile's storageArea to be
 * trusted: espruino.storageSizes, else [storageArea.size]. The one rule for it: the build embeds it
 * for the firmware's check at boot (scripts/lib/build.js deviceStorageCheck), and boardFit.ts judges
 * a board by it for the upload, board-check and the page.
 */
export function expectedStorageSizes(profile: DeviceBoardProfile): number[] {
  const sizes = profile.espruino.storageSizes;
  return sizes instanceof Array && sizes.length > 0 ? sizes.slice() : [profile.storageArea.size];
}

/** Highest flash address + 1 we accept (32-bit address space). */
const ADDRESS_LIMIT = 4294967296;
const PIN_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;
/** process.env.BOARD values look like ESP32, PICO_R1_3, LINUX_ESP32. */
const BOARD_ID_PATTERN = /^[A-Za-z0-9_]+$/;
/** An Espruino release as process.env.VERSION names it: 2v26 (a later build may add ".N"). */
const VERSION_PATTERN = /^\d+v\d+$/;
/** Every key a profile may have; the schema lists the same ones (test/boards-profiles-match-schema.test.ts). */
export const BOARD_PROFILE_KEYS = [
  "$schema",
  "name",
  "host",
  "petRegion",
  "storageArea",
  "espruino",
  "button",
  "led",
  "display",
  "defaultPetName",
  "notes",
];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !(v instanceof Array);
}

function isWhole(v: unknown): v is number {
  return typeof v === "number" && v >= 0 && Math.floor(v) === v && v < ADDRESS_LIMIT;
}

function hex(n: number): string {
  return "0x" + n.toString(16).toUpperCase();
}

function checkRange(where: string, v: unknown, problems: string[]): boolean {
  if (!isObject(v)) {
    problems.push(where + " must be an object with address and size");
    return false;
  }
  let ok = true;
  if (!isWhole(v["address"])) {
    problems.push(where + ".address must be a whole number of bytes below 2^32");
    ok = false;
  }
  if (!isWhole(v["size"]) || v["size"] === 0) {
    problems.push(where + ".size must be a positive whole number of bytes");
    ok = false;
  }
  if (ok && (v["address"] as number) + (v["size"] as number) > ADDRESS_LIMIT) {
    problems.push(where + " runs past the end of the 32-bit address space");
    ok = false;
  }
  return ok;
}

function checkPin(where: string, v: unknown, problems: string[]): void {
  if (typeof v !== "string" || !PIN_PATTERN.test(v)) {
    problems.push(where + " must be an Espruino pin name such as \"D0\"");
  }
}

function checkPetRegion(v: unknown, problems: string[]): void {
  if (!checkRange("petRegion", v, problems)) return;
  const r = v as unknown as PetRegion;
  const page = r.pageSize;
  if (!isWhole(page) || page < 64 || (page & (page - 1)) !== 0) {
    problems.push("petRegion.pageSize must be a power of two, at least 64 bytes");
    return;
  }
  if (r.address % page !== 0) {
    problems.push("petRegion.address " + hex(r.address) + " is not aligned to the page size " + page);
  }
  if (r.size % page !== 0) {
    problems.push("petRegion.size " + r.size + " is not a whole number of " + page + "-byte pages");
  }
  if (r.size < 2 * page) {
    problems.push("petRegion must hold at least two pages (one is erased while the other keeps the newest save)");
  }
}

function overlaps(a: FlashRange, b: FlashRange): boolean {
  return a.address < b.address + b.size && b.address < a.address + a.size;
}

function checkEspruino(v: unknown, problems: string[]): void {
  if (!isObject(v)) {
    problems.push("espruino must be an object with board and minVersion");
    return;
  }
  if (typeof v["board"] !== "string" || !BOARD_ID_PATTERN.test(v["board"])) {
    problems.push("espruino.board must be an Espruino board id as process.env.BOARD reports it, such as \"ESP32\"");
  }
  if (typeof v["minVersion"] !== "string" || !VERSION_PATTERN.test(v["minVersion"])) {
    problems.push("espruino.minVersion must be an Espruino version such as \"2v26\"");
  }
  const sizes = v["storageSizes"];
  if (sizes === undefined) return;
  if (!(sizes instanceof Array) || sizes.length === 0 || !sizes.every((s) => isWhole(s) && s !== 0)) {
    problems.push("espruino.storageSizes must be a list of positive whole numbers of bytes (process.env.STORAGE as each build reports it)");
  } else if (sizes.some((s, i) => sizes.indexOf(s) !== i)) {
    problems.push("espruino.storageSizes names a size twice");
  }
}

function checkDisplay(v: unknown, problems: string[]): void {
  if (!isObject(v)) {
    problems.push("display must be an object");
    return;
  }
  if (v["driver"] !== "ssd1306-i2c") problems.push("display.driver must be \"ssd1306-i2c\"");
  if (!isWhole(v["width"]) || v["width"] === 0 || v["width"] > 256) {
    problems.push("display.width must be a whole number from 1 to 256");
  }
  if (!isWhole(v["height"]) || v["height"] === 0 || v["height"] > 256 || v["height"] % 8 !== 0) {
    problems.push("display.height must be a multiple of 8 from 8 to 256");
  }
  if (!isWhole(v["address"]) || v["address"] > 0x7f) {
    problems.push("display.address must be a 7-bit I2C address (0..0x7F)");
  }
  const i2c = v["i2c"];
  if (!isObject(i2c)) {
    problems.push("display.i2c must be an object with scl, sda and bitrate");
    return;
  }
  checkPin("display.i2c.scl", i2c["scl"], problems);
  checkPin("display.i2c.sda", i2c["sda"], problems);
  if (!isWhole(i2c["bitrate"]) || i2c["bitrate"] === 0 || i2c["bitrate"] > 3400000) {
    problems.push("display.i2c.bitrate must be a whole number of Hz from 1 to 3400000");
  }
}

/**
 * Lists what is wrong with a board profile, one sentence per problem; an empty list means usable.
 * Takes `unknown` so it can check a freshly parsed JSON file as well as a typed object.
 */
export function checkBoardProfile(p: unknown): string[] {
  const problems: string[] = [];
  if (!isObject(p)) return ["a board profile must be a JSON object"];
  for (const key in p) {
    if (BOARD_PROFILE_KEYS.indexOf(key) < 0) problems.push("unknown key \"" + key + "\"");
  }
  if (typeof p["name"] !== "string" || p["name"].length === 0) {
    problems.push("name must be a non-empty string");
  }
  if (p["host"] !== undefined && p["host"] !== "espruino" && p["host"] !== "desktop") {
    problems.push("host must be \"espruino\" or \"desktop\"");
  }
  if (p["petRegion"] === undefined) problems.push("petRegion is required");
  else checkPetRegion(p["petRegion"], problems);
  if (p["storageArea"] === undefined) {
    if (p["host"] !== "desktop") {
      problems.push(
        "storageArea is required for a profile that runs on Espruino (host \"espruino\", the default): " +
          "without Storage's address and size nothing checks that petRegion stays outside it",
      );
    }
  } else if (checkRange("storageArea", p["storageArea"], problems)) {
    const storage = p["storageArea"] as unknown as FlashRange;
    const region = p["petRegion"];
    if (isObject(region) && isWhole(region["address"]) && isWhole(region["size"])) {
      const r = region as unknown as FlashRange;
      if (overlaps(r, storage)) {
        problems.push(
          "petRegion " + hex(r.address) + ".." + hex(r.address + r.size - 1) +
            " overlaps the Storage area " + hex(storage.address) + ".." + hex(storage.address + storage.size - 1),
        );
      }
    }
  }
  if (p["espruino"] === undefined) {
    if (p["host"] !== "desktop") {
      problems.push(
        "espruino is required for a profile that runs on Espruino: the board id (process.env.BOARD) and the oldest version it fits, " +
          "which the upload, board-check and the firmware compare with what the board reports",
      );
    }
  } else checkEspruino(p["espruino"], problems);
  const button = p["button"];
  if (button !== undefined) {
    if (!isObject(button)) problems.push("button must be an object with pin and activeLow");
    else {
      checkPin("button.pin", button["pin"], problems);
      if (typeof button["activeLow"] !== "boolean") problems.push("button.activeLow must be true or false");
    }
  }
  const led = p["led"];
  if (led !== undefined) {
    if (!isObject(led)) problems.push("led must be an object with pin");
    else checkPin("led.pin", led["pin"], problems);
  }
  if (p["display"] !== undefined) checkDisplay(p["display"], problems);
  const petName = p["defaultPetName"];
  if (petName !== undefined && (typeof petName !== "string" || nameFromString(petName) === null)) {
    problems.push("defaultPetName must be a valid pet name (1 to 31 bytes of UTF-8)");
  }
  if (p["notes"] !== undefined && typeof p["notes"] !== "string") problems.push("notes must be a string");
  return problems;
}
