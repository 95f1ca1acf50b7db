// `npm run test:isolated`: the suite with full isolation, each file in a new worker thread (the
// cheapest real isolation: docs/testing.md, "Test isolation"). V8 flags are per process, and
// Node refuses them in a worker thread's execArgv, so these workers run V8's defaults.
import { defineConfig } from "vitest/config";
import suite from "./vitest.config.js";

export default defineConfig({
  test: { ...suite.test, pool: "threads", isolate: true, execArgv: [] },
});
