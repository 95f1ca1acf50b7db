// The suite's own configuration, run on the two probes in one worker by
// test/layers/fresh-modules.test.ts; FRESH_MODULES=off leaves test/setup/fresh-modules.ts out.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import suite from "../../../vitest.config.js";

const setupFiles = suite.test?.setupFiles as string[];

export default defineConfig({
  test: {
    ...suite.test,
    root: fileURLToPath(new URL("../../..", import.meta.url)),
    include: ["test/setup/fresh-modules/*.probe.ts"],
    exclude: [],
    maxWorkers: 1,
    globalSetup: [],
    reporters: ["default"],
    setupFiles:
      process.env.FRESH_MODULES === "off"
        ? setupFiles.filter((f) => !f.endsWith("fresh-modules.ts"))
        : setupFiles,
  },
});
