/**
 * Bench section "firmware": the bundle's size always; with env ESPRUINO (the Linux build of the
 * interpreter, see docs/firmware.md) also JsVars in use after boot and the interpreter's time for one
 * save and one restore on the device path, medians of many runs measured inside the interpreter with
 * getTime(). The Linux interpreter runs on the host CPU: its milliseconds are not an ESP32's, but
 * they compare code paths and catch regressions.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { buildFirmware, BUNDLE_BUDGET_BYTES, ROOT } from "../lib/build.js";
import { openConsole, releaseTelnetPort, startEspruino } from "../lib/espruinoLinux.js";

const RUNS = 41;

function flash(bundle: string, dir: string, entryProbe: boolean): Promise<string> {
  const args = [join(ROOT, "scripts", "flash.js"), "--port", "tcp://127.0.0.1:2323", "--bundle", join(dir, bundle)];
  if (entryProbe) args.push("--entry", join(ROOT, "scripts", "bench", "firmware-probe.ts"));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, env: { ...process.env, BOARD: join(ROOT, "boards", "linux.json") }, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error("flash failed: " + stdout + stderr));
      else resolve(stdout);
    });
  });
}

async function onInterpreter(binary: string): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), "pet-bench-"));
  const proc = await startEspruino(binary, dir);
  try {
    await flash("firmware.js", dir, false);
    const con = await openConsole({ timeoutMs: 60_000 });
    const memory = (await con.evaluate("process.memory()")) as { usage: number; total: number };
    const saveTimes = (await con.evaluate(
      "(function(){var t=[],i,s;for(i=0;i<" + RUNS + ";i++){pet.interact();s=getTime();pet.save();t.push((getTime()-s)*1000);}t.sort(function(a,b){return a-b});return t[t.length>>1];})()",
    )) as number;
    await con.close();
    await flash("probe.js", dir, true);
    const probeCon = await openConsole({ timeoutMs: 120_000 });
    const probe = (await probeCon.evaluate("probe(" + RUNS + ")")) as { saveMs: number; restoreMs: number; n: number; status: string };
    await probeCon.close();
    return {
      linuxJsVarsAfterBoot: memory.usage,
      linuxPetSaveMsMedian: round(saveTimes),
      linuxSaveMsMedian: round(probe.saveMs),
      linuxRestoreMsMedian: round(probe.restoreMs),
      linuxRuns: RUNS,
      linuxProbeStatus: probe.status,
    };
  } finally {
    await proc.kill();
    releaseTelnetPort();
    rmSync(dir, { recursive: true, force: true });
  }
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

export async function run(): Promise<Record<string, unknown>> {
  const esp32 = await buildFirmware({ board: join(ROOT, "boards", "esp32.json"), outFile: null });
  const figures: Record<string, unknown> = {
    bundleBytes: esp32.bytes,
    bundleBudgetBytes: BUNDLE_BUDGET_BYTES,
  };
  const binary = process.env.ESPRUINO;
  if (!binary) {
    const skipped = { skipped: "set ESPRUINO=/path/to/espruino (Linux build) to measure on the interpreter" };
    for (const key of ["linuxJsVarsAfterBoot", "linuxPetSaveMsMedian", "linuxSaveMsMedian", "linuxRestoreMsMedian"]) {
      figures[key] = skipped;
    }
    return figures;
  }
  Object.assign(figures, await onInterpreter(binary));
  return figures;
}
