// Token benchmarks (run `npm run build` first): what a client that forwards a tool result to its
// model pays, per tool, counted with gpt-tokenizer (o200k). A client forwarding both parts
// (LangChain, Gemini's mcpToTool, Vercel AI SDK, Mastra) pays text + structured; a page body or a
// long list must not be in both (issue 22 item 3). BENCH_TOKENS_CLI points at another build (e.g.
// a checkout of an earlier commit) to measure "before".

import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { encode } from "gpt-tokenizer";

const CLI = process.env.BENCH_TOKENS_CLI ?? fileURLToPath(new URL("../dist/cli.js", import.meta.url));

/** Each call, and what it cost before issue 22 item 3 (text / structured, both forwarded). */
const CALLS = [
  { label: "extract_page", tool: "extract_page", args: { url: "https://example.com/" }, before: [169, 229] },
  {
    label: "extract_page (markdown + links)",
    tool: "extract_page",
    args: { url: "https://example.com/", formats: ["markdown", "links"] },
    before: [191, 252],
  },
  {
    label: "crawl_site (5 pages)",
    tool: "crawl_site",
    args: { url: "https://example.com/", limit: 5 },
    before: [966, 1086],
  },
  {
    label: "extract_batch (3 pages)",
    tool: "extract_batch",
    args: {
      inputs: [
        { url: "https://example.com/a" },
        { url: "https://example.com/b" },
        { url: "https://example.com/c" },
      ],
    },
    before: [619, 701],
  },
  {
    label: "serp_search (10 results)",
    tool: "serp_search",
    args: { search_engine: "engine1_search", query: "hiking boots", num_results: 10 },
    before: [675, 784],
  },
  {
    label: "check_domain_health (2 domains)",
    tool: "check_domain_health",
    args: { domains: ["example.com", "example.org"] },
    before: [35, 2704],
  },
  {
    label: "run_agent (product page)",
    tool: "run_agent",
    args: { agent: "ecommerce_product_page", params: { url: "https://shop.example.com/p/123" } },
    before: [160, 198],
  },
];

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
    env: getDefaultEnvironment(),
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-tokens", version: "1" });
  await client.connect(transport);
  const rows = [];
  try {
    for (const call of CALLS) {
      const result = await client.callTool({ name: call.tool, arguments: call.args });
      if (result.isError) throw new Error(`${call.label}: ${JSON.stringify(result.content)}`);
      const now = split(result);
      const total = now.text + now.structured + now.links;
      const [bt, bs] = call.before;
      rows.push({
        metric: `${call.label}: tokens forwarded (text ${now.text} / structured ${now.structured} / links ${now.links})`,
        value: total,
        unit: "tokens",
        compare: `before: ${bt + bs} (text ${bt} / structured ${bs})`,
        target: "≤ before; a page body in one part only",
        ok: total <= bt + bs,
      });
    }
  } finally {
    await client.close();
  }
  return rows;
}
