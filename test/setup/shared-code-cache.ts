/**
 * One V8 code cache of dist/stdio.cjs for every server the tests spawn (vitest's globalSetup).
 * Each spawned server has a WEBDATA_CACHE_DIR of its own (its agent catalog cache), whose `code/`
 * (src/cli/code-cache.ts) would always be empty: every spawn compiled the bundle without a cache
 * and wrote one at exit. `linkSharedCodeCache` (test/helpers/mcp.ts) makes that `code/` a link to
 * the one dir made here, so the run's first server writes the cache and the others read it. The
 * files in it are this user's, mode 0600, as the server's own ownership check asks. Removed at the end.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const SHARED_CODE_CACHE = "WEBDATA_TEST_CODE_CACHE";

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "webdata-test-code-"));
  // The workers are forked after the global setup and inherit the environment.
  process.env[SHARED_CODE_CACHE] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
