/** `web_search`: POST /v2/search (generation 1 /v1/search), the agent's everyday web search. */
import { z } from "zod";
import { SEARCH_DEPTHS, SEARCH_FOCUS, type SearchResponse, TIME_RANGES } from "../api/schemas-v2.js";
import { clip, maxCharsArg } from "./result.js";
import { defineTool } from "./tool.js";

const result = () =>
  z.object({
    index: z.number(),
    url: z.string(),
    title: z.string(),
    description: z.string().optional(),
    content: z.string().optional(),
  });
type Result = z.infer<ReturnType<typeof result>>;
const citation = () => z.object({ marker: z.number(), url: z.string(), title: z.string() });

/** The answer's `[n]` markers resolved to the results they point at (unknown indexes dropped). */
function citations(response: SearchResponse) {
  return (response.answer_citations ?? []).flatMap((c) => {
    const r = response.results[c.result_index];
    return r ? [{ marker: c.marker, url: r.url, title: r.title ?? r.url }] : [];
  });
}

/** Each result's content, in order, while the max_chars budget lasts; later contents are cut. */
function sized(response: SearchResponse, maxChars: number): { results: Result[]; cut: boolean } {
  let left = maxChars;
  let cut = false;
  const results = response.results.map((r, index) => {
    const item: Result = { index, url: r.url, title: r.title ?? r.url };
    if (r.description) item.description = r.description;
    if (r.content) {
      const part = clip(r.content, Math.max(0, left));
      if (part.text) item.content = part.text;
      if (part.next_offset !== undefined) cut = true;
      left -= part.text.length;
    }
    return item;
  });
  return { results, cut };
}

export const webSearch = defineTool({
  name: "web_search",
  title: "Web search",
  description:
    "Search the web: results with page content, optionally a cited answer. Prefer it to serp_search + extract_page.",
  toolset: "search",
  routes: ["search"],
  examples: [
    { query: "waterproof hiking boots", include_answer: true },
    { query: "tent", search_depth: "fast", max_results: 5 },
  ],
  input: () => ({
    query: z.string().min(1).max(2000).describe("A question or keywords"),
    focus: z
      .string()
      .optional()
      .describe(`${SEARCH_FOCUS.join("|")}, or comma-separated site subagents`),
    search_depth: z
      .enum(SEARCH_DEPTHS)
      .default("lite")
      .describe("fast: ~2K chars of content; deep: whole pages"),
    include_answer: z.boolean().default(false).describe("Add a cited answer"),
    max_results: z.number().int().min(1).max(20).default(5).describe("Results"),
    include_domains: z.array(z.string()).max(50).optional().describe("Only these domains"),
    exclude_domains: z.array(z.string()).max(50).optional().describe("Not these domains"),
    time_range: z.enum(TIME_RANGES).optional().describe("Published within the last"),
    start_date: z.string().optional().describe("YYYY-MM-DD"),
    end_date: z.string().optional().describe("YYYY-MM-DD"),
    country: z.string().optional().describe("e.g. US, GB"),
    locale: z.string().optional().describe("Language, e.g. en"),
    output_format: z
      .enum(["markdown", "plain_text", "simplified_html"])
      .optional()
      .describe("Content format"),
    max_chars: maxCharsArg(),
  }),
  output: () => ({
    answer: z.string().optional(),
    citations: z.array(citation()).optional(),
    results: z.array(result()),
    truncated: z.boolean().optional(),
  }),
  readOnly: true,
  async handler(args, ctx) {
    const { max_chars, focus, ...rest } = args;
    const sites =
      focus
        ?.split(",")
        .map((f) => f.trim())
        .filter(Boolean) ?? [];
    const request = {
      ...rest,
      ...(focus
        ? {
            focus:
              sites.length === 1 && (SEARCH_FOCUS as readonly string[]).includes(sites[0]) ? sites[0] : sites,
          }
        : {}),
    };
    const response = await ctx.client.search(request, { signal: ctx.signal });
    const { results, cut } = sized(response, max_chars);
    const cited = citations(response);
    const structured = {
      ...(response.answer ? { answer: response.answer, citations: cited } : {}),
      results,
      ...(cut ? { truncated: true } : {}),
    };
    const lines: string[] = [];
    if (response.answer) {
      lines.push(
        `Answer: ${response.answer}`,
        ...cited.map((c) => `[${c.marker}] ${c.title} — ${c.url}`),
        "",
      );
    }
    lines.push(`${results.length} result${results.length === 1 ? "" : "s"} for "${args.query}":`);
    for (const r of results) {
      lines.push(`${r.index + 1}. ${r.title} — ${r.url}${r.description ? `\n   ${r.description}` : ""}`);
      if (r.content) lines.push(r.content, "");
    }
    if (cut)
      lines.push(`(Contents cut at max_chars=${max_chars}; raise it or read one page with extract_page.)`);
    return { structured, text: lines.join("\n") };
  },
});
