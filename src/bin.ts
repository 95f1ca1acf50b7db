#!/usr/bin/env node
/**
 * The bin, dist/cli.cjs. With no argument (the stdio server, as MCP clients start it) it loads the
 * server's start path with V8's code cache (dist/stdio.cjs) and runs the command there, having
 * compiled no more of the CLI than this file; with any argument, the whole CLI (src/cli.ts,
 * bundled as dist/cli-main.cjs). The plain start saved 2–4 ms of CPU so (docs/benchmarks.md,
 * issue 33, fifteenth round).
 */
import { existsSync } from "node:fs";
import nodeModule, { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { exitOnError } from "./cli/exit.js";
import { loadStdioBundle } from "./cli/stdio-bundle.js";
import { cacheDirOf, processEnvironment } from "./config.js";

// Node 22.1 and later keep the compiled code of dist/cli-main.cjs and the chunks on disk (in the OS
// temp folder, or NODE_COMPILE_CACHE); Node 20 has no such cache.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const stdio = fileURLToPath(new URL("./stdio.cjs", import.meta.url));
if (process.argv.length <= 2 && existsSync(stdio)) {
  try {
    const env = processEnvironment();
    loadStdioBundle(stdio, cacheDirOf(env)).serveStdioCommand(env);
  } catch (error) {
    exitOnError(error);
  }
} else {
  createRequire(import.meta.url)("./cli-main.cjs");
}
