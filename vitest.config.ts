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
    // Files run in parallel workers: many mostly wait (deadlines, retry backoff, child processes
    // starting), so more workers than cores keep the 2 cores busy, with the files that wait
    // interleaved among those that work (test/setup/heaviest-first.ts). Sampled each 5 s on a quiet
    // 2-core machine (28 Nov): 6 workers, slowest first, 124.9 s with the cores 40-57 % busy from 15
    // to 45 s; 6 interleaved 121.6 s; 8 interleaved 114.9 s, the cores 99-100 % busy throughout
    // (a worker imports the modules once, so still more workers only add CPU). Every file binds
    // port 0, uses its own temp dirs and Redis, and stops what it starts, so files never see each
    // other.
    maxWorkers: 8,
    // A worker keeps the modules it imported for its next file (no new worker and no re-import of
    // src/, the SDK, zod, undici and the sandbox per file). Not needed for correctness: the product
    // keeps no state per process (a client runtime per client or server) and no test needs a
    // random key. What stands in for isolation (docs/testing.md, that section): the static check
    // scripts/module-state.mjs --check in npm run lint (no module state in src/) and
    // `npm run test:isolated` (or `npx vitest run --isolate --pool=threads test/<dir>`).
    // Kept for speed, measured with isolation on (docs/testing.md): test/tools + test/api on 2
    // workers cost 20 s of CPU without it, 55 s with it on forks, 48 s on threads, 36 s on
    // vmForks (whose cross-context Buffers made pngjs 6x slower and 12 files time out). Over the
    // whole suite, workers' starts and imports cost 20 s of the run's 329 s of CPU without it and
    // about 195 s with it (1.35 s per file): a minute more than the suite's 120 s on 2 cores.
    isolate: false,
    // Console output of passing tests is dropped; a failing test's is shown with it.
    silent: "passed-only",
    // file-cpu.ts notes each file's CPU for `npm run test:durations` (nothing otherwise).
    setupFiles: ["test/setup/quiet-output.ts", "test/setup/file-cpu.ts"],
    // One V8 code cache of dist/stdio.cjs for the run's spawned servers (each has its own cache dir).
    globalSetup: ["test/setup/shared-code-cache.ts"],
    // The runner's lines (one per file, no per-test timing lines), then the 20 slowest files.
    slowTestThreshold: 60_000,
    reporters: ["default", "./test/setup/slowest-files.ts"],
    // Slowest files first, also on a fresh clone without vitest's cache (test/setup/durations.json).
    sequence: { sequencer: HeaviestFirst },
  },
});
