/**
 * Dedicated `agent_<name>` tools (WEBDATA_AGENT_TOOLS) end to end over stdio: exact schemas in
 * the very first tools/list from the cache; a cold start against a slow catalog lists at once
 * (permissive tools checked at call time) and then sends tools/list_changed; catalog changes on
 * the sandbox reach a connected client as tools/list_changed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentDetail } from "../../src/api/schemas.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import {
  call,
  type StdioServer,
  spawnAgainst,
  startTestSandbox,
  TEST_KEY,
  textOf,
  until,
} from "../helpers/mcp.js";
import { detail, prop } from "./fixtures.js";

const AGENTS = "ecommerce_search_listing,news_article";
let cacheDir: string;
const open: Array<{ close(): Promise<void> }> = [];

beforeEach(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), "agent-tools-"));
});
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
  await rm(cacheDir, { recursive: true, force: true });
});

async function sandboxWith(options: Parameters<typeof startTestSandbox>[0] = {}) {
  const s = await startTestSandbox(options);
  open.push(s);
  return s;
}
/**
 * Generation 1: the schemas are compared with `GET /v1/agents/{name}` (in the sandbox, news_article
 * is also a built-in extract template with other params; generation 2 reads that one). The
 * generation-2 agent tools are covered by test/e2e/dialects.e2e.test.ts.
 */
async function serverFor(s: Sandbox, env: Record<string, string> = {}) {
  const server = await spawnAgainst(s, {
    WEBDATA_CACHE_DIR: cacheDir,
    WEBDATA_AGENT_TOOLS: AGENTS,
    WEBDATA_API_GENERATION: "1",
    ...env,
  });
  open.push(server);
  return server;
}
async function agentDetail(s: Sandbox, name: string): Promise<AgentDetail> {
  const res = await fetch(`${s.url}/v1/agents/${name}`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
  return (await res.json()) as AgentDetail;
}
const listTools = async (server: StdioServer) => (await server.client.listTools()).tools;
const find = (tools: Tool[], name: string) => tools.find((t) => t.name === name);
const isExact = (t: Tool | undefined) => Object.keys(t?.inputSchema.properties ?? {}).length > 0;
const listChanged = (server: StdioServer) =>
  server.notifications.filter((n) => n.method === "notifications/tools/list_changed").length;

/** The tool's schemas say exactly what the agent's input_properties and output_schema say. */
function expectExact(tool: Tool | undefined, d: AgentDetail) {
  expect(tool, d.name).toBeDefined();
  const input = tool!.inputSchema as Record<string, any>;
  const props = d.input_properties ?? [];
  // Listed for every model API: the optional params nullable; limits, examples and defaults said
  // in the description (src/server/input-schema.ts); unknown names refused by the server.
  expect(Object.keys(input.properties)).toEqual(props.map((p) => p.name));
  expect(input.required ?? []).toEqual(props.filter((p) => p.required).map((p) => p.name));
  for (const p of props) {
    const js = input.properties[p.name];
    expect(js.description, p.name).toContain(p.description);
    if (p.examples) expect(js.description, p.name).toContain(`e.g. ${JSON.stringify(p.examples[0])}`);
    if (p.default !== null) expect(js.description, p.name).toContain(`default ${JSON.stringify(p.default)}`);
    const types = [js.type ?? js.anyOf?.map((b: { type: string }) => b.type)].flat();
    expect(types.includes("null"), p.name).toBe(!p.required);
    const min = p.rules.find((r) => r.startsWith("min_length:"));
    if (min)
      expect(js.description, p.name).toMatch(
        new RegExp(`(at least |\\b)${min.split(":")[1]}\\b.* characters`),
      );
  }
  // The listed output schema names the members (their types are in the structured content:
  // src/server/list-tools.ts keeps only names and enums below the top level).
  const out = (tool!.outputSchema?.properties ?? {}) as Record<string, { type?: string }>;
  expect(Object.keys(out)).toEqual(Object.keys(d.output_schema ?? {}));
}

describe("dedicated agent tools", () => {
  it("agent tools(cached): the very first tools/list has the exact schemas", async () => {
    const s = await sandboxWith();
    const first = await serverFor(s);
    // No cache yet: the refresh fills it and swaps in the exact tools.
    await until(
      () => listTools(first),
      (tools) => isExact(find(tools, "agent_news_article")),
    );
    await first.close();

    const second = await serverFor(s);
    const tools = await listTools(second);
    expectExact(
      find(tools, "agent_ecommerce_search_listing"),
      await agentDetail(s, "ecommerce_search_listing"),
    );
    expectExact(find(tools, "agent_news_article"), await agentDetail(s, "news_article"));
  });

  it("agent tools(call): validated params in the agent's words; valid ones run", async () => {
    const s = await sandboxWith();
    const server = await serverFor(s);
    await until(
      () => listTools(server),
      (tools) => isExact(find(tools, "agent_ecommerce_search_listing")),
    );
    const from = s.requests.length;
    const bad = await call(server, "agent_ecommerce_search_listing", { query: "x" });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('param "query" must be at least 2 characters long');
    expect(textOf(bad)).toContain("Search keyword or phrase");
    expect(
      s.requests.slice(from).filter((r) => /^\/v1\/agents\/run|^\/v2\/extract\/templates\/run/.test(r.path)),
    ).toEqual([]);
    const ok = await call(server, "agent_ecommerce_search_listing", { query: "laptop" });
    expect(ok.isError).toBeFalsy();
    const d = await agentDetail(s, "ecommerce_search_listing");
    for (const k of Object.keys(ok.structuredContent))
      expect(Object.keys(d.output_schema ?? {})).toContain(k);
    expect(Object.keys(ok.structuredContent).length).toBeGreaterThan(0);
  });

  it("agent tools(cold, catalog delayed 5 s): tools/list answers at once, then tools/list_changed", async () => {
    const s = await sandboxWith({ catalogDelayMs: 5000 });
    const server = await serverFor(s);
    const tools = await listTools(server);
    // Listed before the catalog answered: core tools plus permissive agent tools.
    for (const name of ["list_agents", "run_agent", "serp_search"])
      expect(find(tools, name), name).toBeDefined();
    const permissive = find(tools, "agent_ecommerce_search_listing");
    expect(permissive).toBeDefined();
    expect(isExact(permissive)).toBe(false);
    // The permissive tool checks at call time, against the details it fetches then.
    const from = s.requests.length;
    const bad = await call(server, "agent_ecommerce_search_listing", { query: "x" });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('param "query" must be at least 2 characters long');
    expect(
      s.requests.slice(from).filter((r) => /^\/v1\/agents\/run|^\/v2\/extract\/templates\/run/.test(r.path)),
    ).toEqual([]);
    await until(
      () => listChanged(server),
      (n) => n > 0,
    );
    const later = await until(
      () => listTools(server),
      (t) => isExact(find(t, "agent_ecommerce_search_listing")),
    );
    expectExact(
      find(later, "agent_ecommerce_search_listing"),
      await agentDetail(s, "ecommerce_search_listing"),
    );
  });

  it("agent tools(catalog change): sandbox.catalog.add/remove reach the client as tools/list_changed", async () => {
    const s = await sandboxWith();
    const server = await serverFor(s, {
      WEBDATA_AGENT_TOOLS: "ecommerce_search_listing,brand_new_agent",
      WEBDATA_CATALOG_REFRESH_MS: "100",
    });
    await until(
      () => listTools(server),
      (t) => isExact(find(t, "agent_ecommerce_search_listing")) && !find(t, "agent_brand_new_agent"),
    );
    const before = listChanged(server);
    const added = detail("brand_new_agent", [
      prop({ name: "sku", type: "string", required: true, rules: ["min_length:4"], examples: ["SKU-1234"] }),
    ]);
    s.catalog.add(added);
    await until(
      () => listChanged(server),
      (n) => n > before,
    );
    const tools = await until(
      () => listTools(server),
      (t) => find(t, "agent_brand_new_agent") !== undefined,
    );
    expectExact(find(tools, "agent_brand_new_agent"), added);
    const ok = await call(server, "agent_brand_new_agent", { sku: "SKU-1234" });
    expect(ok.isError).toBeFalsy();

    const mid = listChanged(server);
    s.catalog.remove("brand_new_agent");
    await until(
      () => listChanged(server),
      (n) => n > mid,
    );
    await until(
      () => listTools(server),
      (t) => !find(t, "agent_brand_new_agent"),
    );
  });
});
