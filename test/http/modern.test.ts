/**
 * Revision 2026-07-28 on `/mcp` beside 2025-11-25 (issue 32): the official v2 client pinned to the
 * new revision (no `initialize`, no session) and a 2025 client with its session, on one server
 * behind the static token. Discover, the cache hints the agent catalog implies, a long call's
 * progress on its own stream, cancel by closing that stream, the per-request log level,
 * `subscriptions/listen` hearing a catalog change, the principal's own links.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { detail, prop } from "../agents/fixtures.js";
import { useHttpServer } from "../helpers/http-server.js";
import { until } from "../helpers/mcp.js";
import { connect, expectCancelledCrawlLeftAlone, textOf } from "./helpers.js";

const KEY = "wdk_modernREVISIONkeyQZ";
const TOKEN = "modern-test-token-0123456789";
const NEW_AGENT = "modern_new_agent";
const REFRESH_MS = 200;
const AUTH = { authorization: `Bearer ${TOKEN}` };

const fx = useHttpServer(KEY, {
  sandbox: { crawlPageMs: 30 },
  env: {
    WEBDATA_AGENT_TOOLS: `ecommerce_search_listing,${NEW_AGENT}`,
    WEBDATA_CATALOG_REFRESH_MS: String(REFRESH_MS),
    // Longer than the test's own timeout: only the cancel can end the crawl call's work in time.
    WEBDATA_WAIT_MS: "120000",
  },
  server: { token: TOKEN },
});

async function modernClient(headers: Record<string, string> = AUTH) {
  const client = new Client(
    { name: "modern-test", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(fx.http.url), { requestInit: { headers } }));
  return client;
}

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

/** One raw new-era POST: the response status, headers and body text. */
async function post(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  const response = await fetch(fx.http.url, {
    method: "POST",
    headers: {
      ...AUTH,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof params.name === "string" ? { "mcp-name": params.name } : {}),
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: { ...params, _meta: { ...ENVELOPE, ...meta } },
    }),
  });
  return {
    status: response.status,
    type: response.headers.get("content-type") ?? "",
    text: await response.text(),
  };
}

const resultOf = (text: string) => {
  const line = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .filter((l) => l.startsWith("data: "))
        .at(-1) ?? "");
  return JSON.parse(line.replace(/^data: /, "")) as {
    result?: Record<string, unknown>;
    error?: { code: number };
  };
};

describe("MCP 2026-07-28 beside 2025-11-25 on one /mcp", () => {
  it("a pinned v2 client discovers, lists and calls without a session; a 2025 client keeps its session", async () => {
    const client = await modernClient();
    try {
      expect(client.getProtocolEra()).toBe("modern");
      expect(client.getDiscoverResult()?.instructions).toMatch(/get_task/);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("extract_page");
      const result = await client.callTool({
        name: "extract_page",
        arguments: { url: `${fx.sandbox.siteUrl}/` },
      });
      expect(result.isError ?? false).toBe(false);
      const bad = await client.callTool({ name: "extract_page", arguments: { ur: "x" } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/url/);
    } finally {
      await client.close();
    }
    const legacy = await connect(fx.http.url, AUTH);
    try {
      expect(legacy.transport.sessionId).toBeTruthy();
      expect((await legacy.client.listTools()).tools.length).toBeGreaterThan(5);
    } finally {
      await legacy.close();
    }
  });

  it("authenticates as the 2025 path does: no token, no answer", async () => {
    const refused = await post("tools/list", {}, { authorization: "" });
    expect(refused.status).toBe(401);
    await expect(modernClient({})).rejects.toThrow();
  });

  it("tools/list carries the catalog's refresh as ttlMs: public under the server's key, private under the caller's own", async () => {
    const shared = resultOf((await post("tools/list")).text).result!;
    expect(shared).toMatchObject({ ttlMs: REFRESH_MS, cacheScope: "public", resultType: "complete" });
    const own = resultOf((await post("tools/list", {}, { "x-webdata-api-key": KEY })).text).result!;
    expect(own).toMatchObject({ ttlMs: REFRESH_MS, cacheScope: "private" });
    const templates = resultOf((await post("resources/templates/list")).text).result!;
    expect(templates).toMatchObject({ cacheScope: "public" });
  });

  it("removed methods and foreign versions get the revision's errors", async () => {
    expect(resultOf((await post("ping")).text).error?.code).toBe(-32601);
    expect(resultOf((await post("logging/setLevel", { level: "debug" })).text).error?.code).toBe(-32601);
    const mismatch = await post("tools/list", {}, { "mcp-method": "tools/call" });
    expect(resultOf(mismatch.text).error?.code).toBe(-32020);
    const future = await post(
      "tools/list",
      {
        _meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
      },
      { "mcp-protocol-version": "2099-01-01" },
    );
    expect(resultOf(future.text)).toMatchObject({
      error: { code: -32022, data: { supported: ["2026-07-28"] } },
    });
  });

  it("log lines reach only a request that asked with _meta logLevel", async () => {
    const args = { name: "extract_page", arguments: { url: `${fx.sandbox.siteUrl}/` } };
    const quiet = await post("tools/call", args);
    expect(quiet.text).not.toMatch(/notifications\/message/);
    const chatty = await post("tools/call", {
      ...args,
      _meta: { "io.modelcontextprotocol/logLevel": "debug" },
    });
    expect(chatty.type).toMatch(/text\/event-stream/);
    expect(chatty.text).toMatch(/notifications\/message.*tool extract_page done/);
  });

  it("a long call reports progress on its own stream, and closing that stream ends its work", async () => {
    const client = await modernClient();
    try {
      fx.sandbox.configure({ crawlPageMs: 3_600_000 });
      const controller = new AbortController();
      const before = fx.sandbox.requests.length;
      let progressed = 0;
      const pending = client.callTool(
        { name: "crawl_site", arguments: { url: `${fx.sandbox.siteUrl}/`, limit: 3 } },
        {
          signal: controller.signal,
          onprogress: () => {
            progressed += 1;
          },
        },
      );
      pending.catch(() => {});
      const polls = () => fx.sandbox.requests.slice(before).filter((q) => /^\/v[12]\/crawl\//.test(q.path));
      await until(polls, (p) => p.length >= 1);
      await until(
        () => progressed,
        (n) => n >= 1,
      );
      const crawlPath = polls()[0].path;
      controller.abort();
      await expect(pending).rejects.toThrow(/abort/i);
      const running = async () =>
        (
          (await (await fetch(new URL("/healthz", fx.http.url), { headers: AUTH })).json()) as Record<
            string,
            number
          >
        ).active_requests_2026;
      await until(running, (n) => n === 0);
      await expectCancelledCrawlLeftAlone(fx.sandbox, crawlPath, (params) => client.callTool(params));
    } finally {
      fx.sandbox.configure({ crawlPageMs: 30 });
      await client.close();
    }
  });

  it("subscriptions/listen hears tools/list_changed when the agent catalog changes", async () => {
    const client = await modernClient();
    const hasNew = async () => (await client.listTools()).tools.some((t) => t.name === `agent_${NEW_AGENT}`);
    // The catalog's first read may still be settling: wait until the new agent is known absent.
    await until(hasNew, (listed) => !listed);
    let heard = 0;
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      heard += 1;
    });
    const subscription = await client.listen({ toolsListChanged: true });
    try {
      fx.sandbox.catalog.add(detail(NEW_AGENT, [prop({ name: "query", type: "string", required: true })]));
      await until(
        () => heard,
        (n) => n > 0,
      );
      expect(await hasNew()).toBe(true);
    } finally {
      fx.sandbox.catalog.remove(NEW_AGENT);
      await subscription.close();
      await client.close();
    }
  });
});
