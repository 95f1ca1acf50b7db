// Token benchmarks (run `npm run build` first): what a client that forwards a tool result to its
// model pays, per tool, counted with gpt-tokenizer (o200k). A client forwarding both parts
// (LangChain, Gemini's mcpToTool, Vercel AI SDK, Mastra) pays text + structured; a page body or a
// long list must not be in both (issue 22 item 3). BENCH_TOKENS_CLI points at another build (e.g.
// a checkout of an earlier commit) to measure "before".

import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { encode } from "gpt-tokenizer";

const CLI = process.env.BENCH_TOKENS_CLI ?? fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));

const five = ["a", "b", "c", "d", "e"].map((p) => ({ url: `https://example.com/${p}` }));

/**
 * Each call, and what it forwarded before the `webdata://` links (text / structured / links,
 * measured with BENCH_TOKENS_CLI at the commit before them). `args` may read the results of the
 * calls before it (e.g. a job run id).
 */
const CALLS = [
  {
    label: "extract_page",
    tool: "extract_page",
    args: { url: "https://example.com/" },
    before: [169, 55, 0],
  },
  {
    label: "extract_batch (5 pages)",
    tool: "extract_batch",
    args: { inputs: five },
    before: [969, 313, 0],
  },
  {
    label: "crawl_site (5 pages)",
    tool: "crawl_site",
    args: { url: "https://example.com/", limit: 5 },
    before: [982, 322, 0],
  },
  {
    label: "serp_search (10 results)",
    tool: "serp_search",
    args: { search_engine: "engine1_search", query: "hiking boots", num_results: 10 },
    before: [691, 405, 0],
  },
  {
    label: "check_domain_health (2 domains)",
    tool: "check_domain_health",
    args: { domains: ["example.com", "example.org"] },
    before: [35, 266, 0],
  },
  {
    label: "run_agent (product page)",
    tool: "run_agent",
    args: { agent: "ecommerce_product_page", params: { url: "https://shop.example.com/p/123" } },
    before: [160, 196, 0],
  },
  {
    label: "job_runs (a run with artifacts)",
    tool: "job_runs",
    args: (seen) => ({ run_id: seen.runWithArtifacts }),
    before: [82, 217, 0],
  },
  {
    label: "download_media (a PDF, linked)",
    tool: "download_media",
    args: { url: "https://cdn.example.com/manual.pdf" },
    before: [218, 298, 0],
  },
];

/** A finished run of the sandbox's daily job (it has an artifact). */
async function runWithArtifacts(client) {
  const list = await client.callTool({ name: "job_runs", arguments: { job_id: "job_daily_prices" } });
  const runs = list.structuredContent?.runs ?? [];
  const run = runs.find((r) => (r.artifact_ids ?? []).length > 0);
  if (!run) throw new Error(`no run with artifacts: ${JSON.stringify(list.content)}`);
  return run.id;
}

const tokens = (text) => encode(text).length;

/** Tokens of the result's text items, its structuredContent, and its resource links. */
export function split(result) {
  const content = result.content ?? [];
  const text = content.filter((c) => c.type === "text").reduce((n, c) => n + tokens(c.text), 0);
  const links = content
    .filter((c) => c.type === "resource_link")
    .reduce((n, c) => n + tokens(JSON.stringify(c)), 0);
  const structured = result.structuredContent ? tokens(JSON.stringify(result.structuredContent)) : 0;
  return { text, structured, links };
}

export async function run() {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "--sandbox"],
    env: { ...getDefaultEnvironment(), WEBDATA_TOOLSETS: "all" },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-tokens", version: "1" });
  await client.connect(transport);
  const rows = [];
  try {
    const seen = { runWithArtifacts: await runWithArtifacts(client) };
    for (const call of CALLS) {
      const args = typeof call.args === "function" ? call.args(seen) : call.args;
      const result = await client.callTool({ name: call.tool, arguments: args });
      if (result.isError) throw new Error(`${call.label}: ${JSON.stringify(result.content)}`);
      const now = split(result);
      const both = now.text + now.structured + now.links;
      const textOnly = now.text;
      const [bt, bs, bl] = call.before;
      rows.push({
        metric: `${call.label}: tokens forwarded by a client forwarding both (text ${now.text} / structured ${now.structured} / links ${now.links}); text only: ${textOnly}`,
        value: both,
        unit: "tokens",
        compare: `before: ${bt + bs + bl} (text ${bt} / structured ${bs} / links ${bl}); text only: ${bt}`,
        // Random ids (UUIDs) tokenise differently from run to run: a few tokens either way.
        target: "≤ before (+2% for ids); a page body in one part only",
        ok: both <= (bt + bs + bl) * 1.02,
      });
    }
  } finally {
    await client.close();
  }
  return rows;
}
