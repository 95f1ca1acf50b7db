import { defineConfig } from "vitest/config";

// `npm run test:clients`: the agent frameworks' compatibility suite (test/clients/), kept out of
// `npm test`; it prints the compatibility and token tables at the end.
export default defineConfig({
  test: {
    include: ["test/clients/**/*.test.ts"],
    // Bounds, not timings: a framework spawns a server per call at worst (Inspector), slow on a busy machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Mostly waiting on child processes and loopback I/O: 4 workers keep 2 cores busy.
    maxWorkers: 4,
    silent: "passed-only",
    setupFiles: ["test/setup/quiet-output.ts"],
    reporters: ["default", "./test/clients/table-reporter.ts"],
  },
});
