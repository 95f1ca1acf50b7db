/**
 * Agent search (POST /v2/search, generation 1 POST /v1/search): results drawn from the demo site
 * ranked like SERP, their content sized by `search_depth` (lite: none, fast: about 2,000
 * characters, deep: the whole page), filtered by `include_domains` / `exclude_domains`, and with
 * `include_answer` an answer built from the first results' descriptions, each sentence carrying a
 * `[n]` marker listed in `answer_citations` (0-based `result_index`). Dates and time ranges are
 * accepted and do not change the demo results (the site has no dates).
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { SearchRequestSchema } from "../../api/schemas-v2.js";
import { toMarkdown } from "../formats.js";
import { rankedPages } from "../serp.js";
import { renderPage, type SitePage } from "../site/pages.js";

type SearchRequest = z.output<typeof SearchRequestSchema>;

const FAST_CHARS = 2_000;
const DEFAULT_RESULTS = 3;

const hostOf = (url: string) => new URL(url).hostname;
const matchesDomain = (host: string, domain: string) =>
  host === domain.toLowerCase() || host.endsWith(`.${domain.toLowerCase()}`);

function content(page: SitePage, siteUrl: string, req: SearchRequest): string {
  const depth = req.search_depth ?? "lite";
  if (depth === "lite") return "";
  const html = renderPage(page, siteUrl);
  const full =
    req.output_format === "simplified_html"
      ? `<h1>${page.title}</h1>${page.body}`
      : req.output_format === "plain_text"
        ? page.body
            .replace(/<[^>]+>/g, " ")
            .replace(/\s+/g, " ")
            .trim()
        : toMarkdown(html);
  return depth === "fast" ? full.slice(0, FAST_CHARS) : full;
}

export function searchResponse(req: SearchRequest, siteUrl: string) {
  const wanted = req.max_results ?? DEFAULT_RESULTS;
  const pages = rankedPages(req.query).filter((p) => {
    const host = hostOf(`${siteUrl}${p.path}`);
    if (req.include_domains?.length && !req.include_domains.some((d) => matchesDomain(host, d))) return false;
    return !req.exclude_domains?.some((d) => matchesDomain(host, d));
  });
  const results = pages.slice(0, wanted).map((p, i) => ({
    url: `${siteUrl}${p.path}`,
    title: p.title,
    description: p.description,
    content: content(p, siteUrl, req),
    metadata: {
      position: i + 1,
      entity_type: "OrganicResult",
      country: req.country ?? "US",
      locale: req.locale ?? "en",
    },
  }));
  const answer = req.include_answer && results.length > 0 ? answerOf(req.query, results) : undefined;
  return {
    request_id: randomUUID(),
    total_results: results.length,
    results,
    ...(answer ?? {}),
  };
}

function answerOf(query: string, results: { title: string; description: string }[]) {
  const cited = results.slice(0, 3);
  const sentences = cited.map((r, i) => `${r.title}: ${r.description.replace(/\.$/, "")} [${i + 1}].`);
  return {
    answer: `On "${query}": ${sentences.join(" ")}`,
    answer_citations: cited.map((_, i) => ({ marker: i + 1, result_index: i })),
  };
}
