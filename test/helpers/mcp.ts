/**
 * Shared end-to-end helpers: a sandbox in the test process, the built server (`node dist/cli.cjs`)
 * as a real stdio child process, and an SDK `Client` over `StdioClientTransport`.
 * Build first (`npm run build`; `npm test` does).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll } from "vitest";
import { stopShellSandbox } from "../../src/cli/shell-sandbox.js";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";
import { SHARED_CODE_CACHE } from "../setup/shared-code-cache.js";
import { sharedOutputValidators } from "./output-validators.js";
import { type ProcessRun, runProcess } from "./process.js";

export const CLI = fileURLToPath(new URL("../../dist/cli.cjs", import.meta.url));
export const TEST_KEY = "wdk_QZXJVKWPRTMNHGZXQ";

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({
    host: "127.0.0.1",
    port: 0,
    key: TEST_KEY,
    taskLatencyMs: 100,
    crawlPageMs: 20,
    ...options,
  });
}

/** A connected MCP client and its server, whichever the transport (`StdioServer`, `InProcessServer`). */
export interface McpSession {
  client: Client;
  /** Everything the server wrote to stderr (its log lines) so far. */
  stderr(): string;
  /** Protocol errors the client saw (e.g. a stdout line that is not JSON-RPC). */
  errors: Error[];
  /** Notifications of the given method received so far. */
  notifications: Array<{ method: string; params?: unknown }>;
  close(): Promise<void>;
}

export interface StdioServer extends McpSession {
  transport: StdioClientTransport;
}

export interface SpawnOptions {
  /** Extra environment (on top of the SDK's minimal default environment). */
  env?: Record<string, string>;
  args?: string[];
}

/**
 * Makes `cacheDir`'s `code/` (the V8 code cache of dist/stdio.cjs) a link to the run's one shared
 * dir (test/setup/shared-code-cache.ts), so a spawned server reads the cache an earlier one wrote
 * instead of compiling the bundle again. Nothing when the run has none (a config without that
 * setup). The cache is keyed by the bundle file's identity, so a rebuild only adds a file.
 */
export function linkSharedCodeCache(cacheDir: string): void {
  const shared = process.env[SHARED_CODE_CACHE];
  if (shared) symlinkSync(shared, join(cacheDir, "code"), "dir");
}

/**
 * A fresh WEBDATA_CACHE_DIR under the temp dir for a server started by these helpers, so the agent
 * catalog cache never lands in ~/.cache; `remove` deletes it. Its `code/` is the run's shared code
 * cache (`linkSharedCodeCache`). Not made when the test passes its own, nor for `--sandbox` (which
 * keeps no catalog cache unless WEBDATA_CACHE_DIR asks for one; its code cache then goes to the
 * default cache dir).
 */
export function testCacheDir(
  env: Record<string, string> = {},
  args: readonly string[] = [],
): { env: Record<string, string>; remove(): void } {
  if (env.WEBDATA_CACHE_DIR !== undefined || args.includes("--sandbox")) return { env, remove() {} };
  const dir = mkdtempSync(join(tmpdir(), "webdata-test-cache-"));
  linkSharedCodeCache(dir);
  return {
    env: { ...env, WEBDATA_CACHE_DIR: dir },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The tests' SDK client, recording the protocol errors and the notifications it receives. */
export function testClient(): Pick<McpSession, "client" | "errors" | "notifications"> {
  const client = new Client(
    { name: "web-data-tests", version: "0.0.0" },
    { capabilities: {}, jsonSchemaValidator: sharedOutputValidators },
  );
  const errors: Error[] = [];
  const notifications: McpSession["notifications"] = [];
  client.onerror = (e) => errors.push(e);
  client.fallbackNotificationHandler = async (n) => {
    notifications.push({ method: n.method, params: n.params });
  };
  return { client, errors, notifications };
}

/** Spawns `node dist/cli.cjs` and connects an MCP client to it over stdio. */
export async function spawnServer(options: SpawnOptions = {}): Promise<StdioServer> {
  assertBuilt();
  const cache = testCacheDir(options.env, options.args);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...(options.args ?? [])],
    env: { ...getDefaultEnvironment(), ...cache.env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const { client, errors, notifications } = testClient();
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close().catch(() => {});
    cache.remove();
    throw error;
  }
  return {
    client,
    transport,
    stderr: () => stderr,
    errors,
    notifications,
    close: async () => {
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
      cache.remove();
    },
  };
}

/** The environment of a server pointed at this sandbox with the test key. */
export const envAgainst = (sandbox: Sandbox, env: Record<string, string> = {}): Record<string, string> => ({
  WEBDATA_BASE_URL: sandbox.url,
  WEBDATA_API_KEY: TEST_KEY,
  WEBDATA_WAIT_MS: "20000",
  ...env,
});

/** The server pointed at this sandbox with the test key. */
export function spawnAgainst(sandbox: Sandbox, env: Record<string, string> = {}, args: string[] = []) {
  return spawnServer({ env: envAgainst(sandbox, env), args });
}

export type ToolCall = CallToolResult & { structuredContent?: any };

export async function call(
  server: McpSession,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolCall> {
  return (await server.client.callTool({ name, arguments: args })) as ToolCall;
}

export const textOf = (r: CallToolResult) =>
  r.content
    .filter((c) => c.type === "text")
    .map((c) => (c as { text: string }).text)
    .join("\n");

/** Polls `read` until `done` holds (no timing assertion: the test timeout is the only bound). */
export async function until<T>(
  read: () => T | Promise<T>,
  done: (v: T) => boolean,
  pauseMs = 10,
): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, pauseMs));
  }
}

/**
 * API requests the sandbox saw since `from` (an index into `sandbox.requests`), without the
 * agent catalog reads the server makes in the background at start-up.
 */
export const requestsSince = (sandbox: Sandbox, from: number) =>
  sandbox.requests.slice(from).filter((r) => !(r.method === "GET" && isCatalogRead(r.path)));

/** The agent catalog's reads: `/v1/agents…` (generation 1) or the extract templates (generation 2). */
const isCatalogRead = (path: string) =>
  path.startsWith("/v1/agents") || /^\/v2\/extract\/templates(\/[^/]+)?$/.test(path);

/** `METHOD /path` of those requests, UUIDs replaced by `:id`. */
export const pathsSince = (sandbox: Sandbox, from: number) =>
  requestsSince(sandbox, from).map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/, ":id")}`);

export type CliRun = ProcessRun;

/**
 * Runs `node dist/cli.cjs ARGS` to completion without blocking the test's event loop (its sandbox).
 * A `call --sandbox` without a WEBDATA_CACHE_DIR of the test's gets a temporary one, and the shell
 * sandbox it starts there is stopped afterwards (`stopShellSandbox`, what `sandbox --stop` runs).
 */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  assertBuilt();
  const shell = args[0] === "call" && args.includes("--sandbox") && env.WEBDATA_CACHE_DIR === undefined;
  const cache = shell ? testCacheDir(env) : testCacheDir(env, args);
  const run = (a: string[]) =>
    runProcess(process.execPath, [CLI, ...a], { env: { PATH: process.env.PATH ?? "", ...cache.env } });
  try {
    return await run(args);
  } finally {
    // What `sandbox --stop` runs, in this process: a Node start less per call (the command itself
    // is test/cli/shell-sandbox.test.ts's); nothing when the call started no shell sandbox.
    if (shell) await stopShellSandbox(cache.env.WEBDATA_CACHE_DIR);
    cache.remove();
  }
}

/**
 * One sandbox and one server shared by a whole test file: started before its first test, handed
 * to `receive`, and closed after its last. `env` may depend on the sandbox (its legacy URL, say);
 * the server gets its own catalog cache dir unless `env` names one. `start` makes the server: the
 * built CLI over stdio (`spawnAgainst`, the default) or `inProcessAgainst` (`in-process.ts`) when
 * the transport is not what the file tests.
 */
export function serverForFile<S extends McpSession = StdioServer>(
  receive: (started: { sandbox: Sandbox; server: S }) => void,
  env: Record<string, string> | ((sandbox: Sandbox) => Record<string, string>) = {},
  start: (sandbox: Sandbox, env: Record<string, string>) => Promise<S> = spawnAgainst as never,
): void {
  let sandbox: Sandbox | undefined;
  let server: S | undefined;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    server = await start(sandbox, typeof env === "function" ? env(sandbox) : env);
    receive({ sandbox, server });
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });
}

/**
 * `web-data-mcp sandbox --port 0 ARGS` as a child process: its URL (the first line it prints) and
 * `stop()`, which sends SIGTERM and resolves with the exit code.
 */
export async function startSandboxCli(
  args: string[],
): Promise<{ url: string; stop(): Promise<number | null> }> {
  assertBuilt();
  const child = spawn(process.execPath, [CLI, "sandbox", "--port", "0", ...args], {
    env: { PATH: process.env.PATH ?? "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const stop = () => {
    child.kill("SIGTERM");
    return exited;
  };
  let out = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString("utf8");
  });
  try {
    const url = (
      await until(
        () => out,
        (o) => o.includes("\n"),
      )
    ).trim();
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
