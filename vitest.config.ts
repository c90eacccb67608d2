import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Web tests share one build of the page (see the file).
    globalSetup: ["test/web-global-setup.ts"],
  },
});
