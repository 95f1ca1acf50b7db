/**
 * WEBDATA_AGENT_TOOLS on a cold start (an empty cache dir): the first tools/list already carries
 * the named agents' exact input schemas (their details are fetched before it is answered); a
 * permissive schema only when that fetch fails, then exactly one tools/list_changed once the
 * background refresh has the details. The built server over stdio with an SDK client.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { type StdioServer, spawnAgainst, startTestSandbox, until } from "../helpers/mcp.js";

const AGENTS = "ecommerce_search_listing,news_article";
const NAMES = ["agent_ecommerce_search_listing", "agent_news_article"];
const LIST_CHANGED = "notifications/tools/list_changed";

let sandbox: Sandbox;
let server: StdioServer | undefined;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  sandbox.faults.clear();
});
afterAll(async () => {
  await sandbox?.close();
});

type Listed = { name: string; inputSchema: { properties?: Record<string, unknown> } };
const agentTools = (tools: Listed[]) => tools.filter((t) => t.name.startsWith("agent_"));
const isExact = (t: Listed) => Object.keys(t.inputSchema.properties ?? {}).length > 0;
/** The background refresh has listed the catalog (GET /v2/extract/templates, the list itself). */
const refreshed = (from: number) =>
  until(
    () =>
      sandbox.requests
        .slice(from)
        .some((r) => r.method === "GET" && /^\/v2\/extract\/templates(\?|$)/.test(r.path)),
    (seen) => seen,
  );

describe("agent tools on a cold start", () => {
  it("the first tools/list has the exact schemas, and the refresh that changes nothing sends no list_changed", async () => {
    const from = sandbox.requests.length;
    server = await spawnAgainst(sandbox, { WEBDATA_AGENT_TOOLS: AGENTS, WEBDATA_CATALOG_REFRESH_MS: "100" });
    const first = agentTools((await server.client.listTools()).tools as Listed[]);
    expect(first.map((t) => t.name)).toEqual(NAMES);
    for (const t of first) expect(isExact(t), t.name).toBe(true);
    await refreshed(from);
    // One more refresh after the first (the catalog's timer): a list_changed would have come by then.
    const after = sandbox.requests.length;
    await refreshed(after);
    const again = agentTools((await server.client.listTools()).tools as Listed[]);
    expect(again).toEqual(first);
    expect(server.notifications.filter((n) => n.method === LIST_CHANGED)).toEqual([]);
  });

  it("when a detail fetch fails: permissive at first, then one list_changed and the exact schema", async () => {
    sandbox.faults.add({
      kind: "status",
      status: 400,
      match: "GET /v2/extract/templates/news_article",
      count: 1,
    });
    server = await spawnAgainst(sandbox, { WEBDATA_AGENT_TOOLS: AGENTS, WEBDATA_CATALOG_REFRESH_MS: "100" });
    const first = agentTools((await server.client.listTools()).tools as Listed[]);
    expect(first.map((t) => t.name)).toEqual(NAMES);
    expect(first.map(isExact)).toEqual([true, false]);
    const live = server;
    // stderr is its own pipe: the line may arrive after the list did.
    await until(
      () => live.stderr(),
      (text) => /agent news_article: details not fetched at start/.test(text),
    );
    await until(
      () => live.notifications.filter((n) => n.method === LIST_CHANGED).length,
      (n) => n > 0,
    );
    const later = agentTools((await server.client.listTools()).tools as Listed[]);
    expect(later.map(isExact)).toEqual([true, true]);
    // Further refreshes change nothing: still the one notification.
    const after = sandbox.requests.length;
    await refreshed(after);
    expect(server.notifications.filter((n) => n.method === LIST_CHANGED)).toHaveLength(1);
  });
});
