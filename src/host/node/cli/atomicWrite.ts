/**
 * Replace a file so that a crash leaves either the old content or the new, never a mix: write a temp
 * sibling, fsync it, rename it over the target, fsync the directory so the rename itself is durable.
 * (Small on purpose; the storage layer may provide a shared helper later.)
 */
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export async function writeFileAtomic(path: string, bytes: Uint8Array): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, "." + basename(path) + "." + process.pid + "." + Date.now() + ".tmp");
  let renamed = false;
  try {
    const file = await open(temp, "wx");
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
    renamed = true;
    const d = await open(dir, "r");
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } finally {
    if (!renamed) await unlink(temp).catch(() => undefined);
  }
}
