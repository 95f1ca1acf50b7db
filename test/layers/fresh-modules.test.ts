/**
 * The suite's isolation of our modules (test/setup/fresh-modules.ts): two files run one after the
 * other in one worker with the suite's own configuration, and the second imports a fresh instance
 * of a module of src/ that the first imported. Without that setup file, the same two files share
 * the instance: the probe can tell.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CONFIG = "test/setup/fresh-modules/vitest.config.ts";
const VITEST = join(ROOT, "node_modules", "vitest", "vitest.mjs");
const dir = mkdtempSync(join(tmpdir(), "fresh-modules-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What each probe saw, in the order they ran. */
async function probe(freshModules: "on" | "off"): Promise<string[]> {
  const log = join(dir, `${freshModules}.log`);
  await promisify(execFile)(process.execPath, [VITEST, "run", "--config", CONFIG], {
    cwd: ROOT,
    // Not the outer run's own: vitest's worker variables, and durations noting (npm run test:durations).
    env: {
      ...process.env,
      FRESH_MODULES: freshModules,
      FRESH_MODULES_LOG: log,
      VITEST: undefined,
      TEST_DURATIONS: undefined,
    },
  });
  return readFileSync(log, "utf8").trim().split("\n");
}

describe("each test file's own modules", () => {
  it("gives the second file of a worker a fresh instance of a module the first imported", async () => {
    expect(await probe("on")).toEqual(["none", "fresh"]);
  });

  it("is what makes it fresh: without the setup file the two files share the instance", async () => {
    expect(await probe("off")).toEqual(["none", "shared"]);
  });
});
