/**
 * No creating POST (a template generation, a research agent or run, a job, a job run) is ever
 * sent twice: under a 5xx, a reset after the service accepted it, and latency past the call's
 * deadline, each is sent once and the result says it may have been created.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Fault, Sandbox } from "../../src/sandbox/index.js";
import { call, type StdioServer, spawnAgainst, startTestSandbox, textOf, until } from "../helpers/mcp.js";

let sandbox: Sandbox;
let server: StdioServer;
beforeAll(async () => {
  sandbox = await startTestSandbox({ taskLatencyMs: 30 });
  server = await spawnAgainst(sandbox, { WEBDATA_TOOLSETS: "all", WEBDATA_WAIT_MS: "1500" });
});
afterAll(async () => {
  await server?.close();
  await sandbox?.close();
});

const CREATIONS: Array<{ label: string; path: string; tool: string; args: Record<string, unknown> }> = [
  {
    label: "template generation",
    path: "/v2/extract/templates/generations",
    tool: "generate_template",
    args: { prompt: "Extract the title", url: "https://shop.example.com/p/1" },
  },
  { label: "research run", path: "/v2/agents/runs", tool: "research", args: { input: "tents" } },
  {
    label: "research agent",
    path: "/v2/agents",
    tool: "manage_research_agent",
    args: { action: "create", template: "market_research" },
  },
  {
    label: "job",
    path: "/v2/jobs",
    tool: "manage_job",
    args: { action: "create", name: "once", extract_template_name: "ecommerce_product" },
  },
  {
    label: "job run",
    path: "/v2/jobs/job_daily_prices/runs",
    tool: "manage_job",
    args: { action: "trigger", job_id: "job_daily_prices" },
  },
];
const FAULTS: Array<[string, (match: string) => Fault]> = [
  ["a 503", (match) => ({ kind: "status", status: 503, match })],
  ["a reset after acceptance", (match) => ({ kind: "reset", after: "accept", match })],
  ["latency past the deadline", (match) => ({ kind: "latency", ms: 600_000, match })],
];

describe.each(CREATIONS)("$label", (creation) => {
  it.each(FAULTS)(
    "under %s: sent once, and the result says it may have been created",
    async (_n, fault) => {
      const from = sandbox.requests.length;
      sandbox.faults.add(fault(`POST ${creation.path}`));
      try {
        const r = await call(server, creation.tool, creation.args);
        expect(r.isError, textOf(r)).toBe(true);
        expect(textOf(r)).toMatch(/may have been (created|accepted)/);
      } finally {
        // Also ends the hold of a slowed request, which the sandbox logs when it ends.
        sandbox.faults.clear();
      }
      const sent = () =>
        sandbox.requests.slice(from).filter((q) => q.method === "POST" && q.path === creation.path).length;
      await until(sent, (n) => n > 0);
      expect(sent()).toBe(1);
    },
    30_000,
  );
});
