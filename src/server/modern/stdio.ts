/**
 * stdio for a client whose first message opened revision 2026-07-28 (`../stdio-era.ts`): the SDK's
 * `serveStdio` with `legacy: "reject"` (the process is pinned to the new era) over the same
 * `WebDataServer` the 2025 path would have used — its tools, runtime and background warm-up.
 * Loaded only then, so a 2025 client's start-up never reads the v2 packages.
 */
import type { Readable } from "node:stream";
import { StdioServerTransport, serveStdio } from "@modelcontextprotocol/server/stdio";
import type { Config } from "../../config.js";
import type { WebDataServer } from "../create-server.js";
import { cachePolicy } from "./cache.js";
import { createModernServer } from "./server.js";

export function serveModernStdio(
  config: Config,
  app: WebDataServer,
  input: Readable,
): { close(): Promise<void> } {
  return serveStdio(() => createModernServer(app, { cache: cachePolicy(config, false) }), {
    legacy: "reject",
    transport: new StdioServerTransport(input, process.stdout),
    onerror: (error) => app.logger.debug(`stdio (2026-07-28): ${error.message}`),
  });
}
