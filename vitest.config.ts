import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Console output of passing tests is dropped; a failing test's is shown with it.
    silent: "passed-only",
    setupFiles: ["test/setup/quiet-output.ts"],
  },
});
