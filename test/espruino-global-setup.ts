/**
 * vitest global setup for the interpreter tests (test/espruino-interpreter.ts): without ESPRUINO they
 * are skipped, and this says so in one line with how to get an interpreter, rather than leaving a
 * silent skip in the report. An ESPRUINO that names nothing runnable is an error, not a skip: it
 * would otherwise look like a green run that tested nothing on the interpreter.
 */
import { accessSync, constants, statSync } from "node:fs";
import { HOW_TO_GET_ESPRUINO } from "./espruino-interpreter";

export default function setup(): void {
  const binary = process.env.ESPRUINO;
  if (!binary) {
    process.stdout.write("\nThe tests that run the firmware on Espruino are skipped: " + HOW_TO_GET_ESPRUINO + "\n\n");
    return;
  }
  try {
    if (!statSync(binary).isFile()) throw new Error("not a file");
    accessSync(binary, constants.X_OK);
  } catch (e) {
    throw new Error("ESPRUINO=" + binary + " is not an executable file (" + (e instanceof Error ? e.message : String(e)) + "); " + HOW_TO_GET_ESPRUINO);
  }
}
