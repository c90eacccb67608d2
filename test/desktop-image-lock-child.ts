/**
 * Child process for test/desktop-image-lock-one-holder.test.ts: takes the lock on an image path and holds it
 * until its stdin closes (or it is killed), so the test has a holder in another process.
 * argv: <image path> <kind: abstract|file> <lock dir> <role: write|read> [<snapshot text>]
 * Prints one JSON line: the acquire result ({ status, holder?, message? }).
 */
import { writeSync } from "node:fs";
import { acquireImageLock, type LockKind, type LockRole } from "../src/host/node/imageLock";

const [path, kind, lockDir, role, snapshot] = process.argv.slice(2);
const r = await acquireImageLock(path as string, { role: role as LockRole, kind: kind as LockKind, lockDir, command: "image-lock-child " + role });
if (r.status === "ok" && snapshot !== undefined) r.lock.setSnapshot(() => new TextEncoder().encode(snapshot));
writeSync(1, JSON.stringify(r.status === "ok" ? { status: "ok", holder: r.lock.holder } : r) + "\n");
if (r.status !== "ok") process.exit(1);
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
