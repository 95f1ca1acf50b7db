/**
 * Helpers of the HTTP transport tests: a config for a sandbox, an SDK client over the real
 * `StreamableHTTPClientTransport`, and raw HTTP requests (node:http, so Host can be forged).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, expect } from "vitest";
import { type Config, loadConfig } from "../../src/config.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { sharedOutputValidators } from "../helpers/output-validators.js";

/**
 * The agent catalog cache of this test file's servers: a temp dir made on first use and removed
 * after the file's tests (this hook is registered when the test file imports these helpers), so
 * nothing lands in ~/.cache.
 */
let cacheDir: string | undefined;
afterAll(() => {
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
  cacheDir = undefined;
});

/** A config for `sandbox` (not `--sandbox` mode); WEBDATA_CACHE_DIR defaults to the file's temp dir. */
export function sandboxConfig(sandbox: Sandbox, apiKey: string, env: Record<string, string> = {}): Config {
  cacheDir ??=
    env.WEBDATA_CACHE_DIR === undefined ? mkdtempSync(join(tmpdir(), "webdata-http-test-")) : undefined;
  return loadConfig({
    WEBDATA_API_KEY: apiKey,
    WEBDATA_BASE_URL: sandbox.url,
    WEBDATA_LEGACY_BASE_URL: sandbox.legacyUrl,
    WEBDATA_WAIT_MS: "20000",
    ...(cacheDir ? { WEBDATA_CACHE_DIR: cacheDir } : {}),
    ...env,
  });
}

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  close(): Promise<void>;
}

/** An SDK client and its Streamable HTTP transport to `url`, not yet connected. */
function httpClient(url: string, headers: Record<string, string>) {
  const client = new Client(
    { name: "http-test", version: "1.0.0" },
    { jsonSchemaValidator: sharedOutputValidators },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  return { client, transport };
}

/** Connects an SDK client; `headers` go on every request (e.g. Authorization, X-Webdata-Api-Key). */
export async function connect(url: string, headers: Record<string, string> = {}): Promise<Connected> {
  const { client, transport } = httpClient(url, headers);
  await client.connect(transport);
  return {
    client,
    transport,
    close: async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

/** Connecting must fail; resolves with the error. Closes the client either way. */
export async function connectFails(url: string, headers: Record<string, string> = {}): Promise<Error> {
  const { client, transport } = httpClient(url, headers);
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close();
    return error as Error;
  }
  await client.close();
  throw new Error("connect succeeded but was expected to fail");
}

export const textOf = (result: unknown): string =>
  ((result as CallToolResult).content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json(): any;
}

/** One raw HTTP request to `url` with exactly these headers (Host included when given). */
export function raw(
  url: string,
  /** `text`: a JSON body sent as given (one `JSON.stringify` cannot write, e.g. 100k levels deep). */
  options: { method?: string; headers?: Record<string, string>; body?: unknown; text?: string } = {},
): Promise<RawResponse> {
  const target = new URL(url);
  const body = options.text ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? (body ? "POST" : "GET"),
        headers: {
          ...(body
            ? { "content-type": "application/json", accept: "application/json, text/event-stream" }
            : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            json: () => JSON.parse(text),
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    // A server may answer before reading the whole body (413) and close: the rest of the write
    // then fails with EPIPE on the socket after the response is in, which is no error of the test.
    req.on("socket", (socket) => socket.on("error", () => {}));
    req.end(body);
  });
}

export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/**
 * After a cancelled crawl (polled at `crawlPath`), a new short crawl_site call answers and the
 * server never polls the cancelled crawl again. `callTool` is the client's own (either SDK).
 */
export async function expectCancelledCrawlLeftAlone(
  sandbox: Sandbox,
  crawlPath: string,
  callTool: (params: {
    name: string;
    arguments: Record<string, unknown>;
  }) => Promise<Record<string, unknown>>,
): Promise<void> {
  sandbox.configure({ crawlPageMs: 30 });
  const after = sandbox.requests.length;
  const next = await callTool({ name: "crawl_site", arguments: { url: `${sandbox.siteUrl}/`, limit: 2 } });
  expect(next.isError ?? false).toBe(false);
  expect(sandbox.requests.slice(after).filter((q) => q.path === crawlPath)).toEqual([]);
}
