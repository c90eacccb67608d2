/**
 * Files dropped anywhere on the page go where they belong: an Espruino release (the .tgz, or its
 * ESP32 images and partition table) to the Device tab's first step, anything else to "Check a file",
 * every file of the drop, never only the first. Told apart by their first bytes, and a lone file
 * named .tgz or .tar by its name as well, so that a broken download is told what is wrong with it.
 */
const GZIP = [0x1f, 0x8b];
const ESP_IMAGE = 0xe9;
const PARTITION_ROW = [0xaa, 0x50];

async function firstBytes(f: File): Promise<Uint8Array> {
  return new Uint8Array(await f.slice(0, 2).arrayBuffer());
}

/**
 * True when the files are an Espruino release: one gzip archive, or one file named as a release
 * archive whatever it holds (Install then says what is wrong with it), or only ESP images and
 * partition tables.
 */
export async function isEspruinoRelease(files: File[]): Promise<boolean> {
  if (files.length === 0) return false;
  const heads = await Promise.all(files.map(firstBytes));
  if (heads.length === 1 && heads[0]![0] === GZIP[0] && heads[0]![1] === GZIP[1]) return true;
  if (files.length === 1 && /\.(tgz|tar\.gz|tar)$/i.test(files[0]!.name)) return true;
  return heads.every((h) => h[0] === ESP_IMAGE || (h[0] === PARTITION_ROW[0] && h[1] === PARTITION_ROW[1]));
}

export function wireDrops(hint: HTMLElement, toEspruino: (files: File[]) => void, toCheck: (files: File[]) => void): void {
  document.addEventListener("dragover", (e) => {
    e.preventDefault(); // without this the browser would open the file instead of dropping it here
    hint.hidden = false;
  });
  document.addEventListener("dragleave", (e) => {
    if (e.relatedTarget === null) hint.hidden = true;
  });
  document.addEventListener("drop", async (e) => {
    e.preventDefault();
    hint.hidden = true;
    const files = Array.from(e.dataTransfer ? e.dataTransfer.files : []);
    if (files.length === 0) return;
    if (await isEspruinoRelease(files)) toEspruino(files);
    else toCheck(files);
  });
}
