/**
 * `serp_search`: POST /v2/serp, organic results reduced to position/title/url/snippet. The
 * snippets are in the text only (a client forwarding both parts pays for them once);
 * `structuredContent` lists position, title and URL.
 * Parsed entities come keyed by type: `entities.OrganicResult[]` (the SDK's examples, both
 * generations) or `entities.organic` (the spec's reading); the other entity types are
 * summarised by type.
 */
import { z } from "zod";
import { SEARCH_ENGINES, type SerpResponse } from "../api/schemas.js";
import { clip, maxCharsArg } from "./result.js";
import { defineTool } from "./tool.js";

const resultItem = z.object({
  position: z.number(),
  title: z.string(),
  url: z.string(),
});
type Item = z.infer<typeof resultItem> & { snippet?: string };

/** Snippets are previews: cut at a word boundary so ten results stay small. */
const SNIPPET_CHARS = 140;
function shorten(text: string): string {
  if (text.length <= SNIPPET_CHARS) return text;
  const cut = text.slice(0, SNIPPET_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${(space > SNIPPET_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const entitiesOf = (response: SerpResponse): Record<string, unknown> => {
  const entities = (response.data.parsing as { entities?: unknown } | undefined)?.entities;
  return typeof entities === "object" && entities !== null && !Array.isArray(entities)
    ? (entities as Record<string, unknown>)
    : {};
};

/** The key of the organic results among the entity types: `OrganicResult`, `organic`, or the like. */
function organicKey(entities: Record<string, unknown>): string | undefined {
  if (Array.isArray(entities.OrganicResult)) return "OrganicResult";
  if (Array.isArray(entities.organic)) return "organic";
  return Object.keys(entities).find((k) => /^organic/i.test(k) && Array.isArray(entities[k]));
}

/** "RelatedSearch (4), TopStory (2)": the entity types besides the organic results, by count. */
function otherTypes(entities: Record<string, unknown>, skip: string | undefined): string {
  return Object.entries(entities)
    .filter(([k]) => k !== skip)
    .map(([k, v]) => (Array.isArray(v) ? `${k} (${v.length})` : k))
    .join(", ");
}

function organic(response: SerpResponse): Item[] {
  const entities = entitiesOf(response);
  const key = organicKey(entities);
  const list = key === undefined ? undefined : entities[key];
  if (!Array.isArray(list)) return [];
  return list.flatMap((raw, i) => {
    if (typeof raw !== "object" || raw === null) return [];
    const r = raw as Record<string, unknown>;
    if (typeof r.url !== "string" && typeof r.link !== "string") return [];
    const item: Item = {
      position: typeof r.position === "number" ? r.position : i + 1,
      title: typeof r.title === "string" ? r.title : "",
      url: (r.url ?? r.link) as string,
    };
    const snippet = r.snippet ?? r.description;
    if (typeof snippet === "string" && snippet) item.snippet = shorten(snippet.replace(/\s+/g, " ").trim());
    return [item];
  });
}

export const serpSearch = defineTool({
  name: "serp_search",
  title: "Search engine results",
  description: "Search results (title, URL, snippet) for a query; read the pages with extract_page.",
  toolset: "search",
  examples: [
    { search_engine: "engine1_search", query: "waterproof hiking boots", num_results: 5 },
    { search_engine: "engine1_search", query: "tent", country: "de", page: 2 },
  ],
  input: {
    search_engine: z.enum(SEARCH_ENGINES).describe("engine1_search: web search"),
    query: z.string().min(1).describe("What to search for"),
    country: z.string().length(2).optional().describe("ISO alpha-2"),
    device: z.enum(["desktop", "mobile"]).optional().describe("Results as seen on this device"),
    domain: z.string().default("com").describe("Engine TLD"),
    locale: z.string().optional().describe("Interface language, e.g. en-US"),
    location: z.string().optional().describe("Place the search is made from, e.g. a city"),
    num_results: z.number().int().min(1).max(100).optional().describe("Results per page"),
    page: z.number().int().min(1).optional().describe("Result page; 1 is the first"),
    parse: z.boolean().default(true).describe("Parse results into fields"),
    render: z.boolean().default(false).describe("Run JavaScript first (slower)"),
    resolve_url: z.boolean().default(false).describe("Follow redirect links to their final URL"),
    show_hidden_results: z.boolean().optional().describe("Include results the engine hides"),
    full: z.boolean().default(false).describe("Also other sections (ads, maps…)"),
    max_chars: maxCharsArg,
  },
  output: {
    task_id: z.string(),
    status: z.string(),
    results: z.array(resultItem),
    sections: z.record(z.string(), z.unknown()).optional(),
    chars: z.number().optional().describe("No parsed results: characters of the page text in the text"),
    warnings: z.array(z.string()).optional(),
  },
  readOnly: true,
  async handler(args, ctx) {
    const { full, max_chars, ...request } = args;
    const response = await ctx.client.serp(request, { signal: ctx.signal });
    const results = organic(response);
    const structured: {
      task_id: string;
      status: string;
      results: Item[];
      sections?: Record<string, unknown>;
      chars?: number;
      warnings?: string[];
    } = {
      task_id: response.task_id,
      status: response.status,
      results: results.map(({ snippet: _inText, ...listed }) => listed),
    };
    if (response.warnings?.length) structured.warnings = response.warnings;
    const label = request.query ? `"${request.query}"` : request.search_engine;
    const lines = [`${label} on ${request.search_engine} (${response.status}):`];
    for (const r of results) {
      lines.push(`${r.position}. ${r.title} — ${r.url}${r.snippet ? `\n   ${r.snippet}` : ""}`);
    }
    if (results.length === 0) {
      const body = response.data.markdown ?? response.data.html;
      if (body) {
        const part = clip(body, max_chars);
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
  },
});
