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
    // The workers run V8's baseline tiers only (no TurboFan) and collect garbage on their own
    // thread. A file runs most of its code a few times, and on 2 cores shared by 8 workers every
    // background thread (TurboFan's compile jobs, the collector's helpers) takes a core from
    // another worker: alternating whole runs in place (28 Nov), 149.3 / 133.1 s as before, 136.9 /
    // 118.3 s without TurboFan, then 123.7 / 108.6 s against 111.2 / 105.4 s without the helpers
    // too (docs/testing.md, "The workers without background compiling and collecting"). The
    // servers and CLIs the tests spawn are not workers: they run as users run them.
    execArgv: ["--max-opt=1", "--single-threaded-gc"],
    // A worker keeps what Node loaded (node_modules: the SDK, zod, undici) for its next file, and
    // test/setup/fresh-modules.ts gives each file its own instance of every module of ours (src/,
    // the test helpers): no file sees module state another left, for about 3% more CPU (5-9 s of a
    // clean clone's run). Full isolation (a new worker per file) cost 0.6-1.35 s of CPU per file,
    // 90-200 s more than the suite has (docs/testing.md, "Test isolation"); `npm run test:isolated`
    // runs it on demand.
    isolate: false,
    // Console output of passing tests is dropped; a failing test's is shown with it.
    silent: "passed-only",
    // file-cpu.ts notes each file's CPU for `npm run test:durations` (nothing otherwise).
    setupFiles: ["test/setup/quiet-output.ts", "test/setup/file-cpu.ts", "test/setup/fresh-modules.ts"],
    // One V8 code cache of dist/stdio.cjs for the run's spawned servers (each has its own cache dir).
    globalSetup: ["test/setup/shared-code-cache.ts"],
    // The runner's lines (one per file, no per-test timing lines), then the 20 slowest files.
    slowTestThreshold: 60_000,
    reporters: ["default", "./test/setup/slowest-files.ts"],
    // Slowest files first, also on a fresh clone without vitest's cache (test/setup/durations.json).
    sequence: { sequencer: HeaviestFirst },
  },
});
