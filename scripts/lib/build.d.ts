import type { BoardProfile } from "../../src/boards/boardProfile";

export const ROOT: string;
export const DEFAULT_BOARD: string;
export const DEFAULT_ENTRY: string;
export const DEFAULT_OUT: string;
export const BUNDLE_BUDGET_BYTES: number;
export const TERSER_OPTIONS: Record<string, unknown>;
/** The names the build defines for terser (ESPRUINO_BUILD, BOARD_HAS_DISPLAY/BUTTON/LED, the region check's) for a profile. */
export function buildDefines(profile: BoardProfile & { storageSizes?: number[] }): Record<string, boolean | number | number[]>;
/** TERSER_OPTIONS with buildDefines(profile) as global_defs. */
export function terserOptions(profile: BoardProfile & { storageSizes?: number[] }, overrides?: Record<string, unknown>): Record<string, unknown>;
/** Property names used only inside the bundle, shortened by terser like the "_" names. */
export const BUNDLE_ONLY_PROPERTIES: string[];
/** The profile's defaultPetName as UTF-8 bytes, `{ defaultPetNameBytes }`, or {} without one. */
export function deviceName(profile: { defaultPetName?: string }): { defaultPetNameBytes?: number[] };
/** The profile keys the bundle carries: those of BundledProfile (src/boards/boardProfile.ts, PetBoard to the firmware). */
export const DEVICE_PROFILE_KEYS: string[];
export function boardFromEnv(env?: Record<string, string | undefined>): string;
export function loadBoardProfile(file: string): Promise<BoardProfile>;
export interface BuildResult {
  /** The minified bundle as uploaded. */
  code: string;
  /** UTF-8 size of `code`. */
  bytes: number;
  /** The same bundle before terser (TypeScript's ES5 output, concatenated). */
  unminified: string;
  profile: BoardProfile;
  /** Absolute path of the profile file used. */
  board: string;
  outFile: string | null;
  warnings: string[];
  /** True when the bundle came from the build cache (scripts/lib/buildCache.js) rather than a build. */
  cached: boolean;
}
export function buildFirmware(options?: { board?: string; outFile?: string | null; entry?: string; cache?: boolean; onBuild?: () => void; defines?: Record<string, unknown> }): Promise<BuildResult>;
export function shortPath(p: string): string;
