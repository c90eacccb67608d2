// scratch: makes an installed image like the chip tier's global setup
import { execFileSync } from "node:child_process";
import { findKit, makeFlashImage, startChip, waitForPrompt } from "./src/host/node/emulatedChip/qemuChip";
const out = process.argv[2]!;
const kit = await findKit();
await makeFlashImage(kit, out);
const chip = await startChip(kit, out);
const t0 = Date.now();
await waitForPrompt(chip);
console.log("prompt after", Date.now() - t0);
try {
  console.log(execFileSync("npm", ["run", "-s", "upload", "--", "--port", chip.consoleUrl], { env: { ...process.env, BOARD: "" } }).toString());
} finally { await chip.stop(); }
console.log("total", Date.now() - t0);
