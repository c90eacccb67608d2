import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Most test files spend their time waiting on child processes (the interpreter, the uploader,
    // `npm start`, Chromium), not on the CPU, so they run four at a time even on two cores, where
    // vitest's default (cores - 1) would run them one by one.
    maxWorkers: Math.max(4, availableParallelism()),
    globalSetup: [
      // Says how to get an interpreter when ESPRUINO is not set (see the file).
      "test/espruino-global-setup.ts",
      // Web tests share one build of the page (see the file).
      "test/web-global-setup.ts",
    ],
  },
});
