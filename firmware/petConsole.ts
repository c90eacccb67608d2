/**
 * The `pet` console object: what the owner can type (pet.status(), pet.hatch("Rex"), ...) and what
 * the button calls. Each method catches what it calls and prints one line, so nothing typed can stop
 * the pet; storage problems come back as status strings.
 */
import { createWorld } from "../src/core/world";
import { nameForDisplay, nameFromString, utf8Decode } from "../src/core/name";
import { bytesToHex, hexToBytes } from "../src/core/hex";
import { u64ToDecimal } from "../src/core/u64";
import type { World } from "../src/core/types";
import { loadWorld, saveWorld } from "../src/save/codec";
import { describeStatus } from "../src/save/status";
import { PAYLOAD_LENGTH } from "../src/save/layout";
import { payloadJson, type PayloadJson } from "../src/save/payloadJson";
import { errorText } from "./report";
import { wallNow, type RunningPet } from "./runningPet";
import { resumeSaving, saveAndReport, saveIfDue, saveStamp, SAVING_PAUSED } from "./saving";
import { advance } from "./loop";
import { refresh } from "./show";

/** The console object published as the global `pet`. Every method returns instead of throwing. */
export interface PetConsole {
  /** The keys and values `pet-save decode --json` prints for the live world; null if it cannot be built. */
  status(): PayloadJson | null;
  save(): string;
  interact(): string;
  rename(name: string): string;
  hatch(name?: string): string;
  exportHex(): string;
  importHex(hex: string): string;
}

/**
 * A name the owner typed, as bytes: through E.toUint8Array where the interpreter has it (see
 * env.ts; on the ESP32 a typed string is already UTF-8 bytes), else the Core's encoder.
 */
function typedName(s: RunningPet, name: unknown): Uint8Array | null {
  if (typeof name !== "string") return null;
  return s.env.utf8Bytes !== undefined ? nameFromString(name, s.env.utf8Bytes) : nameFromString(name);
}

/** The name as console text, the way typedName reads it in (pet.status().name). */
function nameText(s: RunningPet, bytes: Uint8Array): string {
  if (s.env.utf8Text !== undefined) {
    const text = s.env.utf8Text(bytes);
    if (typeof text === "string") return text;
  }
  return utf8Decode(bytes);
}

/**
 * The owner replaced the pet (hatch, import): the old pet's owed absence and stamp base no longer
 * apply, and saving resumes even if it was paused, since the unreadable save may now be replaced.
 */
function replacePet(s: RunningPet, world: World): void {
  s.world = world;
  s.owedAbsenceSince = 0;
  s.stampBase = 0;
  s.lastRefusal = ""; // a refusal of the old pet says nothing about the new one: print it again
  s.saves.dirty = true;
  resumeSaving(s);
}

function interact(s: RunningPet): string {
  const status = advance(s, "interact");
  if (status !== "ok") return status;
  s.saves.requested = "interact";
  if (!saveIfDue(s)) refresh(s, "");
  return "ok";
}

/** Replaces the world with a new pet and writes it at once. */
function hatch(s: RunningPet, name?: string): string {
  const bytes = name === undefined ? s.defaultName : typedName(s, name);
  if (bytes === null) return "bad-name";
  replacePet(s, createWorld(bytes) as World);
  return saveAndReport(s);
}

function rename(s: RunningPet, name: string): string {
  const bytes = typedName(s, name);
  if (bytes === null) return "bad-name";
  if (s.pausedReason !== "") {
    // The running pet is a stand-in; naming it would suggest it is kept. Hatch it with a name instead.
    s.print("not renamed: saving paused (" + s.pausedReason + "); pet.hatch(name) or pet.importHex() to start over");
    return SAVING_PAUSED;
  }
  s.world.name = bytes;
  s.saves.dirty = true;
  return saveAndReport(s);
}

function saveNow(s: RunningPet): string {
  advance(s);
  return saveAndReport(s);
}

function exportHex(s: RunningPet): string {
  const encoded = saveWorld(s.world, saveStamp(s));
  return encoded.bytes !== null ? bytesToHex(encoded.bytes) : encoded.status;
}

/**
 * The most characters importHex reads: a save is 168 hex digits, and this leaves room for any
 * spacing a paste adds. Longer text is refused before it is looked at, because on Espruino a string
 * is a chain of blocks and going through it character by character (charAt, a regex) costs time in
 * the square of its length, all of it with the pet's loop blocked. Measured on 2v29 (Linux build):
 * the whitespace regex took 1.5 s over 10 000 spaces and 5.9 s over 20 000; an import of 200 000 hex
 * digits took 40 s. Up to this limit an import costs under 50 ms.
 */
export const MAX_HEX_TEXT = 1024;

/**
 * The hex text without the spacing a paste may add: space, tab, CR and LF only. Named, not \s:
 * Espruino's \s does not match the Unicode spaces (U+00A0, U+2028, ...) that Node's does, and the
 * same text must get the same answer on the device and in the desktop tools.
 */
function withoutSpacing(hex: string): string {
  return hex.replace(/[ \t\r\n]+/g, "");
}

function importHex(s: RunningPet, hex: string): string {
  if (typeof hex === "string" && hex.length > MAX_HEX_TEXT) {
    s.print("import rejected: bad-length (" + hex.length + " characters; a save is " + 2 * PAYLOAD_LENGTH + " hex digits)");
    return "bad-length";
  }
  const bytes = typeof hex === "string" ? hexToBytes(withoutSpacing(hex)) : null;
  if (bytes === null) {
    s.print("import rejected: bad-hex (not an even number of hex digits)");
    return "bad-hex";
  }
  const loaded = loadWorld(bytes, wallNow(s));
  if (loaded.status !== "ok" || loaded.world === null) {
    s.print("import rejected: " + loaded.status + " (" + describeStatus(loaded.status) + ")");
    return loaded.status;
  }
  replacePet(s, loaded.world);
  s.print("imported " + nameForDisplay(s.world.name) + ", updates " + u64ToDecimal(s.world.updateCount));
  return saveAndReport(s);
}

/** The `pet` object over the running pet. */
export function createPetConsole(s: RunningPet): PetConsole {
  /** Runs a console method: a throw becomes a printed line and the status "error". */
  function guarded(what: string, fn: () => string): string {
    try {
      return fn();
    } catch (e) {
      s.print("pet." + what + " failed: " + errorText(e));
      return "error";
    }
  }

  return {
    status: function () {
      try {
        const json = payloadJson(s.world, s.savedAt);
        json.name = nameText(s, s.world.name);
        return json;
      } catch (e) {
        s.print("pet.status failed: " + errorText(e));
        return null;
      }
    },
    save: function () {
      return guarded("save", function () {
        return saveNow(s);
      });
    },
    interact: function () {
      return guarded("interact", function () {
        return interact(s);
      });
    },
    rename: function (name: string) {
      return guarded("rename", function () {
        return rename(s, name);
      });
    },
    hatch: function (name?: string) {
      return guarded("hatch", function () {
        return hatch(s, name);
      });
    },
    exportHex: function () {
      return guarded("exportHex", function () {
        return exportHex(s);
      });
    },
    importHex: function (hex: string) {
      return guarded("importHex", function () {
        return importHex(s, hex);
      });
    },
  };
}
