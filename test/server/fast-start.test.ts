/**
 * The stdio fast front (src/server/fast-start.ts): what it answers from the build snapshot before
 * the full server is loaded must be exactly what the full server answers, and everything else
 * (logging, progress, cancellation, calls sent at once) must reach the full server unchanged.
 * Raw JSON-RPC over the built `dist/cli.js`, so messages can be pipelined before the SDK loads.
 * With WEBDATA_AGENT_TOOLS: test/agents/fast-start-agents.e2e.test.ts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type JSONRPCMessage, LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { createServer } from "../../src/server/create-server.js";
import {
  initialized,
  initParams,
  type Msg,
  type RawServer,
  spawnRaw as spawnRawServer,
} from "../agents/raw-stdio.js";
import { assertBuilt, startTestSandbox, TEST_KEY, until } from "../helpers/mcp.js";

let sandbox: Sandbox;
let cacheDir: string;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  assertBuilt();
  sandbox = await startTestSandbox();
  cacheDir = await mkdtemp(join(tmpdir(), "fast-start-"));
});
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});
afterAll(async () => {
  await sandbox?.close();
  await rm(cacheDir, { recursive: true, force: true });
});

function envFor(extra: Record<string, string>): Record<string, string> {
  return {
    WEBDATA_BASE_URL: sandbox.url,
    WEBDATA_API_KEY: TEST_KEY,
    WEBDATA_WAIT_MS: "20000",
    WEBDATA_CACHE_DIR: cacheDir,
    ...extra,
  };
}

function spawnRaw(extra: Record<string, string> = {}): RawServer {
  const server = spawnRawServer(envFor(extra));
  open.push(server);
  return server;
}

/** The same requests answered by `createServer()` in this process, for the same environment. */
async function inProcess(extra: Record<string, string>, protocolVersion: string) {
  const app = createServer({ config: loadConfig(envFor(extra)), stderrLevel: "error" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const got: Msg[] = [];
  clientSide.onmessage = (m: JSONRPCMessage) => got.push(JSON.parse(JSON.stringify(m)));
  await app.server.connect(serverSide);
  await clientSide.start();
  const ask = async (id: number, method: string, params?: unknown) => {
    await clientSide.send({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) } as JSONRPCMessage);
    return (await until(
      () => got.find((m) => m.id === id),
      (m) => m !== undefined,
    )) as Msg;
  };
  try {
    const init = await ask(1, "initialize", initParams(protocolVersion));
    await clientSide.send(initialized as JSONRPCMessage);
    const list = await ask(2, "tools/list");
    return { init: init.result, list: list.result };
  } finally {
    await app.close();
  }
}

describe.each([
  ["default", {}],
  ["search,extract", { WEBDATA_TOOLSETS: "search,extract" }],
  ["legacy auth", { WEBDATA_LEGACY_AUTH: "demo:demo" }],
  ["all toolsets", { WEBDATA_TOOLSETS: "all", WEBDATA_LEGACY_AUTH: "demo:demo" }],
])("fast front, %s config", (_label, extra: Record<string, string>) => {
  it("answers initialize and the first tools/list exactly as the full server does", async () => {
    const server = spawnRaw(extra);
    const init = server.request("initialize", initParams("2025-06-18"));
    const first = server.request("tools/list");
    server.send(init, initialized, first);
    const firstList = (await server.response(first.id)).result;
    const initResult = (await server.response(init.id)).result;

    // Once a call has gone through the full server, tools/list is the SDK's own answer.
    const search = server.request("tools/call", {
      name: "get_task",
      arguments: { task_id: "00000000-0000-4000-8000-000000000000" },
    });
    server.send(search);
    await server.response(search.id);
    const later = server.request("tools/list");
    server.send(later);
    const laterList = (await server.response(later.id)).result;

    expect(firstList.tools.length).toBeGreaterThan(0);
    expect(firstList).toEqual(laterList);
    const reference = await inProcess(extra, "2025-06-18");
    expect(firstList).toEqual(reference.list);
    expect(initResult).toEqual(reference.init);
    expect(server.received.filter((m) => m.error)).toEqual([]);
  });
});

describe("fast front: protocol version negotiation", () => {
  it.each(["2025-06-18", "2024-11-05", "1999-01-01"])(
    "negotiates %s like the SDK server",
    async (version) => {
      const server = spawnRaw();
      const init = server.request("initialize", initParams(version));
      const list = server.request("tools/list");
      server.send(init, initialized, list);
      const result = (await server.response(init.id)).result;
      const reference = await inProcess({}, version);
      expect(result).toEqual(reference.init);
      expect(result.protocolVersion).toBe(version === "1999-01-01" ? LATEST_PROTOCOL_VERSION : version);
      expect((await server.response(list.id)).result).toEqual(reference.list);
    },
  );
});

describe("fast front: messages for the full server", () => {
  it("logging/setLevel and a tools/call sent right after initialize work, with progress", async () => {
    const server = spawnRaw();
    const init = server.request("initialize", initParams("2025-06-18"));
    const level = server.request("logging/setLevel", { level: "debug" });
    const crawl = server.request("tools/call", {
      name: "crawl_site",
      arguments: { url: "https://example.com/", limit: 4 },
      _meta: { progressToken: "crawl-progress" },
    });
    server.send(init, initialized, level, crawl);
    expect((await server.response(level.id)).result).toEqual({});
    const result = (await server.response(crawl.id)).result;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toBeDefined();
    const progress = server
      .notifications("notifications/progress")
      .filter((n) => n.params.progressToken === "crawl-progress");
    expect(progress.length).toBeGreaterThan(0);
    await until(
      () => server.notifications("notifications/message").length,
      (n) => n > 0,
    );
    expect(server.received.filter((m) => m.error)).toEqual([]);
  });

  it("a call cancelled before the full server loaded is never answered; the next one is", async () => {
    sandbox.configure({ taskLatencyMs: 60_000 });
    try {
      // Uncancelled, the call would answer with a pending handle after WEBDATA_WAIT_MS.
      const server = spawnRaw({ WEBDATA_WAIT_MS: "500" });
      const init = server.request("initialize", initParams("2025-06-18"));
      const slow = server.request("tools/call", {
        name: "extract_page",
        arguments: { url: "https://example.com/cancelled", render: true },
      });
      const cancel = {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: slow.id, reason: "test" },
      };
      const ping = server.request("ping");
      server.send(init, initialized, slow, cancel);
      // A request the full server answers after it has seen the cancellation.
      const next = server.request("tools/call", { name: "serp_search", arguments: {} });
      server.send(next, ping);
      await server.response(next.id);
      await server.response(ping.id);
      await new Promise((r) => setTimeout(r, 1500));
      expect(server.received.filter((m) => m.id === slow.id)).toEqual([]);
    } finally {
      sandbox.configure({ taskLatencyMs: 100 });
    }
  });
});
