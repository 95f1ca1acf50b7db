/**
 * The product's MCP server in the test process: `createServer()` behind the `ProtocolGuard` the
 * stdio path puts under it, and an SDK `Client` on the other end of the SDK's `InMemoryTransport`
 * pair. For tests of tools and of the server's answers, where the transport is not what they test:
 * no child Node start (about 0.5 CPU-s each) and no build needed. The transports themselves are
 * tested through `spawnServer` (stdio) and `useHttpServer` / `spawnHttpServer` (HTTP).
 */
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll } from "vitest";
import { makeRedactor } from "../../src/api/redact.js";
import { type Config, configSecrets, loadConfig } from "../../src/config.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import {
  type CreateServerOptions,
  createServer,
  type WebDataServer,
} from "../../src/server/create-server.js";
import { createLogger } from "../../src/server/logging.js";
import { ProtocolGuard } from "../../src/server/protocol-guard.js";
import { envAgainst, type McpSession, testCacheDir, testClient } from "./mcp.js";

export interface InProcessOptions extends Omit<CreateServerOptions, "config" | "logger"> {
  /** The server's environment, read by `loadConfig` (a temp WEBDATA_CACHE_DIR unless it names one). */
  env?: Record<string, string>;
  /** A config made by the test instead (`env` is then unused). */
  config?: Config;
}

export interface InProcessServer extends McpSession {
  /** The product's server object (its tools, services, `ready`). */
  app: WebDataServer;
}

export async function startInProcessServer(options: InProcessOptions = {}): Promise<InProcessServer> {
  const { env, config: given, ...serverOptions } = options;
  const cache = given ? { env: {}, remove() {} } : testCacheDir(env);
  const config = given ?? loadConfig(cache.env);
  let stderr = "";
  const logger = createLogger({
    redact: makeRedactor(configSecrets(config)),
    stderrLevel: serverOptions.stderrLevel,
    write: (line) => {
      stderr += line;
    },
  });
  const app = createServer({ ...serverOptions, config, logger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const { client, errors, notifications } = testClient();
  const close = async () => {
    await client.close().catch(() => {});
    await app.close().catch(() => {});
    cache.remove();
  };
  try {
    await app.server.connect(new ProtocolGuard(serverSide));
    await client.connect(clientSide);
  } catch (error) {
    await close();
    throw error;
  }
  return { app, client, stderr: () => stderr, errors, notifications, close };
}

/**
 * One in-process server for the whole file (or describe block), started before its first test and
 * closed after its last; the handle's fields are set from then on. `options` may be a function,
 * called in `beforeAll` (to read a sandbox started by an earlier hook, say).
 */
export function useInProcessServer(
  options: InProcessOptions | (() => InProcessOptions) = {},
): InProcessServer {
  const handle = {} as InProcessServer;
  beforeAll(async () => {
    Object.assign(handle, await startInProcessServer(typeof options === "function" ? options() : options));
  });
  afterAll(async () => {
    await handle.close?.();
  });
  return handle;
}

/** The in-process server pointed at this sandbox with the test key (as `spawnAgainst`, minus the child). */
export function inProcessAgainst(
  sandbox: Sandbox,
  env: Record<string, string> = {},
): Promise<InProcessServer> {
  return startInProcessServer({ env: envAgainst(sandbox, env) });
}
