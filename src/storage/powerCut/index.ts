/**
 * The power-cut harness over the simulated flash: cut a save at every flash operation it makes
 * (sweep.ts), cut save after save (storm.ts), and the payloads and checks they use (payloads.ts).
 * One module that the storage tests and the storage bench both import (scripts/bench/storage.ts);
 * the firmware never does. Cuts on Espruino's own Linux build are src/host/node/interpreter.
 */
export * from "./payloads";
export * from "./sweep";
export * from "./storm";
