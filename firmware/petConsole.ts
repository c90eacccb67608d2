/**
 * The `pet` console object: what the owner can type (pet.status(), pet.hatch("Rex"), ...) and what
 * the button calls. Each method catches what it calls and prints one line, so nothing typed can stop
 * the pet; storage problems come back as status strings.
 *
 * Names ending in "_" are names the build shortens: terser renames every property whose name ends
 * in "_" to one or two characters (scripts/lib/build.js, TERSER_OPTIONS), because the interpreter
 * reads every character of a name each time a path uses it. The "_" does not mean private: other
 * files of the bundle use such members (petConsole.ts and app.ts call RunningPet's). It means the
 * name never leaves the bundle: nothing outside it (the `pet` console object, pet.status(), a board
 * profile, the flash) holds or reads a name that ends in "_".
 */
import { nameFromString, utf8Decode } from "../src/core/name";
import { bytesToHex, hexToBytes } from "../src/core/hex";
import { loadWorld } from "../src/save/codec";
import { PAYLOAD_LENGTH } from "../src/save/layout";
import { payloadJson, type PayloadJson } from "../src/save/payloadJson";
import { u64Compare } from "../src/core/u64";
import { errorText } from "./report";
import type { RunningPet } from "./runningPet";

/**
 * pet.status(): the keys and values `pet-save decode --json` prints for the live world, then
 * `storage`: "ok", "paused" (a save is there but cannot be read: nothing is written until it can be
 * or the owner starts over), "no-storage" (the region could not be opened), or the region check's
 * code when the region does not fit the board ("region-not-free", "region-outside-chip",
 * "region-in-storage"): nothing is ever written then.
 */
export type PetStatus = PayloadJson & { storage: string };

/** The console object published as the global `pet`. Every method returns instead of throwing, but tick. */
export interface PetConsole {
  /** The live world as `pet-save decode --json` prints it, and whether it is being saved; null if it cannot be built. */
  status(): PetStatus | null;
  save(): string;
  interact(): string;
  rename(name: string): string;
  hatch(name?: string): string;
  exportHex(): string;
  importHex(hex: string): string;
  /**
   * Reads the newest save back exactly as a boot would (the slot log, the checks, the decode at the
   * wall clock) without changing anything, and says whether it is the running pet: "ok" (the same
   * pet, as saved at most as many updates ago), "other-pet" (another name, or more updates than the
   * running pet has: not what runs here), the reason there is no save ("empty", "no-valid-save",
   * "read-failed", ...), or why there is no store. Also what board-check times as "a restore".
   */
  checkSave(): string;
  /** One loop step now, what the one-second interval calls (board-check times it); returns nothing. */
  tick(): void;
}

/**
 * A name the owner typed, as bytes: through E.toUint8Array where the interpreter has it (see
 * env.ts; on the ESP32 a typed string is already UTF-8 bytes), else the Core's encoder.
 */
function typedName(s: RunningPet, name: unknown): Uint8Array | null {
  if (typeof name !== "string") return null;
  const env = s.env_;
  return env.utf8Bytes !== undefined ? nameFromString(name, env.utf8Bytes) : nameFromString(name);
}

/** The name as console text, the way typedName reads it in (pet.status().name). */
function nameText(s: RunningPet, bytes: Uint8Array): string {
  if (s.env_.utf8Text !== undefined) {
    const text = s.env_.utf8Text(bytes);
    if (typeof text === "string") return text;
  }
  return utf8Decode(bytes);
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
    s.print_("import rejected: bad-length (" + hex.length + " characters; a save is " + 2 * PAYLOAD_LENGTH + " hex digits)");
    return "bad-length";
  }
  const bytes = typeof hex === "string" ? hexToBytes(withoutSpacing(hex)) : null;
  if (bytes === null) {
    s.print_("import rejected: bad-hex (not an even number of hex digits)");
    return "bad-hex";
  }
  const loaded = loadWorld(bytes, s.wallNow_());
  if (loaded.status !== "ok" || loaded.world === null) {
    // The status alone: its explanation (describeStatus) is the desktop's, `pet-save decode` of the
    // same hex prints it; on the device its texts were 900 bytes of every boot's reading.
    s.print_("import rejected: " + loaded.status);
    return loaded.status;
  }
  return s.importWorld_(loaded);
}

/** What a console method answers when what it called threw: one printed line, and "error". */
function failed(s: RunningPet, what: string, e: unknown): string {
  s.print_("pet." + what + " failed: " + errorText(e));
  return "error";
}

/**
 * The `pet` object over the running pet. Each method catches in place rather than through a shared
 * wrapper taking a closure: on the interpreter that would be two calls and a function made on every
 * pet.save() or press of the button.
 */
export function createPetConsole(s: RunningPet, step: () => void): PetConsole {
  return {
    status: function () {
      "not called at boot";
      try {
        if (s.idleTicks_ !== 0) s.settle_(); // the world as of the last tick (settle_ tests this too: a call fewer)
        const world = s.world_;
        const j = payloadJson(world, s.savedAt_, nameText(s, world.name)) as PetStatus;
        j.storage = s.storageStatus_();
        return j;
      } catch (e) {
        failed(s, "status", e);
        return null;
      }
    },
    save: function () {
      try {
        return s.saveAndReport_(true); // quiet: no step, no line for a success (saveAndReport_)
      } catch (e) {
        return failed(s, "save", e);
      }
    },
    interact: function () {
      try {
        return s.interact_();
      } catch (e) {
        return failed(s, "interact", e);
      }
    },
    rename: function (name: string) {
      "rarely called";
      try {
        const bytes = typedName(s, name);
        return bytes === null ? "bad-name" : s.rename_(bytes);
      } catch (e) {
        return failed(s, "rename", e);
      }
    },
    hatch: function (name?: string) {
      "rarely called";
      try {
        const bytes = name === undefined ? s.defaultName_ : typedName(s, name);
        return bytes === null ? "bad-name" : s.hatch_(bytes);
      } catch (e) {
        return failed(s, "hatch", e);
      }
    },
    exportHex: function () {
      try {
        const encoded = s.encodeNow_();
        return encoded.bytes !== null ? bytesToHex(encoded.bytes) : encoded.status;
      } catch (e) {
        return failed(s, "exportHex", e);
      }
    },
    importHex: function (hex: string) {
      "rarely called";
      try {
        return importHex(s, hex);
      } catch (e) {
        return failed(s, "importHex", e);
      }
    },
    checkSave: function () {
      "rarely called";
      try {
        const found = s.readNewest_();
        if (found === null) return s.storageStatus_();
        const loaded = found.loaded;
        if (loaded === null) return found.status;
        if (loaded.world === null) return loaded.status;
        const live = s.currentWorld_();
        // The names as the console shows them (natively made on Espruino), then the counts.
        const same = nameText(s, loaded.world.name) === nameText(s, live.name) && u64Compare(loaded.world.updateCount, live.updateCount) <= 0;
        return same ? "ok" : "other-pet";
      } catch (e) {
        return failed(s, "checkSave", e);
      }
    },
    // The loop's own step, bound once (app.ts): no wrapper, so board-check times exactly it.
    tick: step,
  };
}
