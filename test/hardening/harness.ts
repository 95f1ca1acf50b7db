/**
 * Hardening harness: one built stdio server per test file against an in-process sandbox, with
 * everything it says captured (tool results, errors, stderr, MCP log messages at debug level) so
 * a test can scan it all for secrets, and checks that the process is alive and never printed an
 * unhandled rejection or a stack trace.
 */

import { randomInt } from "node:crypto";
import { EventEmitter } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Sandbox, SandboxOptions } from "../../src/sandbox/index.js";
import { TOOLSETS } from "../../src/toolsets.js";
import {
  linkSharedCodeCache,
  type StdioServer,
  spawnServer,
  startTestSandbox,
  type ToolCall,
} from "../helpers/mcp.js";

/** Letters that never occur in hex ids, UUIDs or English words five in a row (as the CLI's demo key). */
const KEY_ALPHABET = "ghjkmnpqrstvwxzGHJKMNPQRSTVWXZ";

export function randomSecret(prefix: string, length = 28): string {
  let s = prefix;
  for (let i = 0; i < length; i++) s += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return s;
}

/** Every substring of `secret` longer than 4 characters that occurs in `text` (none expected). */
export function secretLeaks(text: string, secret: string, minLength = 5): string[] {
  const found = new Set<string>();
  for (let i = 0; i + minLength <= secret.length; i++) {
    const piece = secret.slice(i, i + minLength);
    if (text.includes(piece)) found.add(piece);
  }
  return [...found];
}

/** Lines of `text` that look like a crash: unhandled rejections, uncaught errors, stack frames. */
export function crashLines(text: string): string[] {
  return text
    .split("\n")
    .filter((l) =>
      /unhandled|uncaught|^\s+at .+[:(]\d+:\d+\)?$|^(Type|Range|Reference|Syntax)Error\b/i.test(l),
    );
}

export const errorCodeOf = (r: ToolCall): string | undefined =>
  (r._meta?.["web-data/error"] as { code?: string } | undefined)?.code;

export const textOf = (r: ToolCall): string =>
  (r.content ?? [])
    .filter((c) => c.type === "text")
    .map((c) => (c as { text: string }).text)
    .join("\n");

/** The sandbox of a hardened server, with its secrets, for a test that starts its own server on it. */
export interface HardenedSandbox {
  sandbox: Sandbox;
  key: string;
  legacyAuth: string;
  /** A WEBDATA_CACHE_DIR for the server (the agent catalog cache), removed by `close`. */
  cacheDir: string;
  close(): Promise<void>;
}

export interface Hardened extends HardenedSandbox {
  server: StdioServer;
  /** The server child's pid (for /proc reads and liveness). */
  pid: number;
  /** Calls a tool with a per-call timeout; a timeout is a failure (a hang), not an outcome. */
  call(name: string, args: unknown, timeoutMs?: number): Promise<ToolCall>;
  /** Everything captured so far: results, thrown errors, stderr, log notifications. */
  captured(): string;
  /** True while the child process exists. */
  alive(): boolean;
}

export interface HardenOptions {
  sandbox?: SandboxOptions;
  env?: Record<string, string>;
  waitMs?: number;
  /** Slack on top of the wait for the per-call timeout (a loaded CI machine). */
  slackMs?: number;
}

/** The sandbox `harden` starts (a fresh random key and legacy credential) and a cache dir, no server. */
export async function hardenedSandbox(options: SandboxOptions = {}): Promise<HardenedSandbox> {
  const key = randomSecret("hk_");
  const legacyAuth = `lg${randomSecret("", 6)}:${randomSecret("", 14)}`;
  const sandbox = await startTestSandbox({
    key,
    legacyAuth,
    taskLatencyMs: 20,
    crawlPageMs: 2,
    rateLimit: 100_000,
    ...options,
  });
  const cacheDir = mkdtempSync(join(tmpdir(), "webdata-hardening-"));
  linkSharedCodeCache(cacheDir);
  return {
    sandbox,
    key,
    legacyAuth,
    cacheDir,
    async close() {
      await sandbox.close();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

/** Sandbox + built server with a fresh random key, the legacy tool on, logging at debug. */
export async function harden(options: HardenOptions = {}): Promise<Hardened> {
  const base = await hardenedSandbox(options.sandbox);
  const { sandbox, key, legacyAuth, cacheDir } = base;
  const waitMs = options.waitMs ?? 1500;
  const server = await spawnServer({
    env: {
      WEBDATA_BASE_URL: sandbox.url,
      WEBDATA_LEGACY_BASE_URL: sandbox.legacyUrl,
      WEBDATA_API_KEY: key,
      WEBDATA_LEGACY_AUTH: legacyAuth,
      WEBDATA_TOOLSETS: TOOLSETS.join(","),
      WEBDATA_WAIT_MS: String(waitMs),
      WEBDATA_MAX_RPS: "100000",
      WEBDATA_CACHE_DIR: cacheDir,
      ...options.env,
    },
  });
  const logs: string[] = [];
  server.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push(JSON.stringify(n.params));
  });
  await server.client.setLoggingLevel("debug");
  const results: string[] = [];
  const pid = server.transport.pid ?? -1;
  // Many concurrent calls queue writes on the child's stdin (which the SDK transport keeps to
  // itself); each waits for "drain". Raise the default for emitters of this test process.
  EventEmitter.defaultMaxListeners = Math.max(EventEmitter.defaultMaxListeners, 100);
  const slack = options.slackMs ?? 10_000;

  return {
    sandbox,
    server,
    key,
    legacyAuth,
    pid,
    cacheDir,
    async call(name, args, timeoutMs = waitMs + slack) {
      try {
        const r = (await server.client.callTool(
          { name, arguments: args as Record<string, unknown> },
          undefined,
          { timeout: timeoutMs },
        )) as ToolCall;
        results.push(JSON.stringify(r));
        return r;
      } catch (error) {
        results.push(String(error instanceof Error ? `${error.message} ${error.stack ?? ""}` : error));
        throw error;
      }
    },
    captured: () =>
      [
        ...results,
        server.stderr(),
        ...logs,
        ...server.errors.map((e) => e.message),
        ...server.notifications.map((n) => JSON.stringify(n)),
      ].join("\n"),
    alive() {
      if (pid < 0) return false;
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await server.close();
      await base.close();
    },
  };
}

/** Runs `fn` over `items` with at most `limit` at a time; resolves in input order. */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Every path and file content below `dir`, as one text (for secret scans). A linked dir (the run's
 * shared code cache, `linkSharedCodeCache`) is read through; a file another server renames away
 * meanwhile (its cache's temp file) is skipped.
 */
export function filesUnder(dir: string): string {
  let out = "";
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      const text = statSync(path).isDirectory() ? filesUnder(path) : readFileSync(path, "utf8");
      out += `${path}\n${text}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return out;
}
