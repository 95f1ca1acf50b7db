import { defineConfig } from "vitest/config";
import HeaviestFirst from "./test/setup/heaviest-first.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The agent frameworks' suite runs on its own: npm run test:clients (vitest.clients.config.ts).
    exclude: ["test/clients/**", "**/node_modules/**"],
    // Hang guards, not speed limits (no test asserts time): room for a machine shared by many jobs.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Files run in parallel workers: most of their time is spent waiting on child processes and
    // loopback I/O, so 6 workers keep 2 cores busy (npm test on a fresh clone: 4 workers 133 s,
    // 5 124 s, 6 115 s, 8 120 s, each worker's module loading costing CPU). Every file binds
    // port 0, uses its own temp dirs and Redis, and stops what it starts, so files never see each other.
    maxWorkers: 6,
    // A worker keeps the modules it imported for its next file (no re-import of src/ and the SDK
    // per file). No longer needed for correctness: the product keeps no state per process a test could see (rate
    // limiters and generation memory live in a client runtime each client or server makes), and
    // no test needs a random key. It is kept for speed: test/tools + test/api on 2 workers took
    // 31-51 s without isolation and 144 s with it (import time 13-23 s → 103 s).
    isolate: false,
    // Console output of passing tests is dropped; a failing test's is shown with it.
    silent: "passed-only",
    setupFiles: ["test/setup/quiet-output.ts"],
    // The runner's lines (one per file, no per-test timing lines), then the ten slowest files.
    slowTestThreshold: 60_000,
    reporters: ["default", "./test/setup/slowest-files.ts"],
    // Slowest files first, also on a fresh clone without vitest's cache (test/setup/durations.json).
    sequence: { sequencer: HeaviestFirst },
  },
});
