/**
 * The names of the files the page offers for download: the pet's name and the date, then what the
 * file is ("pip-2026-12-01-region.bin", "zoe-2026-12-01-save.hex"), so a folder of downloads says
 * whose and when each one is. The name is the one the board's panel shows (accents dropped, as
 * nameForDisplay does), in lower case, with anything but letters and digits as one "-"; "pet" when
 * there is no name. The date is the person's own (local).
 */
import { nameForDisplay, utf8Encode } from "../core/name";

export type DownloadKind = "region.bin" | "save.bin" | "save.hex";

export function downloadName(petName: string | null, at: Date, kind: DownloadKind): string {
  const stem = petName === null ? "" : nameForDisplay(utf8Encode(petName)).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 32);
  const two = (n: number): string => String(n).padStart(2, "0");
  const date = at.getFullYear() + "-" + two(at.getMonth() + 1) + "-" + two(at.getDate());
  return (stem || "pet") + "-" + date + "-" + kind;
}
