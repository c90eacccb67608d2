import { defineConfig } from "vitest/config";

/**
 * The emulated-ESP32 tier (`npm run test:chip`): the product on Espruino's own ESP32 firmware in
 * Espressif's emulated ESP32 (../shared/esp32-qemu), through the product's own commands. One chip
 * at a time (each file runs alone: two emulated chips on two cores starve each other's cores until
 * the firmware's watchdog fires), after a global set-up that installs the firmware once
 * (test/chip-global-setup.ts). Without the kit or its QEMU the run fails in one line saying how to
 * get them: this tier is never skipped silently.
 */
export default defineConfig({
  test: {
    include: ["test/chip-*.test.ts"],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // The desktop tools compiled first: a build running beside the emulated chip's boot would starve
    // its cores (see test/chip-global-setup.ts).
    globalSetup: ["test/host-global-setup.ts", "test/chip-global-setup.ts"],
  },
});
