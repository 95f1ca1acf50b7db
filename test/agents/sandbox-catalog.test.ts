/**
 * The converters against the sandbox's real agent catalog: every agent's schemas build without
 * degradation, its own examples pass both our check and the sandbox's, and what we reject the
 * sandbox rejects too (so a local rejection never refuses a call the API would take).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentCatalog } from "../../src/agents/catalog.js";
import { checkParams, compileAgent } from "../../src/agents/compile.js";
import { agentExampleParams } from "../../src/agents/example-params.js";
import { WebDataClient } from "../../src/api/client.js";
import type { AgentDetail } from "../../src/api/schemas.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { startTestSandbox, TEST_KEY } from "../helpers/mcp.js";

/** The example params the server shows for the agent (built where the catalog gives none). */
function sample(d: AgentDetail): Record<string, unknown> | undefined {
  const example = agentExampleParams(d, compileAgent(d));
  return example.missing.length === 0 ? example.params : undefined;
}

let sandbox: Sandbox;
let client: WebDataClient;
let details: AgentDetail[];

beforeAll(async () => {
  sandbox = await startTestSandbox({ extraAgents: 6 });
  client = new WebDataClient({ baseUrl: sandbox.url, apiKey: TEST_KEY });
  const catalog = new AgentCatalog({ client, baseUrl: sandbox.url });
  await catalog.refresh();
  details = await Promise.all((catalog.list() ?? []).map((a) => catalog.detail(a.name)));
  catalog.close();
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

describe("every agent of the sandbox catalog", () => {
  it("has at least 20 agents, each with input_properties", () => {
    expect(details.length).toBeGreaterThanOrEqual(20);
    for (const d of details) expect(Array.isArray(d.input_properties), d.name).toBe(true);
  });

  it("builds exact params and output schemas with no degradation notes", () => {
    for (const d of details) {
      const agent = compileAgent(d);
      expect(agent.notes, d.name).toEqual([]);
      expect(agent.params.exact && agent.output.exact, d.name).toBe(true);
      const json = z.toJSONSchema(agent.params.schema, { io: "input" }) as {
        properties: object;
        required?: string[];
      };
      expect(Object.keys(json.properties), d.name).toEqual(d.input_properties!.map((p) => p.name));
      expect(json.required ?? [], d.name).toEqual(
        d.input_properties!.filter((p) => p.required).map((p) => p.name),
      );
      expect(() => z.toJSONSchema(agent.output.schema, { io: "output" }), d.name).not.toThrow();
    }
  });

  it("round-trips every example of every param, and the assembled example params", () => {
    let examples = 0;
    for (const d of details) {
      const agent = compileAgent(d);
      for (const p of d.input_properties ?? []) {
        for (const ex of p.examples ?? []) {
          examples++;
          const field = agent.params.schema.shape[p.name] as z.ZodType;
          expect(field.safeParse(ex).success, `${d.name}.${p.name} = ${JSON.stringify(ex)}`).toBe(true);
        }
      }
      const params = sample(d);
      if (params) expect(checkParams(agent, params).problems, d.name).toEqual([]);
    }
    expect(examples).toBeGreaterThan(40);
    expect(details.filter((d) => sample(d)).length).toBe(details.length);
  });

  it("is run by the sandbox on its example params, with output that fits its output schema", async () => {
    for (const d of details) {
      const params = sample(d);
      if (!params) continue;
      const result = await client.runAgent({ agent: d.name, params });
      const out = compileAgent(d).output.schema.safeParse(result.data.parsing);
      expect(out.success, `${d.name}: ${out.error?.message}`).toBe(true);
    }
  });

  it("rejects too-short strings and wrong types exactly where the sandbox does", async () => {
    let compared = 0;
    for (const d of details) {
      const agent = compileAgent(d);
      const base = sample(d);
      if (!base) continue;
      for (const p of d.input_properties ?? []) {
        const min = p.rules.map((r) => /^min_length:(\d+)$/.exec(r)?.[1]).find(Boolean);
        const bad: unknown[] = [p.type === "string" ? 12345 : "not-a-number"];
        if (min && Number(min) > 0) bad.push("x".repeat(Number(min) - 1));
        for (const value of bad) {
          const params = { ...base, [p.name]: value };
          expect(checkParams(agent, params).ok, `${d.name}.${p.name}=${JSON.stringify(value)}`).toBe(false);
          const upstream = await client.runAgent({ agent: d.name, params }).then(
            () => "accepted",
            (e) => e.code,
          );
          expect(upstream, `${d.name}.${p.name}=${JSON.stringify(value)}`).toBe("validation_failed");
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(40);
  });
});
