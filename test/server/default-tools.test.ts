/**
 * The user's contract, pinned (issue 29 §1): with no configuration at all, `tools/list` holds the
 * nine core tools of DESIGN.md and four more, named here literally (not derived from the registry,
 * so that moving a tool out of the default set fails here), on both API generations, over stdio
 * (the built CLI, which answers the first `tools/list` from dist/tool-list.json) and over HTTP;
 * and the whole answer, output schemas included, JSON as the server sends it, stays within 4,000
 * o200k tokens (docs/tools.md has the per-tool figures).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useHttpServerOn } from "../helpers/http-server.js";
import { spawnAgainst, TEST_KEY } from "../helpers/mcp.js";
import { useSandbox } from "../helpers/sandbox.js";
import { connect } from "../http/helpers.js";

/** The nine core tools (DESIGN.md), then the four the default adds. */
const DEFAULT_TOOLS = [
  "serp_search",
  "extract_page",
  "run_template",
  "run_agent",
  "crawl_site",
  "check_domain_health",
  "get_task",
  "list_agents",
  "job_runs",
  "web_search",
  "map_site",
  "extract_batch",
  "cancel",
];

const BUDGET = 4000;

/** `tools/list` exactly as answered: every member kept, nothing parsed away. */
async function listed(client: Client): Promise<{ names: string[]; tokens: number }> {
  const answer = await client.request(
    { method: "tools/list", params: {} },
    z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })) }),
  );
  return { names: answer.tools.map((t) => t.name), tokens: encode(JSON.stringify(answer)).length };
}

function expectDefault({ names, tokens }: { names: string[]; tokens: number }) {
  expect([...names].sort()).toEqual([...DEFAULT_TOOLS].sort());
  expect(tokens).toBeLessThanOrEqual(BUDGET);
}

const sandbox = useSandbox();

describe.each([
  ["auto (2)", {}],
  ["1", { WEBDATA_API_GENERATION: "1" }],
])("the default tools/list over stdio, API generation %s", (_label, env) => {
  it(`names the ${DEFAULT_TOOLS.length} default tools within ${BUDGET} tokens`, async () => {
    const server = await spawnAgainst(sandbox, env);
    try {
      expectDefault(await listed(server.client));
    } finally {
      await server.close();
    }
  });
});

describe.each([
  ["2", { WEBDATA_API_GENERATION: "2" }],
  ["1", { WEBDATA_API_GENERATION: "1" }],
])("the default tools/list over HTTP, API generation %s", (_label, env) => {
  const http = useHttpServerOn(sandbox, TEST_KEY, { env });

  it(`names the ${DEFAULT_TOOLS.length} default tools within ${BUDGET} tokens`, async () => {
    const c = await connect(http.url);
    try {
      expectDefault(await listed(c.client));
    } finally {
      await c.close();
    }
  });
});
