/**
 * vitest global setup: names a temporary folder where the first web test file to need the page
 * builds it (test/web-page.ts) and the others reuse it, so one `npm test` builds the page once, not
 * once per file. Nothing is built here: a run without web tests pays nothing. The folder goes at
 * the end of the run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "pet-web-shared-"));
  process.env.PET_WEB_SHARED_BUILD = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
