/**
 * WEBDATA_API_GENERATION=auto (the default) against a service without generation 2 (the
 * sandbox with `generation2: false`, in both generation-1 dialects): every tool works (its core
 * call and its registry examples, the issue-24 tools' included), falling back to the
 * generation-1 route; a tool without one says it needs generation 2; each generation-2 route
 * answers 404 at most once, and each fallback is logged once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import { routesOf } from "../../src/tools/routes-by-tool.js";
import { call, type StdioServer, spawnAgainst, startTestSandbox, textOf } from "../helpers/mcp.js";

const AGENT = "ecommerce_search_listing";

/** Every tool's core call, twice over (the second must go straight to generation 1). */
const calls = (site: string): [string, Record<string, unknown>][] => [
  ["serp_search", { search_engine: "engine1_search", query: "hiking boots" }],
  ["extract_page", { url: `${site}/` }],
  ["extract_page", { url: `${site}/about`, render: true }],
  ["extract_batch", { inputs: [{ url: `${site}/` }, { url: `${site}/blog` }] }],
  ["run_agent", { agent: AGENT, params: { query: "laptop" } }],
  ["run_agent", { agent: AGENT, params: { query: "usb cable" }, pages: 2 }],
  [`agent_${AGENT}`, { query: "tent" }],
  ["list_agents", { name: AGENT }],
  ["run_template", { template: "ecommerce_product", params: { url: "https://shop.example.com/p/1" } }],
  ["crawl_site", { url: `${site}/`, limit: 2 }],
  ["map_site", { url: `${site}/` }],
  ["check_domain_health", { domains: ["example.com"], include_driver: true }],
  ["job_runs", { job_id: "job_daily_prices" }],
  ["get_task", { limit: 5 }],
];

/**
 * The tool whose routes generation 1 lacks (the other generation-2-only routes, such as
 * `/v2/serp` and template runs, are in the generation-1 spec too): it says it needs generation 2.
 */
const GENERATION2_ONLY = ["manage_template"];
/** Every other tool's registry examples (the issue-24 tools among them). */
const EXAMPLES = ALL_TOOLS.filter(
  (t) => routesOf(t.name).length > 0 && !["serp_search", "extract_page"].includes(t.name),
).flatMap((t) => (t.examples ?? []).map((a) => [t.name, a] as const));

describe.each(["spec", "live"] as const)(
  "auto against a generation-1-only service (%s dialect)",
  (dialect) => {
    let sandbox: Sandbox;
    let server: StdioServer;

    beforeAll(async () => {
      sandbox = await startTestSandbox({ dialect, generation2: false });
      server = await spawnAgainst(sandbox, { WEBDATA_AGENT_TOOLS: AGENT, WEBDATA_TOOLSETS: "all" });
    });
    afterAll(async () => {
      await server?.close();
      await sandbox?.close();
    });

    it("every tool works, twice", async () => {
      for (let round = 0; round < 2; round++) {
        for (const [tool, args] of [...calls(sandbox.siteUrl), ...EXAMPLES]) {
          const r = await call(server, tool, { ...args });
          if (GENERATION2_ONLY.includes(tool)) {
            expect(r.isError, tool).toBe(true);
            expect(textOf(r)).toContain("needs a service with API generation 2");
          } else expect(r.isError, `${tool} (round ${round + 1}): ${textOf(r)}`).toBeFalsy();
        }
      }
      const task = await call(server, "get_task", { limit: 1 });
      const id = task.structuredContent.tasks[0].task_id;
      expect((await call(server, "get_task", { task_id: id })).isError).toBeFalsy();
    });

    it("each generation-2 route answered 404 at most once, and each fallback was logged once", async () => {
      const notFound = new Map<string, number>();
      for (const r of sandbox.requests) {
        if (r.status !== 404 || !r.path.startsWith("/v2/")) continue;
        const route = `${r.method} ${r.path.replace(/[0-9a-f-]{36}/g, ":id")}`;
        notFound.set(route, (notFound.get(route) ?? 0) + 1);
      }
      expect(notFound.size).toBeGreaterThan(5);
      for (const [route, n] of notFound) expect(n, route).toBe(1);
      const lines = server.stderr().match(/no generation-2 route for \w+/g) ?? [];
      expect(new Set(lines).size).toBe(lines.length);
      expect(lines.length).toBeGreaterThan(5);
    });
  },
);
