/**
 * `serp_search`: POST /v2/serp (`mode: "fast"`: POST /v2/fast-serp; `queries`: POST
 * /v2/serp/batch, see serp-batch.ts), organic results reduced to position/title/url/snippet. The
 * snippets are in the text only (a client forwarding both parts pays for them once);
 * `structuredContent` lists position, title and URL. Generation 1 has the same three routes
 * under /v1 (web-data-api-v2.md §18), except the plain SERP, which the spec serves at /v2/serp.
 */
import { z } from "zod";
import { buildOnce } from "../api/lazy-schema.js";
import { SEARCH_ENGINES } from "../api/schemas.js";
import { ToolError } from "./errors.js";
import { clip, maxCharsArg, resumeSchema } from "./result.js";
import { BATCH_MAX, queryItem, readSerpBatch, runSerpBatch } from "./serp-batch.js";
import {
  entitiesOf,
  organic,
  organicKey,
  otherTypes,
  resultItem,
  resultLines,
  type SerpItem,
} from "./serp-results.js";
import { defineTool, type ToolContext } from "./tool.js";

/** How one SERP query is run (the API's own fields): serp_search's and serp_search_async's. */
export const serpQueryOptions = buildOnce(() => ({
  country: z.string().length(2).optional().describe("ISO alpha-2"),
  device: z.enum(["desktop", "mobile"]).optional().describe("Device"),
  domain: z.string().default("com").describe("Engine TLD"),
  locale: z.string().optional().describe("Interface language, e.g. en-US"),
  location: z.string().optional().describe("Search from here, e.g. a city"),
  num_results: z.number().int().min(1).max(100).optional().describe("Results per page"),
  page: z.number().int().min(1).optional().describe("Result page"),
  parse: z.boolean().default(true).describe("Parse results into fields"),
  render: z.boolean().default(false).describe("Run JavaScript first (slower)"),
  resolve_url: z.boolean().default(false).describe("Resolve redirect links"),
  show_hidden_results: z.boolean().optional().describe("Include hidden results"),
}));

const input = () => ({
  search_engine: z.enum(SEARCH_ENGINES).describe("engine1_search: web search"),
  query: z.string().min(1).optional().describe("What to search for"),
  queries: z.array(z.string().min(1)).min(1).max(BATCH_MAX).optional().describe("Many searches at once"),
  batch_id: z.string().min(1).optional().describe("Resume a batch"),
  mode: z.enum(["normal", "fast"]).default("normal").describe("fast: lower latency"),
  ...serpQueryOptions(),
  full: z.boolean().default(false).describe("Also other sections (ads, maps…)"),
  max_chars: maxCharsArg(),
});
type Args = z.output<z.ZodObject<ReturnType<typeof input>>>;

/** Exactly one of query, queries, batch_id; fast mode is one query (no fast batch route). */
function checkCombination(args: Args): void {
  const given = (["query", "queries", "batch_id"] as const).filter((k) => args[k] !== undefined);
  if (given.length !== 1) {
    throw new ToolError(
      "invalid_argument",
      `serp_search takes exactly one of query (one search), queries (many at once, as a batch) or batch_id (resume a batch); got ${given.length === 0 ? "none" : given.join(", ")}.`,
      { fields: ["query", "queries", "batch_id"] },
    );
  }
  if (args.mode === "fast" && given[0] !== "query") {
    throw new ToolError(
      "invalid_argument",
      'serp_search mode "fast" takes one query; for many, leave mode out and give queries.',
      { fields: ["mode", given[0]] },
    );
  }
}

async function searchOnce(args: Args, ctx: ToolContext) {
  const { full, max_chars, queries: _q, batch_id: _b, mode, ...request } = args;
  const send = mode === "fast" ? ctx.client.fastSerp : ctx.client.serp;
  const response = await send.call(ctx.client, request, { signal: ctx.signal });
  const results: SerpItem[] = organic(response);
  const structured: {
    task_id: string;
    status: string;
    results: SerpItem[];
    sections?: Record<string, unknown>;
    content?: string;
    chars?: number;
    warnings?: string[];
  } = {
    task_id: response.task_id,
    status: response.status,
    results: results.map(({ snippet: _inText, ...listed }) => listed),
  };
  if (response.warnings?.length) structured.warnings = response.warnings;
  const label = request.query ? `"${request.query}"` : request.search_engine;
  const lines = [`${label} on ${request.search_engine} (${response.status}):`, ...resultLines(results)];
  if (results.length === 0) {
    const body = response.data.markdown ?? response.data.html;
    if (body) {
      const part = clip(body, max_chars);
      structured.content = part.text;
      structured.chars = part.text.length;
      lines.push("No parsed results; page text:", part.text);
    } else {
      lines.push("No results.");
    }
  }
  const entities = entitiesOf(response);
  const key = organicKey(entities);
  if (full) {
    const rest = Object.fromEntries(Object.entries(entities).filter(([k]) => k !== key));
    const json = JSON.stringify(rest);
    if (json.length <= max_chars) structured.sections = rest;
    lines.push("", `Other sections: ${Object.keys(rest).join(", ") || "none"}`, clip(json, max_chars).text);
  } else if (results.length > 0 && otherTypes(entities, key)) {
    lines.push(`Also parsed: ${otherTypes(entities, key)} (full: true shows them).`);
  }
  if (structured.warnings) lines.push("", `Warnings: ${structured.warnings.join("; ")}`);
  return { structured, text: lines.join("\n") };
}

export const serpSearch = defineTool({
  name: "serp_search",
  title: "Search engine results",
  description:
    "Search engine results (title, URL, snippet) for one query or many; read pages with extract_page.",
  toolset: "search",
  routes: ["serp", "fastSerp", "serpBatch"],
  examples: [
    { search_engine: "engine1_search", query: "waterproof hiking boots", num_results: 5 },
    { search_engine: "engine1_search", queries: ["tent", "sleeping bag"], num_results: 3 },
  ],
  input,
  output: () => ({
    task_id: z.string().optional(),
    status: z.string().describe("The SERP status; a batch: done or pending"),
    results: z.array(resultItem().extend({ query: z.string().optional() })).optional(),
    sections: z.record(z.string(), z.unknown()).optional(),
    content: z.string().optional().describe("No parsed results: the page text, as in the text"),
    chars: z.number().optional().describe("Characters of content"),
    warnings: z.array(z.string()).optional(),
    batch_id: z.string().optional(),
    state: z.string().optional(),
    resume: resumeSchema().optional(),
    total: z.number().optional(),
    completed: z.number().optional(),
    queries: z.array(queryItem()).optional(),
  }),
  readOnly: true,
  async handler(args, ctx) {
    checkCombination(args);
    if (args.batch_id !== undefined) return readSerpBatch(args.batch_id, args.max_chars, ctx);
    if (args.queries !== undefined) {
      const { full: _f, max_chars, queries, batch_id: _b, mode: _m, query: _q, ...shared } = args;
      return runSerpBatch(queries, shared, max_chars, ctx);
    }
    return searchOnce(args, ctx);
  },
});
