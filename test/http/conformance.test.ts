/**
 * The MCP conformance suite (@modelcontextprotocol/conformance 0.1.13) against the built server
 * over Streamable HTTP in sandbox mode: every server scenario that applies to a server without
 * the suite's own test tools (see scripts/conformance.mjs for the list and why).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScenario, SCENARIOS, type ScenarioResult } from "../../scripts/conformance.mjs";
import { type HttpChild, spawnHttpServer } from "./child.js";

let server: HttpChild;
let results: Map<string, ScenarioResult>;

beforeAll(async () => {
  server = await spawnHttpServer();
  const list = await Promise.all(SCENARIOS.map((s) => runScenario(server.url, s)));
  results = new Map(list.map((r) => [r.scenario, r]));
}, 90_000);

afterAll(async () => {
  if (!server) return;
  server.child.kill("SIGTERM");
  expect(await server.exited).toBe(0);
});

describe("conformance server scenarios", () => {
  it.each(SCENARIOS)("%s", (scenario) => {
    const r = results.get(scenario)!;
    const failures = r.checks.filter((c) => c.status === "FAILURE");
    expect(failures, r.output).toEqual([]);
    expect(r.exitCode, r.output).toBe(0);
    expect(r.checks.some((c) => c.status === "SUCCESS")).toBe(true);
    expect(r.passed).toBe(true);
  });
});
