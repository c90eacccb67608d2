/**
 * The browser's own timer functions, captured when the simulator's Worker starts, before the
 * firmware's globals are installed. In the Worker the firmware's global scope is the worker's own, so
 * the firmware's setTimeout (the emulated one of src/host/emulator/timers.ts) replaces the global
 * one; the host code (the emulator's timers and pins, the worker's frame loop) must keep calling the
 * browser's. The build injects this file in place of the global names for the worker's bundle only
 * (scripts/lib/buildWeb.js, esbuild `inject`); the firmware bundle, run with eval, is not rewritten.
 */
const hostSetTimeout = globalThis.setTimeout.bind(globalThis);
const hostSetInterval = globalThis.setInterval.bind(globalThis);
const hostClearTimeout = globalThis.clearTimeout.bind(globalThis);
const hostClearInterval = globalThis.clearInterval.bind(globalThis);

export { hostSetTimeout as setTimeout, hostSetInterval as setInterval, hostClearTimeout as clearTimeout, hostClearInterval as clearInterval };
