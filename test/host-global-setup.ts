/**
 * vitest global setup: the desktop tools compiled once before any test starts them
 * (scripts/lib/hostBuild.js), rather than by several test files' first `pet-save` or `npm start` at
 * once. A no-op when dist/host is already in step with the sources (after `npm ci`, which compiles
 * them, or an earlier run).
 */
import { freshHostBundle } from "../scripts/lib/hostBuild.js";

export default async function setup(): Promise<void> {
  await freshHostBundle("pet-save");
}
